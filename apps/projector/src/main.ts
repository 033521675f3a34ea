/**
 * vitalis-projector: runs the background jobs: vitals rollups (1 min / 1 h), append-log
 * maintenance (partitions ahead, retention), the event-store projections, the diagnostics jobs,
 * the bedside-alarm jobs (escalation, the device-disconnect watchdog) and the FHIR Bulk Data
 * export worker (exports.ts).
 */
import { loadConfig, metricsListenerAddress, probeServerAddress, shutdownTimings } from '@vitalis/config';
import { createPool, requireAppDatabase, pendingMigrations } from '@vitalis/db';
import { createLogger } from '@vitalis/log';
import { createAlarmMetrics, createRegistry, observePool, observeProjections, startMetricsServer } from '@vitalis/metrics';
import { createReadiness, logDependencyChanges, onShutdown, startAppProbes } from '@vitalis/runtime';
import { PROJECTOR_PROBE_PORT, projectorAlarms, projectorConfigShape } from './config';
import { runJobs, type Job } from './jobs';
import { maintainPartitions } from './maintenance';
import { projectorRunsRollups, runRollups } from './rollups';
import { PROJECTIONS } from './projections/definitions';
import { catchUp, projectionNamed, projectionPositions, rebuild } from './projections/runner';
import { listenForEvents, listenOnChannel } from '@vitalis/eventstore';
import { EXPORT_CHANNEL } from '@vitalis/export';
import { createRedis } from '@vitalis/redis';
import { escalateDueCriticalResults } from './diagnostics-escalation';
import { proposeTestsForAlerts } from './diagnostics-proposals';
import { exportJobs } from './exports';
import { escalateDueAlarms } from './alarm-escalation';
import { readAlarmFigures } from './alarm-metrics';
import { createDeviceWatchdog } from './device-watchdog';

const config = loadConfig('projector', projectorConfigShape, (c) => ({ ...c, shutdown: shutdownTimings(c), alarms: projectorAlarms(c) }));
const logger = createLogger('projector', config.LOG_LEVEL);
// `main.ts rebuild <projection|all>`: replay from zero into fresh tables, swap, exit. It creates,
// renames and drops tables, so it is an operator's command run with the owner's credentials
// (MIGRATION_DATABASE_URL); the tables it creates get the app role's grants by default (migration 0013).
if (process.argv[2] === 'rebuild') {
  const owner = createPool({ url: config.MIGRATION_DATABASE_URL, max: 2, application: 'vitalis-projector-rebuild' });
  const pending = await pendingMigrations(owner);
  if (pending.length > 0) {
    logger.error({ pending: pending.map((m) => `${m.version}_${m.name}`) }, 'migrations pending: run npm run migrate first');
    process.exit(1);
  }
  const names = process.argv[3] === 'all' || !process.argv[3] ? PROJECTIONS.map((p) => p.name) : [process.argv[3]];
  for (const name of names) {
    const projection = projectionNamed(name);
    if (!projection) {
      logger.error({ name, known: PROJECTIONS.map((p) => p.name) }, 'unknown projection');
      process.exit(2);
    }
    const result = await rebuild(owner, projection);
    logger.info({ projection: name, ...result }, 'projection rebuilt and swapped in');
  }
  await owner.end();
  process.exit(0);
}

const pool = createPool({ url: config.DATABASE_URL, max: config.DATABASE_POOL_MAX, application: 'vitalis-projector' });
// The migration step (npm run migrate, as the owner) ran before; this app only checks it did.
await requireAppDatabase(pool, 'projector', { production: config.NODE_ENV === 'production', warn: (message) => logger.warn(message) });
// The escalators and the watchdog publish their notices on the live fan-out (Redis); it connects lazily.
const redis = createRedis({ url: config.REDIS_URL, name: 'vitalis-projector' });

const rollupJob: Job = {
  name: 'vitals-rollups',
  intervalMs: config.ROLLUP_INTERVAL_MS,
  run: async () => {
    const result = await runRollups(pool, { safeLagMs: config.ROLLUP_SAFE_LAG_MS, maxWindowMs: config.ROLLUP_MAX_WINDOW_MS });
    return result && result.minutes > 0 ? { ...result } : undefined;
  },
};
// On TimescaleDB the continuous aggregates (migration 0018, refreshed by TimescaleDB's own jobs) serve the buckets.
const rollups = await projectorRunsRollups(pool);
if (!rollups) logger.info('TimescaleDB: continuous aggregates serve the 1 min / 1 h buckets; the rollup job is off');
// Ready while PostgreSQL answers (Redis only carries the escalator's notices, which the board also shows).
const readiness = createReadiness({
  timeoutMs: config.READINESS_TIMEOUT_MS,
  schemaCurrent: async () => (await pendingMigrations(pool)).length === 0,
  dependencies: [{ name: 'postgres', probe: () => pool.query('SELECT 1') }],
  onChecks: logDependencyChanges(logger),
});
const probes = await startAppProbes({ address: probeServerAddress(config, PROJECTOR_PROBE_PORT), readiness, logger });

const registry = createRegistry('projector');
observePool(registry, pool);
observeProjections(registry, () => projectionPositions(pool));
const watchdog = createDeviceWatchdog(pool, redis, config.alarms, { windowSeconds: config.DEVICE_WATCHDOG_WINDOW_SECONDS });
const alarmMetrics = createAlarmMetrics(registry, () => readAlarmFigures(pool, watchdog.beds()));
const metricsAddress = metricsListenerAddress(config);
const metricsServer = metricsAddress ? await startMetricsServer(registry, metricsAddress) : undefined;
if (metricsServer) logger.info({ url: metricsServer.url }, 'metrics listening');

const alarmEscalationJob: Job = {
  name: 'alarm-escalation',
  intervalMs: config.ALARM_ESCALATION_INTERVAL_MS,
  run: async () => {
    const result = await escalateDueAlarms(pool, redis, config.alarms, { onEscalated: (priority) => alarmMetrics.escalated(priority) });
    return result.escalated.length > 0 ? { escalated: result.escalated.length } : undefined;
  },
};
const watchdogJob: Job = {
  name: 'device-watchdog',
  intervalMs: config.DEVICE_WATCHDOG_INTERVAL_MS,
  run: async () => {
    const result = await watchdog.run();
    return result.raised + result.cleared > 0 ? { raised: result.raised, cleared: result.cleared, devices: result.devices } : undefined;
  },
};
if (!config.DEVICE_WATCHDOG) logger.warn('DEVICE_WATCHDOG=false: no device-disconnect alarms are raised');

const exportWorker = exportJobs(pool, config);
const jobs: Job[] = [
  {
    name: 'vitals-maintenance',
    intervalMs: config.MAINTENANCE_INTERVAL_MS,
    run: () => maintainPartitions(pool, { retentionDays: config.VITALS_RETENTION_DAYS, daysAhead: config.VITALS_PARTITIONS_AHEAD_DAYS }),
  },
  ...(rollups ? [rollupJob] : []),
  {
    name: 'diagnostics-escalation',
    intervalMs: config.DIAGNOSTICS_ESCALATION_INTERVAL_MS,
    run: async () => {
      const result = await escalateDueCriticalResults(pool, redis);
      return result.escalated.length > 0 ? { escalated: result.escalated } : undefined;
    },
  },
  ...(config.ALARM_ESCALATION ? [alarmEscalationJob] : []),
  ...(config.DEVICE_WATCHDOG ? [watchdogJob] : []),
  {
    name: 'diagnostics-alert-proposals',
    intervalMs: config.PROJECTION_INTERVAL_MS,
    run: async () => {
      const result = await proposeTestsForAlerts(pool);
      return result.events > 0 ? { ...result } : undefined;
    },
  },
  ...exportWorker.jobs,
  ...PROJECTIONS.map((projection) => ({
    name: `projection-${projection.name}`,
    intervalMs: config.PROJECTION_INTERVAL_MS,
    run: async () => {
      const result = await catchUp(pool, projection);
      return result.events > 0 ? { ...result } : undefined;
    },
  })),
];

const runner = runJobs(jobs, logger);
// New events wake the projections at once (NOTIFY from migration 0007); the interval is the net.
// A run already in progress is not doubled; a wake-up during it is covered by the next tick.
const projectionJobs = [...PROJECTIONS.map((p) => `projection-${p.name}`), 'diagnostics-alert-proposals'];
const listener = listenForEvents(
  pool,
  () => runner.runNow(projectionJobs),
  (err) => logger.warn({ err }, 'event listener lost; reconnecting'),
);
// a kick-off wakes the export worker at once (EXPORT_POLL_INTERVAL_MS stays the net)
const exportListener = listenOnChannel(
  pool,
  EXPORT_CHANNEL,
  () => runner.runNow(['bulk-export']),
  (err) => logger.warn({ err }, 'export listener lost; reconnecting'),
);
logger.info({ jobs: jobs.map((j) => j.name), retentionDays: config.VITALS_RETENTION_DAYS }, 'projector running');
onShutdown({
  logger,
  readiness,
  ...config.shutdown,
  steps: [
    { name: 'event listener', run: () => listener.stop() },
    { name: 'export listener', run: () => exportListener.stop() },
    { name: 'exports: a running one hands its job back', run: async () => exportWorker.stop() },
    { name: 'jobs: the running ones finish', run: () => runner.stop() },
    { name: 'postgres', run: () => pool.end() },
    { name: 'redis', run: async () => redis.disconnect() },
    { name: 'metrics', run: async () => metricsServer?.close() },
    { name: 'probes', run: () => probes.close() },
  ],
});
