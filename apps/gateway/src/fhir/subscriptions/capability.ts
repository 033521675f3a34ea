/**
 * The CapabilityStatement entry of the topic-based subscriptions (subscriptions/routes.ts): the
 * Subscription resource in the backport profile, its interactions and operations, and the topics
 * (the IG's R4 discovery: the capabilitystatement-subscriptiontopic-canonical extension).
 */
import { BACKPORT, SUBSCRIPTION_TOPICS } from './topics';

export function subscriptionCapability() {
  return {
    extension: Object.values(SUBSCRIPTION_TOPICS).map((t) => ({ url: BACKPORT.topicCanonical, valueCanonical: t.url })),
    type: 'Subscription',
    supportedProfile: [BACKPORT.subscriptionProfile],
    documentation: `Topic-based subscriptions (Subscriptions R5 Backport, R4). Topics: ${Object.values(SUBSCRIPTION_TOPICS)
      .map((t) => `${t.url}: ${t.description}`)
      .join(
        ' ',
      )} Channel: websocket only ($get-ws-binding-token). Payload: full-resource or empty. Your own subscriptions only; read:vitals on the patient watched.`,
    interaction: [{ code: 'create' as const }, { code: 'read' as const }, { code: 'delete' as const }, { code: 'search-type' as const }],
    searchParam: [
      { name: '_count', type: 'number' as const, documentation: 'Page size, 1-100 (default 100): your own subscriptions only.' },
    ],
    operation: [
      { name: 'status', definition: BACKPORT.statusOperation, documentation: 'Instance level: the status Parameters in a searchset.' },
      {
        name: 'events',
        definition: BACKPORT.eventsOperation,
        documentation:
          'Instance level: eventsSinceNumber, eventsUntilNumber (inclusive), content (full-resource | empty); at most 1000 events a call.',
      },
      {
        name: 'get-ws-binding-token',
        definition: BACKPORT.wsTokenOperation,
        documentation: 'Instance level (POST): a token for the websocket-url, valid 5 minutes.',
      },
    ],
  };
}
