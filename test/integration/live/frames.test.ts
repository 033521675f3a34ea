/**
 * Live ids of frame records (issue 24 item 1, ADR 0015) over real Kafka, the ingest's live stage,
 * PostgreSQL, Redis and a gateway speaking SSE: a frame's observations share one Kafka offset and
 * take the sub-positions of their record (`p-o`, `p-o.10`, `p-o.20`, ...; an alert right after the
 * observation that raised it). Received live, then replayed from the first id and from an id in the
 * middle of a frame, every id carries the same event, none is skipped or repeated; a fresh
 * subscription starts after the whole last frame; single-observation records keep their ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCursor, RECORD_END_K } from '@vitalis/live';
import { FRAME_ENVELOPE } from '@vitalis/schemas';
import { latestCursor } from '../../../apps/gateway/src/vitals/replay';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { numeric, openSse, startRig, streamUrl, uid, waitFor, type LiveRig } from './support';

let rig: LiveRig;
let auth: { authorization: string };

beforeAll(async () => {
  rig = await startRig('live-frames');
  const client = await registerClient(rig.gw.url, ['read:vitals']);
  auth = { authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, client)}` };
});
afterAll(async () => {
  await rig?.close();
});

function frame(patient: string, firstSeq: number, at: Date, heartRate: number) {
  return {
    envelope: FRAME_ENVELOPE,
    patient_id: patient,
    device_id: `${patient}-mon`,
    effective_at: at.toISOString(),
    observations: [
      { seq: firstSeq, code: '8867-4', value: heartRate, unit: '/min' },
      { seq: firstSeq + 1, code: '59408-5', value: 97, unit: '%' },
      { seq: firstSeq + 2, code: '9279-1', value: 16, unit: '/min' },
      { seq: firstSeq + 3, code: '131330', unit: 'mV', waveform: { origin: 0.3, period_ms: 4, samples: [0.1, 0.2, -0.35, 1.25] } },
    ],
  };
}

const line = (e: { id?: string; event?: string; data: unknown }) => `${e.id} ${e.event} ${JSON.stringify(e.data)}`;

describe('live ids of frame records', () => {
  it('are exact live and on replay, from the first id and from inside a frame', async () => {
    const patient = `pat-lf-${uid()}`;
    const now = Date.now() - 10_000;
    const live = await openSse(streamUrl(rig.gw, { patient }), auth);
    expect(live.status).toBe(200);
    // a single observation, then two frames; heart rate ≥ 131 from the first, so the second frame's
    // first observation raises hr-high (held for its 5 s onset delay)
    const fast = 150;
    await rig.send(patient, [
      numeric(patient, `${patient}-mon`, 0, new Date(now), { value: fast }),
      frame(patient, 1, new Date(now + 1_000), fast),
      frame(patient, 5, new Date(now + 6_000), fast),
    ]);
    const received = (await live.waitForEvents(10, 'one observation, two frames of four and an alert')).slice(0, 10);
    live.close();
    expect(received.map((e) => e.event)).toEqual([
      'observation',
      ...Array(4).fill('observation'),
      'observation',
      'alert',
      'observation',
      'observation',
      'observation',
    ]);

    const [p, o] = received[0]!.id!.split('-').map(Number) as [number, number];
    expect(received.map((e) => e.id)).toEqual([
      `${p}-${o}`,
      `${p}-${o + 1}`,
      `${p}-${o + 1}.10`,
      `${p}-${o + 1}.20`,
      `${p}-${o + 1}.30`,
      `${p}-${o + 2}`,
      `${p}-${o + 2}.1`,
      `${p}-${o + 2}.10`,
      `${p}-${o + 2}.20`,
      `${p}-${o + 2}.30`,
    ]);
    expect(received[1]!.data).toMatchObject({ patient_id: patient, device_id: `${patient}-mon`, seq: 1, code: '8867-4' });

    // From the first id: everything after it, from the append log, the same ids and data.
    const replay = await openSse(streamUrl(rig.gw, { patient }), { ...auth, 'last-event-id': received[0]!.id! });
    const replayed = (await replay.waitForEvents(9, 'the replay of the last nine events')).slice(0, 9);
    replay.close();
    expect(replayed.map(line)).toEqual(received.slice(1).map(line));

    // From inside the second frame (after its alert): the rest of that frame, nothing before.
    const middle = await openSse(streamUrl(rig.gw, { patient }), { ...auth, 'last-event-id': received[6]!.id! });
    const rest = (await middle.waitForEvents(3, 'the rest of the frame')).slice(0, 3);
    await new Promise((r) => setTimeout(r, 300));
    middle.close();
    expect(middle.events.filter((e) => e.event === 'observation' || e.event === 'alert')).toHaveLength(3);
    expect(rest.map(line)).toEqual(received.slice(7).map(line));

    // A fresh subscription starts after the whole last frame (not after its first observation).
    const latest = await waitFor(
      () => latestCursor(rig.pool, rig.topic, [patient]),
      (c) => c.get(p)?.offset === o + 2,
      15_000,
      'the latest range',
    );
    expect(latest.get(p)).toEqual({ offset: o + 2, k: RECORD_END_K });
    expect(decodeCursor(`${p}-${o + 2}.${RECORD_END_K}`)).toEqual(latest);
  });
});
