/**
 * Spec section 9 on a real endpoint: GET /api/v1/patients/{id}/vitals/latest is deprecated in
 * favour of GET /api/v1/vitals/latest?patient=. Both serve the same stored observations (and are
 * audited the same way); only the deprecated one answers Deprecation (RFC 9745), Sunset
 * (RFC 8594) and Link rel="deprecation" / rel="successor-version", on errors too.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '@vitalis/db';
import { TOPICS } from '@vitalis/kafka';
import { validateObservation } from '@vitalis/schemas';
import { toRow, writeRows } from '../../../apps/ingest/src/store';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { numeric, testPool } from '../vitals/support';

let gw: RunningGateway;
let pool: Pool;
let reader: Record<string, string>;
const patient = `pat-dep-${randomUUID().slice(0, 8)}`;
const SUNSET = 'Fri, 31 Dec 2027 23:59:59 GMT';

beforeAll(async () => {
  pool = testPool();
  gw = await startGateway();
  reader = await authHeaders(gw.url, ['read:vitals']);
  const rows = [1, 2, 3].map((seq) => {
    const v = validateObservation(numeric(patient, `dev-${patient}`, seq, new Date(Date.now() - (10 - seq) * 1000)));
    if (!v.ok) throw new Error('bad fixture');
    return toRow(v.observation, 0, String(seq));
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await writeRows(client, TOPICS.vitalsObservations, rows, 'unnest');
    await client.query('COMMIT');
  } finally {
    client.release();
  }
});
afterAll(async () => {
  await gw?.close();
  await pool?.end();
});

function expectDeprecationHeaders(res: Response): void {
  expect(res.headers.get('deprecation')).toBe(`@${Date.parse('2026-11-23T00:00:00Z') / 1000}`);
  expect(res.headers.get('deprecation')).toMatch(/^@\d+$/); // RFC 9745 structured-field date
  expect(res.headers.get('sunset')).toBe(SUNSET);
  const link = res.headers.get('link') ?? '';
  expect(link).toContain(`<${gw.url}/developers#deprecation>; rel="deprecation"`);
  expect(link).toContain(`<${gw.url}/api/v1/vitals/latest>; rel="successor-version"`);
}

describe('the deprecated endpoint', () => {
  it('still works and carries Deprecation, Sunset and Link', async () => {
    const res = await fetch(`${gw.url}/api/v1/patients/${patient}/vitals/latest`, { headers: reader });
    expect(res.status).toBe(200);
    expectDeprecationHeaders(res);
    const body = (await res.json()) as { patient_id: string; data: { seq: number; code: string }[] };
    expect(body.patient_id).toBe(patient);
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ seq: 3, code: '8867-4' });
  });

  it('carries the headers on its errors too (401 without a token)', async () => {
    const res = await fetch(`${gw.url}/api/v1/patients/${patient}/vitals/latest`);
    expect(res.status).toBe(401);
    expectDeprecationHeaders(res);
    await res.body?.cancel();
  });

  it('carries them once on HEAD (the HEAD twin fastify adds to the GET)', async () => {
    const res = await fetch(`${gw.url}/api/v1/patients/${patient}/vitals/latest`, { method: 'HEAD', headers: reader });
    expect(res.status).toBe(200);
    expectDeprecationHeaders(res);
    expect(res.headers.get('link')!.match(/rel="deprecation"/g)).toHaveLength(1);
  });

  it('is listed at /developers#deprecation from the route metadata', async () => {
    const html = await (await fetch(`${gw.url}/developers`)).text();
    expect(html).toContain('data-endpoint="GET /api/v1/patients/{id}/vitals/latest"');
    expect(html).toContain(SUNSET);
  });
});

describe('its successor GET /api/v1/vitals/latest', () => {
  it('serves the same observations with a count, without deprecation headers', async () => {
    const res = await fetch(`${gw.url}/api/v1/vitals/latest?patient=${patient}`, { headers: reader });
    expect(res.status).toBe(200);
    expect(res.headers.get('deprecation')).toBeNull();
    expect(res.headers.get('sunset')).toBeNull();
    const body = (await res.json()) as { patient_id: string; count: number; data: { seq: number }[] };
    expect(body).toMatchObject({ patient_id: patient, count: 1 });
    expect(body.data[0]!.seq).toBe(3);
  });

  it('filters by code, answers FHIR on request, validates, and enforces read:vitals', async () => {
    const none = await fetch(`${gw.url}/api/v1/vitals/latest?patient=${patient}&code=59408-5`, { headers: reader });
    expect(((await none.json()) as { count: number }).count).toBe(0);
    const fhir = await fetch(`${gw.url}/api/v1/vitals/latest?patient=${patient}`, {
      headers: { ...reader, accept: 'application/fhir+json' },
    });
    expect(fhir.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    expect(((await fhir.json()) as { resourceType: string }).resourceType).toBe('Bundle');
    const missing = await fetch(`${gw.url}/api/v1/vitals/latest`, { headers: reader });
    expect(missing.status).toBe(400);
    await missing.body?.cancel();
    const wrongScope = await fetch(`${gw.url}/api/v1/vitals/latest?patient=${patient}`, {
      headers: await authHeaders(gw.url, ['read:appointments']),
    });
    expect(wrongScope.status).toBe(403);
    await wrongScope.body?.cancel();
  });

  it('records both reads in the audit trail the same way', async () => {
    const { rows } = await pool.query<{ action: string; outcome: string; n: number }>(
      "SELECT action, outcome, count(*)::int AS n FROM audit_events WHERE resource_type = 'Patient' AND resource_id = $1 GROUP BY 1, 2",
      [patient],
    );
    // two reads through the deprecated path (GET, HEAD), three through the successor (the 401 never reached the handler)
    expect(rows).toEqual([{ action: 'vitals.read_latest', outcome: 'success', n: 5 }]);
  });
});
