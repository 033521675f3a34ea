/**
 * The export worker alone (`node --import tsx apps/projector/src/exports-main.ts`): the projector's
 * `bulk-export` and `bulk-export-expiry` jobs without the others. The crash test kills it with
 * SIGKILL mid-export; an operator may run it apart to scale exports on their own hosts.
 */
import { loadConfig } from '@vitalis/config';
import { createPool, pendingMigrations, requireAppDatabase } from '@vitalis/db';
import { createLogger } from '@vitalis/log';
import { listenOnChannel } from '@vitalis/eventstore';
import { EXPORT_CHANNEL } from '@vitalis/export';
import { onShutdown, createReadiness } from '@vitalis/runtime';
import { projectorConfigShape } from './config';
import { runJobs } from './jobs';
import { exportJobs } from './exports';

const config = loadConfig('export-worker', projectorConfigShape);
const logger = createLogger('export-worker', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, max: 3, application: 'vitalis-export-worker' });
await requireAppDatabase(pool, 'export-worker', { production: config.NODE_ENV === 'production', warn: (message) => logger.warn(message) });
const exportWorker = exportJobs(pool, config);
const runner = runJobs(exportWorker.jobs, logger);
const listener = listenOnChannel(
  pool,
  EXPORT_CHANNEL,
  () => runner.runNow(['bulk-export']),
  (err) => logger.warn({ err }, 'export listener lost; reconnecting'),
);
logger.info('export worker running');
onShutdown({
  logger,
  readiness: createReadiness({
    timeoutMs: config.READINESS_TIMEOUT_MS,
    schemaCurrent: async () => (await pendingMigrations(pool)).length === 0,
    dependencies: [],
    onChecks: () => {},
  }),
  drainMs: 0,
  graceMs: config.SHUTDOWN_GRACE_SECONDS * 1_000,
  steps: [
    { name: 'export listener', run: () => listener.stop() },
    { name: 'exports: a running one hands its job back', run: async () => exportWorker.stop() },
    { name: 'jobs: the running ones finish', run: () => runner.stop() },
    { name: 'postgres', run: () => pool.end() },
  ],
});
