/**
 * The websocket of the topic-based subscriptions (Subscriptions R5 Backport): `GET /fhir/R4/websocket`
 * with `Upgrade: websocket`; the client sends `bind-with-token <token>` (a token from
 * $get-ws-binding-token, operations/subscription-ws-binding-token.ts), the server answers a handshake
 * notification Bundle per subscription bound, then one event-notification Bundle per numbered event
 * (each number once, none missed between the handshake and the live feed) and heartbeats. The socket
 * closes 4401 without a valid binding in time, and when the access token behind the binding expires
 * or is revoked; 1000 when its subscription ends.
 */
import type { WebSocket } from 'ws';
import type { FastifyRequest } from 'fastify';
import { type HttpProblem, badRequest, notFound, operationOutcomeOf, problemOf } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import { requireWebSocketUpgrade } from '../../live/ws';
import type { FhirApp } from '../register';
import { notificationBundle } from './notification';
import { SUBSCRIPTION_WS_PATH, bindingKey, type Binding, type SubscriptionRoutes } from './shared';
import { ownedSubscription, type NumberedEvent, type SubscriptionRecord } from './store';

/** One open socket: what it has bound, what ends with it, and how it answers. */
interface SocketSession {
  app: FhirApp;
  s: SubscriptionRoutes;
  socket: WebSocket;
  /** Run at close: timers, listeners. */
  stops: (() => void)[];
  /** The subscriptions bound so far. */
  bound: Set<string>;
  /** The timer that closes a socket never bound. */
  unbound: ReturnType<typeof setTimeout>;
  send: (body: object) => void;
  /** An OperationOutcome frame (the socket stays open unless `close` is given). */
  refuse: (problem: HttpProblem, close?: number) => void;
}

const unauthorized = (detail: string) => problemOf('unauthorized', detail);

/** Registers the subscriptions' websocket. */
export function registerSubscriptionWebSocket(app: FhirApp, s: SubscriptionRoutes): void {
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
    (socket: WebSocket, req: FastifyRequest) => openSession(app, s, socket, req),
  );
}

/** A new socket: unbound until its first valid `bind-with-token` (closed 4401 after LIVE_WS_AUTH_TIMEOUT_MS). */
function openSession(app: FhirApp, s: SubscriptionRoutes, socket: WebSocket, req: FastifyRequest): void {
  const timeoutMs = s.deps.config.LIVE_WS_AUTH_TIMEOUT_MS;
  const send = (body: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(body));
  };
  const refuse = (problem: HttpProblem, close?: number) => {
    send(operationOutcomeOf(problem));
    if (close !== undefined && socket.readyState === socket.OPEN) socket.close(close, problem.detail.slice(0, 100));
  };
  const unbound = setTimeout(() => refuse(unauthorized(`no bind-with-token within ${timeoutMs} ms`), 4401), timeoutMs);
  const session: SocketSession = { app, s, socket, stops: [() => clearTimeout(unbound)], bound: new Set(), unbound, send, refuse };
  socket.on('close', () => {
    for (const stop of session.stops) stop();
  });
  socket.on('message', (raw, isBinary) => {
    void onMessage(session, isBinary ? '' : raw.toString()).catch((err: unknown) => {
      req.log.error({ err }, 'fhir subscription websocket message failed');
      refuse(problemOf('internal', 'internal error'), 1011);
    });
  });
}

/** A `bind-with-token <token>` message: a valid, unrevoked binding binds its subscriptions. */
async function onMessage(session: SocketSession, text: string): Promise<void> {
  const { app, s, refuse } = session;
  const m = /^bind-with-token (\S{1,200})$/.exec(text.trim());
  if (!m) return refuse(badRequest('Send the text "bind-with-token <token>".'));
  const stored = await s.deps.redis.get(bindingKey(must(m[1], 'the token of bind-with-token')));
  const binding = stored ? (JSON.parse(stored) as Binding) : undefined;
  if (!binding || binding.expiresAt * 1000 <= Date.now())
    return refuse(unauthorized('The binding token is not valid (unknown or expired): get one from $get-ws-binding-token.'), 4401);
  if ((await app.revocations.revokedAmong(binding.tokenIds)).size > 0)
    return refuse(unauthorized('The access token behind this binding was revoked.'), 4401);
  clearTimeout(session.unbound);
  for (const id of binding.subscriptions) await bind(session, id, binding);
}

/** Binds one subscription: its handshake, then every later numbered event once, heartbeats, and the access token watched. */
async function bind(session: SocketSession, id: string, binding: Binding): Promise<void> {
  const { s, socket, send, stops } = session;
  if (session.bound.has(id)) return;
  // listen first, then read the count the handshake tells: every later number reaches the socket once
  const early: NumberedEvent[] = [];
  let live: SubscriptionRecord | undefined;
  const forward = (e: NumberedEvent) => {
    if (!live || e.number <= live.lastEventNumber) return;
    live = { ...live, lastEventNumber: e.number };
    send(notificationBundle(s.base(), live, 'event-notification', [e]));
  };
  const off = s.numberer.onEvent(id, (e) => {
    if (e === 'ended') {
      if (socket.readyState === socket.OPEN) socket.close(1000, 'subscription ended');
      return;
    }
    if (!live) return void early.push(e);
    forward(e);
  });
  stops.push(off);
  const sub = await ownedSubscription(s.deps.pool, binding.owner, id);
  if (socket.readyState !== socket.OPEN) return off(); // closed meanwhile: nothing may outlive it
  if (!sub || sub.status !== 'active') {
    off();
    return session.refuse(notFound(`Subscription/${id} is not active (deleted?).`));
  }
  session.bound.add(id);
  s.numberer.watch(sub);
  send(notificationBundle(s.base(), sub, 'handshake', []));
  live = sub;
  for (const e of early) forward(e);
  if (sub.heartbeatSeconds !== null) {
    const beat = setInterval(() => live && send(notificationBundle(s.base(), live, 'heartbeat', [])), sub.heartbeatSeconds * 1000);
    stops.push(() => clearInterval(beat));
  }
  watchAccessToken(session, binding);
}

/** The access token behind the binding: the socket ends (4401) at its expiry or revocation. */
function watchAccessToken(session: SocketSession, binding: Binding): void {
  const { app, socket } = session;
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
  session.stops.push(
    () => clearInterval(watch),
    () => clearTimeout(expiry),
  );
}
