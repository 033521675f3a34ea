/**
 * Graceful shutdown loses nothing. The real gateway runs as a child process (`node --import tsx
 * apps/gateway/src/main.ts`) next to an in-process one (the instance a load balancer would move
 * the clients to), both on a private topic fed through Kafka and a real ingest with its live stage.
 * A SIGTERM mid-stream: /readyz answers 503 `draining` first; then each SSE subscriber gets a
 * `reconnect` event with its last id and a `retry:` hint, each WebSocket subscription a
 * `reconnect` message and the socket close code 1012; the process exits 0 (inside its grace
 * period, else it would exit 1). Resuming on the other gateway with Last-Event-ID, the subscriber
 * has seen every observation exactly once, in order, with no gap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { exited, freePort } from '../../helpers/processes';
import { numeric, openSse, openWs, startRig, streamUrl, uid, type LiveRig } from '../live/support';

const TOTAL = 80;
let rig: LiveRig;
let auth: { authorization: string };
const children: ChildProcess[] = [];

beforeAll(async () => {
  rig = await startRig('ops-drain');
  const client = await registerClient(rig.gw.url, ['read:vitals']);
  auth = { authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, client)}` };
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rig?.close();
});

/** The real gateway process; the same issuer as the in-process one, so one token works on both. */
async function startGatewayProcess(port: number): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  let stderr = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts'], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: rig.gw.url,
      DATABASE_URL: testEnv.APP_DATABASE_URL,
      REDIS_URL: testEnv.REDIS_URL,
      KAFKA_BROKERS: testEnv.KAFKA_BROKERS.join(','),
      VITALS_TOPIC: rig.topic,
      LIVE_TOPIC: rig.topic,
      LOG_LEVEL: 'warn',
      AUDIT_CHECKPOINT_DIR: mkdtempSync(join(tmpdir(), 'vitalis-drain-')),
      READINESS_DRAIN_SECONDS: '2',
      SHUTDOWN_GRACE_SECONDS: '20',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { child, url, stderr: () => stderr };
    if (child.exitCode !== null) throw new Error(`the gateway exited at start: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`the gateway was not ready within 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('SIGTERM on a gateway with live subscribers', () => {
  it('drains: readiness 503, a reconnect hint with the last id, exit 0; resuming elsewhere misses and repeats nothing', async () => {
    const patient = `pat-drain-${uid()}`;
    const gw = await startGatewayProcess(await freePort());

    const sse = await openSse(`${gw.url}/api/v1/vitals/stream?${new URLSearchParams({ patient })}`, auth);
    expect(sse.status).toBe(200);
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, auth);
    ws.send({ type: 'subscribe', sub: 's1', patients: [patient] });
    await ws.waitFor((m) => m.some((x) => x.type === 'subscribed'), 'subscribed');

    // observations keep coming, through Kafka and the ingest, before, during and after the shutdown
    const at = Date.now();
    const producing = (async () => {
      for (let seq = 0; seq < TOTAL; seq++) {
        await rig.send(patient, [numeric(patient, `${patient}-dev`, seq, new Date(at + seq))]);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await sse.waitForEvents(10, 'the first observations');

    const termAt = Date.now();
    gw.child.kill('SIGTERM');
    // the signal reaches the child asynchronously: a probe may still be answered before it
    let draining: Response;
    do draining = await fetch(`${gw.url}/readyz`);
    while (draining.status === 200);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toEqual({ status: 'draining' });

    await sse.ended;
    const { code, signal } = await exited(gw.child);
    const exitMs = Date.now() - termAt;
    expect({ code, signal, stderr: code === 0 ? '' : gw.stderr() }).toEqual({ code: 0, signal: null, stderr: '' });

    // SSE: observations, then the hint, then `closed` (clients that only know `closed` still reconnect)
    const observations = sse.events.filter((e) => e.event === 'observation');
    const tail = sse.events.slice(observations.length);
    expect(sse.events.slice(0, observations.length).every((e) => e.event === 'observation')).toBe(true);
    expect(tail).toEqual([
      { id: undefined, event: 'reconnect', data: { last_id: observations.at(-1)!.id, retry_ms: expect.any(Number), reason: 'shutdown' } },
      { id: undefined, event: 'closed', data: { reason: 'shutdown' } },
    ]);
    expect(sse.retries.at(-1)).toBe(tail[0]!.data.retry_ms);

    // WebSocket: the same hint per subscription, then close code 1012 (service restart)
    const closedWs = await ws.closed;
    expect(closedWs).toEqual({ code: 1012, reason: 'service restart' });
    const wsObservations = ws.messages.filter((m) => m.type === 'observation');
    expect(ws.messages.find((m) => m.type === 'reconnect')).toEqual({
      type: 'reconnect',
      sub: 's1',
      last_id: wsObservations.at(-1)!.id,
      retry_ms: expect.any(Number),
      reason: 'shutdown',
    });

    // resume on the other gateway from the hint's id: every observation exactly once, no gap
    await producing;
    const resumed = await openSse(streamUrl(rig.gw, { patient }), { ...auth, 'last-event-id': tail[0]!.data.last_id });
    expect(resumed.status).toBe(200);
    await resumed.waitForEvents(TOTAL - observations.length, 'the rest after resuming');
    resumed.close();
    const seqs = [...observations, ...resumed.events.filter((e) => e.event === 'observation')].map((e) => e.data.seq);
    expect(seqs).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
    console.log(
      `SIGTERM to exit ${exitMs} ms (drain wait 2 s); ${observations.length} observations before the hint, ${TOTAL - observations.length} after resuming`,
    );

    const wsResumed = await openWs(`${rig.gw.url}/api/v1/vitals/ws`, auth);
    wsResumed.send({ type: 'subscribe', sub: 's2', patients: [patient], after: ws.messages.find((m) => m.type === 'reconnect').last_id });
    await wsResumed.waitFor(
      (m) => m.filter((x) => x.type === 'observation').length >= TOTAL - wsObservations.length,
      'the rest over WebSocket',
    );
    wsResumed.socket.close();
    const wsSeqs = [...wsObservations, ...wsResumed.messages.filter((m) => m.type === 'observation')].map((m) => m.data.seq);
    expect(wsSeqs).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
  }, 120_000);
});
