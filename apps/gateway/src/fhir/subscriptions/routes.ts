/**
 * FHIR R4 topic-based subscriptions (Subscriptions R5 Backport IG) over the live hub: create, read,
 * search and delete a Subscription (owned by the client and user that created it: anyone else gets
 * 404), here; its operations `$status`, `$events` (numbered events, exact resume) and
 * `$get-ws-binding-token`, one file each under operations/ (subscription-*.ts, each with its
 * CapabilityStatement entry); the websocket the token binds (handshake, heartbeat,
 * event-notification bundles) in websocket.ts. Access: read:vitals (SMART patient/user/system
 * Observation.rs) through the one guard, then the vitals rule of the patient watched (a patient
 * user: itself; a sandbox principal: sbx- only), at every call. Audited: create, delete, `$events`
 * (a vitals read), the websocket bind (a vitals stream). Synthetic sandbox patients are not offered
 * yet (400): their live source has no stored position.
 *
 * Not through the registrar (register.ts): a Subscription's read declares no query (the registrar's
 * read adds `_format`), its search answers its own self link (no query) with no paging, it is
 * created, deleted and read only by its owner (404 for anyone else, the vitals rule re-checked),
 * and its CapabilityStatement entry carries the topics extension and the delete interaction
 * (subscriptions/capability.ts) — so the registrar would change the published routes.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, negotiateFormat, notFound, problemOf } from '@vitalis/http';
import { withTransaction } from '@vitalis/db';
import type { GatewayDeps } from '../../deps';
import { audit, auditedWrite, type Caller } from '../../access/caller';
import { callerOf } from '../../access/http';
import { requireVitalsAccess } from '../../vitals/service';
import { dataSourceOf } from '../../access/sandbox';
import { FHIR_BASE_PATH } from '../base';
import { registerSubscriptionEvents } from '../operations/subscription-events';
import { registerSubscriptionStatus } from '../operations/subscription-status';
import { registerSubscriptionWsBindingToken } from '../operations/subscription-ws-binding-token';
import type { FhirApp } from '../register';
import { format } from '../search-params';
import { fhirSubscription, fhirSubscriptionBundle, outcomes } from '../schemas';
import { startPositionOf, type SubscriptionNumberer } from './numberer';
import { FHIR_JSON_NO_STORE, ownerOf, subscriptionId, subscriptionRoutesOf, type SubscriptionRoutes } from './shared';
import {
  SubscriptionLimitReached,
  createSubscriptionOnce,
  deleteSubscription,
  ownedSubscription,
  ownedSubscriptions,
  type SubscriptionRecord,
} from './store';
import { subscriptionRequestOf, toFhirSubscription, type SubscriptionRequest } from './topics';
import { registerSubscriptionWebSocket } from './websocket';

export { SUBSCRIPTION_WS_PATH } from './shared';

/** The Subscription routes, its operations and its websocket (registered inside the live plugin, which brings the websocket server). */
export function fhirSubscriptionRoutes(deps: GatewayDeps, numberer: SubscriptionNumberer): FastifyPluginAsyncZod {
  const s = subscriptionRoutesOf(deps, numberer);
  return async (app) => {
    app.addHook('onRequest', async (req) => negotiateFormat(req));
    // FHIR JSON bodies (application/fhir+json) are parsed by the one JSON parser (libs/http plugin).
    registerCreate(app, s);
    registerSearch(app, s);
    registerRead(app, s);
    registerDelete(app, s);
    registerSubscriptionStatus(app, s);
    registerSubscriptionEvents(app, s);
    registerSubscriptionWsBindingToken(app, s);
    registerSubscriptionWebSocket(app, s);
  };
}

/**
 * Creates the caller's Subscription once (an identical one of the same owner is answered as it is),
 * audited; beyond the client's limit a failure audit row and 422.
 */
async function createOnce(s: SubscriptionRoutes, caller: Caller, ask: SubscriptionRequest, start: string) {
  const { pool, config } = s.deps;
  const limit = config.FHIR_SUBSCRIPTIONS_PER_CLIENT;
  try {
    return await auditedWrite(
      pool,
      caller,
      (c) => createSubscriptionOnce(c, randomUUID(), ownerOf(caller), ask, { liveTopic: config.LIVE_TOPIC, id: start }, limit),
      ({ record, created }) => ({
        action: 'fhir.subscription.create',
        scope: 'read:vitals',
        resourceType: 'Patient',
        resourceId: ask.patientId,
        detail: { subscription: record.id, topic: ask.topic, codes: ask.codes, ...(created ? {} : { existing: true }) },
      }),
    );
  } catch (err) {
    if (!(err instanceof SubscriptionLimitReached)) throw err;
    await audit(pool, caller, {
      action: 'fhir.subscription.create',
      outcome: 'failure',
      scope: 'read:vitals',
      resourceType: 'Patient',
      resourceId: ask.patientId,
      detail: { reason: 'subscription limit', limit },
    });
    throw problemOf(
      'subscription-limit',
      `This client holds ${limit} Subscriptions, the most one client may hold (FHIR_SUBSCRIPTIONS_PER_CLIENT): delete one first.`,
    );
  }
}

/** `POST /Subscription`. */
function registerCreate(app: FhirApp, s: SubscriptionRoutes): void {
  const { pool, config } = s.deps;
  app.post(
    `${FHIR_BASE_PATH}/Subscription`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Create a Subscription (topic-based, Subscriptions R5 Backport)',
        operationId: 'fhirCreateSubscription',
        description:
          "An R4 Subscription in the backport profile: criteria = a topic of the CapabilityStatement (patient vitals, or patient vitals alerts), one `backport-filter-criteria` extension on `_criteria` with patient=Patient/{id} (and code=… for vitals), channel.type websocket, payload content full-resource (default), id-only (vitals only: each event's Observation read URL, no resource) or empty. Needs read access to that patient's vitals. Answers 201 with the Subscription, status active: events are numbered from now on. An identical Subscription of the same client and user (same patient, topic, codes, payload and heartbeat) is not created twice: 200 with the existing one. A client holds at most FHIR_SUBSCRIPTIONS_PER_CLIENT (default 50) Subscriptions: 422 beyond.",
        body: fhirSubscription,
        response: { 200: fhirSubscription, 201: fhirSubscription, ...outcomes(400, 401, 403, 406, 422, 503) },
      },
    },
    async (req, reply) => {
      const ask = subscriptionRequestOf(req.body as Record<string, unknown>);
      const caller = callerOf(req);
      await requireVitalsAccess(pool, caller, [ask.patientId], { action: 'fhir.subscription.create', via: 'fhir' });
      if (dataSourceOf([ask.patientId]) === 'synthetic')
        throw badRequest('Subscriptions to synthetic sandbox patients (sbx-) are not offered yet: use GET /api/v1/vitals/stream.');
      const start = await startPositionOf(pool, config.LIVE_TOPIC, ask.patientId);
      const { record: rec, created } = await createOnce(s, caller, ask, start);
      const location = `${s.base()}/Subscription/${rec.id}`;
      if (!created)
        return reply
          .code(200)
          .headers({ ...FHIR_JSON_NO_STORE, location })
          .send(toFhirSubscription(rec));
      s.numberer.watch(rec);
      return reply
        .code(201)
        .headers({ ...FHIR_JSON_NO_STORE, location })
        .send(toFhirSubscription(rec));
    },
  );
}

/** `GET /Subscription`: the caller's own. */
function registerSearch(app: FhirApp, s: SubscriptionRoutes): void {
  app.get(
    `${FHIR_BASE_PATH}/Subscription`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Search your Subscriptions',
        operationId: 'fhirSearchSubscription',
        description: "The Subscriptions the caller (this client and user) created; nobody else's. No search parameters but _count (1-100).",
        querystring: z.strictObject({ _count: z.coerce.number().int().min(1).max(100).default(100), _format: format }),
        response: { 200: fhirSubscriptionBundle, ...outcomes(400, 401, 403, 406) },
      },
    },
    async (req, reply) => {
      const subs = await ownedSubscriptions(s.deps.pool, ownerOf(callerOf(req)), req.query._count);
      const bundle = {
        resourceType: 'Bundle' as const,
        type: 'searchset' as const,
        link: [{ relation: 'self', url: `${s.base()}/Subscription` }],
        ...(subs.length
          ? {
              entry: subs.map((sub) => ({
                fullUrl: `${s.base()}/Subscription/${sub.id}`,
                resource: toFhirSubscription(sub),
                search: { mode: 'match' as const },
              })),
            }
          : {}),
      };
      return reply.headers(FHIR_JSON_NO_STORE).send(bundle);
    },
  );
}

/** `GET /Subscription/{id}`. */
function registerRead(app: FhirApp, s: SubscriptionRoutes): void {
  app.get(
    `${FHIR_BASE_PATH}/Subscription/:id`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Read a Subscription',
        operationId: 'fhirReadSubscription',
        description: "One of the caller's Subscriptions (404 for anyone else's).",
        params: z.object({ id: subscriptionId }),
        response: { 200: fhirSubscription, ...outcomes(400, 401, 403, 404, 406) },
      },
    },
    async (req, reply) => {
      const { sub } = await s.owned(req, req.params.id, 'fhir.subscription.read');
      return reply.headers(FHIR_JSON_NO_STORE).send(toFhirSubscription(sub));
    },
  );
}

/** `DELETE /Subscription/{id}`: audited; the numberer forgets it (bound websockets close 1000). */
function registerDelete(app: FhirApp, s: SubscriptionRoutes): void {
  const { pool } = s.deps;
  app.delete(
    `${FHIR_BASE_PATH}/Subscription/:id`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Delete a Subscription',
        operationId: 'fhirDeleteSubscription',
        description: "Ends one of the caller's Subscriptions and drops its numbered events; bound websockets are closed (1000).",
        params: z.object({ id: subscriptionId }),
        response: { 204: z.null().describe('Deleted'), ...outcomes(400, 401, 403, 404, 406, 503) },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const deleted = await withTransaction(pool, async (c): Promise<SubscriptionRecord | undefined> => {
        const sub = await ownedSubscription(c, ownerOf(caller), req.params.id);
        if (!sub || !(await deleteSubscription(c, ownerOf(caller), req.params.id))) return undefined;
        await audit(c, caller, {
          action: 'fhir.subscription.delete',
          scope: 'read:vitals',
          resourceType: 'Patient',
          resourceId: sub.patientId,
          detail: { subscription: sub.id },
        });
        return sub;
      });
      if (!deleted) throw notFound(`Subscription/${req.params.id} is not known (or not yours).`);
      s.numberer.forget(deleted.id);
      return reply.code(204).send(null);
    },
  );
}
