/**
 * Diagnostic workflows (issue 21), independent of HTTP: the REST routes and the MCP tools call
 * these with a Caller. Orders (ServiceRequest) and reports (DiagnosticReport) are event streams;
 * a command goes through the command handler (@vitalis/eventstore handleCommand): it folds its
 * stream, asks the pure decider (@vitalis/records), appends at the folded version (If-Match: 412
 * when stale; without it a concurrent change is a 409) with its audit row in the same transaction,
 * and answers from the stream (read-your-writes). Lists read the projections, then fold the
 * listed streams, so a list and a single read render the same resource.
 *
 * Who may do what (docs/diagnostics.md): read:diagnostics reads orders and reports; with
 * write:diagnostics a doctor (or a system client) orders and acknowledges critical results, a
 * `lab` client posts, updates, amends and cancels reports. A patient user with
 * patient/DiagnosticReport.rs reads its own final (final, amended, corrected) reports, nothing else.
 * Every read and write, refusals included, is audited (access/caller.ts: no audit row, no answer).
 *
 * A critical result (decided by the report decider from @vitalis/clinical's limits) is an event
 * on the report stream, committed with the result; after the commit it is published on the live
 * fan-out (@vitalis/live critical.ts). Escalation is the projector's (diagnostics-escalation.ts).
 *
 * The workflows live in sibling modules by concern (orders.ts, reports.ts, report-reads.ts,
 * critical-results.ts, with what they share in workflow.ts); this module is their public face.
 */
export { type DiagnosticsDeps, type ListPosition, unprocessable } from './workflow';
export { changeOrder, createOrder, getOrder, listOrders, loadOrder, searchOrders, type OrderInput, type OrderQuery } from './orders';
export { analyteUnit, changeReport, loadReport, postReport, type ReportInput } from './reports';
export { getReport, listReports, reportHistory, searchReports, type ReportQuery } from './report-reads';
export {
  acknowledgeCriticalResult,
  acknowledgedCriticalResults,
  CRITICAL_STATES,
  criticalViewOf,
  DEFAULT_ACKNOWLEDGED_WINDOW_SECONDS,
  listCriticalResults,
  listPendingCriticalResults,
  pendingCriticalResults,
  type CriticalResultQuery,
  type CriticalResultValue,
  type CriticalResultView,
  type PendingCriticalResult,
} from './critical-results';
export type { StoredEvent } from '@vitalis/eventstore';
