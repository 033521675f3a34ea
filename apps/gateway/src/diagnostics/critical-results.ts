/**
 * Critical results (issue 21): a clinician acknowledges one; the board lists the waiting ones (open,
 * escalated) from the projection and the acknowledged ones, with who and when, from their streams.
 */
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { handleCommand, readStreams } from '@vitalis/eventstore';
import { ANALYTES, criticalLimitCrossed } from '@vitalis/clinical';
import {
  DIAGNOSTIC_REPORT_DECIDER,
  diagnosticReportStream,
  foldDiagnosticReport,
  type CriticalResult,
  type CriticalState,
  type DiagnosticReportState,
  type ResultValue,
} from '@vitalis/records';
import { audit, metadataOf, type Caller } from '../access/caller';
import { findUser } from '../auth/users';
import { publishCritical } from './reports';
import { auditRefusal, decisionProblem, type DiagnosticsDeps, REFUSAL_REASONS, refusalProblem, requireCell } from './workflow';

/**
 * A signed-in clinician acknowledges the report's critical result. The access policy's cell is for
 * users only (a token naming no user, an app acting for itself, is refused 403 and audited `no
 * user`): the event records the user (the token's subject), their display name from the user
 * store when it has one, and the app (client id) they used; so does the audit row.
 */
export async function acknowledgeCriticalResult(
  deps: DiagnosticsDeps,
  caller: Caller,
  id: string,
  note?: string,
): Promise<DiagnosticReportState> {
  const { pool } = deps;
  const action = 'diagnostics.critical.acknowledge';
  await requireCell(pool, caller, 'DiagnosticReport', 'acknowledge', action, id);
  const by = caller.principal.subject;
  const client = caller.principal.clientId;
  const byName = (await findUser(pool, by))?.displayName;
  const acknowledge = { type: 'acknowledge' as const, by, byName, client, note, now: new Date().toISOString() };
  const outcome = await handleCommand(pool, DIAGNOSTIC_REPORT_DECIDER, diagnosticReportStream(id), acknowledge, {
    metadata: metadataOf(caller, 'write:diagnostics'),
    // an escalation may land between the read and the append: acknowledging is still right, so read again
    retries: 3,
    recorded: (tx, r) =>
      audit(tx, caller, {
        action,
        scope: 'write:diagnostics',
        resourceType: 'DiagnosticReport',
        resourceId: id,
        detail: {
          patient: must(r.before, `report ${id} as it was`).patientId,
          critical: r.before?.critical?.id,
          was: r.before?.critical?.state,
          acknowledged_by: by,
          client,
        },
      }),
    refused: auditRefusal(pool, caller, action, 'DiagnosticReport', id, {
      ...REFUSAL_REASONS,
      'illegal-transition': 'nothing to acknowledge',
    }),
  });
  if (!outcome.ok) {
    const e = outcome.error;
    throw e.kind === 'illegal-transition'
      ? decisionProblem('The critical result of report', id, e)
      : refusalProblem('Report', id, e, undefined);
  }
  await publishCritical(deps, must(outcome.before, 'the report as it was').patientId, outcome.decided);
  return must(outcome.state, 'the state the decided events fold to');
}

/** A result as a critical-result listing shows it: the analyte's clinical name and the critical limit it crossed. */
export interface CriticalResultValue extends ResultValue {
  /** The short clinical name (ANALYTES `short`: "Potassium"). */
  name: string;
  /** The critical limit crossed (below `low`, above `high`); null for a finding in words (AA). */
  crossed: { side: 'low' | 'high'; limit: number } | null;
}

/** One critical result of a report, as the board, the list and the history show it. */
export interface CriticalResultView {
  criticalId: string;
  reportId: string;
  patientId: string;
  /** The report's test (LOINC). */
  code: string;
  /** The report's current status (preliminary, final, amended, corrected, …). */
  reportStatus: string;
  state: CriticalState;
  results: CriticalResultValue[];
  raisedAt: string;
  dueAt: string;
  escalatedAt: string | null;
  acknowledgedAt: string | null;
  /** The user who acknowledged (user id), their display name, the app they used. */
  acknowledgedBy: string | null;
  acknowledgedByName: string | null;
  acknowledgedWith: string | null;
  note: string | null;
}

/** Unacknowledged: what the board holds until a clinician acknowledges it. */
export type PendingCriticalResult = CriticalResultView & { state: 'open' | 'escalated' };

const withNames = (results: ResultValue[]): CriticalResultValue[] =>
  results.map((r) => ({ ...r, name: ANALYTES[r.code]?.short ?? r.display, crossed: criticalLimitCrossed(ANALYTES[r.code], r.value) }));

const viewOf = (r: DiagnosticReportState, c: CriticalResult): CriticalResultView => ({
  criticalId: c.id,
  reportId: r.id,
  patientId: r.patientId,
  code: r.code,
  reportStatus: r.status,
  state: c.state,
  results: withNames(c.results),
  raisedAt: c.raisedAt,
  dueAt: c.dueAt,
  escalatedAt: c.escalatedAt,
  acknowledgedAt: c.acknowledgedAt,
  acknowledgedBy: c.acknowledgedBy,
  acknowledgedByName: c.acknowledgedByName ?? null,
  acknowledgedWith: c.acknowledgedWith ?? null,
  note: c.note,
});

/** The report's critical result (current) as a view; null when it never raised one. */
export const criticalViewOf = (r: DiagnosticReportState): CriticalResultView | null => (r.critical ? viewOf(r, r.critical) : null);

/** Unacknowledged critical results of these patients (all patients when undefined), from the projection. */
export async function pendingCriticalResults(db: Pool, patientIds?: readonly string[]): Promise<PendingCriticalResult[]> {
  const { rows } = await db.query<{
    critical_id: string;
    report_id: string;
    patient_id: string;
    code: string;
    status: string;
    critical_state: 'open' | 'escalated';
    critical_results: ResultValue[];
    critical_raised_at: Date;
    critical_due_at: Date;
    critical_escalated_at: Date | null;
  }>(
    `SELECT critical_id, report_id, patient_id, code, status, critical_state, critical_results, critical_raised_at, critical_due_at, critical_escalated_at
       FROM rm_diagnostic_reports
      WHERE critical_state IN ('open', 'escalated') ${patientIds ? 'AND patient_id = ANY($1::text[])' : ''}
      ORDER BY critical_raised_at`,
    patientIds ? [patientIds] : [],
  );
  return rows.map((r) => ({
    criticalId: r.critical_id,
    reportId: r.report_id,
    patientId: r.patient_id,
    code: r.code,
    reportStatus: r.status,
    state: r.critical_state,
    results: withNames(r.critical_results),
    raisedAt: r.critical_raised_at.toISOString(),
    dueAt: r.critical_due_at.toISOString(),
    escalatedAt: r.critical_escalated_at?.toISOString() ?? null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    acknowledgedByName: null,
    acknowledgedWith: null,
    note: null,
  }));
}

/** When an acknowledged critical result was acknowledged, in milliseconds (the list below holds only those). */
const acknowledgedMs = (v: CriticalResultView) =>
  Date.parse(must(v.acknowledgedAt, `the acknowledgement time of critical result ${v.criticalId}`));

/**
 * Critical results acknowledged at or after `since`, newest first (at most `limit`): who and
 * when stay readable after they leave the board. Candidates come from the projection (a report
 * whose latest critical result was acknowledged, or raised, in the window: a report that raised a
 * new one after an acknowledgement keeps the earlier one in its stream); each is folded from its
 * stream, so an earlier acknowledged result of the same report is listed too.
 */
export async function acknowledgedCriticalResults(
  db: Pool,
  q: { patientIds?: readonly string[] | undefined; since: string; limit: number },
): Promise<CriticalResultView[]> {
  const args: unknown[] = [q.since, q.limit * 2];
  const { rows } = await db.query<{ report_id: string }>(
    `SELECT report_id FROM rm_diagnostic_reports
      WHERE critical_id IS NOT NULL AND (critical_acknowledged_at >= $1::timestamptz OR critical_raised_at >= $1::timestamptz)
            ${q.patientIds ? `AND patient_id = ANY($${args.push(q.patientIds)}::text[])` : ''}
      ORDER BY greatest(critical_acknowledged_at, critical_raised_at) DESC, report_id LIMIT $2`,
    args,
  );
  const streams = await readStreams(
    db,
    rows.map((r) => diagnosticReportStream(r.report_id)),
  );
  const since = Date.parse(q.since);
  const out: CriticalResultView[] = [];
  for (const { report_id } of rows) {
    const r = foldDiagnosticReport(streams.get(diagnosticReportStream(report_id)) ?? []);
    if (!r) continue;
    for (const c of [...r.earlierCritical, ...(r.critical ? [r.critical] : [])]) {
      if (c.state === 'acknowledged' && c.acknowledgedAt !== null && Date.parse(c.acknowledgedAt) >= since) out.push(viewOf(r, c));
    }
  }
  return out.sort((a, b) => acknowledgedMs(b) - acknowledgedMs(a) || (a.criticalId < b.criticalId ? -1 : 1)).slice(0, q.limit);
}

export const CRITICAL_STATES = ['open', 'escalated', 'acknowledged'] as const;

export interface CriticalResultQuery {
  patientId?: string | undefined;
  /** Default open and escalated (what waits for a clinician). */
  states?: readonly CriticalState[] | undefined;
  /** Acknowledged results: acknowledged at or after this instant (default: the last 24 h). Open and escalated ones are listed whatever their age. */
  since?: string | undefined;
  /** Most acknowledged results listed (newest first). */
  limit?: number | undefined;
}

/** How far back acknowledged results are listed when no `since` is given. */
export const DEFAULT_ACKNOWLEDGED_WINDOW_SECONDS = 24 * 3_600;

/**
 * GET .../critical-results: clinical readers only, audited. Waiting ones (open, escalated) oldest
 * first, then acknowledged ones newest first with who and when.
 */
export async function listCriticalResults(pool: Pool, caller: Caller, q: CriticalResultQuery = {}): Promise<CriticalResultView[]> {
  await requireCell(pool, caller, 'CriticalResult', 'read', 'diagnostics.critical.list');
  const states = new Set<CriticalState>(q.states?.length ? q.states : ['open', 'escalated']);
  const patients = q.patientId ? [q.patientId] : undefined;
  const pending =
    states.has('open') || states.has('escalated') ? (await pendingCriticalResults(pool, patients)).filter((c) => states.has(c.state)) : [];
  const since = q.since ?? new Date(Date.now() - DEFAULT_ACKNOWLEDGED_WINDOW_SECONDS * 1_000).toISOString();
  const acknowledged = states.has('acknowledged')
    ? await acknowledgedCriticalResults(pool, { patientIds: patients, since, limit: q.limit ?? 100 })
    : [];
  // The acknowledged ones are folded from their streams, the waiting ones read from the projection:
  // for one projector tick after an acknowledgement a result is in both. The stream is the newer word.
  const known = new Set(acknowledged.map((c) => c.criticalId));
  const list: CriticalResultView[] = [...pending.filter((c) => !known.has(c.criticalId)), ...acknowledged];
  await audit(pool, caller, {
    action: 'diagnostics.critical.list',
    scope: 'read:diagnostics',
    resourceType: 'DiagnosticReport',
    detail: {
      patient: q.patientId ?? null,
      states: [...states],
      ...(states.has('acknowledged') ? { since } : {}),
      results: list.length,
      ids: list.map((c) => c.reportId).slice(0, 100),
    },
  });
  return list;
}

/** The unacknowledged ones only (open, escalated): `listCriticalResults` with its defaults. */
export const listPendingCriticalResults = (pool: Pool, caller: Caller, patientId?: string) =>
  listCriticalResults(pool, caller, { patientId });
