/**
 * `POST /fhir/R4/Subscription/{id}/$get-ws-binding-token` (Subscriptions R5 Backport): a token,
 * stored in Redis as a Binding, that binds a websocket (subscriptions/websocket.ts) to the caller's
 * subscription; the stream is granted (and audited, vitals.stream) here, since the socket that binds
 * carries no access token of its own. Its CapabilityStatement entry is declared here, beside the
 * route (subscriptions/capability.ts lists it under Subscription).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { revocationIds } from '../../access/principal';
import { auditVitals } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import type { FhirOperationEntry } from '../definition';
import type { FhirApp } from '../register';
import { fhirParameters, outcomes } from '../schemas';
import {
  FHIR_JSON_NO_STORE,
  SUBSCRIPTION_WS_PATH,
  bindingKey,
  ownerOf,
  subscriptionId,
  type Binding,
  type SubscriptionRoutes,
} from '../subscriptions/shared';
import { BACKPORT } from '../subscriptions/topics';

/** A binding token lives this long (or until the access token behind it expires, if sooner). */
const BINDING_TOKEN_SECONDS = 300;

/** The statement's `get-ws-binding-token` operation under Subscription. */
export const SUBSCRIPTION_WS_BINDING_TOKEN_OPERATION: FhirOperationEntry = {
  name: 'get-ws-binding-token',
  definition: BACKPORT.wsTokenOperation,
  documentation: 'Instance level (POST): a token for the websocket-url, valid 5 minutes.',
};

/** Registers `Subscription/{id}/$get-ws-binding-token`. */
export function registerSubscriptionWsBindingToken(app: FhirApp, s: SubscriptionRoutes): void {
  const { deps } = s;
  app.post(
    `${FHIR_BASE_PATH}/Subscription/:id/$get-ws-binding-token`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Subscription $get-ws-binding-token',
        operationId: 'fhirSubscriptionWsBindingToken',
        description: `A token that binds a websocket to this Subscription: open ${SUBSCRIPTION_WS_PATH}, send \`bind-with-token <token>\`; the server answers a handshake bundle, then an event-notification bundle per event (and heartbeats). Valid ${BINDING_TOKEN_SECONDS} s (never past the access token's expiry), reusable until then.`,
        params: z.object({ id: subscriptionId }),
        body: fhirParameters
          .nullable()
          .optional()
          .meta({
            description: 'Optional: a Parameters (its id parameters are ignored at the instance level)',
            example: { resourceType: 'Parameters' },
          }),
        response: { 200: fhirParameters, ...outcomes(400, 401, 403, 404, 406) },
      },
    },
    async (req, reply) => {
      const { caller, sub } = await s.owned(req, req.params.id, 'vitals.stream');
      const p = caller.principal;
      const token = randomBytes(32).toString('base64url');
      const expiresAt = Math.min(Math.floor(Date.now() / 1000) + BINDING_TOKEN_SECONDS, p.expiresAt);
      const binding: Binding = {
        subscriptions: [sub.id],
        owner: ownerOf(caller),
        tokenIds: revocationIds(p),
        expiresAt,
        accessExpiresAt: p.expiresAt,
      };
      // the stream is granted here (the socket that binds carries no token of its own): audited as one
      await auditVitals(deps.pool, caller, {
        action: 'vitals.stream',
        patientId: sub.patientId,
        detail: { via: 'fhir', subscription: sub.id },
      });
      await deps.redis.set(bindingKey(token), JSON.stringify(binding), 'EX', Math.max(1, expiresAt - Math.floor(Date.now() / 1000)));
      const wsUrl = `${deps.config.baseUrl.replace(/^http/, 'ws')}${SUBSCRIPTION_WS_PATH}`;
      return reply.headers(FHIR_JSON_NO_STORE).send({
        resourceType: 'Parameters',
        parameter: [
          { name: 'token', valueString: token },
          { name: 'expiration', valueDateTime: new Date(expiresAt * 1000).toISOString() },
          { name: 'subscription', valueString: `${s.base()}/Subscription/${sub.id}` },
          { name: 'websocket-url', valueUrl: wsUrl },
        ],
      });
    },
  );
}
