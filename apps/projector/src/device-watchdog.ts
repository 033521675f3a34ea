/**
 * The device-disconnect watchdog (issue 31): the technical alarm "no data from the monitor"
 * (IEC 60601-1-8: the patient is not being monitored), the one alarm no observation can raise,
 * since it is about observations that do not come. Every DEVICE_WATCHDOG_INTERVAL_MS it reads, per
 * (patient, device) that sent data in the last window (DEVICE_WATCHDOG_WINDOW_SECONDS of effective
 * time), its newest reading's effective time and when the newest of its rows was stored, and:
 *
 *  - raises `device-disconnected` for a device nothing was stored from for the condition's onset
 *    delay (`conditions['device-disconnected'].onsetDelaySeconds`, 30 s by default), unless the
 *    patient already has an open device-disconnected alarm (the alarm fold keeps one open alarm per
 *    rule and patient). Priority and latching come from the settings, due_at from escalationDueAt
 *    counted from the moment the watchdog confirmed it; triggered_by names the device and its last
 *    reading's effective time, from which the alarm's id is derived (alertEventId), so a second
 *    watchdog or a retry can never raise it twice;
 *  - clears it when that device's readings arrive again (a reading newer than the one it names).
 *    Which alarms are open comes from the read model (rm_alarms, a fraction of a second behind the
 *    log), and each raise or clear is decided again on the patient's stream before it is appended.
 *
 * The pipeline-stall rule: when nothing at all was stored for the delay (the newest stored row of
 * ALL patients is older than it), the pipeline is stalled, not the devices: no alarm is raised
 * (the gateway's health, the VitalisVitalsDataDelayed alert and the cards' "data delayed" banner
 * cover that). A stall of some partitions only is not a stall by this rule: their patients' alarms
 * are raised, and they say the truth a clinician needs, no data from that monitor is arriving.
 *
 * Silence is measured on the database's clock by when rows were STORED (ingested_at), not by the
 * device clock (effective_at): a device whose clock runs up to VITALS_MAX_CLOCK_SKEW_SECONDS slow
 * would otherwise look silent for ever, and a backlog the ingest catches up on after a stall is
 * data arriving, not a disconnect. The message and the id use the device's own reading time.
 *
 * Raises and clears are commands on the patient's alert stream (DISCONNECT_DECIDER, through the
 * command handler, @vitalis/eventstore handleCommand, ADR 0024). Appends go at the folded stream version (the decision, "no open device-disconnected alarm" or
 * "this device's alarm is open", is exact on the state it is appended after; a concurrent append to
 * the patient's stream, e.g. the ingest raising a physiological alarm, conflicts and the next run
 * decides again), with the deterministic event id besides (DuplicateEventError: already there).
 * One watchdog at a time across projector instances: a session advisory lock, tried; the run
 * reads and appends on that one connection. Each raise and clear is published live
 * (publishAlarmNotice) after its commit.
 */
import { must } from '@vitalis/runtime';
import { alarmSettings, escalationDueAt, type AlarmSettings } from '@vitalis/clinical';
import type { Pool, PoolClient } from '@vitalis/db';
import { ConcurrencyError, DuplicateEventError, handleCommand, inTransaction, type Decider, type Decision } from '@vitalis/eventstore';
import { alertEventId, alertStream, publishAlarmNotice, type AlertData } from '@vitalis/live';
import {
  ALARM_EVENTS,
  PATIENT_ALARMS_DECIDER,
  type AlarmClearedData,
  type AlarmEvent,
  type AlarmRaisedData,
  type PatientAlarms,
} from '@vitalis/records';
import type { Redis } from '@vitalis/redis';
import { withTriedLock } from './tried-lock';

export const DISCONNECT_RULE = 'device-disconnected';
const LOCK = 'vitalis-device-watchdog';

/** One (patient, device) of the window. */
export interface DeviceSeen {
  patientId: string;
  deviceId: string;
  /** Its newest reading's effective time (device clock). */
  lastAt: Date;
  /** When the newest of its rows was stored (database clock). */
  lastStoredAt: Date;
}

/** An open device-disconnected alarm as the read model has it (a hint: the stream's fold decides). */
export interface OpenDisconnect {
  alarmId: string;
  patientId: string;
  deviceId: string;
  /** The last reading before the silence (triggered_by.effective_at of the raise). */
  since: Date;
}

export interface WatchdogPlan {
  /** Nothing stored from any device for the delay: the pipeline, not the devices (no raise). */
  stalled: boolean;
  raise: DeviceSeen[];
  clear: { alarm: OpenDisconnect; reading: DeviceSeen }[];
}

/**
 * What to raise and clear (pure). `now` is the database's clock, like `lastStoredAt`. One raise
 * per patient at most (the fold's one open alarm per rule): of its silent devices, the one silent
 * longest (then by device id); none for a patient with an open alarm.
 */
export function planWatchdog(seen: readonly DeviceSeen[], open: readonly OpenDisconnect[], now: Date, delaySeconds: number): WatchdogPlan {
  const silentBefore = now.getTime() - delaySeconds * 1_000;
  const newestStored = Math.max(...seen.map((d) => d.lastStoredAt.getTime()));
  const stalled = seen.length > 0 && newestStored < silentBefore;
  const byDevice = new Map(seen.map((d) => [`${d.patientId}\u0000${d.deviceId}`, d]));
  const clear: WatchdogPlan['clear'] = [];
  for (const alarm of open) {
    const reading = byDevice.get(`${alarm.patientId}\u0000${alarm.deviceId}`);
    if (reading && reading.lastAt.getTime() > alarm.since.getTime()) clear.push({ alarm, reading });
  }
  const alarmed = new Set(open.map((a) => a.patientId));
  const raise = new Map<string, DeviceSeen>();
  if (!stalled) {
    for (const d of seen) {
      if (d.lastStoredAt.getTime() >= silentBefore || alarmed.has(d.patientId)) continue;
      const other = raise.get(d.patientId);
      if (!other || d.lastAt < other.lastAt || (d.lastAt.getTime() === other.lastAt.getTime() && d.deviceId < other.deviceId))
        raise.set(d.patientId, d);
    }
  }
  return { stalled, raise: [...raise.values()], clear };
}

/** HH:MM:SS (24-hour, UTC: the message is stored once and read anywhere; the cards show times in their own zone). */
const clock = (d: Date) => `${d.toISOString().slice(11, 19)} UTC`;

/** The raise for a silent device, its id derived from patient, device and last reading (alertEventId). */
export function disconnectRaise(settings: AlarmSettings, d: DeviceSeen, now: Date): AlarmRaisedData {
  const c = settings.conditions[DISCONNECT_RULE];
  const triggered_by = { device_id: d.deviceId, seq: 0, effective_at: d.lastAt.toISOString() };
  return {
    alert_id: alertEventId({ patient_id: d.patientId, rule: DISCONNECT_RULE, state: 'raised', triggered_by } as AlertData),
    rule: DISCONNECT_RULE,
    state: 'raised',
    patient_id: d.patientId,
    priority: c.priority,
    kind: 'technical',
    latching: c.latching,
    message: `No data from monitor ${d.deviceId} since ${clock(d.lastAt)}`,
    value: Math.max(0, Math.round((now.getTime() - d.lastAt.getTime()) / 1_000)),
    due_at: escalationDueAt(settings, c.priority, now.toISOString()),
    triggered_by,
  };
}

/** The clear when the device's readings arrive again; value: the gap in seconds. */
export function disconnectClear(
  alarm: Pick<OpenDisconnect, 'alarmId' | 'patientId' | 'deviceId' | 'since'>,
  reading: Pick<DeviceSeen, 'lastAt'>,
): AlarmClearedData {
  return {
    alert_id: alarm.alarmId,
    rule: DISCONNECT_RULE,
    state: 'cleared',
    patient_id: alarm.patientId,
    message: `Data from monitor ${alarm.deviceId} again since ${clock(reading.lastAt)}`,
    value: Math.max(0, Math.round((reading.lastAt.getTime() - alarm.since.getTime()) / 1_000)),
    triggered_by: { device_id: alarm.deviceId, effective_at: reading.lastAt.toISOString() },
  };
}

/** The event id of a clear: from patient, device and the reading that ended the silence. */
const clearEventId = (c: AlarmClearedData) =>
  alertEventId({ patient_id: c.patient_id, rule: c.rule, state: 'cleared', triggered_by: { ...c.triggered_by, seq: 0 } } as AlertData);

/**
 * Per (patient, device): its newest reading's effective time and its newest row's storage time,
 * over the rows whose effective time is after $1 and, for a slice, that were stored after $2.
 * The effective-time bound prunes the append log's partitions (or chunks) to the last one or two;
 * a slice reads the newest pages through the BRIN index on ingested_at (migration 0004).
 */
const SEEN_SQL = {
  full: `SELECT patient_id, device_id, max(effective_at) AS last_at, max(ingested_at) AS last_stored_at
           FROM vitals_observations WHERE effective_at > $1 GROUP BY patient_id, device_id`,
  slice: `SELECT patient_id, device_id, max(effective_at) AS last_at, max(ingested_at) AS last_stored_at
            FROM vitals_observations WHERE effective_at > $1 AND ingested_at > $2 GROUP BY patient_id, device_id`,
} as const;

const OPEN_SQL = `
  SELECT alarm_id, patient_id, device_id, condition_since FROM rm_alarms
   WHERE rule = $1 AND state IN ('raised', 'acknowledged') AND condition_ended_at IS NULL`;

export interface WatchdogRun {
  skipped: boolean;
  stalled: boolean;
  raised: number;
  cleared: number;
  /** (patient, device) pairs in the window. */
  devices: number;
  /** Which scan this run made. */
  scan?: 'full' | 'slice';
}

export interface WatchdogOptions {
  /** Seconds of effective time a device stays watched after its last reading (at least twice the delay). */
  windowSeconds?: number;
  /** A slice re-reads rows stored this long before the previous scan (an ingest transaction's rows are stamped at its start, seen at its commit). */
  sliceMarginSeconds?: number;
  /** A full scan at least this often (the slices' result is the full scan's, this bounds any drift). */
  fullScanEverySeconds?: number;
}

export interface DeviceWatchdog {
  run: () => Promise<WatchdogRun>;
  /** Patients with a reading in the last hour (the alarms-per-bed denominator), null before this instance's first scan. */
  beds: () => number | null;
}

const HOUR_MS = 3_600_000;
type SeenRow = { patient_id: string; device_id: string; last_at: Date; last_stored_at: Date };

/**
 * The watchdog with what it has seen: per (patient, device) in the window, and per patient in the
 * last hour. The first run of an instance (and one every fullScanEverySeconds, or after it did not
 * run for a window) reads the whole window, and the first one the hour for the bed count (once:
 * about six windows' rows); every other run reads only the rows stored since its previous scan
 * (minus a margin) and folds them in by max, which gives the full scan's figures at a fraction of
 * its cost (docs/alarms.md: on 100 beds, about 1/800 of the buffers).
 */
export function createDeviceWatchdog(
  pool: Pool,
  redis: Redis,
  settings: AlarmSettings = alarmSettings(),
  options: WatchdogOptions = {},
): DeviceWatchdog {
  const delay = settings.conditions[DISCONNECT_RULE].onsetDelaySeconds;
  const windowMs = Math.max(options.windowSeconds ?? 600, 2 * delay) * 1_000;
  const marginMs = (options.sliceMarginSeconds ?? 30) * 1_000;
  const fullEveryMs = (options.fullScanEverySeconds ?? 300) * 1_000;
  const devices = new Map<string, DeviceSeen>();
  const patients = new Map<string, number>();
  let lastScan: Date | undefined;
  let lastFull: Date | undefined;
  let seeded = false;

  const merge = (rows: SeenRow[], now: Date) => {
    for (const r of rows) {
      const key = `${r.patient_id}\u0000${r.device_id}`;
      const had = devices.get(key);
      const lastAt = had && had.lastAt > r.last_at ? had.lastAt : r.last_at;
      const lastStoredAt = had && had.lastStoredAt > r.last_stored_at ? had.lastStoredAt : r.last_stored_at;
      if (lastAt.getTime() > now.getTime() - windowMs)
        devices.set(key, { patientId: r.patient_id, deviceId: r.device_id, lastAt, lastStoredAt });
      patients.set(r.patient_id, Math.max(patients.get(r.patient_id) ?? 0, r.last_at.getTime()));
    }
    for (const [key, d] of devices) if (d.lastAt.getTime() <= now.getTime() - windowMs) devices.delete(key);
    for (const [id, at] of patients) if (at <= now.getTime() - HOUR_MS) patients.delete(id);
  };

  const scan = async (session: PoolClient, now: Date): Promise<'full' | 'slice'> => {
    const full =
      !lastScan || !lastFull || now.getTime() - lastFull.getTime() >= fullEveryMs || now.getTime() - lastScan.getTime() >= windowMs;
    if (full) {
      // the first scan reads the hour (for the beds); the window's devices are those of its rows inside the window
      const from = new Date(now.getTime() - (seeded ? windowMs : Math.max(windowMs, HOUR_MS)));
      const { rows } = await session.query<SeenRow>(SEEN_SQL.full, [from]);
      devices.clear();
      merge(rows, now);
      seeded = true;
      lastFull = now;
    } else {
      const { rows } = await session.query<SeenRow>(SEEN_SQL.slice, [
        new Date(now.getTime() - windowMs),
        new Date(must(lastScan, 'the time of the previous scan (a slice follows one)').getTime() - marginMs),
      ]);
      merge(rows, now);
    }
    lastScan = now;
    return full ? 'full' : 'slice';
  };

  return {
    beds: () => (seeded ? patients.size : null),
    run: async () => {
      const run = await withTriedLock(pool, LOCK, async (session, now) => {
        const kind = await scan(session, now);
        const { rows: openRows } = await session.query<{ alarm_id: string; patient_id: string; device_id: string; condition_since: Date }>(
          OPEN_SQL,
          [DISCONNECT_RULE],
        );
        const seen = [...devices.values()];
        const open = openRows.map((r) => ({
          alarmId: r.alarm_id,
          patientId: r.patient_id,
          deviceId: r.device_id,
          since: r.condition_since,
        }));
        const plan = planWatchdog(seen, open, now, delay);
        let cleared = 0;
        for (const { alarm, reading } of plan.clear) if (await clearDisconnect(session, redis, alarm, reading)) cleared++;
        let raised = 0;
        for (const d of plan.raise) if (await raiseDisconnect(session, redis, settings, d, now)) raised++;
        return { skipped: false, stalled: plan.stalled, raised, cleared, devices: seen.length, scan: kind };
      });
      return run ?? { skipped: true, stalled: false, raised: 0, cleared: 0, devices: 0 };
    },
  };
}

/** The watchdog's commands on a patient's alert stream: raise a silent device's alarm; clear it when that device's readings are back. */
export type DisconnectCommand =
  { type: 'raise'; raise: AlarmRaisedData } | { type: 'clear'; patientId: string; reading: Pick<DeviceSeen, 'deviceId' | 'lastAt'> };

/** Why the stream refuses it: a device-disconnected alarm is open already, or the open one is not this device's or not silent before this reading. */
export type DisconnectRefusal = { kind: 'already-open' } | { kind: 'not-open' };

/** A raise or a clear with the event id derived from it (alertEventId), so a second watchdog or a retry cannot append it twice. */
type DisconnectEvent = AlarmEvent & { eventId: string };

/** Decides a raise or a clear on the patient's alarms as folded from the stream (not on the read model's hint). */
export function decideDisconnect(command: DisconnectCommand, state: PatientAlarms): Decision<DisconnectEvent, DisconnectRefusal> {
  if (command.type === 'raise') {
    if (state.open.has(DISCONNECT_RULE)) return { ok: false, error: { kind: 'already-open' } }; // the read model had not seen it yet
    // the alarm's id is its raise's event id
    return { ok: true, events: [{ eventId: command.raise.alert_id, type: ALARM_EVENTS.raised, data: command.raise }] };
  }
  const openId = state.open.get(DISCONNECT_RULE);
  const alarm = openId === undefined ? undefined : state.alarms.get(openId);
  const { reading } = command;
  // the open alarm must be this device's, silent since before this reading
  if (!alarm || alarm.deviceId !== reading.deviceId || Date.parse(alarm.conditionSince) >= reading.lastAt.getTime())
    return { ok: false, error: { kind: 'not-open' } };
  const data = disconnectClear(
    { alarmId: alarm.id, patientId: command.patientId, deviceId: alarm.deviceId, since: new Date(alarm.conditionSince) },
    reading,
  );
  return { ok: true, events: [{ eventId: clearEventId(data), type: ALARM_EVENTS.cleared, data }] };
}

/** The watchdog's decider for the command handler: the alarm fold, and decideDisconnect. */
export const DISCONNECT_DECIDER: Decider<PatientAlarms, DisconnectCommand, DisconnectEvent, DisconnectRefusal> = {
  initialState: PATIENT_ALARMS_DECIDER.initialState,
  evolve: PATIENT_ALARMS_DECIDER.evolve,
  decide: decideDisconnect,
};

/**
 * Handles a raise or a clear on the lock's session and publishes it live after it is stored; false
 * when refused, when the stream moved or when the event is already there (the next run decides again).
 */
async function commandDisconnect(session: PoolClient, redis: Redis, patientId: string, command: DisconnectCommand): Promise<boolean> {
  let outcome;
  try {
    outcome = await handleCommand(inTransaction(session), DISCONNECT_DECIDER, alertStream(patientId), command, {
      metadata: { actor: 'vitalis-projector', scope: 'system' },
    });
  } catch (err) {
    if (err instanceof ConcurrencyError || err instanceof DuplicateEventError) return false;
    throw err;
  }
  if (!outcome.ok) return false;
  for (const e of outcome.decided) await publishAlarmNotice(redis, patientId, e.type, e.data as unknown as Record<string, unknown>);
  return true;
}

const raiseDisconnect = (session: PoolClient, redis: Redis, settings: AlarmSettings, d: DeviceSeen, now: Date): Promise<boolean> =>
  commandDisconnect(session, redis, d.patientId, { type: 'raise', raise: disconnectRaise(settings, d, now) });

const clearDisconnect = (session: PoolClient, redis: Redis, hint: OpenDisconnect, reading: DeviceSeen): Promise<boolean> =>
  commandDisconnect(session, redis, hint.patientId, { type: 'clear', patientId: hint.patientId, reading });
