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
 */
import { createHash, randomUUID } from 'node:crypto';
import { must } from '@vitalis/runtime';
import { withTransaction, type Pool, type PoolClient } from '@vitalis/db';
import {
  ConcurrencyError,
  handleCommand,
  inTransaction,
  readStream,
  readStreams,
  type Decider,
  type StoredEvent,
  type VersionConflict,
} from '@vitalis/eventstore';
import { conflict, type HttpProblem, notFound, preconditionFailed, problemOf } from '@vitalis/http';
import { ANALYTES, ORDERABLE_TESTS, criticalLimitCrossed, type OrderableCode } from '@vitalis/clinical';
import { publishCriticalNotice, type CriticalResultEventName } from '@vitalis/live';
import type { Redis } from '@vitalis/redis';
import {
  CRITICAL_RESULT_EVENT_TYPES,
  DIAGNOSTIC_REPORT_DECIDER,
  diagnosticReportStream,
  foldDiagnosticReport,
  foldServiceRequest,
  isReleasedStatus,
  SERVICE_REQUEST_DECIDER,
  serviceRequestStream,
  type DecideError,
  type DiagnosticReportCommand,
  type DiagnosticReportDecideError,
  type CriticalResult,
  type CriticalState,
  type DiagnosticReportState,
  type ReportEvent,
  type ResultInput,
  type ResultStatus,
  type ServiceRequestCommand,
  type ServiceRequestPriority,
  type ServiceRequestState,
  type ServiceRequestStatus,
  type ResultValue,
} from '@vitalis/records';
import { insufficientScope } from '../access/refusal';
import { audit, metadataOf, type Caller, versionOfIfMatch } from '../access/caller';
import { access, reach, type PolicyAction, type RefusalReason } from '../access/policy';
import { findUser } from '../auth/users';
import { loadPatient } from '../patients/service';

export interface DiagnosticsDeps {
  pool: Pool;
  redis: Redis;
  /** DIAGNOSTICS_ESCALATION_SECONDS: an unacknowledged critical result escalates this long after it was raised. */
  escalationSeconds: number;
}

// ---- access ----

async function refuse(
  pool: Pool,
  caller: Caller,
  action: string,
  scope: string,
  resourceType: string,
  resourceId: string | undefined,
  detail: string,
  reason: RefusalReason = 'forbidden',
): Promise<never> {
  await audit(pool, caller, { action, outcome: 'failure', scope, resourceType, ...(resourceId ? { resourceId } : {}), detail: { reason } });
  // The one 403 contract (auth/oauth-errors): the scope the refused act needs, and why it was not enough.
  throw insufficientScope([scope], { detail });
}

/** The access policy's cell for an order or report act (access/policy.ts): refused and audited when it does not allow it. */
async function requireCell<R extends 'ServiceRequest' | 'DiagnosticReport' | 'CriticalResult'>(
  pool: Pool,
  caller: Caller,
  resource: R,
  policyAction: PolicyAction<R>,
  action: string,
  resourceId?: string,
): Promise<void> {
  const decision = reach(caller.principal, resource, policyAction);
  // the audit row keeps why (a machine refused a user-only act: `no user`)
  if (!decision.allowed)
    await refuse(
      pool,
      caller,
      action,
      decision.scope,
      resource === 'CriticalResult' ? 'DiagnosticReport' : resource,
      resourceId,
      decision.detail,
      decision.reason === 'no user' ? 'no user' : 'forbidden',
    );
}

// ---- problems ----

export const unprocessable = (detail: string, errors: { path: string; message: string }[] = []) =>
  problemOf('unprocessable', detail, errors.length ? { errors } : {});

/** A refused decision as a problem: an illegal transition is a 409 naming the current state. */
function decisionProblem(what: string, id: string, e: DecideError): HttpProblem {
  if (e.kind === 'not-found') return notFound(`${what} ${id} does not exist.`);
  if (e.kind === 'already-exists') return conflict(`${what} ${id} already exists.`);
  return conflict(`${what} ${id} is ${e.from}; it cannot become ${e.to}.`, { current_status: e.from, requested_status: e.to });
}

/** Why a command on an order or a report was refused: the deciders' refusals and the command handler's. */
type Refusal = DiagnosticReportDecideError | VersionConflict;

/**
 * A refused command on an order or a report as a problem: the decider's refusals (decisionProblem),
 * a result that cannot be interpreted (422 with the offending Observation's path; nothing is
 * stored), a version other than If-Match's (412), a concurrent change (412 with If-Match, else 409).
 */
function refusalProblem(what: 'Order' | 'Report', id: string, e: Refusal, expected: number | undefined): HttpProblem {
  const name = what.toLowerCase();
  switch (e.kind) {
    case 'invalid-result':
      return unprocessable(e.message, [{ path: `body.contained.${e.index}`, message: e.message }]);
    case 'version-mismatch':
      return preconditionFailed(`The ${name} is at version ${e.actual}, not ${e.expected}; read it again and retry.`);
    case 'concurrent-change':
      return expected !== undefined
        ? preconditionFailed(`The ${name} was changed concurrently; read it again and retry.`)
        : conflict(`The ${name} was changed concurrently; retry.`);
    default:
      return decisionProblem(what, id, e);
  }
}

/** The reason a refusal's audit row records; none: answered, not audited (an uninterpretable result, as a 422 before). */
const REFUSAL_REASONS: Record<Refusal['kind'], string | undefined> = {
  'not-found': 'not found',
  'already-exists': 'refused',
  'illegal-transition': 'illegal transition',
  'invalid-result': undefined,
  'version-mismatch': 'version mismatch',
  'concurrent-change': 'concurrent change',
};

/** The command handler's `recorded` callback for a change of an order or report: its patient, the status it left, the event. */
function auditChange(caller: Caller, action: string, resourceType: 'ServiceRequest' | 'DiagnosticReport', id: string) {
  return (tx: PoolClient, r: { before: { patientId: string; status: string } | null; decided: { type: string }[] }): Promise<void> => {
    const before = must(r.before, `${resourceType} ${id} as it was (a change needs one)`);
    const detail = { patient: before.patientId, from: before.status, type: must(r.decided[0], 'the decided event').type };
    return audit(tx, caller, { action, scope: 'write:diagnostics', resourceType, resourceId: id, detail });
  };
}

/** The command handler's `refused` callback for an order or report command: one failure row, with the refusal's reason. */
function auditRefusal(
  pool: Pool,
  caller: Caller,
  action: string,
  resourceType: 'ServiceRequest' | 'DiagnosticReport',
  id: string,
  reasons = REFUSAL_REASONS,
) {
  return async (e: Refusal): Promise<void> => {
    const reason = reasons[e.kind];
    if (!reason) return;
    await audit(pool, caller, { action, outcome: 'failure', scope: 'write:diagnostics', resourceType, resourceId: id, detail: { reason } });
  };
}

// ---- orders ----

export const loadOrder = async (db: Pool | PoolClient, id: string) => foldServiceRequest(await readStream(db, serviceRequestStream(id)));
const mintOrderId = () => `sr-${randomUUID().replace(/-/g, '').slice(0, 12)}`;

export interface OrderInput {
  patientId: string;
  code: OrderableCode;
  priority: ServiceRequestPriority;
  intent?: 'order' | 'proposal';
  /** draft (a proposal, or an order to sign later) or active (default for an order). */
  status?: 'draft' | 'active';
  reason?: string | undefined;
  note?: string | undefined;
}

export async function createOrder(pool: Pool, caller: Caller, input: OrderInput): Promise<ServiceRequestState> {
  await requireCell(pool, caller, 'ServiceRequest', 'write', 'diagnostics.order.create');
  if (!(await loadPatient(pool, input.patientId))) {
    await audit(pool, caller, {
      action: 'diagnostics.order.create',
      outcome: 'failure',
      scope: 'write:diagnostics',
      resourceType: 'Patient',
      resourceId: input.patientId,
      detail: { reason: 'unknown patient' },
    });
    throw unprocessable(`Patient ${input.patientId} does not exist.`, [{ path: 'body.subject', message: 'unknown patient' }]);
  }
  const id = mintOrderId();
  const intent = input.intent ?? 'order';
  const status = input.status ?? (intent === 'proposal' ? 'draft' : 'active');
  const test = ORDERABLE_TESTS[input.code];
  const details = {
    id,
    patientId: input.patientId,
    intent,
    priority: input.priority,
    code: test.code,
    reason: input.reason ?? null,
    requester: caller.principal.subject,
    performer: test.performer,
    note: input.note ?? null,
  };
  const outcome = await handleCommand(
    pool,
    SERVICE_REQUEST_DECIDER,
    serviceRequestStream(id),
    { type: 'create', status, details },
    {
      metadata: metadataOf(caller, 'write:diagnostics'),
      recorded: (tx) =>
        audit(tx, caller, {
          action: 'diagnostics.order.create',
          scope: 'write:diagnostics',
          resourceType: 'ServiceRequest',
          resourceId: id,
          detail: { patient: input.patientId, code: test.code, priority: input.priority, status },
        }),
    },
  );
  if (!outcome.ok) throw refusalProblem('Order', id, outcome.error, undefined);
  return must(outcome.state, 'the state the decided events fold to');
}

/** An order, current or as it was at stream version `version` (FHIR vread); audited either way. */
export async function getOrder(pool: Pool, caller: Caller, id: string, version?: number): Promise<ServiceRequestState> {
  await requireCell(pool, caller, 'ServiceRequest', 'read', 'diagnostics.order.read', id);
  const events = await readStream(pool, serviceRequestStream(id));
  const order = foldServiceRequest(version === undefined ? events : events.filter((e) => e.streamVersion <= version));
  if (!order || (version !== undefined && order.version !== version)) {
    await audit(pool, caller, {
      action: 'diagnostics.order.read',
      outcome: 'failure',
      scope: 'read:diagnostics',
      resourceType: 'ServiceRequest',
      resourceId: id,
      detail: { reason: 'not found', ...(version !== undefined ? { version } : {}) },
    });
    throw notFound(version === undefined || !order ? `Order ${id} does not exist.` : `Order ${id} has no version ${version}.`);
  }
  await audit(pool, caller, {
    action: 'diagnostics.order.read',
    scope: 'read:diagnostics',
    resourceType: 'ServiceRequest',
    resourceId: id,
    detail: { patient: order.patientId, ...(version !== undefined ? { version } : {}) },
  });
  return order;
}

/** Where a listing page ended (keyset: newest first, then by id); `t` is PostgreSQL's text of the timestamp (microseconds). */
export interface ListPosition {
  t: string;
  i: string;
}
export interface OrderQuery {
  patientId?: string | undefined;
  status?: ServiceRequestStatus[] | undefined;
  code?: string | undefined;
  limit: number;
  after?: ListPosition | undefined;
}

/** Orders from the projection (one projector tick behind), each rendered from its stream. */
export async function listOrders(pool: Pool, caller: Caller, q: OrderQuery): Promise<ServiceRequestState[]> {
  return (await searchOrders(pool, caller, q)).orders;
}

/** listOrders with paging: `next` is where the page ended when there are more. */
export async function searchOrders(
  pool: Pool,
  caller: Caller,
  q: OrderQuery,
): Promise<{ orders: ServiceRequestState[]; next: ListPosition | null }> {
  await requireCell(pool, caller, 'ServiceRequest', 'read', 'diagnostics.order.list');
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  if (q.patientId) where.push(`patient_id = ${arg(q.patientId)}`);
  if (q.status?.length) where.push(`status = ANY(${arg(q.status)}::text[])`);
  if (q.code) where.push(`code = ${arg(q.code)}`);
  if (q.after)
    where.push(
      `(authored_at < ${arg(q.after.t)}::timestamptz OR (authored_at = ${arg(q.after.t)}::timestamptz AND request_id > ${arg(q.after.i)}))`,
    );
  const { rows } = await pool.query<{ request_id: string; t: string }>(
    `SELECT request_id, authored_at::text AS t FROM rm_service_requests ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY authored_at DESC, request_id LIMIT ${arg(q.limit + 1)}`,
    args,
  );
  const page = rows.slice(0, q.limit);
  const streams = await readStreams(
    pool,
    page.map((r) => serviceRequestStream(r.request_id)),
  );
  const orders = page
    .map((r) => foldServiceRequest(streams.get(serviceRequestStream(r.request_id)) ?? []))
    .filter((o): o is ServiceRequestState => o !== null);
  await audit(pool, caller, {
    action: 'diagnostics.order.list',
    scope: 'read:diagnostics',
    resourceType: 'ServiceRequest',
    detail: { patient: q.patientId ?? null, status: q.status ?? null, results: orders.length, ids: orders.map((o) => o.id).slice(0, 100) },
  });
  const last = page[page.length - 1];
  return { orders, next: rows.length > q.limit && last ? { t: last.t, i: last.request_id } : null };
}

type OrderTransition = Exclude<ServiceRequestCommand, { type: 'create' } | { type: 'complete' }>;
const ORDER_ACTION: Record<OrderTransition['type'], string> = {
  activate: 'diagnostics.order.activate',
  hold: 'diagnostics.order.hold',
  revoke: 'diagnostics.order.revoke',
  enterInError: 'diagnostics.order.entered_in_error',
};

/** activate / hold / revoke (cancel) / enterInError an order, at `expected` (If-Match) or the version just read. */
export async function changeOrder(
  pool: Pool,
  caller: Caller,
  id: string,
  expected: number | '*' | undefined,
  command: OrderTransition,
): Promise<ServiceRequestState> {
  const action = ORDER_ACTION[command.type];
  await requireCell(pool, caller, 'ServiceRequest', 'write', action, id);
  const expectedVersion = versionOfIfMatch(expected);
  const outcome = await handleCommand(pool, SERVICE_REQUEST_DECIDER, serviceRequestStream(id), command, {
    metadata: metadataOf(caller, 'write:diagnostics'),
    expectedVersion,
    recorded: auditChange(caller, action, 'ServiceRequest', id),
    refused: auditRefusal(pool, caller, action, 'ServiceRequest', id),
  });
  if (!outcome.ok) throw refusalProblem('Order', id, outcome.error, expectedVersion);
  return must(outcome.state, 'the state the decided events fold to');
}

// ---- reports ----

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

async function publishCritical(deps: DiagnosticsDeps, patientId: string, events: ReportEvent[]): Promise<void> {
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

/** Appends the order's completion with a final report, in the report's transaction (a missing or completed order stays as it is). */
async function completeOrderWith(client: PoolClient, caller: Caller, orderId: string, reportId: string): Promise<void> {
  const complete = { type: 'complete' as const, reportId };
  const outcome = await handleCommand(inTransaction(client), SERVICE_REQUEST_DECIDER, serviceRequestStream(orderId), complete, {
    metadata: metadataOf(caller, 'write:diagnostics'),
  });
  if (outcome.ok) return;
  const e = outcome.error;
  if (e.kind === 'not-found' || (e.kind === 'illegal-transition' && e.from === 'completed')) return;
  throw refusalProblem('Order', orderId, e, undefined);
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
  const fail = async (reason: string, problem: HttpProblem, resourceId?: string): Promise<never> => {
    await audit(pool, caller, {
      action,
      outcome: 'failure',
      scope: 'write:diagnostics',
      resourceType: resourceId ? 'DiagnosticReport' : 'ServiceRequest',
      resourceId: resourceId ?? input.orderId,
      detail: { reason },
    });
    throw problem;
  };
  const id = mintReportId();
  const now = new Date().toISOString();
  let posted: { order: ServiceRequestState; events: ReportEvent[] };
  try {
    // The identifier is claimed first, in the transaction: a concurrent post of the same identifier
    // waits on that row until this one commits (then it is a redelivery of this report) or rolls
    // back (then it posts). The order is read after the claim, so the poster that waited never sees
    // the order its twin completed and mistakes the redelivery for a post on a completed order.
    posted = await withTransaction(pool, async (client) => {
      const { rows } = await client.query<{ report_id: string }>(
        `INSERT INTO diagnostic_report_identifiers (system, value, report_id) VALUES ($1, $2, $3)
         ON CONFLICT (system, value) DO UPDATE SET system = EXCLUDED.system RETURNING report_id`,
        [input.identifier.system, input.identifier.value, id],
      );
      const held = must(rows[0], 'the identifier row the INSERT ... RETURNING returned').report_id;
      if (held !== id) throw new IdentifierHeld(held);
      const order = await loadOrder(client, input.orderId);
      if (!order)
        throw new PostRefused(
          'unknown order',
          unprocessable(`Order ${input.orderId} does not exist.`, [{ path: 'body.basedOn.0.reference', message: 'unknown order' }]),
        );
      if (order.status !== 'active')
        throw new PostRefused(
          'order not active',
          conflict(`Order ${order.id} is ${order.status}; results are posted for an active order.`, { current_status: order.status }),
        );
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
    });
  } catch (err) {
    if (err instanceof IdentifierHeld) {
      const held = await loadReport(pool, err.reportId);
      if (held) return redelivery(deps, caller, held, contentHash, action);
    }
    if (err instanceof PostRefused) return fail(err.reason, err.problem, err.resourceId);
    if (err instanceof ConcurrencyError)
      return fail('concurrent change', conflict(`Order ${input.orderId} changed while the report was posted; retry.`));
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
): Promise<{ reports: DiagnosticReportState[]; next: ListPosition | null }> {
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

// ---- critical results ----

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

export type { StoredEvent };
