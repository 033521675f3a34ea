import { z } from 'zod';
import { exportShape, infraShape, lifecycleShape, migrationShape, positiveInt, probeServerShape, metricsShape, vitalsClockShape } from '@vitalis/config';

export const projectorConfigShape = {
  ...infraShape,
  ...lifecycleShape,
  /** The FHIR Bulk Data export worker (docs/export.md). */
  ...exportShape,
  ...probeServerShape,
  /** Only `main.ts rebuild` uses the owner's connection (it swaps tables); the jobs run as DATABASE_URL. */
  ...migrationShape,
  DATABASE_POOL_MAX: positiveInt(4),
  ...metricsShape(9466),
  /** VITALS_RETENTION_DAYS: raw vitals older than this many days are dropped (whole daily partitions; rollups are kept). */
  ...vitalsClockShape,
  /** Daily partitions created ahead of today. */
  VITALS_PARTITIONS_AHEAD_DAYS: positiveInt(7),
  MAINTENANCE_INTERVAL_MS: positiveInt(3_600_000),
  ROLLUP_INTERVAL_MS: positiveInt(10_000),
  /** Rows ingested less than this long ago wait for the next run (a margin on top of the open-transaction bound). */
  ROLLUP_SAFE_LAG_MS: positiveInt(5_000),
  /** Most ingestion time one rollup run covers. */
  ROLLUP_MAX_WINDOW_MS: positiveInt(3_600_000),
  /** How often each event-store projection polls for new events. */
  PROJECTION_INTERVAL_MS: positiveInt(250),
  /** How often the escalator looks for unacknowledged critical results past their due time (issue 21). */
  DIAGNOSTICS_ESCALATION_INTERVAL_MS: positiveInt(1_000),
};

/** The projector's probe server port when PROBE_PORT is unset in production (docs/operations.md). */
export const PROJECTOR_PROBE_PORT = 8092;

export type ProjectorConfig = z.infer<z.ZodObject<typeof projectorConfigShape>>;
