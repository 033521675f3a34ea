/**
 * Bounded live replay over real HTTP (SSE and WebSocket): a resume id the stream never issued is
 * refused (400) instead of replaying a patient's whole history; an id older than the replay window
 * (LIVE_REPLAY_WINDOW_SECONDS) gets a `replay-truncated` event naming the gap to read through REST,
 * then the window's events and live data with nothing skipped; every replay is audited.
 *
 * The gateway serves a private topic no ingest writes to: the rows are stored through the ingest's
 * own store function (rows + offset ranges, each test in a partition of its own), backdated where a
 * test needs history older than the window, and live batches are published on the fan-out channel
 * as the ingest's live stage does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, type Pool } from '@vitalis/db';
import { encodeBatch, liveChannel } from '@vitalis/live';
import { createRedis, type Redis } from '@vitalis/redis';
import { ClientCredentials, VitalisClient, type LiveVitalsEvent } from '@vitalis/client';
import { writeRows, type StoredRow } from '../../../apps/ingest/src/store';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { startGatewayRefusingAudit } from '../../helpers/audit-refusal';
import { testEnv } from '../../helpers/env';
import { testPool, uid, waitFor } from '../vitals/support';
import { openSse, openWs, streamUrl } from './support';

const topic = `vitals.test.resume.${uid()}`;
let gw: RunningGateway;
let pool: Pool;
let redis: Redis;
let auth: { authorization: string };
let api: VitalisClient;

beforeAll(async () => {
  pool = testPool();
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-resume' });
  await redis.connect();
  gw = await startGateway({ LIVE_TOPIC: topic, LIVE_REPLAY_WINDOW_SECONDS: '300' });
  const client = await registerClient(gw.url, ['read:vitals']);
  auth = { authorization: `Bearer ${await clientCredentialsToken(gw.url, client)}` };
  api = new VitalisClient({
    baseUrl: gw.url,
    auth: new ClientCredentials(gw.url, { clientId: client.client_id, clientSecret: client.client_secret }),
  });
});
afterAll(async () => {
  await gw?.close();
  redis?.disconnect();
  await pool?.end();
});

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function row(patient: string, partition: number, offset: number, effectiveAt: number): StoredRow {
  return {
    patient_id: patient,
    device_id: `${patient}-dev`,
    seq: offset,
    code: '8867-4',
    effective_at: iso(effectiveAt),
    value: 60 + (offset % 40),
    unit: '/min',
    sample_period_ms: null,
    steps: null,
    kafka_partition: partition,
    kafka_offset: String(offset),
  };
}

/** One ingest transaction (its rows and its range); `writtenAt` backdates both, as if it ran then. */
async function store(rows: StoredRow[], writtenAt?: number): Promise<void> {
  await withTransaction(pool, (c) => writeRows(c, topic, rows));
  if (writtenAt === undefined) return;
  const [p, offsets] = [rows[0]!.kafka_partition, rows.map((r) => r.kafka_offset)];
  await pool.query(
    `UPDATE vitals_observations SET ingested_at = $4 WHERE patient_id = ANY($1) AND kafka_partition = $2 AND kafka_offset = ANY($3::bigint[])`,
    [[...new Set(rows.map((r) => r.patient_id))], p, offsets, iso(writtenAt)],
  );
  await pool.query(
    `UPDATE vitals_ingest_batches SET ingested_at = $4 WHERE topic = $1 AND kafka_partition = $2 AND last_offset = ANY($3::bigint[])`,
    [topic, p, offsets, iso(writtenAt)],
  );
}

/** Stores rows now and publishes them on the fan-out channel (what the ingest's live stage does after its commit). */
async function live(rows: StoredRow[]): Promise<void> {
  await store(rows);
  const partition = rows[0]!.kafka_partition;
  const offsets = rows.map((r) => Number(r.kafka_offset));
  await redis.publish(
    liveChannel(topic),
    encodeBatch({
      v: 1,
      partition,
      first: Math.min(...offsets),
      last: Math.max(...offsets),
      events: rows.map((r) => {
        const { kafka_partition: _p, kafka_offset: _o, sample_period_ms: _s, steps: _x, value, ...rest } = r;
        return {
          kind: 'observation',
          partition,
          offset: Number(r.kafka_offset),
          k: 0,
          patient_id: r.patient_id,
          data: { ...rest, value: value! } as never,
        };
      }),
    }),
  );
}

const replayAudit = async (patient: string) =>
  (await pool.query(`SELECT detail FROM audit_events WHERE action = 'vitals.replay' AND resource_id = $1 ORDER BY id`, [patient])).rows.map(
    (r) => r.detail,
  );
/**
 * The replay's audit once written: the hub writes it after the replayed events are sent and before
 * anything live, so a client that has only replayed events may read the audit before it is there.
 */
const replayAuditWritten = (patient: string) =>
  waitFor(
    () => replayAudit(patient),
    (rows) => rows.length > 0,
    10_000,
    'the replay audited',
  );

describe('resume ids the stream never issued', () => {
  it('a made-up Last-Event-ID (99-0) is refused with 400 instead of replaying the whole history; so are a future and a never-stored offset', async () => {
    const patient = `pat-forged-${uid()}`;
    const long = Date.now() - 2 * HOUR;
    await store(
      [1, 2, 3, 4, 5].map((o) => row(patient, 11, o, long + o * 1000)),
      long + 10_000,
    ); // history, two hours old
    await store([10, 11, 12].map((o) => row(patient, 11, o, Date.now() - 1000 + o))); // offsets 6..9 were never stored

    for (const [id, why] of [
      ['99-0', /partition 99 holds nothing/],
      ['11-13', /beyond the latest position of partition 11/],
      ['11-7', /offset 7 of partition 11 was never stored/],
      ['11-3_99-0', /partition 99/],
    ] as const) {
      const sse = await openSse(streamUrl(gw, { patient }), { ...auth, 'last-event-id': id });
      expect(sse.status, id).toBe(400);
      expect(sse.contentType, id).toMatch(/^application\/problem\+json/);
      expect(sse.body, id).toMatchObject({ status: 400, detail: expect.stringMatching(why) });
    }
    // refused before anything was streamed or audited as a stream
    expect((await pool.query(`SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1`, [patient])).rows[0].n).toBe(0);

    // the WebSocket's resume (`after`) goes through the same check
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, auth);
    try {
      ws.send({ type: 'subscribe', sub: 'forged', patients: [patient], after: '99-0' });
      const messages = await ws.waitFor((m) => m.some((x) => x.type === 'error'), 'the refusal');
      expect(messages.find((x) => x.type === 'error')).toMatchObject({
        sub: 'forged',
        status: 400,
        detail: expect.stringMatching(/partition 99/),
      });
      expect(messages.some((x) => x.type === 'observation')).toBe(false);
    } finally {
      ws.socket.close();
    }
  });

  it('an issued id inside the window replays exactly what followed it, audited', async () => {
    const patient = `pat-recent-${uid()}`;
    await store([1, 2, 3, 4, 5].map((o) => row(patient, 12, o, Date.now() - 5000 + o)));
    const sse = await openSse(streamUrl(gw, { patient }), { ...auth, 'last-event-id': '12-2' });
    expect(sse.status).toBe(200);
    // the replay first: a row stored before its page is read would be replayed, not live (and the
    // replay's audit is written after its events are sent, before anything live)
    await sse.waitForEvents(3, 'three replayed');
    await live([row(patient, 12, 6, Date.now())]); // then live: delivered once the replay is audited
    const events = await sse.waitForEvents(4, 'three replayed and one live');
    expect(events.map((e) => [e.event, e.id])).toEqual([
      ['observation', '12-3'],
      ['observation', '12-4'],
      ['observation', '12-5'],
      ['observation', '12-6'],
    ]);
    sse.close();
    expect(await replayAudit(patient)).toEqual([{ via: 'sse', from_id: '12-2', events: 3, truncated: false, window_seconds: 300 }]);
  });
});

describe('an id older than the replay window', () => {
  it('SSE: replay-truncated with the REST gap first, then the window and live data with nothing skipped; the gap reads through REST; audited', async () => {
    const patient = `pat-old-${uid()}`;
    const long = Date.now() - 2 * HOUR;
    await store(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((o) => row(patient, 13, o, long + o * 1000)),
      long + 11_000,
    ); // two hours ago
    await store([11, 12, 13, 14, 15].map((o) => row(patient, 13, o, Date.now() - 10_000 + o))); // inside the window

    // the client saw offset 3 two hours ago
    const sse = await openSse(streamUrl(gw, { patient }), { ...auth, 'last-event-id': '13-3' });
    expect(sse.status).toBe(200);
    const [notice] = await sse.waitForEvents(6, 'the notice and the window');
    expect(notice).toMatchObject({ event: 'replay-truncated', id: undefined });
    expect(notice!.data).toMatchObject({
      last_event_id: '13-3',
      resume_id: '13-10.999',
      window_seconds: 300,
      gaps: [{ patient_id: patient, from: iso(long + 4000).replace('Z', '000Z') }],
    });
    const gap = notice!.data.gaps[0] as { from: string; to: string };

    await live([row(patient, 13, 16, Date.now()), row(patient, 13, 17, Date.now() + 1)]);
    const events = await sse.waitForEvents(8, 'the window, then live');
    expect(events.slice(1).map((e) => [e.event, e.id, e.data.seq])).toEqual(
      [11, 12, 13, 14, 15, 16, 17].map((o) => ['observation', `13-${o}`, o]),
    );
    sse.close();

    // the gap, read as told: exactly the skipped observations
    const res = await fetch(`${gw.url}/api/v1/vitals?${new URLSearchParams({ patient, from: gap.from, to: gap.to })}`, { headers: auth });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { seq: number }[] }).data.map((o) => o.seq)).toEqual([4, 5, 6, 7, 8, 9, 10]);

    expect(await replayAudit(patient)).toEqual([
      { via: 'sse', from_id: '13-3', events: 5, truncated: true, window_seconds: 300, resume_id: '13-10.999' },
    ]);
  });

  it('WebSocket: the same replay-truncated message for the subscription, then the window', async () => {
    const patient = `pat-old-ws-${uid()}`;
    const long = Date.now() - 3 * HOUR;
    await store(
      [1, 2, 3, 4].map((o) => row(patient, 14, o, long + o * 1000)),
      long + 5_000,
    );
    await store([5, 6].map((o) => row(patient, 14, o, Date.now() - 1000 + o)));
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, auth);
    try {
      ws.send({ type: 'subscribe', sub: 'old', patients: [patient], after: '14-1' });
      const messages = await ws.waitFor((m) => m.filter((x) => x.type === 'observation').length >= 2, 'the window');
      const forSub = messages.filter((x) => x.sub === 'old').map((x) => x.type);
      expect(forSub).toEqual(['subscribed', 'replay-truncated', 'observation', 'observation']);
      expect(messages.find((x) => x.type === 'replay-truncated')).toMatchObject({
        last_event_id: '14-1',
        resume_id: '14-4.999',
        window_seconds: 300,
        gaps: [{ patient_id: patient, from: iso(long + 2000).replace('Z', '000Z') }],
      });
      expect(messages.filter((x) => x.type === 'observation').map((x) => x.id)).toEqual(['14-5', '14-6']);
    } finally {
      ws.socket.close();
    }
    expect(await replayAuditWritten(patient)).toEqual([
      { via: 'websocket', from_id: '14-1', events: 2, truncated: true, window_seconds: 300, resume_id: '14-4.999' },
    ]);
  });

  it('the TypeScript client surfaces the notice typed, and its gap reads through vitals.all', async () => {
    const patient = `pat-old-ts-${uid()}`;
    const long = Date.now() - 2 * HOUR;
    await store(
      [1, 2, 3].map((o) => row(patient, 17, o, long + o * 1000)),
      long + 4_000,
    );
    await store([4, 5].map((o) => row(patient, 17, o, Date.now() - 1000 + o)));
    const controller = new AbortController();
    const got: LiveVitalsEvent[] = [];
    for await (const e of api.vitals.live({ patient, lastEventId: '17-1', signal: controller.signal })) {
      got.push(e);
      if (got.length === 3) controller.abort();
    }
    expect(got.map((e) => (e.type === 'observation' ? e.id : e.type))).toEqual(['replay-truncated', '17-4', '17-5']);
    const notice = got[0]!;
    if (notice.type !== 'replay-truncated') throw new Error('not a notice');
    expect(notice.truncated).toMatchObject({ last_event_id: '17-1', resume_id: '17-3.999', gaps: [{ patient_id: patient }] });
    const gap = notice.truncated.gaps[0]!;
    const filled: number[] = [];
    for await (const o of api.vitals.all({ patient: gap.patient_id, from: gap.from, to: gap.to })) filled.push(o.seq);
    expect(filled).toEqual([2, 3]);
  });

  it("no event when the part skipped holds nothing of the patient (another patient's rows only)", async () => {
    const [quiet, busy] = [`pat-quiet-${uid()}`, `pat-busy-${uid()}`];
    const long = Date.now() - 2 * HOUR;
    await store(
      [1, 2, 3, 4, 5].map((o) => row(busy, 15, o, long + o * 1000)),
      long + 6_000,
    );
    await store([6, 7].map((o) => row(quiet, 15, o, Date.now() - 1000 + o)));
    // `15-2` is an id a subscriber of the ward (busy + quiet) was given two hours ago
    const sse = await openSse(streamUrl(gw, { patient: quiet }), { ...auth, 'last-event-id': '15-2' });
    await sse.waitForEvents(2, 'the window'); // replayed first (see the test of an issued id above)
    await live([row(quiet, 15, 8, Date.now())]);
    const events = await sse.waitForEvents(3, 'the window and one live');
    expect(events.map((e) => [e.event, e.id])).toEqual([
      ['observation', '15-6'],
      ['observation', '15-7'],
      ['observation', '15-8'],
    ]);
    sse.close();
    expect(await replayAudit(quiet)).toEqual([{ via: 'sse', from_id: '15-2', events: 2, truncated: false, window_seconds: 300 }]);
  });
});

describe('the replay audit', () => {
  it('a replay that cannot be audited ends the stream (closed: error) before anything live follows', async () => {
    const refusing = await startGatewayRefusingAudit('vitals.replay', { LIVE_TOPIC: topic });
    try {
      const client = await registerClient(refusing.url, ['read:vitals']);
      const headers = { authorization: `Bearer ${await clientCredentialsToken(refusing.url, client)}` };
      const patient = `pat-replay-noaudit-${uid()}`;
      await store([1, 2, 3].map((o) => row(patient, 16, o, Date.now() - 1000 + o)));
      const sse = await openSse(streamUrl(refusing, { patient }), { ...headers, 'last-event-id': '16-1' });
      expect(sse.status).toBe(200); // the stream's own row was written
      await sse.ended; // the server ends it (the test would time out otherwise)
      expect(sse.events.map((e) => [e.event, e.id ?? e.data.reason])).toEqual([
        ['observation', '16-2'],
        ['observation', '16-3'],
        ['closed', 'error'],
      ]);
    } finally {
      await refusing.close();
    }
  });
});
