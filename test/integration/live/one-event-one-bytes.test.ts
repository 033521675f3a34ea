/**
 * One event id, one byte sequence (issue 19, item 6), over real Kafka, a real ingest (live stage
 * in-process), PostgreSQL, Redis and a real gateway speaking SSE: an ECG chunk whose `origin` is
 * not 0 (with samples and a period float4 cannot hold exactly, and an effective time with an offset
 * and sub-microsecond digits), numeric observations and the alert one raises are received live,
 * then again through the replay path (resume from an earlier id, read back from the append log):
 * every event id carries the same bytes on both paths. It used to differ: the live path forwarded
 * the chunk as received, the replay rebuilt it from the row (origin folded into the samples,
 * float4 samples, a UTC timestamp), and alerts came back from jsonb with their keys reordered.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float4, storedInstant } from '@vitalis/live';
import { validateObservation } from '@vitalis/schemas';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { pumpSse } from '../../helpers/sse';
import { numeric, startRig, streamUrl, uid, type LiveRig } from './support';

let rig: LiveRig;
let auth: { authorization: string };

beforeAll(async () => {
  rig = await startRig('live-bytes');
  const client = await registerClient(rig.gw.url, ['read:vitals']);
  auth = { authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, client)}` };
});
afterAll(async () => {
  await rig?.close();
});

interface RawEvent {
  id?: string;
  event?: string;
  data: string;
}

/** An SSE stream whose events keep their data exactly as sent (no JSON round trip). */
async function rawStream(url: string, headers: Record<string, string>) {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...auth, ...headers }, signal: ctrl.signal });
  expect(res.status).toBe(200);
  const events: RawEvent[] = [];
  const parser = createParser({ onEvent: (e: EventSourceMessage) => events.push({ id: e.id, event: e.event, data: e.data }) });
  void pumpSse(res.body!, parser);
  return {
    events,
    until: async (n: number, what: string) => {
      const deadline = Date.now() + 45_000;
      while (events.length < n) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; have ${events.length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return events.slice(0, n);
    },
    close: () => ctrl.abort(),
  };
}

describe('the live path and the replay path carry the same bytes for the same event id', () => {
  it('an ECG chunk with origin 0.3, numeric observations and an alert', async () => {
    const patient = `pat-bytes-${uid()}`;
    const device = `${patient}-dev`;
    const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
    // this second, written at +02:00, with seven fractional digits (PostgreSQL keeps microseconds)
    const ecgAt = `${new Date(Date.now() + 2 * 3_600_000).toISOString().slice(0, 19)}.1234567+02:00`;
    const ecg = {
      patient_id: patient,
      device_id: device,
      seq: 1,
      effective_at: ecgAt,
      code: '131330',
      unit: 'mV',
      waveform: { origin: 0.3, period_ms: 3.3333333, samples: [0.1, 0.2, -0.35, 1.23456789, 0, -2.5, 0.7071067811865476] },
    };
    expect(validateObservation(ecg).ok).toBe(true);
    const sent = [
      numeric(patient, device, 0, at(-6_000), { value: 150 }), // ≥ 131 /min: hr-high's 5 s onset delay starts
      ecg,
      numeric(patient, device, 2, at(2), { value: 150 }), // still ≥ 131 /min 6 s later: raises hr-high
      numeric(patient, device, 3, at(3).replace('Z', '+00:00'), { value: 151 }),
    ];

    const live = await rawStream(streamUrl(rig.gw, { patient }), {});
    await rig.send(patient, sent);
    const received = await live.until(5, 'four observations and the alert');
    live.close();
    expect(received.map((e) => e.event)).toEqual(['observation', 'observation', 'observation', 'alert', 'observation']);

    // The ECG event is the chunk as its row reads back: origin folded in (at 0.1 µV), the period as
    // float4, the time in UTC with microseconds.
    const liveEcg = JSON.parse(received[1]!.data) as {
      effective_at: string;
      waveform: { origin: number; period_ms: number; samples: number[] };
    };
    expect(liveEcg.waveform.origin).toBe(0);
    expect(liveEcg.waveform.samples).toEqual([0.4, 0.5, -0.05, 1.5346, 0.3, -2.2, 1.0071]);
    expect(liveEcg.waveform.period_ms).toBe(float4(3.3333333));
    expect(liveEcg.effective_at).toBe(storedInstant(ecgAt));
    expect(liveEcg.effective_at).toMatch(/T\d{2}:\d{2}:\d{2}\.123457Z$/);

    // Resume after the first event: everything after it comes from the append log (the replay path).
    const replay = await rawStream(streamUrl(rig.gw, { patient }), { 'last-event-id': received[0]!.id! });
    const replayed = await replay.until(4, 'the replay of the last four events');
    replay.close();
    expect(replayed.map((e) => e.id)).toEqual(received.slice(1).map((e) => e.id));
    for (const [i, e] of replayed.entries()) {
      const original = received[i + 1]!;
      expect(`${e.id} ${e.event} ${e.data}`, `event ${e.id}`).toBe(`${original.id} ${original.event} ${original.data}`);
    }
  });
});
