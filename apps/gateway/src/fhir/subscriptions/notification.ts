/**
 * Subscription notifications in the IG's R4 representation: a Bundle of type `history` whose first
 * entry is the subscription status (a Parameters, backport-subscription-status-r4) and whose other
 * entries are the resources the events are about (payload full-resource; id-only: their read URLs
 * alone, the status naming them as each event's focus; empty: neither). The same builder serves
 * the websocket (handshake, heartbeat, event-notification), `$events` (query-event) and `$status`
 * (query-status, in a searchset). History bundles need entry.request and entry.response (bdl-3/4):
 * the status entry reads as the `$status` call it answers, a focus as the POST that created it.
 */
import { randomUUID } from 'node:crypto';
import { BACKPORT, SUBSCRIPTION_TOPICS, type StoredSubscription } from './topics';
import type { NumberedEvent } from './store';

export type NotificationType = 'handshake' | 'heartbeat' | 'event-notification' | 'query-status' | 'query-event';

/** A numbered event with the fullUrl of its focus (kept in the store beside the resource). */
export interface StoredFocus {
  fullUrl: string;
  resource: { resourceType: string; [k: string]: unknown };
}

const focusOf = (e: NumberedEvent) => e.focus as unknown as StoredFocus;

/**
 * The URL a notification names a focus by: its read URL when this server serves the resource on
 * its own (an Observation with an id: `GET Observation/{id}` reads it back), else the fullUrl kept
 * with it (a urn:uuid). Payload id-only entries carry this URL and no resource.
 */
function focusUrl(base: string, e: NumberedEvent): string {
  const { resource, fullUrl } = focusOf(e);
  return resource.resourceType === 'Observation' && typeof resource.id === 'string' ? `${base}/Observation/${resource.id}` : fullUrl;
}

/** The status Parameters (backport-subscription-status-r4). */
export function subscriptionStatus(
  base: string,
  s: StoredSubscription,
  type: NotificationType,
  events: NumberedEvent[],
  withFocus: boolean,
) {
  return {
    resourceType: 'Parameters' as const,
    id: randomUUID(),
    meta: { profile: [BACKPORT.statusProfile] },
    parameter: [
      { name: 'subscription', valueReference: { reference: `${base}/Subscription/${s.id}` } },
      { name: 'topic', valueCanonical: SUBSCRIPTION_TOPICS[s.topic].url },
      { name: 'status', valueCode: s.status },
      { name: 'type', valueCode: type },
      // a string in R4 (the R5 element is an integer64)
      { name: 'events-since-subscription-start', valueString: String(s.lastEventNumber) },
      ...events.map((e) => ({
        name: 'notification-event',
        part: [
          { name: 'event-number', valueString: String(e.number) },
          { name: 'timestamp', valueInstant: e.occurredAt },
          ...(withFocus ? [{ name: 'focus', valueReference: { reference: focusUrl(base, e) } }] : []),
        ],
      })),
    ],
  };
}

/** A notification Bundle (backport-subscription-notification-r4). */
export function notificationBundle(base: string, s: StoredSubscription, type: NotificationType, events: NumberedEvent[]) {
  const full = s.payloadContent === 'full-resource';
  const withFocus = s.payloadContent !== 'empty';
  const status = subscriptionStatus(base, s, type, events, withFocus);
  return {
    resourceType: 'Bundle' as const,
    id: randomUUID(),
    meta: { profile: [BACKPORT.notificationProfile] },
    type: 'history' as const,
    timestamp: new Date().toISOString(),
    entry: [
      {
        fullUrl: `urn:uuid:${status.id}`,
        resource: status,
        request: { method: 'GET', url: `${base}/Subscription/${s.id}/$status` },
        response: { status: '200' },
      },
      ...(withFocus
        ? events.map((e) => ({
            fullUrl: focusUrl(base, e),
            ...(full ? { resource: focusOf(e).resource } : {}),
            request: { method: 'POST', url: SUBSCRIPTION_TOPICS[s.topic].focus },
            response: { status: '201' },
          }))
        : []),
    ],
  };
}

/** `$status`: a searchset of the status Parameters. */
export function statusBundle(base: string, s: StoredSubscription) {
  const status = subscriptionStatus(base, s, 'query-status', [], false);
  return {
    resourceType: 'Bundle' as const,
    type: 'searchset' as const,
    total: 1,
    link: [{ relation: 'self', url: `${base}/Subscription/${s.id}/$status` }],
    entry: [{ fullUrl: `urn:uuid:${status.id}`, resource: status, search: { mode: 'match' as const } }],
  };
}
