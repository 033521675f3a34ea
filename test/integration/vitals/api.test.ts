/**
 * The vitals REST surface on a real gateway, with a real ingest worker between them:
 * POST /api/v1/vitals -> Kafka -> ingest -> PostgreSQL -> GET /api/v1/vitals (raw, paginated,
 * FHIR, bucketed) and /patients/{id}/vitals/latest; every bad request is a 4xx problem, nothing
 * is stored from a refused batch, and the server keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admin } from 'kafkajs';
import type { Pool } from '@vitalis/db';
import type { IngestWorker } from '../../../apps/ingest/src/worker';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { TEST_TOPICS } from '../../helpers/env';
import { authHeaders, countStored, groupAtEnd, numeric, startTestIngest, testKafka, testPool, uid, waitFor } from './support';

const kafka = testKafka('vitals-api');
let admin: Admin;
let pool: Pool;
let gw: RunningGateway;
let worker: IngestWorker;
let writeAuth: Record<string, string>;
let readAuth: Record<string, string>;

beforeAll(async () => {
  admin = kafka.admin();
  await admin.connect();
  pool = testPool();
  gw = await startGateway();
  writeAuth = await authHeaders(gw.url, ['write:vitals']);
  readAuth = await authHeaders(gw.url, ['read:vitals']);
  const groupId = `vitalis-test-api-${uid()}`;
  await groupAtEnd(admin, groupId, TEST_TOPICS.vitalsObservations);
  worker = await startTestIngest(kafka, pool, { topic: TEST_TOPICS.vitalsObservations, dlqTopic: TEST_TOPICS.vitalsDeadLetter, groupId });
});

afterAll(async () => {
  await worker?.stop();
  await gw?.close();
  await admin?.disconnect();
  await pool?.end();
});

const post = (body: string, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}/api/v1/vitals`, { method: 'POST', headers: { 'content-type': 'application/json', ...writeAuth, ...headers }, body });
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${gw.url}${path}`, { headers: { ...readAuth, ...headers } });

async function expectProblem(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as { type: string; title: string; status: number; detail: string; errors?: unknown[] };
  expect(body.status).toBe(status);
  expect(body.type).toMatch(/\/errors\/[a-z-]+$/);
  expect(typeof body.detail).toBe('string');
  return body;
}

describe('POST /api/v1/vitals -> GET /api/v1/vitals', () => {
  const patient = `pat-api-${uid()}`;
  // A past window (yesterday, on the hour: aligned, deterministic buckets) inside the retention window
  // an accepted effective_at must be in (docs/vitals.md, bounded device clocks).
  const base = Math.floor((Date.now() - 86_400_000) / 3_600_000) * 3_600_000;
  const observations = [
    ...Array.from({ length: 6 }, (_, i) => numeric(patient, `${patient}-mon`, i, new Date(base + i * 20_000), { value: 60 + i })), // 2 minutes of HR
    numeric(patient, `${patient}-mon`, 6, new Date(base + 5_000), { code: '59408-5', value: 95, unit: '%' }),
    {
      patient_id: patient,
      device_id: `${patient}-ecg`,
      seq: 1,
      effective_at: new Date(base + 1_000).toISOString(),
      code: '131330',
      unit: 'mV',
      waveform: { origin: 0, period_ms: 4, samples: [0.1, 0.5, 1.2, -0.2, 0] },
    },
  ];
  const range = `from=${new Date(base).toISOString()}&to=${new Date(base + 3_600_000).toISOString()}`;

  beforeAll(async () => {
    const res = await post(JSON.stringify({ observations }));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: observations.length, topic: TEST_TOPICS.vitalsObservations });
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === observations.length,
      45_000,
      'posted observations stored',
    );
  });

  it('returns raw observations in time order, numeric values and ECG chunks', async () => {
    const res = await get(`/api/v1/vitals?patient=${patient}&${range}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { count: number; data: Record<string, unknown>[]; next: string | null };
    expect(body.count).toBe(8);
    expect(body.next).toBeNull();
    expect(body.data[0]).toEqual({ ...observations[0], effective_at: new Date(base).toISOString().replace('.000Z', '.000000Z') });
    const ecg = body.data.find((o) => o.code === '131330') as { waveform: { samples: number[]; period_ms: number } };
    expect(ecg.waveform).toEqual({ origin: 0, period_ms: 4, samples: [0.1, 0.5, 1.2, -0.2, 0] });
  });

  it('paginates with an opaque cursor and a next link until every row is seen once', async () => {
    const seen: string[] = [];
    let url: string | null = `/api/v1/vitals?patient=${patient}&${range}&limit=3`;
    let pages = 0;
    while (url) {
      const res = await get(url.replace(gw.url, ''));
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { device_id: string; seq: number }[]; next: string | null };
      if (body.next) expect(res.headers.get('link')).toBe(`<${body.next}>; rel="next"`);
      seen.push(...body.data.map((o) => `${o.device_id}/${o.seq}`));
      url = body.next;
      pages++;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(8);
    expect(seen).toHaveLength(8);
  });

  it('answers a FHIR R4 searchset Bundle for Accept: application/fhir+json', async () => {
    const res = await get(`/api/v1/vitals?patient=${patient}&${range}&code=8867-4&limit=2`, { accept: 'application/fhir+json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    const bundle = (await res.json()) as {
      resourceType: string;
      type: string;
      link: { relation: string }[];
      entry: { resource: Record<string, any> }[];
    };
    expect(bundle.resourceType).toBe('Bundle');
    expect(bundle.type).toBe('searchset');
    expect(bundle.link.map((l) => l.relation)).toEqual(['self', 'next']);
    expect(bundle.entry).toHaveLength(2);
    const obs = bundle.entry[0]!.resource;
    expect(obs).toMatchObject({
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ code: 'vital-signs' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
      subject: { reference: `Patient/${patient}` },
      valueQuantity: { value: 60, system: 'http://unitsofmeasure.org', code: '/min' },
    });
  });

  it('aggregates into 1-minute buckets (avg, min, max, count, last) from raw data', async () => {
    // unaligned range -> raw path (date_bin over the append log)
    const from = new Date(base - 1_000).toISOString();
    const to = new Date(base + 3_600_000 - 1_000).toISOString();
    const res = await get(`/api/v1/vitals?patient=${patient}&from=${from}&to=${to}&code=8867-4&bucket=1m&agg=avg,min,max,count,last`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { source: string; data: Record<string, unknown>[] };
    expect(body.source).toBe('raw');
    expect(body.data).toEqual([
      {
        code: '8867-4',
        bucket: new Date(base).toISOString().replace('.000Z', '.000000Z'),
        avg: 61,
        min: 60,
        max: 62,
        count: 3,
        last: 62,
        last_at: expect.any(String),
      },
      {
        code: '8867-4',
        bucket: new Date(base + 60_000).toISOString().replace('.000Z', '.000000Z'),
        avg: 64,
        min: 63,
        max: 65,
        count: 3,
        last: 65,
        last_at: expect.any(String),
      },
    ]);
  });

  it('returns the latest observation per code', async () => {
    const res = await get(`/api/v1/patients/${patient}/vitals/latest`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { code: string; seq: number; value?: number }[] };
    expect(body.data.map((o) => o.code).sort()).toEqual(['131330', '59408-5', '8867-4']);
    expect(body.data.find((o) => o.code === '8867-4')).toMatchObject({ seq: 5, value: 65 });
  });

  it('records reads in the audit trail', async () => {
    const { rows } = await pool.query("SELECT action, outcome FROM audit_events WHERE resource_type = 'Patient' AND resource_id = $1", [
      patient,
    ]);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(rows.every((r) => r.outcome === 'success' && String(r.action).startsWith('vitals.read'))).toBe(true);
  });

  it('records the accepted batch as one vitals.write row: ids and counts, never values', async () => {
    const { rows } = await pool.query(
      "SELECT outcome, scope, resource_type, resource_id, detail FROM audit_events WHERE action = 'vitals.write' AND detail->'patients' ? $1",
      [patient],
    );
    expect(rows).toEqual([
      {
        outcome: 'success',
        scope: 'write:vitals',
        resource_type: 'Observation',
        resource_id: null,
        detail: { via: 'rest', observations: observations.length, patients: [patient], devices: [`${patient}-ecg`, `${patient}-mon`] },
      },
    ]);
  });

  it('refuses bad queries with 400 problems', async () => {
    await expectProblem(await get(`/api/v1/vitals?patient=${patient}&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`), 400);
    await expectProblem(await get(`/api/v1/vitals?patient=${patient}&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z`), 400);
    await expectProblem(await get(`/api/v1/vitals?patient=${patient}&from=yesterday&to=2026-01-01T00:00:00Z`), 400);
    await expectProblem(await get(`/api/v1/vitals?patient=${patient}&${range}&cursor=bm90LWEtY3Vyc29y`), 400);
    await expectProblem(await get(`/api/v1/vitals?patient=${patient}&${range}&bucket=1m&agg=median`), 400);
    await expectProblem(await get(`/api/v1/vitals?patient=${patient}&${range}&limit=5001`), 400);
    await expectProblem(await get(`/api/v1/vitals?patient=${patient}&${range}&code=1234-5`), 400);
    await expectProblem(await get(`/api/v1/vitals?${range}`), 400);
  });
});

describe('vitals routes are guarded by their scopes', () => {
  it('401 without a token, 403 with the wrong scope', async () => {
    const q = `/api/v1/vitals?patient=pat-x&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`;
    expect((await fetch(`${gw.url}${q}`)).status).toBe(401);
    expect((await fetch(`${gw.url}/api/v1/patients/pat-x/vitals/latest`)).status).toBe(401);
    const noAuth = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"observations":[]}',
    });
    expect(noAuth.status).toBe(401);
    expect((await fetch(`${gw.url}${q}`, { headers: writeAuth })).status).toBe(403);
    const readOnly = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...readAuth },
      body: '{"observations":[]}',
    });
    expect(readOnly.status).toBe(403);
  });
});

describe('POST /api/v1/vitals refuses bad input with 4xx problems and stores nothing', () => {
  it('garbage JSON, wrong types, empty or oversized batches, wrong media type, huge body', async () => {
    await expectProblem(await post('{"observations": [ {oops'), 400);
    await expectProblem(await post(JSON.stringify({ observations: 'all of them' })), 400);
    await expectProblem(await post(JSON.stringify({ observations: [] })), 400);
    await expectProblem(await post(JSON.stringify([1, 2, 3])), 400);
    const tooMany = Array.from({ length: 1_001 }, (_, i) => numeric('pat-x', 'dev-x', i, new Date()));
    await expectProblem(await post(JSON.stringify({ observations: tooMany })), 400);
    await expectProblem(await post('<observations/>', { 'content-type': 'application/xml' }), 415);
    const huge = JSON.stringify({ observations: [{ padding: 'x'.repeat(2 * 1024 * 1024) }] });
    await expectProblem(await post(huge), 413);
    const health = await fetch(`${gw.url}/api/v1/health`);
    expect(health.status).toBeLessThan(500);
  });

  it('one invalid item (unknown code, wrong unit, bad seq) refuses the whole batch with every index, nothing published', async () => {
    const patient = `pat-api-bad-${uid()}`;
    const now = Date.now();
    const batch = [
      numeric(patient, `${patient}-dev`, 1, new Date(now)),
      numeric(patient, `${patient}-dev`, 2, new Date(now), { code: '9999-9' }),
      numeric(patient, `${patient}-dev`, 3, new Date(now), { unit: 'bpm' }),
      numeric(patient, `${patient}-dev`, -4, new Date(now), { value: 900 }),
    ];
    const body = await expectProblem(await post(JSON.stringify({ observations: batch })), 422);
    const errors = body.errors as { index: number; path: string; message: string }[];
    expect(errors.map((e) => e.index)).toEqual([1, 2, 3, 3]);
    expect(errors[0]).toMatchObject({ path: 'code', message: expect.stringMatching(/^unknown code/) });
    expect(errors[1]).toMatchObject({ path: 'unit', message: expect.stringContaining('/min') });
    expect(
      errors
        .slice(2)
        .map((e) => e.path)
        .sort(),
    ).toEqual(['seq', 'value']);

    // a later valid marker for the same patient is stored; the refused valid item 0 never is
    const marker = numeric(patient, `${patient}-dev`, 99, new Date(now));
    expect((await post(JSON.stringify({ observations: [marker] }))).status).toBe(202);
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows >= 1,
      45_000,
      'marker stored',
    );
    const { rows } = await pool.query('SELECT seq FROM vitals_observations WHERE patient_id = $1', [patient]);
    expect(rows).toEqual([{ seq: 99 }]);
  });

  it('takes device frames (one record each) beside single observations; a bad observation in a frame refuses the batch, named by frame and path', async () => {
    const patient = `pat-api-frame-${uid()}`;
    const at = new Date().toISOString();
    const frame = (firstSeq: number, spo2: number) => ({
      envelope: 'vitals.frame.v1',
      patient_id: patient,
      device_id: `${patient}-mon`,
      effective_at: at,
      observations: [
        { seq: firstSeq, code: '8867-4', value: 70, unit: '/min' },
        { seq: firstSeq + 1, code: '59408-5', value: spo2, unit: '%' },
        { seq: firstSeq + 1, code: '9279-1', value: 14, unit: '/min' }, // a repeated seq in a frame
      ],
    });
    const refused = await expectProblem(
      await post(JSON.stringify({ observations: [numeric(patient, `${patient}-mon`, 1, at)], frames: [frame(10, 140)] })),
      422,
    );
    expect(refused.errors).toEqual([
      { frame: 0, path: 'observations.1.value', message: expect.stringMatching(/^must be between 0 and 100 %/) },
      { frame: 0, path: 'observations.2.seq', message: 'must not repeat a seq of the same frame' },
    ]);
    const good = { ...frame(20, 96), observations: frame(20, 96).observations.slice(0, 2) };
    const res = await post(JSON.stringify({ observations: [numeric(patient, `${patient}-mon`, 1, at)], frames: [good] }));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 3, topic: TEST_TOPICS.vitalsObservations });
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 3,
      45_000,
      'the single observation and the frame stored',
    );
    const { rows } = await pool.query('SELECT seq, record_item FROM vitals_observations WHERE patient_id = $1 ORDER BY seq', [patient]);
    expect(rows).toEqual([
      { seq: 1, record_item: 0 },
      { seq: 20, record_item: 0 },
      { seq: 21, record_item: 1 },
    ]);
    await expectProblem(await post(JSON.stringify({ frames: [] })), 400);
  });

  it('takes a v2 frame (ECG as whole 0.1 µV steps): stores the steps as sent, reads them back as mV; a bad step or envelope is a 422 naming it', async () => {
    const patient = `pat-api-frame2-${uid()}`;
    const at = new Date().toISOString();
    const steps = [-200_000, -100_000, -1, 0, 1, 12_345, 99_999, 200_000];
    const frame = (ecgSteps: unknown[], envelope = 'vitals.frame.v2') => ({
      envelope,
      patient_id: patient,
      device_id: `${patient}-mon`,
      effective_at: at,
      observations: [
        { seq: 1, code: '8867-4', value: 70, unit: '/min' },
        { seq: 2, code: '131330', unit: 'mV', waveform: { period_ms: 4, sample_steps: ecgSteps } },
      ],
    });
    const bad = await expectProblem(
      await post(JSON.stringify({ frames: [frame([1, 2.5, 200_001]), frame(steps, 'vitals.frame.v3')] })),
      422,
    );
    expect(bad.errors).toEqual([
      {
        frame: 0,
        path: 'observations.1.waveform.sample_steps.1',
        message: expect.stringMatching(/^must be a whole number of 0.1 µV steps/),
      },
      {
        frame: 0,
        path: 'observations.1.waveform.sample_steps.2',
        message: expect.stringMatching(/^must be a whole number of 0.1 µV steps/),
      },
      { frame: 1, path: 'envelope', message: 'must be vitals.frame.v1 or vitals.frame.v2' },
    ]);
    // a v1 chunk (origin and samples) is not a v2 chunk
    const mixed = {
      ...frame(steps),
      observations: [{ seq: 2, code: '131330', unit: 'mV', waveform: { origin: 0, period_ms: 4, samples: [0.1] } }],
    };
    await expectProblem(await post(JSON.stringify({ frames: [mixed] })), 422);

    const res = await post(JSON.stringify({ frames: [frame(steps)] }));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: 2, topic: TEST_TOPICS.vitalsObservations });
    await waitFor(
      () => countStored(pool, { patient }),
      (c) => c.rows === 2,
      45_000,
      'the v2 frame stored',
    );
    const stored = await pool.query<{ sample_steps: Buffer }>(
      "SELECT sample_steps FROM vitals_observations WHERE patient_id = $1 AND code = '131330'",
      [patient],
    );
    const bytes = stored.rows[0]!.sample_steps;
    expect(Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readInt32LE(i * 4))).toEqual(steps);
    const from = new Date(Date.parse(at) - 60_000).toISOString();
    const to = new Date(Date.parse(at) + 60_000).toISOString();
    const history = await get(`/api/v1/vitals?patient=${patient}&code=131330&from=${from}&to=${to}`);
    expect(history.status).toBe(200);
    const text = await history.text();
    expect(text).toContain('"samples":[-20,-10,-0.0001,0,0.0001,1.2345,9.9999,20]');
  });
});
