/**
 * FHIR R4 topic-based subscriptions (Subscriptions R5 Backport IG) over the live hub: create, read,
 * search and delete a Subscription (owned by the client and user that created it: anyone else gets
 * 404), `$status`, `$events` (numbered events, exact resume), `$get-ws-binding-token` and the
 * websocket the token binds (handshake, heartbeat, event-notification bundles). Access: read:vitals
 * (SMART patient/user/system Observation.rs) through the one guard, then the vitals rule of the
 * patient watched (a patient user: itself; a sandbox principal: sbx- only), at every call. Audited:
 * create, delete, `$events` (a vitals read), the websocket bind (a vitals stream).
 * Synthetic sandbox patients are not offered yet (400): their live source has no stored position.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { FHIR_JSON, type HttpProblem, badRequest, negotiateFormat, notFound, operationOutcomeOf, problemOf } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import { withTransaction } from '@vitalis/db';
import type { GatewayDeps } from '../../deps';
import { audit, auditedWrite, type Caller } from '../../access/caller';
import { callerOf } from '../../access/http';
import { revocationIds } from '../../access/principal';
import { auditVitals, requireVitalsAccess } from '../../vitals/service';
import { requireWebSocketUpgrade } from '../../live/ws';
import { dataSourceOf } from '../../access/sandbox';
import { FHIR_BASE_PATH } from '../capability';
import { format } from '../search-params';
import {
  fhirParameters,
  fhirSubscription,
  fhirSubscriptionBundle,
  fhirSubscriptionNotification,
  fhirSubscriptionStatusBundle,
  outcomes,
} from '../schemas';
import { notificationBundle, statusBundle } from './notification';
import { startPositionOf, type SubscriptionNumberer } from './numberer';
import {
  SubscriptionLimitReached,
  createSubscriptionOnce,
  deleteSubscription,
  eventsBetween,
  ownedSubscription,
  ownedSubscriptions,
  type NumberedEvent,
  type Owner,
  type SubscriptionRecord,
} from './store';
import { subscriptionRequestOf, toFhirSubscription } from './topics';

/** The websocket the binding tokens open (the IG's `websocket-url`). */
export const SUBSCRIPTION_WS_PATH = `${FHIR_BASE_PATH}/websocket`;
/** A binding token lives this long (or until the access token behind it expires, if sooner). */
const BINDING_TOKEN_SECONDS = 300;
/** `$events` answers at most this many events per call (ask again from the last number + 1). */
const MAX_EVENTS_PER_CALL = 1_000;
const bindingKey = (token: string) => `vitalis:fhir:ws-binding:${createHash('sha256').update(token).digest('hex')}`;

interface Binding {
  subscriptions: string[];
  owner: Owner;
  /** The access token behind it and those it was exchanged from (revocation ends the socket). */
  tokenIds: string[];
  /** The binding token's expiry (seconds since the epoch). */
  expiresAt: number;
  /** The access token's expiry: the socket ends then. */
  accessExpiresAt: number;
}

const ownerOf = (c: Caller): Owner => ({ clientId: c.principal.clientId, subject: c.principal.subject });
const subscriptionId = z.string().regex(/^[A-Za-z0-9\-.]{1,64}$/, 'must be a FHIR id');
const eventNumber = z.string().regex(/^[1-9][0-9]{0,15}$/, 'must be an event number (a positive integer)');

export function fhirSubscriptionRoutes(deps: GatewayDeps, numberer: SubscriptionNumberer): FastifyPluginAsyncZod {
  const { pool, redis } = deps;
  const base = () => `${deps.config.baseUrl}${FHIR_BASE_PATH}`;
  const fhirJson = { 'content-type': FHIR_JSON, 'cache-control': 'no-store' };

  /** The caller's subscription `id` (404 when it is not theirs), with the vitals rule of its patient re-checked. */
  async function owned(req: FastifyRequest, id: string, action: string): Promise<{ caller: Caller; sub: SubscriptionRecord }> {
    const caller = callerOf(req);
    const sub = await ownedSubscription(pool, ownerOf(caller), id);
    if (!sub) throw notFound(`Subscription/${id} is not known (or not yours).`);
    await requireVitalsAccess(pool, caller, [sub.patientId], { action, via: 'fhir' });
    return { caller, sub };
  }

  return async (app) => {
    app.addHook('onRequest', async (req) => negotiateFormat(req));
    // FHIR JSON bodies (application/fhir+json) are parsed by the one JSON parser (libs/http plugin).

    app.post(
      `${FHIR_BASE_PATH}/Subscription`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Create a Subscription (topic-based, Subscriptions R5 Backport)',
          operationId: 'fhirCreateSubscription',
          description:
            "An R4 Subscription in the backport profile: criteria = a topic of the CapabilityStatement (patient vitals, or patient vitals alerts), one `backport-filter-criteria` extension on `_criteria` with patient=Patient/{id} (and code=… for vitals), channel.type websocket, payload content full-resource (default) or empty. Needs read access to that patient's vitals. Answers 201 with the Subscription, status active: events are numbered from now on. An identical Subscription of the same client and user (same patient, topic, codes, payload and heartbeat) is not created twice: 200 with the existing one. A client holds at most FHIR_SUBSCRIPTIONS_PER_CLIENT (default 50) Subscriptions: 422 beyond.",
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
        const start = await startPositionOf(pool, deps.config.LIVE_TOPIC, ask.patientId);
        const limit = deps.config.FHIR_SUBSCRIPTIONS_PER_CLIENT;
        let made: { record: SubscriptionRecord; created: boolean };
        try {
          made = await auditedWrite(
            pool,
            caller,
            (c) => createSubscriptionOnce(c, randomUUID(), ownerOf(caller), ask, { liveTopic: deps.config.LIVE_TOPIC, id: start }, limit),
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
        const { record: rec, created } = made;
        const location = `${base()}/Subscription/${rec.id}`;
        if (!created)
          return reply
            .code(200)
            .headers({ ...fhirJson, location })
            .send(toFhirSubscription(rec));
        numberer.watch(rec);
        return reply
          .code(201)
          .headers({ ...fhirJson, location })
          .send(toFhirSubscription(rec));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Subscription`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Search your Subscriptions',
          operationId: 'fhirSearchSubscription',
          description:
            "The Subscriptions the caller (this client and user) created; nobody else's. No search parameters but _count (1-100).",
          querystring: z.strictObject({ _count: z.coerce.number().int().min(1).max(100).default(100), _format: format }),
          response: { 200: fhirSubscriptionBundle, ...outcomes(400, 401, 403, 406) },
        },
      },
      async (req, reply) => {
        const subs = await ownedSubscriptions(pool, ownerOf(callerOf(req)), req.query._count);
        const bundle = {
          resourceType: 'Bundle' as const,
          type: 'searchset' as const,
          link: [{ relation: 'self', url: `${base()}/Subscription` }],
          ...(subs.length
            ? {
                entry: subs.map((s) => ({
                  fullUrl: `${base()}/Subscription/${s.id}`,
                  resource: toFhirSubscription(s),
                  search: { mode: 'match' as const },
                })),
              }
            : {}),
        };
        return reply.headers(fhirJson).send(bundle);
      },
    );

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
        const { sub } = await owned(req, req.params.id, 'fhir.subscription.read');
        return reply.headers(fhirJson).send(toFhirSubscription(sub));
      },
    );

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
        const deleted = await withTransaction(pool, async (c) => {
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
        numberer.forget(deleted.id);
        return reply.code(204).send(null);
      },
    );

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
        const { sub } = await owned(req, req.params.id, 'fhir.subscription.status');
        return reply.headers(fhirJson).send(statusBundle(base(), sub));
      },
    );

    app.get(
      `${FHIR_BASE_PATH}/Subscription/:id/$events`,
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['fhir'],
          summary: 'Subscription $events',
          operationId: 'fhirSubscriptionEvents',
          description: `The numbered events eventsSinceNumber..eventsUntilNumber (inclusive; defaults: 1 and the last), in a notification Bundle of type query-event, at most ${MAX_EVENTS_PER_CALL} (ask again from the last number + 1). Event n is the n-th event of the subscription, for good: resuming from the last number a client saw misses nothing and repeats nothing. content: full-resource (default) or empty. Audited as a vitals read.`,
          params: z.object({ id: subscriptionId }),
          querystring: z.strictObject({
            eventsSinceNumber: eventNumber.optional(),
            eventsUntilNumber: eventNumber.optional(),
            content: z.enum(['empty', 'full-resource']).optional(),
            _format: format,
          }),
          response: { 200: fhirSubscriptionNotification, ...outcomes(400, 401, 403, 404, 406, 503) },
        },
      },
      async (req, reply) => {
        const { caller, sub } = await owned(req, req.params.id, 'vitals.read');
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
        const shown = req.query.content ? { ...sub, payloadContent: req.query.content } : sub;
        return reply.headers(fhirJson).send(notificationBundle(base(), shown, 'query-event', events));
      },
    );

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
        const { caller, sub } = await owned(req, req.params.id, 'vitals.stream');
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
        await auditVitals(pool, caller, {
          action: 'vitals.stream',
          patientId: sub.patientId,
          detail: { via: 'fhir', subscription: sub.id },
        });
        await redis.set(bindingKey(token), JSON.stringify(binding), 'EX', Math.max(1, expiresAt - Math.floor(Date.now() / 1000)));
        const wsUrl = `${deps.config.baseUrl.replace(/^http/, 'ws')}${SUBSCRIPTION_WS_PATH}`;
        return reply.headers(fhirJson).send({
          resourceType: 'Parameters',
          parameter: [
            { name: 'token', valueString: token },
            { name: 'expiration', valueDateTime: new Date(expiresAt * 1000).toISOString() },
            { name: 'subscription', valueString: `${base()}/Subscription/${sub.id}` },
            { name: 'websocket-url', valueUrl: wsUrl },
          ],
        });
      },
    );

    app.get(
      SUBSCRIPTION_WS_PATH,
      {
        websocket: true,
        schema: {
          tags: ['fhir'],
          summary: 'Subscription notifications over WebSocket (Subscriptions R5 Backport)',
          operationId: 'fhirSubscriptionWebSocket',
          description:
            'A GET with `Upgrade: websocket`. Send the text `bind-with-token <token>` (from Subscription/{id}/$get-ws-binding-token); the server sends a handshake notification Bundle, then one event-notification Bundle per event and heartbeat Bundles (backport-heartbeat-period). A bad or expired token: an OperationOutcome text frame, then close 4401. The socket closes (4401) when the access token behind the binding expires or is revoked.',
        },
        // public in the route contract only: the binding token comes in the first message
        onRequest: async (req, reply) => requireWebSocketUpgrade(req, reply),
      },
      (socket: WebSocket, req: FastifyRequest) => {
        const stops: (() => void)[] = [];
        const bound = new Set<string>();
        const send = (body: object) => {
          if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(body));
        };
        const unauthorized = (detail: string) => problemOf('unauthorized', detail);
        /** An OperationOutcome frame (the socket stays open unless `close` is given). */
        const refuse = (problem: HttpProblem, close?: number) => {
          send(operationOutcomeOf(problem));
          if (close !== undefined && socket.readyState === socket.OPEN) socket.close(close, problem.detail.slice(0, 100));
        };
        const unbound = setTimeout(
          () => refuse(unauthorized(`no bind-with-token within ${deps.config.LIVE_WS_AUTH_TIMEOUT_MS} ms`), 4401),
          deps.config.LIVE_WS_AUTH_TIMEOUT_MS,
        );
        stops.push(() => clearTimeout(unbound));
        socket.on('close', () => {
          for (const s of stops) s();
        });
        socket.on('message', (raw, isBinary) => {
          void onMessage(isBinary ? '' : raw.toString()).catch((err) => {
            req.log.error({ err }, 'fhir subscription websocket message failed');
            refuse(problemOf('internal', 'internal error'), 1011);
          });
        });

        async function onMessage(text: string): Promise<void> {
          const m = /^bind-with-token (\S{1,200})$/.exec(text.trim());
          if (!m) return refuse(badRequest('Send the text "bind-with-token <token>".'));
          const stored = await redis.get(bindingKey(must(m[1], 'the token of bind-with-token')));
          const binding = stored ? (JSON.parse(stored) as Binding) : undefined;
          if (!binding || binding.expiresAt * 1000 <= Date.now())
            return refuse(unauthorized('The binding token is not valid (unknown or expired): get one from $get-ws-binding-token.'), 4401);
          if ((await app.revocations.revokedAmong(binding.tokenIds)).size > 0)
            return refuse(unauthorized('The access token behind this binding was revoked.'), 4401);
          clearTimeout(unbound);
          for (const id of binding.subscriptions) await bind(id, binding);
        }

        async function bind(id: string, binding: Binding): Promise<void> {
          if (bound.has(id)) return;
          // listen first, then read the count the handshake tells: every later number reaches the socket once
          const early: NumberedEvent[] = [];
          let live: SubscriptionRecord | undefined;
          const off = numberer.onEvent(id, (e) => {
            if (e === 'ended') {
              if (socket.readyState === socket.OPEN) socket.close(1000, 'subscription ended');
              return;
            }
            if (!live) return void early.push(e);
            if (e.number <= live.lastEventNumber) return;
            live = { ...live, lastEventNumber: e.number };
            send(notificationBundle(base(), live, 'event-notification', [e]));
          });
          stops.push(off);
          const sub = await ownedSubscription(pool, binding.owner, id);
          if (socket.readyState !== socket.OPEN) return off(); // closed meanwhile: nothing may outlive it
          if (!sub || sub.status !== 'active') {
            off();
            return refuse(notFound(`Subscription/${id} is not active (deleted?).`));
          }
          bound.add(id);
          numberer.watch(sub);
          send(notificationBundle(base(), sub, 'handshake', []));
          live = sub;
          for (const e of early) {
            if (e.number <= live.lastEventNumber) continue;
            live = { ...live, lastEventNumber: e.number };
            send(notificationBundle(base(), live, 'event-notification', [e]));
          }
          if (sub.heartbeatSeconds !== null) {
            const beat = setInterval(() => live && send(notificationBundle(base(), live, 'heartbeat', [])), sub.heartbeatSeconds * 1000);
            stops.push(() => clearInterval(beat));
          }
          // the access token behind the binding: the socket ends at its expiry or revocation
          const watch = setInterval(() => {
            void app.revocations
              .revokedAmong(binding.tokenIds)
              .then((revoked) => {
                if (revoked.size > 0 && socket.readyState === socket.OPEN) socket.close(4401, 'token revoked');
              })
              .catch(() => undefined);
          }, 1_000);
          const expiry = setTimeout(
            () => socket.readyState === socket.OPEN && socket.close(4401, 'token expired'),
            Math.max(0, binding.accessExpiresAt * 1000 - Date.now()),
          );
          stops.push(
            () => clearInterval(watch),
            () => clearTimeout(expiry),
          );
        }
      },
    );
  };
}
