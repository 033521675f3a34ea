/**
 * One write per subscriber per batch (issue 24 item 4), over real sockets: a ward's batches reach an
 * SSE and a WebSocket subscriber of the same patients as batched writes (one `res.write` of joined
 * frames; one corked group of WebSocket frames: test/unit/live/batched-writes.test.ts counts them)
 * that parse into the same events, in the same order, with the same ids and bytes of data.
 *
 * The gateway serves a private topic no ingest writes to: each batch is stored through the ingest's
 * own store function, then published on the fan-out channel, as the ingest's live stage does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction, type Pool } from '@vitalis/db';
import { encodeBatch, liveChannel, type LiveEvent } from '@vitalis/live';
import { createRedis, type Redis } from '@vitalis/redis';
import { writeRows, type StoredRow } from '../../../apps/ingest/src/store';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { testEnv } from '../../helpers/env';
import { testPool, uid } from '../vitals/support';
import { openSse, openWs, streamUrl } from './support';

const topic = `vitals.test.batched.${uid()}`;
let gw: RunningGateway;
let pool: Pool;
let redis: Redis;
let auth: { authorization: string };

beforeAll(async () => {
  pool = testPool();
  redis = createRedis({ url: testEnv.REDIS_URL, name: 'vitalis-test-batched' });
  await redis.connect();
  gw = await startGateway({ LIVE_TOPIC: topic });
  const client = await registerClient(gw.url, ['read:vitals']);
  auth = { authorization: `Bearer ${await clientCredentialsToken(gw.url, client)}` };
});
afterAll(async () => {
  await gw?.close();
  redis?.disconnect();
  await pool?.end();
});

const CODES = ['8867-4', '59408-5', '9279-1'] as const;

function row(patient: string, partition: number, offset: number, code: string): StoredRow {
  return {
    patient_id: patient,
    device_id: `${patient}-dev`,
    seq: offset,
    code,
    effective_at: new Date(Date.now() - 1_000 + offset).toISOString(),
    value: 60 + (offset % 40),
    unit: code === '59408-5' ? '%' : '/min',
    sample_period_ms: null,
    steps: null,
    kafka_partition: partition,
    kafka_offset: String(offset),
  };
}

/** Stores one ingest transaction's rows, then publishes them (with `alerts`) as one fan-out batch. */
async function batch(rows: StoredRow[], alerts: LiveEvent[] = []): Promise<void> {
  await withTransaction(pool, (c) => writeRows(c, topic, rows));
  const partition = rows[0]!.kafka_partition;
  const offsets = rows.map((r) => Number(r.kafka_offset));
  const observations: LiveEvent[] = rows.map((r) => {
    const { kafka_partition: _p, kafka_offset: _o, sample_period_ms: _s, steps: _x, value, ...rest } = r;
    return {
      kind: 'observation',
      partition,
      offset: Number(r.kafka_offset),
      k: 0,
      patient_id: r.patient_id,
      data: { ...rest, value: value! } as never,
    };
  });
  const events = [...observations, ...alerts].sort((a, b) => a.offset - b.offset || a.k - b.k);
  await redis.publish(
    liveChannel(topic),
    encodeBatch({ v: 1, partition, first: Math.min(...offsets), last: Math.max(...offsets), events }),
  );
}

describe('batched writes', () => {
  it('an SSE and a WebSocket subscriber of the same ward receive its batches as the same events, in the same order', async () => {
    const ward = [0, 1, 2, 3].map((i) => `pat-batched-${i}-${uid()}`);
    const partition = 4;

    const sse = await openSse(streamUrl(gw, { patient: ward.join(',') }), auth);
    expect(sse.status).toBe(200);
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, auth);
    try {
      ws.send({ type: 'subscribe', sub: 'ward', patients: ward });
      await ws.waitFor((m) => m.some((x) => x.type === 'subscribed'), 'subscribed');

      // two ingest batches: 16 observations across the ward (one from a patient nobody watches) and an alert
      const outsider = `pat-batched-other-${uid()}`;
      const first = Array.from({ length: 16 }, (_, o) =>
        row(o === 7 ? outsider : ward[o % ward.length]!, partition, o, CODES[o % CODES.length]!),
      );
      const raised: LiveEvent = {
        kind: 'alert',
        partition,
        offset: 5,
        k: 1,
        patient_id: ward[1]!,
        type: 'VitalsAlertRaised',
        data: {
          alert_id: `al-${uid()}`,
          rule: 'hr_high',
          state: 'raised',
          patient_id: ward[1]!,
          severity: 'high',
          message: 'heart rate 150 > 130',
          value: 150,
          triggered_by: { partition, offset: 5, device_id: `${ward[1]}-dev`, seq: 5, code: '8867-4', effective_at: first[5]!.effective_at },
          flag: { resourceType: 'Flag', status: 'active' },
        },
      };
      await batch(first, [raised]);
      await batch([16, 17, 18].map((o) => row(ward[o % ward.length]!, partition, o, CODES[0])));

      const expected = 15 + 1 + 3;
      const overSse = (await sse.waitForEvents(expected, 'the SSE events')).map((e) => ({ id: e.id, type: e.event, data: e.data }));
      const wsEvents = () => ws.messages.filter((m) => m.type === 'observation' || m.type === 'alert');
      await ws.waitFor(() => wsEvents().length >= expected, 'the WebSocket events');
      const overWs = wsEvents().map((m) => ({ id: m.id, type: m.type, data: m.data }));

      expect(overSse).toHaveLength(expected);
      expect(overWs).toEqual(overSse);
      expect(overSse.map((e) => e.type).filter((t) => t === 'alert')).toHaveLength(1);
      expect(overSse.find((e) => e.type === 'alert')?.data).toMatchObject({ alert_id: raised.data.alert_id });
      expect(overSse.filter((e) => e.type === 'observation').map((e) => e.data.seq)).toEqual([
        0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
      ]);
      expect(overSse.map((e) => e.id)).toEqual([
        ...[0, 1, 2, 3, 4, 5].map((o) => `${partition}-${o}`),
        `${partition}-5.1`,
        ...[6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18].map((o) => `${partition}-${o}`),
      ]);
    } finally {
      sse.close();
      ws.socket.close();
    }
  });
});
