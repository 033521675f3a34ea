/**
 * The CapabilityStatement entry of the topic-based subscriptions (subscriptions/routes.ts): the
 * Subscription resource in the backport profile, its interactions, its operations (each declared
 * beside its route, operations/subscription-*.ts), and the topics
 * (the IG's R4 discovery: the capabilitystatement-subscriptiontopic-canonical extension).
 */
import { SUBSCRIPTION_EVENTS_OPERATION } from '../operations/subscription-events';
import { SUBSCRIPTION_STATUS_OPERATION } from '../operations/subscription-status';
import { SUBSCRIPTION_WS_BINDING_TOKEN_OPERATION } from '../operations/subscription-ws-binding-token';
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
      )} Channel: websocket only ($get-ws-binding-token). Payload: full-resource, id-only (vitals: the Observation's read URL) or empty. Your own subscriptions only; read:vitals on the patient watched.`,
    interaction: [{ code: 'create' as const }, { code: 'read' as const }, { code: 'delete' as const }, { code: 'search-type' as const }],
    searchParam: [
      { name: '_count', type: 'number' as const, documentation: 'Page size, 1-100 (default 100): your own subscriptions only.' },
    ],
    operation: [SUBSCRIPTION_STATUS_OPERATION, SUBSCRIPTION_EVENTS_OPERATION, SUBSCRIPTION_WS_BINDING_TOKEN_OPERATION],
  };
}
