/**
 * GET /api/v1/vitals/ws (WebSocket, @fastify/websocket). Same auth as every route (scope
 * read:vitals), with the token either in the upgrade request's Authorization header (refused with a
 * 401/403 problem before the upgrade) or in a first `{"type":"auth","token":...}` message within
 * LIVE_WS_AUTH_TIMEOUT_MS. Tokens are never logged. Several subscriptions per socket, each with the
 * same resume rule as SSE. Wire protocol: see README.md in this folder. A batch of events is sent
 * inside one cork of the TCP socket: one write of all its frames.
 */
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpProblem, problemOf } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import type { Principal } from '../access/principal';
import { liveStreamDeps, startVitalsStream, type StreamStart } from '../vitals/service';
import type { CloseReason, LiveMessage, LiveSink, Subscription } from '../vitals/hub';
import type { LiveSource } from '../vitals/live-sources';
import { codeSchema } from './request';
import { reconnectHint, WS_SERVICE_RESTART } from './reconnect';
import { resourceId, VITAL_CODE } from '@vitalis/schemas';
import { reachesAll } from '../access/policy';
import { mayReadAlarms } from '../alarms/service';
import type { RouteApp } from '../route-app';

/** Close codes: 4401 unauthenticated/revoked/expired, 4403 forbidden, 1012 service restart (shutdown: reconnect elsewhere). */
export const WS_CLOSE = { unauthorized: 4401, forbidden: 4403, serviceRestart: WS_SERVICE_RESTART, policy: 1008 } as const;
/** Above this many buffered bytes the socket counts as full (backpressure). */
const HIGH_WATER = 1 << 20;
const MAX_SUBSCRIPTIONS = 16;

const clientMessage = (maxPatients: number) =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('auth'), token: z.string().min(1).max(8_192) }),
    z.object({
      type: z.literal('subscribe'),
      sub: z.string().min(1).max(64),
      patients: z.array(resourceId).min(1).max(maxPatients),
      codes: z.array(codeSchema).min(1).optional(),
      alerts: z.boolean().default(true),
      after: z.string().max(8_192).optional(),
    }),
    z.object({ type: z.literal('unsubscribe'), sub: z.string().min(1).max(64) }),
    z.object({ type: z.literal('ping') }),
  ]);

/** A plain GET cannot be served at a WebSocket endpoint (RFC 9110 §15.5.22): 426 naming the protocol, not an empty 404. */
export function requireWebSocketUpgrade(req: FastifyRequest, reply: FastifyReply): void {
  if (req.headers.upgrade?.toLowerCase() === 'websocket') return;
  reply.header('upgrade', 'websocket');
  throw problemOf('upgrade-required', 'This endpoint speaks WebSocket only: send the GET with Upgrade: websocket.');
}

/** What every socket's session shares: the gateway's deps, the live hub, the message parser and the bearer check of an auth message. */
interface SessionContext {
  deps: GatewayDeps;
  hub: LiveSource;
  parseMessage: ReturnType<typeof clientMessage>;
  verifyToken: (req: FastifyRequest, token: string) => Promise<Principal>;
}

/** One socket's state: who it is (once authenticated), its subscriptions by name, and how it answers. */
interface Session {
  socket: WebSocket;
  req: FastifyRequest;
  principal: Principal | undefined;
  subs: Map<string, Subscription>;
  authTimer: NodeJS.Timeout | undefined;
  send: (msg: object) => void;
  problem: (status: number, detail: string, sub?: string, title?: string) => void;
  closeAll: (code: number, reason: string) => void;
}

type ClientMessage = z.infer<ReturnType<typeof clientMessage>>;

/** A socket's session: its senders, the auth deadline (unless the upgrade carried a token), the heartbeat, and its message handler. */
function openSession(ctx: SessionContext, socket: WebSocket, req: FastifyRequest): void {
  const { config } = ctx.deps;
  const send = (msg: object): void => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
  };
  const subs = new Map<string, Subscription>();
  const session: Session = {
    socket,
    req,
    principal: req.principal,
    subs,
    authTimer: undefined,
    send,
    problem: (status, detail, sub, title) =>
      send({
        type: 'error',
        sub,
        status,
        title: title ?? (status === 403 ? 'Forbidden' : status === 401 ? 'Unauthorized' : 'Bad Request'),
        detail,
      }),
    closeAll: (code, reason) => {
      for (const s of subs.values()) s.unsubscribe();
      subs.clear();
      if (socket.readyState === socket.OPEN) socket.close(code, reason);
    },
  };

  const { principal } = session;
  session.authTimer = principal
    ? undefined
    : setTimeout(() => {
        session.problem(401, `no auth message within ${config.LIVE_WS_AUTH_TIMEOUT_MS} ms`);
        session.closeAll(WS_CLOSE.unauthorized, 'authentication required');
      }, config.LIVE_WS_AUTH_TIMEOUT_MS);
  if (principal) send({ type: 'ready', client_id: principal.clientId, scopes: principal.scopes });

  const beat = setInterval(() => {
    if (socket.readyState === socket.OPEN) socket.ping();
  }, config.LIVE_HEARTBEAT_MS);
  socket.on('close', () => {
    clearTimeout(session.authTimer);
    clearInterval(beat);
    for (const s of subs.values()) s.unsubscribe();
    subs.clear();
  });

  socket.on('message', (raw, isBinary) => {
    void onMessage(ctx, session, raw.toString(), isBinary).catch((err) => {
      req.log.error({ err }, 'live websocket message failed');
      session.problem(500, 'internal error');
    });
  });
}

/** One client message: parsed, then auth, ping, unsubscribe or subscribe (all but auth only once authenticated). */
async function onMessage(ctx: SessionContext, session: Session, text: string, isBinary: boolean): Promise<void> {
  const { problem, send, subs } = session;
  if (isBinary) return problem(400, 'messages are JSON text frames');
  let parsed;
  try {
    parsed = ctx.parseMessage.safeParse(JSON.parse(text));
  } catch {
    return problem(400, 'message is not JSON');
  }
  if (!parsed.success) return problem(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'message'}: ${i.message}`).join('; '));
  const msg = parsed.data;

  if (msg.type === 'auth') return authenticate(ctx, session, msg.token);
  const { principal } = session;
  if (!principal) return problem(401, 'send {"type":"auth","token":...} first');
  if (msg.type === 'ping') return void send({ type: 'pong' });
  if (msg.type === 'unsubscribe') {
    subs.get(msg.sub)?.unsubscribe();
    subs.delete(msg.sub);
    return void send({ type: 'unsubscribed', sub: msg.sub });
  }
  return subscribe(ctx, session, principal, msg);
}

/** An auth message: the token checked for read:vitals; a refusal closes the socket (4403 for scope, else 4401). */
async function authenticate(ctx: SessionContext, session: Session, token: string): Promise<void> {
  const { problem } = session;
  if (session.principal) return problem(400, 'already authenticated');
  let principal: Principal;
  try {
    principal = await ctx.verifyToken(session.req, token);
  } catch (err) {
    const status = err instanceof HttpProblem ? err.status : 503;
    problem(status, err instanceof HttpProblem ? (err.detail ?? 'refused') : 'token cannot be checked now');
    return session.closeAll(
      status === 403 ? WS_CLOSE.forbidden : WS_CLOSE.unauthorized,
      status === 403 ? 'insufficient scope' : 'invalid token',
    );
  }
  session.principal = principal;
  clearTimeout(session.authTimer);
  session.send({ type: 'ready', client_id: principal.clientId, scopes: principal.scopes });
}

/**
 * A subscribe message: access, resume id and audit before the subscription opens (a refusal is an
 * error message for it: 403, 400, 503), then the hub subscription writing to this socket.
 */
async function subscribe(
  ctx: SessionContext,
  session: Session,
  who: Principal,
  msg: Extract<ClientMessage, { type: 'subscribe' }>,
): Promise<void> {
  const { socket, req, subs, send, problem, closeAll } = session;
  const { config } = ctx.deps;
  if (subs.has(msg.sub)) return problem(400, `subscription "${msg.sub}" exists; unsubscribe first`, msg.sub);
  if (subs.size >= MAX_SUBSCRIPTIONS) return problem(400, `at most ${MAX_SUBSCRIPTIONS} subscriptions per socket`, msg.sub);
  const patients = [...new Set(msg.patients)];
  let start: StreamStart;
  try {
    start = await startVitalsStream(
      liveStreamDeps(ctx.deps),
      { principal: who, requestId: req.id, ip: req.ip },
      { patients, codes: msg.codes, resumeId: msg.after },
      { via: 'websocket' },
    );
  } catch (err) {
    if (err instanceof HttpProblem) return problem(err.status, err.detail, msg.sub, err.title);
    throw err;
  }
  if (socket.readyState !== socket.OPEN) return;
  const name = msg.sub;
  let waiting: NodeJS.Timeout | undefined;
  const sub = ctx.hub.subscribe(
    {
      transport: 'ws',
      patients,
      codes: msg.codes,
      alerts: msg.alerts,
      criticalResults: msg.alerts !== false && reachesAll(who, 'CriticalResult', 'read'),
      alarms: msg.alerts !== false && mayReadAlarms(who, patients),
      ...start,
      token: { id: who.tokenId, expiresAt: who.expiresAt, derivedFrom: who.derivedFrom },
      maxQueue: config.LIVE_MAX_QUEUE,
    },
    wsSink(socket, req.raw.socket, name, {
      full: () => {
        // ws has no drain event: poll the buffer until it empties enough
        waiting ??= setInterval(() => {
          if (socket.readyState !== socket.OPEN || socket.bufferedAmount < HIGH_WATER / 2) {
            clearInterval(waiting);
            waiting = undefined;
            sub.resume();
          }
        }, 20);
      },
      close: (reason) => {
        clearInterval(waiting);
        subs.delete(name);
        // shutdown: every subscription gets its own hint (the hub ends them one by one);
        // the socket closes with 1012 once the last one is told
        if (reason === 'shutdown') send({ type: 'reconnect', sub: name, ...reconnectHint(sub.lastId) });
        send({ type: 'closed', sub: name, reason });
        if (reason === 'revoked' || reason === 'expired') closeAll(WS_CLOSE.unauthorized, `token ${reason}`);
        else if (reason === 'shutdown' && subs.size === 0) closeAll(WS_CLOSE.serviceRestart, 'service restart');
      },
    }),
  );
  subs.set(name, sub);
  await sub.ready; // its starting point is fixed: "from now" = from this message on
  if (subs.get(name) === sub) send({ type: 'subscribed', sub: name });
}

/** GET /api/v1/vitals/ws: the upgrade (its Authorization header checked first when present), then one session per socket. */
function liveSocketRoute(app: RouteApp, ctx: SessionContext): void {
  app.get(
    '/api/v1/vitals/ws',
    {
      websocket: true,
      schema: {
        tags: ['vitals'],
        summary: 'Live vitals and alerts over WebSocket (subscribe/unsubscribe, resumable)',
        description: `A GET with \`Upgrade: websocket\`. The token comes in the Authorization header (checked before the upgrade: 401/403 problem) or in a first \`{"type":"auth","token":"…"}\` message. Then \`{"type":"subscribe","sub":"s1","patients":["pat-0001"],"codes":["${VITAL_CODE.heartRate}"],"alerts":true,"after":"3-1042"}\`; the server answers \`ready\`, \`subscribed\`, then \`observation\` and \`alert\` messages whose \`id\` resumes a later subscription (\`after\`, the same ids as the SSE stream), and \`lagged\` + \`closed\` when the client falls behind. Protocol: apps/gateway/src/live/README.md. Scope \`read:vitals\`.`,
      },
      // Public in the route contract only so the token may come in the first message; when an
      // Authorization header is present it is checked here, before the upgrade (401/403 problem).
      onRequest: async (req, reply) => {
        requireWebSocketUpgrade(req, reply);
        if (req.headers.authorization === undefined) return;
        req.principal = await app.verifyBearer(req, ['read:vitals']);
      },
    },
    (socket: WebSocket, req: FastifyRequest) => openSession(ctx, socket, req),
  );
}

/** The live WebSocket plugin (one route). */
export function wsRoutes(deps: GatewayDeps, hub: LiveSource): FastifyPluginAsyncZod {
  const parseMessage = clientMessage(deps.config.LIVE_MAX_PATIENTS);
  return async (app) => {
    liveSocketRoute(app, {
      deps,
      hub,
      parseMessage,
      verifyToken: (req, token) => app.verifyBearer(req, ['read:vitals'], { token }),
    });
  };
}

/** The WebSocket a subscription writes to, and the TCP socket under it (corked around a batch). */
export type WsTarget = Pick<WebSocket, 'readyState' | 'OPEN' | 'bufferedAmount' | 'send'>;
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * The hub's sink for one subscription on a socket: a batch is sent inside one cork of the TCP
 * socket (ws writes each frame synchronously, as it does without permessage-deflate, which is off),
 * so its frames leave in one write. Above HIGH_WATER buffered bytes it says full and calls `full`.
 */
export function wsSink(
  socket: WsTarget,
  tcp: Corkable,
  sub: string,
  on: { full: () => void; close: (reason: CloseReason) => void },
): LiveSink {
  const room = (): boolean => {
    if (socket.bufferedAmount < HIGH_WATER) return true;
    on.full();
    return false;
  };
  return {
    send: (m) => {
      if (socket.readyState !== socket.OPEN) return false;
      socket.send(wireMessage(sub, m));
      return room();
    },
    sendBatch: (msgs) => {
      if (socket.readyState !== socket.OPEN) return false;
      tcp.cork();
      try {
        for (const m of msgs) socket.send(wireMessage(sub, m));
      } finally {
        tcp.uncork();
      }
      return room();
    },
    close: on.close,
  };
}

const tails = new WeakMap<object, string>();
/** What follows the id in an event's message: built once per event, shared by every subscriber. */
const tailOf = (m: Extract<LiveMessage, { type: 'observation' | 'alert' }>): string => {
  let t = tails.get(m.data);
  if (t === undefined) tails.set(m.data, (t = m.type === 'alert' ? `","event":"${m.event}","data":${m.json}}` : `","data":${m.json}}`));
  return t;
};

/** One server message; the event's part is serialised once per event and spliced in. */
export function wireMessage(sub: string, m: LiveMessage): string {
  const s = JSON.stringify(sub);
  if (m.type === 'lagged') return `{"type":"lagged","sub":${s},"last_id":${JSON.stringify(m.last_id)}}`;
  if (m.type === 'replay-truncated') return JSON.stringify({ type: 'replay-truncated', sub, ...m.data });
  if (m.type === 'critical-result' || m.type === 'alarm') return `{"type":"${m.type}","sub":${s},"event":"${m.event}","data":${m.json}}`;
  return `{"type":"${m.type}","sub":${s},"id":"${m.id}${tailOf(m)}`;
}
