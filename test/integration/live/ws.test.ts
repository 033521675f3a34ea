/**
 * Live vitals over WebSocket (header auth and first-message auth, subscribe/unsubscribe, resume by
 * id) and backpressure: a subscriber that stops reading is told it fell behind and closed without
 * slowing a fast subscriber on the same gateway, and resumes from the id it was given.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway } from '../../helpers/gateway';
import { numeric, openSse, openWs, startRig, streamUrl, uid, waitFor, type LiveRig } from './support';

let rig: LiveRig;
let token: string;

beforeAll(async () => {
  // a small queue so a stalled reader overflows quickly
  rig = await startRig('live-ws', { LIVE_MAX_QUEUE: '64' });
  const client = await registerClient(rig.gw.url, ['read:vitals']);
  token = await clientCredentialsToken(rig.gw.url, client);
});
afterAll(async () => {
  await rig?.close();
});

const wsUrl = () => `${rig.gw.url}/api/v1/vitals/ws`;
const observations = (patient: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => numeric(patient, `${patient}-dev`, from + i, new Date(Date.now() + i)));
/** ECG chunks of 2,500 samples (~15 kB each) fill socket buffers quickly. */
const ecg = (patient: string, seq: number) => ({
  patient_id: patient,
  device_id: `${patient}-ecg`,
  seq,
  effective_at: new Date(Date.now() + seq).toISOString(),
  code: '131330',
  unit: 'mV',
  waveform: { origin: 0, period_ms: 4, samples: Array.from({ length: 2_500 }, (_, i) => Math.round(Math.sin(i / 10) * 1000) / 1000) },
});
const dataOf = (msgs: any[], sub: string) => msgs.filter((m) => m.sub === sub && m.type === 'observation');

describe('WebSocket /api/v1/vitals/ws', () => {
  it('refuses the upgrade with a bad or under-scoped token in the header (401/403)', async () => {
    await expect(openWs(wsUrl(), { authorization: 'Bearer nope' })).rejects.toMatchObject({ statusCode: 401 });
    const writer = await registerClient(rig.gw.url, ['write:vitals']);
    await expect(openWs(wsUrl(), { authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, writer)}` })).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('first-message auth: refuses subscribe before auth, closes 4401 on a bad token, 4403 without the scope', async () => {
    const started = new Date();
    const ws = await openWs(wsUrl());
    ws.send({ type: 'subscribe', sub: 'a', patients: ['x'] });
    await ws.waitFor((m) => m.some((x) => x.type === 'error' && x.status === 401), 'a 401 error message');
    ws.send({ type: 'auth', token: 'garbage' });
    expect((await ws.closed).code).toBe(4401);

    const writer = await registerClient(rig.gw.url, ['write:vitals']);
    const ws2 = await openWs(wsUrl());
    ws2.send({ type: 'auth', token: await clientCredentialsToken(rig.gw.url, writer) });
    expect((await ws2.closed).code).toBe(4403);
    // both refusals are in the audit trail (reason only, never the token)
    const { rows } = await rig.pool.query(
      `SELECT detail FROM audit_events WHERE action = 'token.refused' AND detail->>'route' = '/api/v1/vitals/ws' AND occurred_at > $1 ORDER BY id`,
      [started],
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(rows)).not.toContain('garbage');
  });

  it('delivers, then resumes from an id: exactly the 100 missed, in order (first-message auth)', async () => {
    const patient = `pat-ws-${uid()}`;
    const ws = await openWs(wsUrl());
    ws.send({ type: 'auth', token });
    await ws.waitFor((m) => m.some((x) => x.type === 'ready'), 'ready');
    ws.send({ type: 'subscribe', sub: 's1', patients: [patient] });
    await ws.waitFor((m) => m.some((x) => x.type === 'subscribed'), 'subscribed');
    await rig.send(patient, observations(patient, 0, 1));
    const [first] = dataOf(await ws.waitFor((m) => dataOf(m, 's1').length === 1, 'first observation'), 's1');
    expect(first).toMatchObject({ type: 'observation', sub: 's1', data: { patient_id: patient, seq: 0 } });
    expect(first.id).toMatch(/^\d+-\d+$/);
    ws.send({ type: 'unsubscribe', sub: 's1' });
    await ws.waitFor((m) => m.some((x) => x.type === 'unsubscribed'), 'unsubscribed');

    await rig.send(patient, observations(patient, 1, 100));
    await waitFor(
      async () => (await rig.pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0].n,
      (n) => n === 101,
    );
    expect(dataOf(ws.messages, 's1')).toHaveLength(1); // unsubscribed: nothing more on s1

    ws.send({ type: 'subscribe', sub: 's2', patients: [patient], after: first.id });
    await ws.waitFor((m) => dataOf(m, 's2').length === 100, '100 replayed');
    await rig.send(patient, observations(patient, 101, 3));
    await ws.waitFor((m) => dataOf(m, 's2').length === 103, '3 live after the replay');
    await new Promise((r) => setTimeout(r, 500));
    expect(dataOf(ws.messages, 's2').map((m) => m.data.seq)).toEqual(Array.from({ length: 103 }, (_, i) => i + 1));
    ws.socket.close();
  });

  it('header auth works and bad messages get an error, not a dropped socket', async () => {
    const ws = await openWs(wsUrl(), { authorization: `Bearer ${token}` });
    await ws.waitFor((m) => m.some((x) => x.type === 'ready'), 'ready');
    ws.socket.send('{not json');
    ws.send({ type: 'subscribe', sub: 'z', patients: [] });
    ws.send({ type: 'subscribe', sub: 'z', patients: ['p'], after: 'bogus' });
    await ws.waitFor((m) => m.filter((x) => x.type === 'error' && x.status === 400).length === 3, 'three 400 errors');
    expect(ws.socket.readyState).toBe(ws.socket.OPEN);
    ws.socket.close();
  });

  it('a slow subscriber is told it fell behind and closed; a fast one gets everything; the slow one resumes by id', async () => {
    const patient = `pat-slow-${uid()}`;
    const fast = await openSse(streamUrl(rig.gw, { patient }), { authorization: `Bearer ${token}` });

    // the slow one: a raw HTTP client that reads the headers, then stops reading
    const { port } = new URL(rig.gw.address);
    const slow = net.connect(Number(port), '127.0.0.1');
    slow.setNoDelay(true);
    let received = '';
    const onData = (b: Buffer) => (received += b.toString());
    slow.on('data', onData);
    slow.write(
      `GET /api/v1/vitals/stream?patient=${patient} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
    );
    await waitFor(
      async () => received,
      (r) => r.includes('vitalis live vitals'),
      20_000,
      'the slow stream to open',
    );
    slow.pause();
    slow.removeListener('data', onData);

    const chunk = (seq: number) => ecg(patient, seq);
    const total = 600;
    for (let i = 0; i < total; i += 50)
      await rig.send(
        patient,
        Array.from({ length: 50 }, (_, j) => chunk(i + j)),
      );
    await fast.waitForEvents(total, 'the fast subscriber to get every chunk', 90_000);
    expect(fast.events.map((e) => e.data.seq)).toEqual(Array.from({ length: total }, (_, i) => i));

    // now read what the slow one was sent: ... then `lagged` with the last id, then `closed`
    slow.on('data', (b) => (received += b.toString()));
    slow.resume();
    // the response ends (chunked terminator); the keep-alive connection itself may stay open
    await waitFor(
      async () => received,
      (r) => r.includes('event: closed'),
      60_000,
      'the slow stream to end',
    );
    const lagged = /event: lagged\ndata: (.*)\n/.exec(received);
    expect(lagged).not.toBeNull();
    const { last_id } = JSON.parse(lagged![1]!);
    expect(received).toMatch(/event: closed\ndata: \{"reason":"lagged"\}/);
    const seqsSeen = [...received.matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));
    expect(seqsSeen.length).toBeLessThan(total);

    // resume from the id it was given: the rest, no gap, no duplicate
    const resumed = await openSse(streamUrl(rig.gw, { patient }), { authorization: `Bearer ${token}`, 'last-event-id': last_id });
    await resumed.waitForEvents(total - seqsSeen.length, 'the rest after the lag', 90_000);
    expect([...seqsSeen, ...resumed.events.map((e) => e.data.seq)]).toEqual(Array.from({ length: total }, (_, i) => i));
    fast.close();
    resumed.close();
    slow.destroy();
  }, 240_000);

  it('a WebSocket subscriber that stops reading gets lagged + closed for that subscription, then resumes with after', async () => {
    const patient = `pat-wslow-${uid()}`;
    const ws = await openWs(wsUrl(), { authorization: `Bearer ${token}` });
    ws.send({ type: 'subscribe', sub: 'slow', patients: [patient] });
    await ws.waitFor((m) => m.some((x) => x.type === 'subscribed'), 'subscribed');
    ws.socket.pause(); // stop reading: the server's socket buffer fills
    const total = 600;
    for (let i = 0; i < total; i += 50)
      await rig.send(
        patient,
        Array.from({ length: 50 }, (_, j) => ecg(patient, i + j)),
      );
    await waitFor(
      async () => (await rig.pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0].n,
      (n) => n === total,
    );
    ws.socket.resume();
    const msgs = await ws.waitFor(
      (m) => m.some((x) => x.type === 'closed' && x.sub === 'slow'),
      'the lagged subscription to close',
      60_000,
    );
    const lagged = msgs.find((x) => x.type === 'lagged');
    expect(lagged).toMatchObject({ sub: 'slow', last_id: expect.stringMatching(/^\d+-\d+$/) });
    expect(msgs.find((x) => x.type === 'closed')).toMatchObject({ reason: 'lagged' });
    const before = dataOf(msgs, 'slow').map((m) => m.data.seq);
    expect(before.length).toBeLessThan(total);
    expect(dataOf(msgs, 'slow').at(-1).id).toBe(lagged.last_id);

    ws.send({ type: 'subscribe', sub: 'again', patients: [patient], after: lagged.last_id });
    await ws.waitFor((m) => dataOf(m, 'again').length === total - before.length, 'the rest', 60_000);
    expect([...before, ...dataOf(ws.messages, 'again').map((m) => m.data.seq)]).toEqual(Array.from({ length: total }, (_, i) => i));
    ws.socket.close();
  }, 180_000);

  it('any gateway serves any subscriber with the same ids', async () => {
    const other = await startGateway({ LIVE_TOPIC: rig.topic });
    try {
      const otherToken = await clientCredentialsToken(other.url, await registerClient(other.url, ['read:vitals']));
      const patient = `pat-2gw-${uid()}`;
      const onFirst = await openSse(streamUrl(rig.gw, { patient }), { authorization: `Bearer ${token}` });
      const onSecond = await openSse(streamUrl(other, { patient }), { authorization: `Bearer ${otherToken}` });
      expect(onSecond.status).toBe(200);
      await rig.send(patient, observations(patient, 0, 3));
      await onFirst.waitForEvents(3, 'three on the first gateway');
      await onSecond.waitForEvents(3, 'three on the second gateway');
      expect(onSecond.events.map((e) => e.id)).toEqual(onFirst.events.map((e) => e.id));
      onFirst.close();
      onSecond.close();
    } finally {
      await other.close();
    }
  });

  it('a stream closes when its token expires', async () => {
    const shortLived = await startGateway({ LIVE_TOPIC: rig.topic, BACKEND_TOKEN_TTL_SECONDS: '2' });
    try {
      const t = await clientCredentialsToken(shortLived.url, await registerClient(shortLived.url, ['read:vitals']));
      const sse = await openSse(streamUrl(shortLived, { patient: `pat-exp-${uid()}` }), { authorization: `Bearer ${t}` });
      if (sse.status === 200) {
        await sse.ended; // the server ends the stream when the token expires
        expect(sse.events.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'expired' } });
      } else {
        expect(sse.status).toBe(401); // already expired on arrival (a very slow machine): refused, never open
      }
    } finally {
      await shortLived.close();
    }
  });

  it('idle streams get heartbeats: an SSE comment line, a WebSocket ping', async () => {
    const gw = await startGateway({ LIVE_TOPIC: rig.topic, LIVE_HEARTBEAT_MS: '200' });
    try {
      const t = await clientCredentialsToken(gw.url, await registerClient(gw.url, ['read:vitals']));
      const ctrl = new AbortController();
      const res = await fetch(streamUrl(gw, { patient: `pat-hb-${uid()}` }), {
        headers: { authorization: `Bearer ${t}` },
        signal: ctrl.signal,
      });
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes(': heartbeat\n\n')) text += new TextDecoder().decode((await reader.read()).value);
      ctrl.abort();

      const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, { authorization: `Bearer ${t}` });
      await new Promise<void>((resolve) => ws.socket.once('ping', () => resolve()));
      ws.socket.close();
    } finally {
      await gw.close();
    }
  });
});
