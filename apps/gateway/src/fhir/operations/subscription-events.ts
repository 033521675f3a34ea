/**
 * `GET /fhir/R4/Subscription/{id}/$events` (Subscriptions R5 Backport): the caller's numbered
 * events in a query-event notification Bundle (exact resume: event n is the n-th, for good),
 * audited as a vitals read. Its CapabilityStatement entry is declared here, beside the route
 * (subscriptions/capability.ts lists it under Subscription).
 */
import { z } from 'zod';
import { badRequest } from '@vitalis/http';
import { auditVitals } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import type { FhirOperationEntry } from '../definition';
import type { FhirApp } from '../register';
import { fhirSubscriptionNotification, outcomes } from '../schemas';
import { format } from '../search-params';
import { notificationBundle } from '../subscriptions/notification';
import { FHIR_JSON_NO_STORE, subscriptionId, type SubscriptionRoutes } from '../subscriptions/shared';
import { eventsBetween } from '../subscriptions/store';
import { BACKPORT, SUBSCRIPTION_TOPICS } from '../subscriptions/topics';

/** `$events` answers at most this many events per call (ask again from the last number + 1). */
const MAX_EVENTS_PER_CALL = 1_000;
const eventNumber = z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be an event number (a positive integer)');

/** The statement's `events` operation under Subscription. */
export const SUBSCRIPTION_EVENTS_OPERATION: FhirOperationEntry = {
  name: 'events',
  definition: BACKPORT.eventsOperation,
  documentation: `Instance level: eventsSinceNumber, eventsUntilNumber (inclusive), content (full-resource | id-only | empty); at most ${MAX_EVENTS_PER_CALL} events a call.`,
};

/** Registers `Subscription/{id}/$events`. */
export function registerSubscriptionEvents(app: FhirApp, s: SubscriptionRoutes): void {
  const { pool } = s.deps;
  app.get(
    `${FHIR_BASE_PATH}/Subscription/:id/$events`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Subscription $events',
        operationId: 'fhirSubscriptionEvents',
        description: `The numbered events eventsSinceNumber..eventsUntilNumber (inclusive; defaults: 1 and the last), in a notification Bundle of type query-event, at most ${MAX_EVENTS_PER_CALL} (ask again from the last number + 1). Event n is the n-th event of the subscription, for good: resuming from the last number a client saw misses nothing and repeats nothing. content: full-resource (default), id-only (vitals subscriptions: each event's Observation read URL, no resource) or empty. Audited as a vitals read.`,
        params: z.object({ id: subscriptionId }),
        querystring: z.strictObject({
          eventsSinceNumber: eventNumber.optional(),
          eventsUntilNumber: eventNumber.optional(),
          content: z.enum(['empty', 'id-only', 'full-resource']).optional(),
          _format: format,
        }),
        response: { 200: fhirSubscriptionNotification, ...outcomes(400, 401, 403, 404, 406, 503) },
      },
    },
    async (req, reply) => {
      const { caller, sub } = await s.owned(req, req.params.id, 'vitals.read');
      const since = Number(req.query.eventsSinceNumber ?? 1);
      const until = Math.min(
        Number(req.query.eventsUntilNumber ?? sub.lastEventNumber),
        sub.lastEventNumber,
        since + MAX_EVENTS_PER_CALL - 1,
      );
      if (req.query.eventsUntilNumber !== undefined && Number(req.query.eventsUntilNumber) < since)
        throw badRequest('eventsUntilNumber is below eventsSinceNumber.');
      const events = until >= since ? await eventsBetween(pool, sub.id, since, until, MAX_EVENTS_PER_CALL) : [];
      await auditVitals(pool, caller, {
        action: 'vitals.read',
        patientId: sub.patientId,
        detail: { via: 'fhir', subscription: sub.id, since, until, events: events.length },
      });
      if (req.query.content === 'id-only' && !SUBSCRIPTION_TOPICS[sub.topic].readable)
        throw badRequest(`content=id-only needs a readable focus; a ${SUBSCRIPTION_TOPICS[sub.topic].focus} here has no read URL.`);
      const shown = req.query.content ? { ...sub, payloadContent: req.query.content } : sub;
      return reply.headers(FHIR_JSON_NO_STORE).send(notificationBundle(s.base(), shown, 'query-event', events));
    },
  );
}
