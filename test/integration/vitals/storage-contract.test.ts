/**
 * Issue 29, "nothing accepted is lost": one storage contract at the edge, and bounded device clocks.
 * Over real HTTP against a real gateway and a real ingest (private Kafka topics, the test database):
 *  - a property test sends edge numbers (denormals, ±max, -0, float4's limits, long decimals, values
 *    at and past each published bound, NaN/Infinity spellings as strings, 1e400) as numeric values,
 *    ECG samples, origins and periods, one observation per POST: each is either refused with 422
 *    naming the field, or answered 202 and then stored and read back (REST history) equal to what
 *    was sent (an ECG chunk: its potentials as the documented 0.1 µV quantisation of origin +
 *    sample). Never a 202 followed by a dead letter: the DLQ stays empty of them;
 *  - effective_at more than the skew ahead or older than the retention window is a 422 naming the
 *    field (observations, frames and a frame's items); a few minutes late is 202 and stored;
 *  - a device publishing straight to Kafka with a far-future clock is dead-lettered with the reason;
 *  - free text with control characters, NUL or lone surrogates is a 4xx problem, never a 500.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { VitalsProducer } from '@vitalis/kafka';
import { ORDERABLE_CODES } from '@vitalis/clinical';
import type { Pool } from '@vitalis/db';
import { FRAME_ENVELOPE, NUMERIC_VITALS, quantisedPotential, type NumericVitalCode } from '@vitalis/schemas';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { authHeaders, closeIngestRig, countStored, openIngestRig, readTopic, testKafka, uid, waitFor, type IngestRig } from './support';

const kafka = testKafka('storage-contract');
let admin: Admin;
let pool: Pool;
let producer: VitalsProducer;
let topics: IngestRig['topics'];
let worker: IngestWorker;
let gw: RunningGateway;
let writeAuth: Record<string, string>;
let readAuth: Record<string, string>;
let patientAuth: Record<string, string>;
let diagnosticsAuth: Record<string, string>;

beforeAll(async () => {
  ({ admin, pool, producer, topics, worker } = await openIngestRig(kafka, 1));
  gw = await startGateway({ VITALS_TOPIC: topics.topic, LIVE_TOPIC: topics.topic });
  writeAuth = await authHeaders(gw.url, ['write:vitals']);
  readAuth = await authHeaders(gw.url, ['read:vitals']);
  patientAuth = await authHeaders(gw.url, ['write:patients']);
  diagnosticsAuth = await authHeaders(gw.url, ['write:diagnostics']);
});

afterAll(async () => {
  await gw?.close();
  await closeIngestRig({ admin, pool, producer, topics, worker });
});

/** POSTs a body given as JSON text (so `-0`, `1e400` and `5e-324` go on the wire as written). */
const postText = (text: string) =>
  fetch(`${gw.url}/api/v1/vitals`, { method: 'POST', headers: { 'content-type': 'application/json', ...writeAuth }, body: text });

/** The JSON text of `template` with the string "__V__" replaced by `value` as written. */
const withValue = (template: object, value: string) => JSON.stringify(template).replace('"__V__"', value);

/** Edge spellings: numbers as JSON text, and strings. */
const EDGE_NUMBERS = [
  '5e-324',
  '-5e-324',
  '1e-320',
  '1e-45',
  '1e-40',
  '1.17549435e-38',
  '-0',
  '0',
  '1e38',
  '-1e38',
  '1e39',
  '3.4028235e38',
  '3.4028236e38',
  '-3.4028235e38',
  '1.7976931348623157e308',
  '-1.7976931348623157e308',
  '1e400',
  '0.30000000000000004',
  '72.123456789012345678901234567890',
  '0.123456789012345678',
  '4.00000001',
  '3.90625',
  '2.77778',
  '0.001',
  '0.0009',
  '1000',
  '1000.0000001',
  '999.999',
  '1e-3',
  '-1e-9',
];
const EDGE_STRINGS = ['"NaN"', '"Infinity"', '"-Infinity"', '"1e39"', '"72"', 'null', 'true'];

/** Values at and just past each bound: the bound, and one ulp either side. */
function around(bound: number): string[] {
  const up = bound + Math.max(Math.abs(bound) * Number.EPSILON, Number.MIN_VALUE);
  const down = bound - Math.max(Math.abs(bound) * Number.EPSILON, Number.MIN_VALUE);
  return [bound, up, down].map((x) => JSON.stringify(x));
}

type Field = { kind: 'numeric'; code: NumericVitalCode } | { kind: 'sample' } | { kind: 'origin' } | { kind: 'period' };
interface Case {
  field: Field;
  text: string;
}
interface Sent extends Case {
  seq: number;
  at: string;
  status: number;
  body: Record<string, unknown>;
}

const NUMERIC_CODES = Object.keys(NUMERIC_VITALS) as NumericVitalCode[];

function cases(): Case[] {
  const out: Case[] = [];
  const texts = (bounds: number[]) => [...EDGE_NUMBERS, ...EDGE_STRINGS, ...bounds.flatMap(around)];
  for (const code of NUMERIC_CODES) {
    const def = NUMERIC_VITALS[code];
    for (const text of texts([def.min, def.max])) out.push({ field: { kind: 'numeric', code }, text });
  }
  for (const text of texts([-10, 10])) out.push({ field: { kind: 'sample' }, text }, { field: { kind: 'origin' }, text });
  for (const text of texts([0.001, 1000])) out.push({ field: { kind: 'period' }, text });
  // and random doubles around each range (fast-check, a fixed seed: the same cases every run)
  const random = fc.sample(
    fc.tuple(
      fc.constantFrom<Field>(
        ...NUMERIC_CODES.map((code) => ({ kind: 'numeric' as const, code })),
        { kind: 'sample' },
        { kind: 'origin' },
        { kind: 'period' },
      ),
      fc.double({ min: -400, max: 1_100, noNaN: true }),
    ),
    { seed: 29, numRuns: 120 },
  );
  for (const [field, x] of random) out.push({ field, text: JSON.stringify(x) });
  return out;
}

function template(field: Field, patient: string, seq: number, at: string): object {
  const head = { patient_id: patient, device_id: `${patient}-dev`, seq, effective_at: at };
  if (field.kind === 'numeric') return { ...head, code: field.code, value: '__V__', unit: NUMERIC_VITALS[field.code].unit };
  const waveform = {
    origin: field.kind === 'origin' ? '__V__' : 0.5,
    period_ms: field.kind === 'period' ? '__V__' : 4,
    samples: field.kind === 'sample' ? [0.25, '__V__', -0.125] : [0.25, 0.000049, -0.125],
  };
  return { ...head, code: '131330', unit: 'mV', waveform };
}

interface HistoryRow {
  seq: number;
  value?: number;
  waveform?: { origin: number; period_ms: number; samples: number[] };
}

describe('the storage contract at the edge: what is accepted is stored as sent, else 422', () => {
  it('edge numbers: 422 naming the field, or 202 then stored and read back equal; never a dead letter', async () => {
    const patient = `pat-sc-${uid()}`;
    const at = new Date(Date.now() - 60_000).toISOString();
    const sent: Sent[] = [];
    let seq = 0;
    for (const c of cases()) {
      seq += 1;
      const res = await postText(
        JSON.stringify({ observations: ['__OBS__'] }).replace('"__OBS__"', withValue(template(c.field, patient, seq, at), c.text)),
      );
      const body = (await res.json()) as Record<string, unknown>;
      sent.push({ ...c, seq, at, status: res.status, body });
    }
    for (const s of sent) {
      expect([202, 422], `${JSON.stringify(s.field)} ${s.text}: ${JSON.stringify(s.body)}`).toContain(s.status);
      if (s.status === 422) {
        const paths = (s.body.errors as { path: string }[]).map((e) => e.path);
        const field =
          s.field.kind === 'numeric'
            ? 'value'
            : s.field.kind === 'sample'
              ? 'waveform.samples.1'
              : s.field.kind === 'origin'
                ? 'waveform.origin'
                : 'waveform.period_ms';
        expect(paths, `${s.text} names its field`).toContain(field);
        expect(s.body.type).toMatch(/\/errors\/invalid-observations$/);
      }
    }
    const accepted = sent.filter((s) => s.status === 202);
    // the published edges themselves: what the issue saw accepted and dead-lettered is now refused
    const verdict = (kind: Field['kind'], text: string) => sent.find((s) => s.field.kind === kind && s.text === text)?.status;
    expect(verdict('period', '5e-324')).toBe(422);
    expect(verdict('period', '4.00000001')).toBe(422);
    expect(verdict('period', '3.90625')).toBe(202);
    expect(verdict('sample', '1e-320')).toBe(202); // stored as its quantisation, 0
    expect(sent.find((s) => s.field.kind === 'numeric' && s.field.code === '8867-4' && s.text === '5e-324')?.status).toBe(202); // double precision holds it

    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === accepted.length,
      60_000,
      `${accepted.length} accepted observations stored`,
    );
    const res = await fetch(
      `${gw.url}/api/v1/vitals?patient=${patient}&from=${encodeURIComponent(new Date(Date.parse(at) - 1_000).toISOString())}&to=${encodeURIComponent(new Date(Date.parse(at) + 1_000).toISOString())}&limit=5000`,
      { headers: readAuth },
    );
    expect(res.status).toBe(200);
    const rows = new Map(((await res.json()) as { data: HistoryRow[] }).data.map((r) => [r.seq, r]));
    for (const s of accepted) {
      const row = rows.get(s.seq)!;
      const what = `${JSON.stringify(s.field)} ${s.text}`;
      expect(row, what).toBeDefined();
      const x = JSON.parse(s.text) as number;
      if (s.field.kind === 'numeric') {
        expect(row.value === x, `${what}: read back ${row.value}`).toBe(true);
        continue;
      }
      const sentWave = JSON.parse(withValue(template(s.field, patient, s.seq, at), s.text)) as {
        waveform: { origin: number; period_ms: number; samples: number[] };
      };
      const w = sentWave.waveform;
      expect(row.waveform!.origin).toBe(0);
      expect(row.waveform!.period_ms, what).toBe(w.period_ms);
      expect(row.waveform!.samples, what).toEqual(w.samples.map((sample) => quantisedPotential(w.origin, sample)));
    }
    // and nothing of this patient was dead-lettered
    const marker = `${patient}-marker`;
    await producer.send({ topic: topics.topic, acks: -1, messages: [{ key: marker, value: 'not json' }] });
    const dead = await readTopic(kafka, topics.dlqTopic, (seen) => seen.some((m) => m.key?.toString() === marker));
    expect(dead.filter((m) => m.key?.toString() === patient)).toEqual([]);
  });
});

describe('bounded device clocks', () => {
  const post = (body: object) =>
    fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...writeAuth },
      body: JSON.stringify(body),
    });
  const hr = (patient: string, seq: number, at: string) => ({
    patient_id: patient,
    device_id: `${patient}-dev`,
    seq,
    effective_at: at,
    code: '8867-4',
    value: 70,
    unit: '/min',
  });
  const DAY = 86_400_000;

  it('refuses an effective_at beyond the skew or older than retention with 422 naming it; a few minutes late lands', async () => {
    const patient = `pat-clk-${uid()}`;
    const now = Date.now();
    for (const at of [
      '9977-02-13T02:04:00Z',
      new Date(now + 20 * 60_000).toISOString(),
      new Date(now - 31 * DAY).toISOString(),
      '2001-01-01T00:00:00Z',
    ]) {
      const res = await post({ observations: [hr(patient, 1, at)] });
      expect(res.status, at).toBe(422);
      const body = (await res.json()) as { errors: { index: number; path: string; message: string }[] };
      expect(body.errors).toEqual([{ index: 0, path: 'effective_at', message: expect.stringMatching(/ahead|retention/) }]);
    }
    // frames: the tick, and an item's own time
    const frame = (tick: string, own?: string) => ({
      envelope: FRAME_ENVELOPE,
      patient_id: patient,
      device_id: `${patient}-mon`,
      effective_at: tick,
      observations: [
        { seq: 1, code: '8867-4', value: 70, unit: '/min' },
        { seq: 2, code: '59408-5', value: 97, unit: '%', ...(own ? { effective_at: own } : {}) },
      ],
    });
    const badTick = await post({ frames: [frame('9977-02-13T02:04:00Z')] });
    expect(badTick.status).toBe(422);
    expect(((await badTick.json()) as { errors: unknown[] }).errors).toEqual([
      { frame: 0, path: 'effective_at', message: expect.stringMatching(/ahead/) },
    ]);
    const badItem = await post({ frames: [frame(new Date(now).toISOString(), new Date(now - 40 * DAY).toISOString())] });
    expect(badItem.status).toBe(422);
    expect(((await badItem.json()) as { errors: unknown[] }).errors).toEqual([
      { frame: 0, path: 'observations.1.effective_at', message: expect.stringMatching(/retention/) },
    ]);
    expect((await countStored(pool, { patient })).rows).toBe(0);

    // late but valid: a few minutes behind, and a frame of yesterday
    const late = await post({
      observations: [hr(patient, 10, new Date(now - 4 * 60_000).toISOString())],
      frames: [frame(new Date(now - DAY).toISOString(), new Date(now - DAY - 1_000).toISOString())],
    });
    expect(late.status).toBe(202);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 3,
      45_000,
      'the late observations',
    );
  });

  it('dead-letters a record from a device publishing straight to Kafka with a far-future clock, with the reason', async () => {
    const patient = `pat-dev-${uid()}`;
    // (Kafka 4's brokers refuse a record timestamp over an hour ahead: log.message.timestamp.after.max.ms)
    const future = Date.now() + 30 * 60_000;
    await producer.send({
      topic: topics.topic,
      acks: -1,
      // the device's clock is ahead: its record timestamp is too, and cannot vouch for itself
      messages: [
        { key: patient, value: JSON.stringify(hr(patient, 1, '9977-02-13T02:04:00Z')), timestamp: String(future) },
        { key: patient, value: JSON.stringify(hr(patient, 2, new Date(future).toISOString())), timestamp: String(future) },
      ],
    });
    const dead = await readTopic(kafka, topics.dlqTopic, (seen) => seen.filter((m) => m.key?.toString() === patient).length === 2);
    for (const record of dead.filter((m) => m.key?.toString() === patient)) {
      expect(record.headers?.['x-dlq-reason']?.toString()).toMatch(/^clock-out-of-bounds: effective_at: must not be more than 300 s ahead/);
    }
    expect((await countStored(pool, { patient })).rows).toBe(0);
  });
});

describe('text that cannot be stored, or that FHIR string forbids, is a 4xx problem, never a 500', () => {
  const bad = ['a\u0001b', 'a\u001fb', 'a\u000bb', 'a\u0000b', 'a\ud800b', 'a\udc00b'];
  const send = (path: string, auth: Record<string, string>, body: object) =>
    fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });

  it('patients: a name with a control character, NUL or lone surrogate', async () => {
    for (const family of bad) {
      const res = await send('/api/v1/patients', patientAuth, {
        resourceType: 'Patient',
        name: [{ family, given: ['Ada'] }],
        gender: 'female',
      });
      expect(res.status, JSON.stringify(family)).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const body = (await res.json()) as { errors: { path: string }[] };
      expect(body.errors[0]!.path).toMatch(/^body\.name\.0\.family$/);
    }
    const ok = await send('/api/v1/patients', patientAuth, {
      resourceType: 'Patient',
      name: [{ family: 'Lovelace\tKing 😀', given: ['Ada'] }],
      gender: 'female',
    });
    expect(ok.status).toBe(201);
  });

  it('diagnostics: an order reason and note with a control character, NUL or lone surrogate', async () => {
    for (const text of bad) {
      for (const field of ['reasonCode', 'note']) {
        const res = await send('/api/v1/diagnostics/orders', diagnosticsAuth, {
          resourceType: 'ServiceRequest',
          intent: 'order',
          code: { coding: [{ system: 'http://loinc.org', code: ORDERABLE_CODES[0] }] },
          subject: { reference: 'Patient/pat-0001' },
          [field]: [{ text }],
        });
        expect(res.status, `${field} ${JSON.stringify(text)}`).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      }
    }
  });
});
