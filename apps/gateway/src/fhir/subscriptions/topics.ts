/**
 * The FHIR topic-based subscriptions of /fhir/R4 (Subscriptions R5 Backport IG, R4 representation,
 * http://hl7.org/fhir/uv/subscriptions-backport): the two topics Vitalis offers, the IG's profile and
 * extension URLs, and the Subscription resource as the IG's R4 profile has it (criteria = the topic
 * canonical, filters in `_criteria` extensions, payload content and heartbeat as channel extensions).
 * One owner for these names: routes, notifications, the CapabilityStatement read them from here.
 */
import { must } from '@vitalis/runtime';
import { badRequest } from '@vitalis/http';
import { patientIdOf, vitalCodeOf } from '../search-params';

const IG = 'http://hl7.org/fhir/uv/subscriptions-backport';

export const BACKPORT = {
  subscriptionProfile: `${IG}/StructureDefinition/backport-subscription`,
  notificationProfile: `${IG}/StructureDefinition/backport-subscription-notification-r4`,
  statusProfile: `${IG}/StructureDefinition/backport-subscription-status-r4`,
  filterCriteria: `${IG}/StructureDefinition/backport-filter-criteria`,
  payloadContent: `${IG}/StructureDefinition/backport-payload-content`,
  heartbeatPeriod: `${IG}/StructureDefinition/backport-heartbeat-period`,
  topicCanonical: `${IG}/StructureDefinition/capabilitystatement-subscriptiontopic-canonical`,
  statusOperation: `${IG}/OperationDefinition/backport-subscription-status`,
  eventsOperation: `${IG}/OperationDefinition/backport-subscription-events`,
  wsTokenOperation: `${IG}/OperationDefinition/backport-subscription-get-ws-binding-token`,
} as const;

export type TopicName = 'vitals' | 'alerts';

/**
 * The topics (SubscriptionTopic canonical URLs): what each watches, the resource its notifications
 * carry, and whether that resource has a read URL here (`GET Observation/{id}`: then payload
 * id-only is offered, its entries naming that URL; a Flag is not served on its own).
 */
export const SUBSCRIPTION_TOPICS: Record<
  TopicName,
  { url: string; focus: 'Observation' | 'Flag'; readable: boolean; description: string }
> = {
  vitals: {
    url: 'https://vitalis.example/fhir/SubscriptionTopic/patient-vitals',
    focus: 'Observation',
    readable: true,
    description:
      'A vital-sign Observation of one patient is stored. Filter: Observation?patient=Patient/{id} (required), &code={system|code} (optional, repeatable).',
  },
  alerts: {
    url: 'https://vitalis.example/fhir/SubscriptionTopic/patient-vitals-alerts',
    focus: 'Flag',
    readable: false,
    description:
      'A vitals alert of one patient is raised or cleared (a Flag, active or inactive). Filter: Flag?patient=Patient/{id} (required).',
  },
};

export const topicOfUrl = (url: string): TopicName | undefined =>
  (Object.keys(SUBSCRIPTION_TOPICS) as TopicName[]).find((t) => SUBSCRIPTION_TOPICS[t].url === url);

export type PayloadContent = 'empty' | 'id-only' | 'full-resource';

/** What a posted Subscription asks for, checked. */
export interface SubscriptionRequest {
  topic: TopicName;
  patientId: string;
  codes: string[] | null;
  reason: string;
  payloadContent: PayloadContent;
  heartbeatSeconds: number | null;
}

interface Extension {
  url: string;
  valueString?: unknown;
  valueCode?: unknown;
  valueUnsignedInt?: unknown;
}

const extensionsOf = (v: unknown): Extension[] =>
  Array.isArray(v) ? v.filter((e): e is Extension => typeof e === 'object' && e !== null && typeof (e as Extension).url === 'string') : [];

/**
 * The filters of a topic (`_criteria.extension` backport-filter-criteria, `Observation?patient=…&code=…`
 * or `Flag?patient=…`): exactly one patient; codes for the vitals topic only.
 */
function filtersOf(topic: TopicName, filters: string[]): { patientId: string; codes: string[] | null } {
  const focus = SUBSCRIPTION_TOPICS[topic].focus;
  const patients = new Set<string>();
  const codes = new Set<string>();
  for (const f of filters) {
    const q = f.indexOf('?');
    if (q < 0 || f.slice(0, q) !== focus)
      throw badRequest(
        `A filter of this topic reads ${focus}?patient=Patient/{id}${topic === 'vitals' ? '[&code=system|code]' : ''}; got ${JSON.stringify(f.slice(0, 200))}.`,
      );
    for (const [name, value] of new URLSearchParams(f.slice(q + 1))) {
      if (name === 'patient' || name === 'subject') patients.add(patientIdOf(name, value));
      else if (name === 'code' && topic === 'vitals') {
        for (const token of value.split(',')) {
          const code = vitalCodeOf(token);
          if (code === null) throw badRequest(`code ${JSON.stringify(token.slice(0, 100))} is not a vital sign Vitalis stores.`);
          codes.add(code);
        }
      } else throw badRequest(`The filter parameter ${JSON.stringify(name.slice(0, 50))} is not supported by this topic.`);
    }
  }
  if (patients.size !== 1) throw badRequest('A subscription watches exactly one patient: give one filter with patient=Patient/{id}.');
  return { patientId: must([...patients][0], 'the one watched patient'), codes: codes.size ? [...codes].sort() : null };
}

/**
 * A posted R4 Subscription (backport profile) as what it asks for; 400 when it is not one this
 * server serves. Only the websocket channel (the IG's own: `$get-ws-binding-token`); rest-hook would
 * make the gateway POST patient data to any URL a client names, so it is refused.
 */
export function subscriptionRequestOf(body: Record<string, unknown>): SubscriptionRequest {
  if (body.resourceType !== 'Subscription') throw badRequest('The body must be a FHIR R4 Subscription (resourceType Subscription).');
  if (body.status !== undefined && body.status !== 'requested' && body.status !== 'active')
    throw badRequest('A new Subscription has status requested (or active).');
  const criteria = body.criteria;
  const topic = typeof criteria === 'string' ? topicOfUrl(criteria) : undefined;
  if (!topic)
    throw badRequest(
      `criteria must be a topic canonical URL this server offers: ${Object.values(SUBSCRIPTION_TOPICS)
        .map((t) => t.url)
        .join(', ')}.`,
    );
  const criteriaElement = (body._criteria ?? {}) as { extension?: unknown };
  const filters = extensionsOf(criteriaElement.extension)
    .filter((e) => e.url === BACKPORT.filterCriteria)
    .map((e) => e.valueString);
  if (filters.some((f) => typeof f !== 'string')) throw badRequest('A backport-filter-criteria extension has a valueString.');
  const { patientId, codes } = filtersOf(topic, filters as string[]);
  const reason = typeof body.reason === 'string' && body.reason.trim() ? body.reason.trim().slice(0, 500) : undefined;
  if (!reason) throw badRequest('reason is required (R4 Subscription.reason, 1..1).');
  const channel = (body.channel ?? {}) as Record<string, unknown>;
  if (channel.type !== 'websocket')
    throw badRequest('channel.type must be websocket (the only channel served: bind with Subscription/{id}/$get-ws-binding-token).');
  const channelExt = extensionsOf(channel.extension);
  const payload = (channel._payload ?? {}) as { extension?: unknown };
  const content = extensionsOf(payload.extension).find((e) => e.url === BACKPORT.payloadContent)?.valueCode ?? 'full-resource';
  if (content !== 'full-resource' && content !== 'empty' && content !== 'id-only')
    throw badRequest('payload content is full-resource, id-only or empty.');
  if (content === 'id-only' && !SUBSCRIPTION_TOPICS[topic].readable)
    throw badRequest(
      `payload content id-only needs a readable focus, and a ${SUBSCRIPTION_TOPICS[topic].focus} here has no read URL; use full-resource or empty.`,
    );
  if (channel.payload !== undefined && channel.payload !== 'application/fhir+json' && channel.payload !== 'application/json')
    throw badRequest('channel.payload must be application/fhir+json.');
  const heartbeat = channelExt.find((e) => e.url === BACKPORT.heartbeatPeriod)?.valueUnsignedInt;
  if (heartbeat !== undefined && (typeof heartbeat !== 'number' || !Number.isInteger(heartbeat) || heartbeat < 1 || heartbeat > 3_600))
    throw badRequest('backport-heartbeat-period is an unsignedInt of seconds, 1-3600.');
  return { topic, patientId, codes, reason, payloadContent: content, heartbeatSeconds: (heartbeat as number | undefined) ?? null };
}

/** A stored subscription (store.ts row). */
export interface StoredSubscription {
  id: string;
  topic: TopicName;
  patientId: string;
  codes: string[] | null;
  status: 'active' | 'off' | 'error';
  reason: string;
  payloadContent: PayloadContent;
  heartbeatSeconds: number | null;
  lastEventNumber: number;
}

/** The R4 Subscription resource (backport profile) of a stored subscription. */
export function toFhirSubscription(s: StoredSubscription) {
  const filters: string[] = [
    `${SUBSCRIPTION_TOPICS[s.topic].focus}?patient=Patient/${s.patientId}${(s.codes ?? []).map((c) => `&code=${c}`).join('')}`,
  ];
  return {
    resourceType: 'Subscription' as const,
    id: s.id,
    meta: { profile: [BACKPORT.subscriptionProfile] },
    status: s.status,
    reason: s.reason,
    criteria: SUBSCRIPTION_TOPICS[s.topic].url,
    _criteria: { extension: filters.map((f) => ({ url: BACKPORT.filterCriteria, valueString: f })) },
    channel: {
      ...(s.heartbeatSeconds !== null ? { extension: [{ url: BACKPORT.heartbeatPeriod, valueUnsignedInt: s.heartbeatSeconds }] } : {}),
      type: 'websocket',
      payload: 'application/fhir+json',
      _payload: { extension: [{ url: BACKPORT.payloadContent, valueCode: s.payloadContent }] },
    },
  };
}
