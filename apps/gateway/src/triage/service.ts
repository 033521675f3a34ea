/**
 * The ED triage board: one event stream per patient (`triage-<id>`: PatientArrived,
 * TriageLevelSet, PatientDischarged). Writes go through the command handler with the triage
 * decider (@vitalis/eventstore handleCommand, @vitalis/records decideTriage: the audit row in the
 * events' transaction; refusals answered, not audited) and answer from the folded stream; the
 * board reads the rm_triage projection and adds, for callers holding read:vitals, the latest
 * vitals (each with its `effective_at`: the cards show every value's age) and NEWS2 computed from
 * the vitals append log; for callers reading critical results, each patient's unacknowledged ones
 * and those acknowledged in the last BOARD_ACKNOWLEDGED_WINDOW_SECONDS (who, when).
 */
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { handleCommand, readStream, type VersionConflict } from '@vitalis/eventstore';
import { conflict, type HttpProblem, notFound, preconditionFailed, problemOf } from '@vitalis/http';
import type { EsiLevel } from '@vitalis/clinical';
import { foldTriage, TRIAGE_DECIDER, triageStream, type TriageCommand, type TriageDecideError, type TriageState } from '@vitalis/records';
import { activeAlerts } from '@vitalis/live';
import { audit, metadataOf, requireAccess, type Caller, versionOfIfMatch } from '../access/caller';
import { reachesAll } from '../access/policy';
import { loadPatient, vitalsSummary, type LatestVital } from '../patients/service';
import type { News2Result } from '@vitalis/clinical';
import { activeAlarmsOfPatients, type BoardAlarm } from '../alarms/service';
import {
  acknowledgedCriticalResults,
  pendingCriticalResults,
  type CriticalResultView,
  type PendingCriticalResult,
} from '../diagnostics/service';

/** The board's history of acknowledged critical results reaches back this far (a shift). */
export const BOARD_ACKNOWLEDGED_WINDOW_SECONDS = 12 * 3_600;
/** At most this many acknowledged results on the board (newest first). */
export const BOARD_ACKNOWLEDGED_LIMIT = 50;

export const loadTriage = async (pool: Pool, patientId: string) => foldTriage(await readStream(pool, triageStream(patientId)));

export async function admitPatient(
  pool: Pool,
  caller: Caller,
  a: { patientId: string; esi: EsiLevel; complaint: string },
): Promise<TriageState> {
  await requireAccess(pool, caller, 'Triage', 'write', [a.patientId], { auditAction: 'triage.admit' });
  if (!(await loadPatient(pool, a.patientId))) throw problemOf('unknown-patient', `Patient ${a.patientId} does not exist.`);
  const outcome = await handleCommand(
    pool,
    TRIAGE_DECIDER,
    triageStream(a.patientId),
    { type: 'admit', ...a },
    {
      metadata: metadataOf(caller, 'write:triage'),
      recorded: (tx) =>
        audit(tx, caller, {
          action: 'triage.admit',
          scope: 'write:triage',
          resourceType: 'Patient',
          resourceId: a.patientId,
          detail: { esi: a.esi },
        }),
    },
  );
  if (!outcome.ok) throw triageRefusal(outcome.error, a.patientId, 'admit', undefined);
  return must(outcome.state, 'the triage state the decided events fold to');
}

/** A refused triage command as its problem (triage refusals are answered, not audited). */
function triageRefusal(
  e: TriageDecideError | VersionConflict,
  patientId: string,
  command: TriageCommand['type'],
  expected: number | undefined,
): HttpProblem {
  switch (e.kind) {
    case 'already-on-board':
      return conflict(`Patient ${patientId} is already on the board.`);
    case 'not-found':
      return notFound(`Patient ${patientId} is not on the triage board.`);
    case 'version-mismatch':
      return preconditionFailed(`The triage entry is at version ${e.actual}, not ${e.expected}.`);
    case 'concurrent-change':
      if (command === 'admit') return conflict(`Patient ${patientId} was admitted concurrently.`);
      return expected !== undefined ? preconditionFailed('Changed concurrently; read it again.') : conflict('Changed concurrently; retry.');
  }
}

async function changeTriage(
  pool: Pool,
  caller: Caller,
  patientId: string,
  expected: number | '*' | undefined,
  action: string,
  command: TriageCommand,
): Promise<TriageState> {
  await requireAccess(pool, caller, 'Triage', 'write', [patientId], { auditAction: action });
  const expectedVersion = versionOfIfMatch(expected);
  const outcome = await handleCommand(pool, TRIAGE_DECIDER, triageStream(patientId), command, {
    metadata: metadataOf(caller, 'write:triage'),
    expectedVersion,
    recorded: (tx, r) => {
      const event = must(r.decided[0], 'the decided event');
      const detail = { type: event.type, ...('esi' in event.data ? { esi: event.data.esi } : {}) };
      return audit(tx, caller, { action, scope: 'write:triage', resourceType: 'Patient', resourceId: patientId, detail });
    },
  });
  if (!outcome.ok) throw triageRefusal(outcome.error, patientId, command.type, expectedVersion);
  return must(outcome.state, 'the triage state the decided events fold to');
}

export const setTriageLevel = (
  pool: Pool,
  caller: Caller,
  patientId: string,
  expected: number | '*' | undefined,
  esi: EsiLevel,
  reason?: string,
) => changeTriage(pool, caller, patientId, expected, 'triage.set_level', { type: 'setLevel', esi, reason });

export const dischargePatient = (pool: Pool, caller: Caller, patientId: string) =>
  changeTriage(pool, caller, patientId, undefined, 'triage.discharge', { type: 'discharge' });

export interface BoardEntry {
  patientId: string;
  version: number;
  name: string | null;
  esi: number;
  complaint: string;
  arrivedAt: string;
  updatedAt: string;
  latestVitals?: LatestVital[];
  news2?: News2Result;
  /** Rules whose condition is present now (the latest raise-or-clear of the rule is a raise; @vitalis/live activeAlerts). */
  alerts: string[];
  /** The active alarms (raised, acknowledged, latched: what a person must still see), highest priority first (with Alarm read). */
  alarms?: BoardAlarm[];
  /** Unacknowledged critical diagnostic results (with read:diagnostics): on the board until a clinician acknowledges them. */
  criticalResults?: PendingCriticalResult[];
  /** Critical results acknowledged in the last BOARD_ACKNOWLEDGED_WINDOW_SECONDS (who, when), newest first. */
  acknowledgedCriticalResults?: CriticalResultView[];
}

/** The board, most urgent first (ESI 1 first, then earliest arrival). */
export async function triageBoard(pool: Pool, caller: Caller): Promise<BoardEntry[]> {
  await requireAccess(pool, caller, 'Triage', 'read', [], { auditAction: 'triage.board.read', resourceType: 'TriageBoard' });
  const { rows } = await pool.query<{
    patient_id: string;
    version: number;
    esi: number;
    complaint: string;
    arrived_at: Date;
    updated_at: Date;
    name: string | null;
  }>(
    `SELECT t.patient_id, t.version, t.esi, t.complaint, t.arrived_at, t.updated_at,
            CASE WHEN p.patient_id IS NULL THEN NULL ELSE trim(array_to_string(p.given, ' ') || ' ' || p.family) END AS name
       FROM rm_triage t LEFT JOIN rm_patients p USING (patient_id)
      ORDER BY t.esi, t.arrived_at, t.patient_id`,
  );
  // the access policy: the latest vitals and alerts of every patient on the board need Observation read of all patients; critical results, CriticalResult read
  const withVitals = reachesAll(caller.principal, 'Observation', 'read');
  const alerts = withVitals
    ? await activeAlerts(
        pool,
        rows.map((r) => r.patient_id),
      )
    : new Map<string, string[]>();
  const withAlarms = reachesAll(caller.principal, 'Alarm', 'read');
  const alarms = withAlarms
    ? await activeAlarmsOfPatients(
        pool,
        rows.map((r) => r.patient_id),
      )
    : new Map<string, BoardAlarm[]>();
  const withDiagnostics = reachesAll(caller.principal, 'CriticalResult', 'read');
  const critical = new Map<string, PendingCriticalResult[]>();
  const acknowledged = new Map<string, CriticalResultView[]>();
  if (withDiagnostics) {
    const patients = rows.map((r) => r.patient_id);
    for (const c of await pendingCriticalResults(pool, patients)) critical.set(c.patientId, [...(critical.get(c.patientId) ?? []), c]);
    const since = new Date(Date.now() - BOARD_ACKNOWLEDGED_WINDOW_SECONDS * 1_000).toISOString();
    for (const c of await acknowledgedCriticalResults(pool, { patientIds: patients, since, limit: BOARD_ACKNOWLEDGED_LIMIT }))
      acknowledged.set(c.patientId, [...(acknowledged.get(c.patientId) ?? []), c]);
  }
  const board: BoardEntry[] = [];
  for (const r of rows) {
    const entry: BoardEntry = {
      patientId: r.patient_id,
      version: r.version,
      name: r.name,
      esi: r.esi,
      complaint: r.complaint,
      arrivedAt: r.arrived_at.toISOString(),
      updatedAt: r.updated_at.toISOString(),
      alerts: alerts.get(r.patient_id) ?? [],
    };
    if (withVitals) Object.assign(entry, await vitalsSummary(pool, r.patient_id));
    if (withAlarms) entry.alarms = alarms.get(r.patient_id) ?? [];
    if (withDiagnostics) {
      entry.criticalResults = critical.get(r.patient_id) ?? [];
      entry.acknowledgedCriticalResults = acknowledged.get(r.patient_id) ?? [];
    }
    board.push(entry);
  }
  await audit(pool, caller, {
    action: 'triage.board.read',
    scope: 'read:patients',
    resourceType: 'TriageBoard',
    detail: {
      patients: board.map((b) => b.patientId).slice(0, 200),
      vitals: withVitals,
      alarms: withAlarms,
      critical_results: withDiagnostics,
    },
  });
  return board;
}
