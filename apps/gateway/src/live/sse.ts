/**
 * GET /api/v1/vitals/stream (SSE, scope read:vitals). A small hand-written writer over the raw
 * response after reply.hijack(): every event has an `id:` (the resume cursor), `event:` type and
 * one `data:` line of JSON; idle streams get a comment line as heartbeat. Auth, scope and the
 * patient-self rule (403 problem), validation (400 problem) and the audit (503 problem when it
 * cannot be written) happen before the stream opens. The browser's EventSource reconnects
 * by itself with Last-Event-ID; `lagged`/`closed` events say why the server ended a stream.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { callerOf } from '../records/http';
import { liveStreamDeps, startVitalsStream } from '../vitals/service';
import type { LiveMessage } from './hub';
import type { LiveSource } from './sources';
import { resumeIdSchema, streamQuerySchema } from './request';

/** One SSE event; `lagged` and `replay-truncated` carry no id (the client's last id stays its position). */
export const frame = (m: LiveMessage): string =>
  m.type === 'lagged' || m.type === 'replay-truncated' ? `event: ${m.type}\ndata: ${m.json}\n\n` : `id: ${m.id}\nevent: ${m.type}\ndata: ${m.json}\n\n`;

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
        const start = await startVitalsStream(liveStreamDeps(deps), callerOf(req), { patients: q.patient, codes: q.code, resumeId: req.headers['last-event-id'] ?? q.last_event_id }, { via: 'sse' });

        reply.hijack();
        const res = reply.raw;
        const open = () => {
          if (res.headersSent) return;
          res.writeHead(200, {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache, no-transform',
            connection: 'keep-alive',
            'x-accel-buffering': 'no',
            'x-request-id': req.id,
          });
          res.write(`retry: 2000\n: vitalis live vitals\n\n`);
          res.socket?.setNoDelay(true);
        };

        let wroteSinceBeat = false;
        let beat: NodeJS.Timeout | undefined;
        const sub = hub.subscribe(
          {
            patients: q.patient,
            codes: q.code,
            alerts: q.alerts,
            ...start,
            token: req.principal ? { id: req.principal.tokenId, expiresAt: req.principal.expiresAt, derivedFrom: req.principal.derivedFrom } : undefined,
            maxQueue: config.LIVE_MAX_QUEUE,
          },
          {
            send: (m) => {
              open();
              wroteSinceBeat = true;
              return res.write(frame(m));
            },
            close: (reason) => {
              open();
              res.end(`event: closed\ndata: ${JSON.stringify({ reason })}\n\n`);
            },
          },
        );
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
