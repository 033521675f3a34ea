import { z } from 'zod';
import { alarmSettingsVariable, parseAlarmSettings, type AlarmSettings } from '@vitalis/clinical';
import {
  boolean,
  exportShape,
  infraShape,
  lifecycleShape,
  migrationShape,
  positiveInt,
  probeServerShape,
  metricsShape,
  vitalsClockShape,
} from '@vitalis/config';

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
  /**
   * The site's alarm settings (libs/clinical/src/alarms.ts, `parseAlarmSettings`): a JSON document
   * of overrides, unset or empty for the defaults, the same variable the gateway and the ingest
   * read. The projector takes from it the escalation recipient and the device-disconnected
   * condition (its onset delay, priority, latching) and the escalation times of the watchdog's
   * raises. A bad document stops the start naming it.
   */
  VITALIS_ALARMS: alarmSettingsVariable,
  /** Escalate unacknowledged alarms past their due time (issue 31). Off only where another process does, or for a process that must not act on a shared database's alarms (a test). */
  ALARM_ESCALATION: boolean(true),
  /** How often the alarm escalator looks for unacknowledged alarms past their due time. */
  ALARM_ESCALATION_INTERVAL_MS: positiveInt(2_000),
  /** Raise device-disconnect alarms (issue 31). Off: no "no data from the monitor" alarm at all (say so to the ward), or a test process on a shared database. */
  DEVICE_WATCHDOG: boolean(true),
  /** How often the device-disconnect watchdog looks for monitors that stopped sending. */
  DEVICE_WATCHDOG_INTERVAL_MS: positiveInt(2_000),
  /** A device is watched this long (effective time) after its last reading; longer silent, it is no longer expected (at least twice the disconnect delay). */
  DEVICE_WATCHDOG_WINDOW_SECONDS: positiveInt(600),
};

/** The projector's probe server port when PROBE_PORT is unset in production (docs/operations.md). */
export const PROJECTOR_PROBE_PORT = 8092;

export type ProjectorConfig = z.infer<z.ZodObject<typeof projectorConfigShape>>;

/** The alarm settings of a parsed configuration (VITALIS_ALARMS applied to the defaults; the shape has validated it). */
export const projectorAlarms = (config: Pick<ProjectorConfig, 'VITALIS_ALARMS'>): AlarmSettings =>
  parseAlarmSettings(config.VITALIS_ALARMS);
