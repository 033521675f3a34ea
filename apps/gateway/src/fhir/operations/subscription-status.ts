/**
 * `GET /fhir/R4/Subscription/{id}/$status` (Subscriptions R5 Backport): a searchset with the
 * caller's subscription status Parameters. Its CapabilityStatement entry is declared here, beside
 * the route (subscriptions/capability.ts lists it under Subscription).
 */
import { z } from 'zod';
import { FHIR_BASE_PATH } from '../base';
import type { FhirOperationEntry } from '../definition';
import type { FhirApp } from '../register';
import { fhirSubscriptionStatusBundle, outcomes } from '../schemas';
import { format } from '../search-params';
import { statusBundle } from '../subscriptions/notification';
import { FHIR_JSON_NO_STORE, subscriptionId, type SubscriptionRoutes } from '../subscriptions/shared';
import { BACKPORT } from '../subscriptions/topics';

/** The statement's `status` operation under Subscription. */
export const SUBSCRIPTION_STATUS_OPERATION: FhirOperationEntry = {
  name: 'status',
  definition: BACKPORT.statusOperation,
  documentation: 'Instance level: the status Parameters in a searchset.',
};

/** Registers `Subscription/{id}/$status`. */
export function registerSubscriptionStatus(app: FhirApp, s: SubscriptionRoutes): void {
  app.get(
    `${FHIR_BASE_PATH}/Subscription/:id/$status`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Subscription $status',
        operationId: 'fhirSubscriptionStatus',
        description:
          "A searchset with the subscription's status Parameters (backport-subscription-status-r4): status and events-since-subscription-start (the last event number given).",
        params: z.object({ id: subscriptionId }),
        querystring: z.object({ _format: format }),
        response: { 200: fhirSubscriptionStatusBundle, ...outcomes(400, 401, 403, 404, 406) },
      },
    },
    async (req, reply) => {
      const { sub } = await s.owned(req, req.params.id, 'fhir.subscription.status');
      return reply.headers(FHIR_JSON_NO_STORE).send(statusBundle(s.base(), sub));
    },
  );
}
