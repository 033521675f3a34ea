/**
 * What the Subscription routes (routes.ts), their operations (operations/subscription-*.ts) and the
 * websocket (websocket.ts) share: the owner of a subscription, the id and event-number schemas, the
 * websocket path and binding the tokens carry, the FHIR JSON headers, and the one ownership check
 * (404 for anyone else's subscription, the vitals rule of its patient re-checked at every call).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { FHIR_JSON, notFound } from '@vitalis/http';
import type { GatewayDeps } from '../../deps';
import type { Caller } from '../../access/caller';
import { callerOf } from '../../access/http';
import { requireVitalsAccess } from '../../vitals/service';
import { FHIR_BASE_PATH } from '../base';
import type { SubscriptionNumberer } from './numberer';
import { ownedSubscription, type Owner, type SubscriptionRecord } from './store';

/** The websocket the binding tokens open (the IG's `websocket-url`). */
export const SUBSCRIPTION_WS_PATH = `${FHIR_BASE_PATH}/websocket`;

/** The Redis key a binding token is stored under (its SHA-256: the token itself is never stored). */
export const bindingKey = (token: string) => `vitalis:fhir:ws-binding:${createHash('sha256').update(token).digest('hex')}`;

/** What a binding token binds a websocket to (stored in Redis by $get-ws-binding-token). */
export interface Binding {
  subscriptions: string[];
  owner: Owner;
  /** The access token behind it and those it was exchanged from (revocation ends the socket). */
  tokenIds: string[];
  /** The binding token's expiry (seconds since the epoch). */
  expiresAt: number;
  /** The access token's expiry: the socket ends then. */
  accessExpiresAt: number;
}

/** The owner of the subscriptions a caller creates and sees: its client and user. */
export const ownerOf = (c: Caller): Owner => ({ clientId: c.principal.clientId, subject: c.principal.subject });
/** A Subscription id in a path. */
export const subscriptionId = z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/, 'must be a FHIR id');
/** The FHIR JSON headers every Subscription answer carries. */
export const FHIR_JSON_NO_STORE = { 'content-type': FHIR_JSON, 'cache-control': 'no-store' };

/** What every Subscription route function is given. */
export interface SubscriptionRoutes {
  deps: GatewayDeps;
  numberer: SubscriptionNumberer;
  /** The absolute FHIR base URL. */
  base: () => string;
  /** The caller's subscription `id` (404 when it is not theirs), with the vitals rule of its patient re-checked. */
  owned: (req: FastifyRequest, id: string, action: string) => Promise<{ caller: Caller; sub: SubscriptionRecord }>;
}

/** The shared context of the Subscription routes of one gateway. */
export function subscriptionRoutesOf(deps: GatewayDeps, numberer: SubscriptionNumberer): SubscriptionRoutes {
  return {
    deps,
    numberer,
    base: () => `${deps.config.baseUrl}${FHIR_BASE_PATH}`,
    owned: async (req, id, action) => {
      const caller = callerOf(req);
      const sub = await ownedSubscription(deps.pool, ownerOf(caller), id);
      if (!sub) throw notFound(`Subscription/${id} is not known (or not yours).`);
      await requireVitalsAccess(deps.pool, caller, [sub.patientId], { action, via: 'fhir' });
      return { caller, sub };
    },
  };
}
