/**
 * Orders (ServiceRequest, issue 21): create, read (current or a version), list from the projection,
 * change (activate, hold, revoke, enter in error), and the completion a final report appends.
 */
import { randomUUID } from 'node:crypto';
import { must } from '@vitalis/runtime';
import { countRows, type Pool, type PoolClient } from '@vitalis/db';
import { handleCommand, inTransaction, readStream, readStreams } from '@vitalis/eventstore';
import { notFound } from '@vitalis/http';
import { ORDERABLE_TESTS, type OrderableCode } from '@vitalis/clinical';
import {
  foldServiceRequest,
  SERVICE_REQUEST_DECIDER,
  serviceRequestStream,
  type ServiceRequestCommand,
  type ServiceRequestPriority,
  type ServiceRequestState,
  type ServiceRequestStatus,
} from '@vitalis/records';
import { audit, metadataOf, type Caller, versionOfIfMatch } from '../access/caller';
import { loadPatient } from '../patients/service';
import { auditChange, auditRefusal, type ListPosition, refusalProblem, requireCell, unprocessable } from './workflow';

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

export interface OrderQuery {
  patientId?: string | undefined;
  status?: ServiceRequestStatus[] | undefined;
  code?: string | undefined;
  /** Any of these codes (FHIR `code=a,b`). */
  codes?: readonly string[] | undefined;
  /** meta.lastUpdated bounds [from, to) (ISO instants). */
  updatedFrom?: string | undefined;
  updatedTo?: string | undefined;
  /** Count the matches instead (FHIR `_summary=count`): `total`, no orders. */
  countOnly?: boolean | undefined;
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
): Promise<{ orders: ServiceRequestState[]; next: ListPosition | null; total?: number }> {
  await requireCell(pool, caller, 'ServiceRequest', 'read', 'diagnostics.order.list');
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => `$${args.push(v)}`;
  if (q.patientId) where.push(`patient_id = ${arg(q.patientId)}`);
  if (q.status?.length) where.push(`status = ANY(${arg(q.status)}::text[])`);
  if (q.code) where.push(`code = ${arg(q.code)}`);
  if (q.codes) where.push(`code = ANY(${arg(q.codes)}::text[])`);
  if (q.updatedFrom) where.push(`updated_at >= ${arg(q.updatedFrom)}::timestamptz`);
  if (q.updatedTo) where.push(`updated_at < ${arg(q.updatedTo)}::timestamptz`);
  if (q.countOnly) {
    const total = await countRows(pool, 'rm_service_requests', where, args);
    await audit(pool, caller, {
      action: 'diagnostics.order.list',
      scope: 'read:diagnostics',
      resourceType: 'ServiceRequest',
      detail: { patient: q.patientId ?? null, count: total },
    });
    return { orders: [], next: null, total };
  }
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

/** Appends the order's completion with a final report, in the report's transaction (a missing or completed order stays as it is). */
export async function completeOrderWith(client: PoolClient, caller: Caller, orderId: string, reportId: string): Promise<void> {
  const complete = { type: 'complete' as const, reportId };
  const outcome = await handleCommand(inTransaction(client), SERVICE_REQUEST_DECIDER, serviceRequestStream(orderId), complete, {
    metadata: metadataOf(caller, 'write:diagnostics'),
  });
  if (outcome.ok) return;
  const e = outcome.error;
  if (e.kind === 'not-found' || (e.kind === 'illegal-transition' && e.from === 'completed')) return;
  throw refusalProblem('Order', orderId, e, undefined);
}
