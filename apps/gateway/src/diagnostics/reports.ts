/**
 * Reports (DiagnosticReport, issue 21) as the lab writes them: post (a redelivery recognised by its
 * filler identifier and content), update, amend, cancel, enter in error. A critical result decided
 * with the report is published on the live fan-out once committed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { must } from '@vitalis/runtime';
import { withTransaction, type Pool, type PoolClient } from '@vitalis/db';
import { ConcurrencyError, handleCommand, inTransaction, readStream, type Decider } from '@vitalis/eventstore';
import { conflict, type HttpProblem } from '@vitalis/http';
import { ANALYTES } from '@vitalis/clinical';
import { publishCriticalNotice, type CriticalResultEventName } from '@vitalis/live';
import {
  CRITICAL_RESULT_EVENT_TYPES,
  DIAGNOSTIC_REPORT_DECIDER,
  diagnosticReportStream,
  foldDiagnosticReport,
  type DiagnosticReportCommand,
  type DiagnosticReportDecideError,
  type DiagnosticReportState,
  type ReportEvent,
  type ResultInput,
  type ResultStatus,
  type ServiceRequestState,
} from '@vitalis/records';
import { audit, metadataOf, type Caller, versionOfIfMatch } from '../access/caller';
import { completeOrderWith, loadOrder } from './orders';
import { auditChange, auditRefusal, type DiagnosticsDeps, refusalProblem, requireCell, unprocessable } from './workflow';

export const loadReport = async (db: Pool | PoolClient, id: string) =>
  foldDiagnosticReport(await readStream(db, diagnosticReportStream(id)));
const mintReportId = () => `dr-${randomUUID().replace(/-/g, '').slice(0, 12)}`;

export const analyteUnit = (code: string) => {
  const a = ANALYTES[code];
  return a?.kind === 'quantity' ? a.unit : undefined;
};

export interface ReportInput {
  orderId: string;
  identifier: { system: string; value: string };
  status: ResultStatus;
  results: ResultInput[];
  conclusion: string | null;
  effectiveAt?: string | undefined;
}

/** What makes two posts "the same result": a redelivery is recognised by identifier and this hash. */
const contentHashOf = (i: { orderId?: string; status: string; results: ResultInput[]; conclusion: string | null }) =>
  createHash('sha256')
    .update(
      JSON.stringify([
        i.orderId ?? null,
        i.status,
        i.results.map((r) => [
          r.code,
          r.value ?? null,
          r.text ?? null,
          r.interpretation ?? null,
          r.telemetry?.observation.identifier ?? null,
        ]),
        i.conclusion,
      ]),
    )
    .digest('hex');

/** Critical-result events among `events` (to publish once they are committed). */
const criticalEventsOf = (events: ReportEvent[]) =>
  events.filter((e): e is ReportEvent & { type: CriticalResultEventName } =>
    (CRITICAL_RESULT_EVENT_TYPES as readonly string[]).includes(e.type),
  );

/** Publishes the committed critical-result events on the live fan-out (@vitalis/live critical.ts). */
export async function publishCritical(deps: DiagnosticsDeps, patientId: string, events: ReportEvent[]): Promise<void> {
  for (const e of criticalEventsOf(events)) await publishCriticalNotice(deps.redis, patientId, e.type, e.data);
}

class IdentifierHeld extends Error {
  constructor(readonly reportId: string) {
    super('filler identifier in use');
  }
}

/** A post refused inside its transaction (rolled back; audited and answered after). */
class PostRefused extends Error {
  constructor(
    readonly reason: string,
    readonly problem: HttpProblem,
    readonly resourceId?: string,
  ) {
    super(reason);
  }
}

/**
 * Posts a report for an active order. A report whose filler identifier is already stored with the
 * same content is a redelivery: `created: false` and the stored report (200), nothing appended; the
 * same identifier with other content is a 409 (update that report instead).
 */
export async function postReport(
  deps: DiagnosticsDeps,
  caller: Caller,
  input: ReportInput,
  /** The policy's DiagnosticReport action: write (the lab posts results), or fulfil (telemetry fulfilment, fulfilFromTelemetry: the doctor). */
  policyAction: 'write' | 'fulfil' = 'write',
  action = 'diagnostics.report.post',
): Promise<{ report: DiagnosticReportState; created: boolean }> {
  const { pool } = deps;
  await requireCell(pool, caller, 'DiagnosticReport', policyAction, action);
  const contentHash = contentHashOf({ ...input });
  const existing = await reportByIdentifier(pool, input.identifier);
  if (existing) return redelivery(deps, caller, existing, contentHash, action);
  const id = mintReportId();
  const now = new Date().toISOString();
  let posted: { order: ServiceRequestState; events: ReportEvent[] };
  try {
    posted = await withTransaction(pool, (client) => postInTransaction(client, deps, caller, input, { id, now, contentHash }));
  } catch (err) {
    if (err instanceof IdentifierHeld) {
      const held = await loadReport(pool, err.reportId);
      if (held) return redelivery(deps, caller, held, contentHash, action);
    }
    if (err instanceof PostRefused) return auditPostRefusal(pool, caller, action, input.orderId, err);
    if (err instanceof ConcurrencyError)
      return auditPostRefusal(
        pool,
        caller,
        action,
        input.orderId,
        new PostRefused('concurrent change', conflict(`Order ${input.orderId} changed while the report was posted; retry.`)),
      );
    throw err;
  }
  const { order } = posted;
  const decisionEvents = posted.events;
  await audit(pool, caller, {
    action,
    scope: 'write:diagnostics',
    resourceType: 'DiagnosticReport',
    resourceId: id,
    detail: { patient: order.patientId, order: order.id, status: input.status, critical: criticalEventsOf(decisionEvents).length > 0 },
  });
  await publishCritical(deps, order.patientId, decisionEvents);
  return { report: must(await loadReport(pool, id), `report ${id}, just created`), created: true };
}

/**
 * A post's transaction. The identifier is claimed first: a concurrent post of the same identifier
 * waits on that row until this one commits (then it is a redelivery of this report) or rolls back
 * (then it posts). The order is read after the claim, so the poster that waited never sees the
 * order its twin completed and mistakes the redelivery for a post on a completed order. Then the
 * order must be active, the decider posts the report, and a final report completes the order.
 */
async function postInTransaction(
  client: PoolClient,
  deps: DiagnosticsDeps,
  caller: Caller,
  input: ReportInput,
  { id, now, contentHash }: { id: string; now: string; contentHash: string },
): Promise<{ order: ServiceRequestState; events: ReportEvent[] }> {
  await claimIdentifier(client, input.identifier, id);
  const order = await activeOrderOf(client, input.orderId);
  const post: DiagnosticReportCommand = {
    type: 'post',
    status: input.status,
    results: input.results,
    conclusion: input.conclusion,
    by: caller.principal.subject,
    now,
    escalationSeconds: deps.escalationSeconds,
    details: {
      id,
      patientId: order.patientId,
      orderId: order.id,
      code: order.code,
      identifier: input.identifier,
      performer: order.performer,
      effectiveAt: input.effectiveAt ?? now,
      contentHash,
    },
  };
  const outcome = await handleCommand(inTransaction(client), DIAGNOSTIC_REPORT_DECIDER, diagnosticReportStream(id), post, {
    metadata: metadataOf(caller, 'write:diagnostics'),
  });
  if (!outcome.ok) {
    const problem = refusalProblem('Report', id, outcome.error, undefined);
    // an uninterpretable result is answered (422), not audited
    throw outcome.error.kind === 'invalid-result' ? problem : new PostRefused('refused', problem, id);
  }
  if (input.status === 'final') await completeOrderWith(client, caller, order.id, id);
  return { order, events: outcome.decided };
}

/** Claims the filler identifier for report `id`; IdentifierHeld when another report holds it. */
async function claimIdentifier(client: PoolClient, identifier: { system: string; value: string }, id: string): Promise<void> {
  const { rows } = await client.query<{ report_id: string }>(
    `INSERT INTO diagnostic_report_identifiers (system, value, report_id) VALUES ($1, $2, $3)
         ON CONFLICT (system, value) DO UPDATE SET system = EXCLUDED.system RETURNING report_id`,
    [identifier.system, identifier.value, id],
  );
  const held = must(rows[0], 'the identifier row the INSERT ... RETURNING returned').report_id;
  if (held !== id) throw new IdentifierHeld(held);
}

/** The order results are posted for: PostRefused when it does not exist (422) or is not active (409). */
async function activeOrderOf(client: PoolClient, orderId: string): Promise<ServiceRequestState> {
  const order = await loadOrder(client, orderId);
  if (!order)
    throw new PostRefused(
      'unknown order',
      unprocessable(`Order ${orderId} does not exist.`, [{ path: 'body.basedOn.0.reference', message: 'unknown order' }]),
    );
  if (order.status !== 'active')
    throw new PostRefused(
      'order not active',
      conflict(`Order ${order.id} is ${order.status}; results are posted for an active order.`, { current_status: order.status }),
    );
  return order;
}

/** A refused post, after its transaction rolled back: one failure row (on the report, else the order), then its problem. */
async function auditPostRefusal(pool: Pool, caller: Caller, action: string, orderId: string, refused: PostRefused): Promise<never> {
  await audit(pool, caller, {
    action,
    outcome: 'failure',
    scope: 'write:diagnostics',
    resourceType: refused.resourceId ? 'DiagnosticReport' : 'ServiceRequest',
    resourceId: refused.resourceId ?? orderId,
    detail: { reason: refused.reason },
  });
  throw refused.problem;
}

async function reportByIdentifier(pool: Pool, identifier: { system: string; value: string }): Promise<DiagnosticReportState | null> {
  const { rows } = await pool.query<{ report_id: string }>(
    'SELECT report_id FROM diagnostic_report_identifiers WHERE system = $1 AND value = $2',
    [identifier.system, identifier.value],
  );
  return rows[0] ? loadReport(pool, rows[0].report_id) : null;
}

async function redelivery(
  deps: DiagnosticsDeps,
  caller: Caller,
  existing: DiagnosticReportState,
  contentHash: string,
  action: string,
): Promise<{ report: DiagnosticReportState; created: boolean }> {
  const same = existing.revisions.length === 1 && existing.contentHash === contentHash;
  await audit(deps.pool, caller, {
    action,
    outcome: same ? 'success' : 'failure',
    scope: 'write:diagnostics',
    resourceType: 'DiagnosticReport',
    resourceId: existing.id,
    detail: { patient: existing.patientId, redelivery: true, ...(same ? {} : { reason: 'identifier names another content' }) },
  });
  if (!same)
    throw conflict(
      `The identifier ${existing.identifier.system}|${existing.identifier.value} already names report ${existing.id}; update that report (PUT) instead.`,
      { report_id: existing.id, current_status: existing.status },
    );
  return { report: existing, created: false };
}

type ReportChange =
  | { type: 'update'; status: ResultStatus; results: ResultInput[]; conclusion: string | null }
  | { type: 'amend'; status: 'amended' | 'corrected'; results: ResultInput[]; conclusion: string | null; reason: string }
  | { type: 'cancel'; reason?: string | undefined }
  | { type: 'enterInError'; reason?: string | undefined };

const REPORT_ACTION: Record<ReportChange['type'], string> = {
  update: 'diagnostics.report.update',
  amend: 'diagnostics.report.amend',
  cancel: 'diagnostics.report.cancel',
  enterInError: 'diagnostics.report.entered_in_error',
};

/** update (PUT), amend, cancel, enter-in-error a report; a report becoming final completes its order in the same transaction. */
export async function changeReport(
  deps: DiagnosticsDeps,
  caller: Caller,
  id: string,
  expected: number | '*' | undefined,
  change: ReportChange,
): Promise<DiagnosticReportState> {
  const { pool } = deps;
  const action = REPORT_ACTION[change.type];
  await requireCell(pool, caller, 'DiagnosticReport', 'write', action, id);
  const expectedVersion = versionOfIfMatch(expected);
  const by = caller.principal.subject;
  const now = new Date().toISOString();
  const decider: Decider<DiagnosticReportState | null, ReportChange, ReportEvent, DiagnosticReportDecideError> = {
    ...DIAGNOSTIC_REPORT_DECIDER,
    decide: (c, state) => DIAGNOSTIC_REPORT_DECIDER.decide(reportCommand(c, state, by, now, deps.escalationSeconds), state),
  };
  const outcome = await handleCommand(pool, decider, diagnosticReportStream(id), change, {
    metadata: metadataOf(caller, 'write:diagnostics'),
    expectedVersion,
    afterAppend: async (tx, r) => {
      if (change.type === 'update' && change.status === 'final')
        await completeOrderWith(tx, caller, must(r.before, 'the report as it was').orderId, id);
    },
    recorded: auditChange(caller, action, 'DiagnosticReport', id),
    refused: auditRefusal(pool, caller, action, 'DiagnosticReport', id),
  });
  if (!outcome.ok) throw refusalProblem('Report', id, outcome.error, expectedVersion);
  await publishCritical(deps, must(outcome.before, 'the report as it was').patientId, outcome.decided);
  return must(outcome.state, 'the state the decided events fold to');
}

/** The decider's command for a change of this report (an update's content hash names the report's order). */
function reportCommand(
  change: ReportChange,
  report: DiagnosticReportState | null,
  by: string,
  now: string,
  escalationSeconds: number,
): DiagnosticReportCommand {
  switch (change.type) {
    case 'update':
      return { ...change, contentHash: contentHashOf({ orderId: report?.orderId, ...change }), by, now, escalationSeconds };
    case 'amend':
      return { ...change, by, now, escalationSeconds };
    default:
      return { ...change, by };
  }
}
