/**
 * GET /api/v1/vitals/stream (SSE, scope read:vitals). A small hand-written writer over the raw
 * response after reply.hijack(): every event has an `id:` (the resume cursor), `event:` type and
 * one `data:` line of JSON; idle streams get a comment line as heartbeat. Auth, scope and the
 * patient-self rule (403 problem), validation (400 problem) and the audit (503 problem when it
 * cannot be written) happen before the stream opens. The browser's EventSource reconnects
 * by itself with Last-Event-ID; `lagged`/`closed` events say why the server ended a stream. At
 * shutdown a `reconnect` event (last id, delay) and a `retry:` line come before `closed`.
 * A batch of events reaches the client in one `res.write` (its frames joined).
 */
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { callerOf } from '../access/http';
import { liveStreamDeps, startVitalsStream } from '../vitals/service';
import type { CloseReason, LiveMessage, LiveSink } from '../vitals/hub';
import type { LiveSource } from '../vitals/live-sources';
import { reconnectHint, type ReconnectHint } from './reconnect';
import { streamQuerySchema, resumeIdSchema } from './request';
import { reachesAll } from '../access/policy';
import { mayReadAlarms } from '../alarms/service';

const tails = new WeakMap<object, string>();
/** What follows the id in an event's frame: built once per event, shared by every subscriber (the id is each one's cursor). */
const tailOf = (m: Extract<LiveMessage, { id: string }>): string => {
  let t = tails.get(m.data);
  if (t === undefined) tails.set(m.data, (t = `\nevent: ${m.type}\ndata: ${m.json}\n\n`));
  return t;
};

/** One SSE event; `lagged`, `replay-truncated`, `critical-result` and `alarm` carry no id (the client's last id stays its position). */
export const frame = (m: LiveMessage): string =>
  m.type === 'lagged' || m.type === 'replay-truncated' || m.type === 'critical-result' || m.type === 'alarm'
    ? `event: ${m.type}\ndata: ${m.json}\n\n`
    : `id: ${m.id}${tailOf(m)}`;

/** The part of the response a stream writes to (a ServerResponse; a recording fake in unit tests). */
export interface SseTarget {
  write(chunk: string): boolean;
  end(chunk: string): void;
}

/**
 * The hub's sink for one SSE response: a batch is one write of its frames joined. `beforeWrite`
 * runs before anything is written (the route opens the response there and notes the activity);
 * `shutdownHint` is written before `closed` when the server shuts down (the reconnect hint).
 */
export function sseSink(res: SseTarget, beforeWrite: () => void, shutdownHint: () => string = () => ''): LiveSink {
  return {
    send: (m) => (beforeWrite(), res.write(frame(m))),
    sendBatch: (msgs) => (beforeWrite(), res.write(msgs.map(frame).join(''))),
    close: (reason: CloseReason) => {
      beforeWrite();
      res.end(`${reason === 'shutdown' ? shutdownHint() : ''}event: closed\ndata: ${JSON.stringify({ reason })}\n\n`);
    },
  };
}

/** The shutdown hint: `retry:` (EventSource's reconnect delay) and a `reconnect` event naming the last id. */
export const reconnectFrame = (hint: ReconnectHint): string =>
  `retry: ${hint.retry_ms}\nevent: reconnect\ndata: ${JSON.stringify(hint)}\n\n`;

/** Sends the event stream's headers and its opening lines, once (a stream already open is left as it is). */
function openEventStream(res: ServerResponse, requestId: string): void {
  if (res.headersSent) return;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-request-id': requestId,
  });
  res.write(`retry: 2000\n: vitalis live vitals\n\n`);
  res.socket?.setNoDelay(true);
}

export function sseRoutes(deps: GatewayDeps, hub: LiveSource): FastifyPluginAsyncZod {
  const { config } = deps;
  return async (app) => {
    app.get(
      '/api/v1/vitals/stream',
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['vitals'],
          summary: 'Live vitals and alerts (Server-Sent Events), resumable with Last-Event-ID',
          querystring: streamQuerySchema(config.LIVE_MAX_PATIENTS),
          headers: z.looseObject({ 'last-event-id': resumeIdSchema.optional() }),
        },
      },
      async (req, reply) => {
        const q = req.query;
        // access, resume id and audit before the stream opens: any refusal is still a problem response (403, 400, 503)
        const start = await startVitalsStream(
          liveStreamDeps(deps),
          callerOf(req),
          { patients: q.patient, codes: q.code, resumeId: req.headers['last-event-id'] ?? q.last_event_id },
          { via: 'sse' },
        );

        reply.hijack();
        const res = reply.raw;
        const open = () => openEventStream(res, req.id);

        let wroteSinceBeat = false;
        let beat: NodeJS.Timeout | undefined;
        let lastId = (): string | null => null;
        const sub = hub.subscribe(
          {
            transport: 'sse',
            patients: q.patient,
            codes: q.code,
            alerts: q.alerts,
            // critical diagnostic results (issue 21) go to clinical readers of diagnostics only
            criticalResults: q.alerts !== false && req.principal !== undefined && reachesAll(req.principal, 'CriticalResult', 'read'),
            // bedside alarm notices (issue 31: acknowledged, escalated, device disconnected) to those who may read the patients' alarms
            alarms: q.alerts !== false && req.principal !== undefined && mayReadAlarms(req.principal, q.patient),
            ...start,
            token: req.principal
              ? { id: req.principal.tokenId, expiresAt: req.principal.expiresAt, derivedFrom: req.principal.derivedFrom }
              : undefined,
            maxQueue: config.LIVE_MAX_QUEUE,
          },
          sseSink(
            res,
            () => {
              open();
              wroteSinceBeat = true;
            },
            // shutdown: where to resume and when (`retry:` sets EventSource's delay), then `closed` as before
            () => reconnectFrame(reconnectHint(lastId())),
          ),
        );
        lastId = () => sub.lastId;
        res.on('drain', () => sub.resume());
        res.on('close', () => {
          clearInterval(beat);
          sub.unsubscribe();
        });
        // Open the stream (headers to the client) only once its starting point is fixed.
        await sub.ready;
        if (res.writableEnded || res.destroyed) return;
        open();
        beat = setInterval(() => {
          if (!wroteSinceBeat && res.writableLength === 0) res.write(': heartbeat\n\n');
          wroteSinceBeat = false;
        }, config.LIVE_HEARTBEAT_MS);
      },
    );
  };
}
