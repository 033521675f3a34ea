/**
 * Reading reports: one (current or a version), its history, and lists from the projection, each
 * rendered from its stream. A patient user reads its own released reports only.
 */
import { countRows, type Pool } from '@vitalis/db';
import { readStream, readStreams } from '@vitalis/eventstore';
import { notFound } from '@vitalis/http';
import { diagnosticReportStream, foldDiagnosticReport, isReleasedStatus, type DiagnosticReportState } from '@vitalis/records';
import { audit, type Caller } from '../access/caller';
import { access, reach } from '../access/policy';
import { type ListPosition, refuse } from './workflow';

/**
 * Who may read this report: clinical readers (read:diagnostics) any; a patient user (with
 * patient/DiagnosticReport.rs) its own once final (final, amended, corrected).
 */
function mayRead(caller: Caller, r: DiagnosticReportState): boolean {
  const decision = access(caller.principal, 'DiagnosticReport', 'read', [r.patientId]);
  return decision.allowed && (decision.rule === 'all' || isReleasedStatus(r.status));
}

export async function getReport(
  pool: Pool,
  caller: Caller,
  id: string,
  action = 'diagnostics.report.read',
  version?: number,
): Promise<DiagnosticReportState> {
  const reached = reach(caller.principal, 'DiagnosticReport', 'read');
  const scope = reached.scope;
  if (!reached.allowed) await refuse(pool, caller, action, scope, 'DiagnosticReport', id, reached.detail);
  const events = await readStream(pool, diagnosticReportStream(id));
  const current = foldDiagnosticReport(events);
  // who may read is decided on the current report (a patient user: its own, once released)
  if (current && !mayRead(caller, current))
    await refuse(pool, caller, action, scope, 'DiagnosticReport', id, 'This token may not read this report.');
  const report = version === undefined ? current : foldDiagnosticReport(events.filter((e) => e.streamVersion <= version));
  if (!report || (version !== undefined && (report.version !== version || !mayRead(caller, report)))) {
    await audit(pool, caller, {
      action,
      outcome: 'failure',
      scope,
      resourceType: 'DiagnosticReport',
      resourceId: id,
      detail: { reason: 'not found', ...(version !== undefined ? { version } : {}) },
    });
    throw notFound(version === undefined || !current ? `Report ${id} does not exist.` : `Report ${id} has no version ${version}.`);
  }
  await audit(pool, caller, {
    action,
    scope,
    resourceType: 'DiagnosticReport',
    resourceId: id,
    detail: { patient: report.patientId, ...(version !== undefined ? { version } : {}) },
  });
  return report;
}

/** The report with every revision (earlier versions stay readable, with who and why). */
export const reportHistory = (pool: Pool, caller: Caller, id: string) => getReport(pool, caller, id, 'diagnostics.report.history');

export interface ReportQuery {
  patientId?: string | undefined;
  orderId?: string | undefined;
  /** Report codes (a test code, or every code of a category). */
  codes?: string[] | undefined;
  status?: string[] | undefined;
  /** meta.lastUpdated bounds [from, to) (ISO instants). */
  updatedFrom?: string | undefined;
  updatedTo?: string | undefined;
  /** Count the matches instead (FHIR `_summary=count`): `total`, no reports. */
  countOnly?: boolean | undefined;
  limit: number;
  after?: ListPosition | undefined;
}

export async function listReports(pool: Pool, caller: Caller, q: ReportQuery): Promise<DiagnosticReportState[]> {
  return (await searchReports(pool, caller, q)).reports;
}

/** listReports with paging: `next` is where the page ended when there are more. */
export async function searchReports(
  pool: Pool,
  caller: Caller,
  q: ReportQuery,
): Promise<{ reports: DiagnosticReportState[]; next: ListPosition | null; total?: number }> {
  const reached = reach(caller.principal, 'DiagnosticReport', 'read');
  const scope = reached.scope;
  if (!reached.allowed || (reached.patient !== undefined && q.patientId !== undefined && q.patientId !== reached.patient)) {
    await refuse(
      pool,
      caller,
      'diagnostics.report.list',
      scope,
      'DiagnosticReport',
      undefined,
      'Listing reports needs read:diagnostics (a patient user: its own final reports, with patient/DiagnosticReport.rs).',
    );
  }
  const own = reached.allowed ? reached.patient : undefined;
  const patientId = own ?? q.patientId;
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  if (patientId) where.push(`patient_id = ${arg(patientId)}`);
  if (q.orderId) where.push(`order_id = ${arg(q.orderId)}`);
  if (q.codes) where.push(`code = ANY(${arg(q.codes)}::text[])`);
  if (q.status) where.push(`status = ANY(${arg(q.status)}::text[])`);
  if (own !== undefined) where.push(`status IN ('final', 'amended', 'corrected')`);
  if (q.updatedFrom) where.push(`updated_at >= ${arg(q.updatedFrom)}::timestamptz`);
  if (q.updatedTo) where.push(`updated_at < ${arg(q.updatedTo)}::timestamptz`);
  if (q.countOnly) {
    const total = await countRows(pool, 'rm_diagnostic_reports', where, args);
    await audit(pool, caller, {
      action: 'diagnostics.report.list',
      scope,
      resourceType: 'DiagnosticReport',
      detail: { patient: patientId ?? null, count: total },
    });
    return { reports: [], next: null, total };
  }
  if (q.after)
    where.push(
      `(issued_at < ${arg(q.after.t)}::timestamptz OR (issued_at = ${arg(q.after.t)}::timestamptz AND report_id > ${arg(q.after.i)}))`,
    );
  const { rows } = await pool.query<{ report_id: string; t: string }>(
    `SELECT report_id, issued_at::text AS t FROM rm_diagnostic_reports ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY issued_at DESC, report_id LIMIT ${arg(q.limit + 1)}`,
    args,
  );
  const page = rows.slice(0, q.limit);
  const streams = await readStreams(
    pool,
    page.map((r) => diagnosticReportStream(r.report_id)),
  );
  const reports = page
    .map((r) => foldDiagnosticReport(streams.get(diagnosticReportStream(r.report_id)) ?? []))
    .filter((r): r is DiagnosticReportState => r !== null && mayRead(caller, r));
  await audit(pool, caller, {
    action: 'diagnostics.report.list',
    scope,
    resourceType: 'DiagnosticReport',
    detail: { patient: patientId ?? null, results: reports.length, ids: reports.map((r) => r.id).slice(0, 100) },
  });
  const last = page[page.length - 1];
  return { reports, next: rows.length > q.limit && last ? { t: last.t, i: last.report_id } : null };
}
