/**
 * vitalis-projector: runs the background jobs. Today: vitals rollups (1 min / 1 h) and append-log
 * maintenance (partitions ahead, retention). Event-store projections (issue 5) join the list.
 */
import { loadConfig } from '@vitalis/config';
import { createPool, migrate } from '@vitalis/db';
import { createLogger } from '@vitalis/log';
import { onShutdown } from '@vitalis/runtime';
import { projectorConfigShape } from './config';
import { runJobs, type Job } from './jobs';
import { maintainPartitions } from './maintenance';
import { runRollups } from './rollups';

const config = loadConfig('projector', projectorConfigShape);
const logger = createLogger('projector', config.LOG_LEVEL);
const pool = createPool({ url: config.DATABASE_URL, max: config.DATABASE_POOL_MAX, application: 'vitalis-projector' });
await migrate(pool);

const jobs: Job[] = [
  {
    name: 'vitals-maintenance',
    intervalMs: config.MAINTENANCE_INTERVAL_MS,
    run: () => maintainPartitions(pool, { retentionDays: config.VITALS_RETENTION_DAYS, daysAhead: config.VITALS_PARTITIONS_AHEAD_DAYS }),
  },
  {
    name: 'vitals-rollups',
    intervalMs: config.ROLLUP_INTERVAL_MS,
    run: async () => {
      const result = await runRollups(pool, { safeLagMs: config.ROLLUP_SAFE_LAG_MS, maxWindowMs: config.ROLLUP_MAX_WINDOW_MS });
      return result && result.minutes > 0 ? { ...result } : undefined;
    },
  },
];

const runner = runJobs(jobs, logger);
logger.info({ jobs: jobs.map((j) => j.name), retentionDays: config.VITALS_RETENTION_DAYS }, 'projector running');
onShutdown(logger, [() => runner.stop(), () => pool.end()]);
