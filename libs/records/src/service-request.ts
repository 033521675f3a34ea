/**
 * Diagnostic orders: FHIR R4 ServiceRequest, one event stream per order (`serviceRequest-<id>`).
 * A pure decider in the Emmett style: `decideServiceRequest(command, state)` returns the events a
 * command produces or the reason it is refused (an illegal transition names the current state);
 * `evolveServiceRequest(state, event)` folds. The gateway decides and appends at the version it
 * folded; the projector folds the same events into rm_service_requests.
 *
 * Transitions (FHIR request-status): draft → active | revoked | entered-in-error;
 * active → on-hold | revoked | completed | entered-in-error; on-hold → active | revoked |
 * entered-in-error; revoked and completed → entered-in-error only; entered-in-error is final.
 */
import { STREAM_CATEGORIES, streamName, type Decider, type Decision as StoreDecision } from '@vitalis/eventstore';

export const serviceRequestStream = (id: string) => streamName(STREAM_CATEGORIES.serviceRequest, id);

export const SERVICE_REQUEST_STATUSES = ['draft', 'active', 'on-hold', 'revoked', 'completed', 'entered-in-error'] as const;
export type ServiceRequestStatus = (typeof SERVICE_REQUEST_STATUSES)[number];
export const SERVICE_REQUEST_PRIORITIES = ['routine', 'urgent', 'asap', 'stat'] as const;
export type ServiceRequestPriority = (typeof SERVICE_REQUEST_PRIORITIES)[number];
export type ServiceRequestIntent = 'order' | 'proposal';

// a type alias (not an interface) so event data is a plain record for the event store
export type ServiceRequestDetails = {
  id: string;
  patientId: string;
  intent: ServiceRequestIntent;
  priority: ServiceRequestPriority;
  /** LOINC code from @vitalis/clinical ORDERABLE_TESTS. */
  code: string;
  reason: string | null;
  /** Who ordered (the token's subject). */
  requester: string;
  /** The performing department. */
  performer: string;
  note: string | null;
};

export interface ServiceRequestState extends ServiceRequestDetails {
  version: number;
  status: ServiceRequestStatus;
  authoredAt: string;
  updatedAt: string;
  /** Why it was revoked, held or marked in error (the latest such reason). */
  statusReason: string | null;
}

export const SERVICE_REQUEST_EVENTS = {
  created: 'ServiceRequestCreated',
  activated: 'ServiceRequestActivated',
  held: 'ServiceRequestPutOnHold',
  revoked: 'ServiceRequestRevoked',
  completed: 'ServiceRequestCompleted',
  enteredInError: 'ServiceRequestEnteredInError',
} as const;

export type ServiceRequestEvent =
  | { type: typeof SERVICE_REQUEST_EVENTS.created; data: ServiceRequestDetails & { status: 'draft' | 'active' } }
  | { type: typeof SERVICE_REQUEST_EVENTS.activated; data: { reason?: string } }
  | { type: typeof SERVICE_REQUEST_EVENTS.held; data: { reason?: string } }
  | { type: typeof SERVICE_REQUEST_EVENTS.revoked; data: { reason?: string } }
  | { type: typeof SERVICE_REQUEST_EVENTS.completed; data: { reportId: string } }
  | { type: typeof SERVICE_REQUEST_EVENTS.enteredInError; data: { reason?: string } };

export type ServiceRequestCommand =
  | { type: 'create'; details: ServiceRequestDetails; status: 'draft' | 'active' }
  | { type: 'activate'; reason?: string }
  | { type: 'hold'; reason?: string }
  | { type: 'revoke'; reason?: string }
  | { type: 'complete'; reportId: string }
  | { type: 'enterInError'; reason?: string };

/** Why a command was refused; the gateway maps it to a problem (409 names the current state). */
export type DecideError = { kind: 'not-found' } | { kind: 'already-exists' } | { kind: 'illegal-transition'; from: string; to: string };

/** A decider's answer (the command handler's, @vitalis/eventstore), refused with the orders' and reports' DecideError by default. */
export type Decision<E, Refusal extends { kind: string } = DecideError> = StoreDecision<E, Refusal>;

/** The statuses each status may move to (FHIR request-status). */
export const SERVICE_REQUEST_TRANSITIONS: Record<ServiceRequestStatus, readonly ServiceRequestStatus[]> = {
  draft: ['active', 'revoked', 'entered-in-error'],
  active: ['on-hold', 'revoked', 'completed', 'entered-in-error'],
  'on-hold': ['active', 'revoked', 'entered-in-error'],
  revoked: ['entered-in-error'],
  completed: ['entered-in-error'],
  'entered-in-error': [],
};

const TARGET: Record<Exclude<ServiceRequestCommand['type'], 'create'>, ServiceRequestStatus> = {
  activate: 'active',
  hold: 'on-hold',
  revoke: 'revoked',
  complete: 'completed',
  enterInError: 'entered-in-error',
};

const reasonOf = (c: { reason?: string }) => (c.reason ? { reason: c.reason } : {});

export function decideServiceRequest(command: ServiceRequestCommand, state: ServiceRequestState | null): Decision<ServiceRequestEvent> {
  if (command.type === 'create') {
    if (state) return { ok: false, error: { kind: 'already-exists' } };
    return { ok: true, events: [{ type: SERVICE_REQUEST_EVENTS.created, data: { ...command.details, status: command.status } }] };
  }
  if (!state) return { ok: false, error: { kind: 'not-found' } };
  const to = TARGET[command.type];
  if (!SERVICE_REQUEST_TRANSITIONS[state.status].includes(to))
    return { ok: false, error: { kind: 'illegal-transition', from: state.status, to } };
  switch (command.type) {
    case 'activate':
      return { ok: true, events: [{ type: SERVICE_REQUEST_EVENTS.activated, data: reasonOf(command) }] };
    case 'hold':
      return { ok: true, events: [{ type: SERVICE_REQUEST_EVENTS.held, data: reasonOf(command) }] };
    case 'revoke':
      return { ok: true, events: [{ type: SERVICE_REQUEST_EVENTS.revoked, data: reasonOf(command) }] };
    case 'complete':
      return { ok: true, events: [{ type: SERVICE_REQUEST_EVENTS.completed, data: { reportId: command.reportId } }] };
    case 'enterInError':
      return { ok: true, events: [{ type: SERVICE_REQUEST_EVENTS.enteredInError, data: reasonOf(command) }] };
  }
}

interface Folded {
  type: string;
  data: Record<string, unknown>;
  streamVersion: number;
  recordedAt: string;
}

const STATUS_AFTER: Record<string, ServiceRequestStatus> = {
  [SERVICE_REQUEST_EVENTS.activated]: 'active',
  [SERVICE_REQUEST_EVENTS.held]: 'on-hold',
  [SERVICE_REQUEST_EVENTS.revoked]: 'revoked',
  [SERVICE_REQUEST_EVENTS.completed]: 'completed',
  [SERVICE_REQUEST_EVENTS.enteredInError]: 'entered-in-error',
};

export function evolveServiceRequest(state: ServiceRequestState | null, e: Folded): ServiceRequestState | null {
  if (e.type === SERVICE_REQUEST_EVENTS.created) {
    const d = e.data as unknown as ServiceRequestDetails & { status: 'draft' | 'active' };
    return {
      id: d.id,
      patientId: d.patientId,
      intent: d.intent,
      priority: d.priority,
      code: d.code,
      reason: d.reason ?? null,
      requester: d.requester,
      performer: d.performer,
      note: d.note ?? null,
      version: e.streamVersion,
      status: d.status,
      authoredAt: e.recordedAt,
      updatedAt: e.recordedAt,
      statusReason: null,
    };
  }
  if (!state) return null;
  const status = STATUS_AFTER[e.type];
  if (!status) return { ...state, version: e.streamVersion };
  const reason = typeof e.data.reason === 'string' ? e.data.reason : null;
  return { ...state, version: e.streamVersion, status, updatedAt: e.recordedAt, statusReason: reason ?? state.statusReason };
}

export const foldServiceRequest = (events: Folded[]) => events.reduce<ServiceRequestState | null>(evolveServiceRequest, null);

/** The order decider for the command handler. */
export const SERVICE_REQUEST_DECIDER: Decider<ServiceRequestState | null, ServiceRequestCommand, ServiceRequestEvent, DecideError> = {
  initialState: () => null,
  evolve: evolveServiceRequest,
  decide: decideServiceRequest,
};
