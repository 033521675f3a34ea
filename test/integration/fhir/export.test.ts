/**
 * Issue 23: the FHIR Bulk Data export over real HTTP, against the real append log: the IG's flow
 * (kick-off with Prefer: respond-async, 202 + Content-Location; status 202 with X-Progress and
 * Retry-After, then 200 with the manifest; NDJSON downloads with the token, Range, gzip; DELETE;
 * OperationOutcome errors), each exported line valid FHIR R4 (HAPI) and the counts equal to the
 * database; the snapshot (a row committed after transactionTime, with an older effective time, is
 * in the next `_since` export and not in this one); cancel; expiry; another client sees nothing; a
 * patient user exports only its own data; the per-client limit; the audit rows; and a worker
 * process killed with SIGKILL mid-export whose successor ends with every row exactly once.
 * The worker runs in this process (runNextExport, limited to this file's jobs) except in the kill
 * test, where it is the real worker process (apps/projector/src/exports-main.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { must } from '@vitalis/runtime';
import { createPool, type Pool } from '@vitalis/db';
import { exportStorageDir, folderStorage, expireExports, runNextExport, type ExportStorage } from '@vitalis/export';
import { VITAL_CODE } from '@vitalis/schemas';
import { authHeaders } from '../../helpers/auth';
import { fullAfter, stoppingAfter } from '../../helpers/export-storage';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { expectValidFhir, VITAL_SIGNS_PROFILE } from '../../helpers/fhir-validator';
import { uid } from '../records/support';
import { userTokenFor } from '../mcp/support';

let gw: RunningGateway;
let owner: Pool;
let analyst: Record<string, string>;
let other: Record<string, string>;
let fhir: string;
const storageDir = exportStorageDir({ DATABASE_URL: testEnv.APP_DATABASE_URL });
const storage = folderStorage(storageDir);
const jobs: string[] = [];
const children: ChildProcess[] = [];

const run = uid();
const ward = `ward-${run}`;
const members = [`pat-x${run}a`, `pat-x${run}b`, `pat-x${run}c`];
// recent rows land in the log's daily partitions (not its default one, where another file's partition moves run)
const T0 = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 7_200_000;
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
let seq = 0;

/** Rows straight into the append log (what the ingest writes). */
async function seed(db: Pool, patient: string, n: number, startMs = T0) {
  const rows = Array.from({ length: n }, (_, i) => [
    patient,
    `dev-${run}-${patient}`,
    ++seq,
    i % 2 === 0 ? VITAL_CODE.heartRate : VITAL_CODE.spo2,
    new Date(startMs + i * 1000).toISOString(),
    i % 2 === 0 ? 60 + (i % 40) : 95 + (i % 5),
    i % 2 === 0 ? '/min' : '%',
  ]);
  await db.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT p, d, s, c, e::timestamptz, v, u, 0, s, vitals_series_assign(p, c) FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::text[]) AS t(p, d, s, c, e, v, u)`,
    [0, 1, 2, 3, 4, 5, 6].map((k) => rows.map((r) => r[k])),
  );
}

const countOf = async (patients: string[]) =>
  (await owner.query<{ n: number }>('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = ANY($1)', [patients])).rows[0]!
    .n;

async function kickOff(path: string, headers = analyst, prefer = 'respond-async') {
  const res = await fetch(`${fhir}${path}`, { headers: { ...headers, accept: 'application/fhir+json', prefer } });
  const body = (await res.json()) as any;
  const location = res.headers.get('content-location');
  if (res.status === 202) jobs.push(location!.split('/').pop()!);
  return { status: res.status, location, body, headers: res.headers };
}

/** Runs this file's queued exports in this process (until `signal` stops the worker, as at shutdown). */
async function work(options: { maxFileBytes?: number; storage?: ExportStorage; signal?: AbortSignal } = {}) {
  while (
    !options.signal?.aborted &&
    (await runNextExport(gw.deps.pool, {
      storage: options.storage ?? storage,
      ...(options.signal ? { signal: options.signal } : {}),
      maxFileBytes: options.maxFileBytes ?? 4_096,
      leaseMs: 10_000,
      expiresMs: 3_600_000,
      only: jobs,
    }))
  );
}

async function manifestOf(location: string, headers = analyst) {
  const res = await fetch(location, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  return (await res.json()) as {
    transactionTime: string;
    request: string;
    requiresAccessToken: boolean;
    output: { type: string; url: string; count: number }[];
    error: unknown[];
  };
}

async function linesOf(url: string, headers = analyst): Promise<any[]> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/fhir+ndjson');
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function exported(location: string, headers = analyst) {
  const manifest = await manifestOf(location, headers);
  const resources = [];
  for (const o of manifest.output) {
    const lines = await linesOf(o.url, headers);
    expect(lines).toHaveLength(o.count);
    resources.push(...lines);
  }
  return { manifest, resources };
}

beforeAll(async () => {
  gw = await startGateway({ EXPORT_MAX_ACTIVE_PER_CLIENT: '2', EXPORT_RETRY_AFTER_SECONDS: '3' });
  fhir = `${gw.url}/fhir/R4`;
  owner = createPool({ url: testEnv.DATABASE_URL, max: 3 });
  analyst = await authHeaders(gw.url, ['system/Observation.rs']);
  other = await authHeaders(gw.url, ['system/Observation.rs']);
  await owner.query('INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3)', [ward, `Ward ${run}`, members]);
  await seed(owner, members[0]!, 40);
  await seed(owner, members[1]!, 25);
  await seed(owner, members[2]!, 15);
  await seed(owner, `pat-x${run}z`, 10); // not a member
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const id of jobs) await storage.removeAll(id);
  await owner?.query('DELETE FROM export_jobs WHERE id = ANY($1::uuid[])', [jobs]);
  await owner?.end();
  await gw?.close();
});

describe('FHIR Bulk Data export: the IG flow', () => {
  it('kick-off 202 + Content-Location; status 202 with X-Progress and Retry-After; manifest; every line valid FHIR; counts equal the database', async () => {
    const k = await kickOff(`/Group/${ward}/$export?_type=Observation&_outputFormat=application%2Ffhir%2Bndjson`);
    expect(k.status).toBe(202);
    expect(k.location).toMatch(new RegExp(`^${fhir.replace(/[$/.]/g, '\\$&')}/\\$export-status/[0-9a-f-]{36}$`));
    await expectValidFhir(k.body);
    const waiting = await fetch(k.location!, { headers: analyst });
    expect(waiting.status).toBe(202);
    expect(waiting.headers.get('x-progress')).toMatch(/^queued: 0 resources/);
    expect(waiting.headers.get('retry-after')).toBe('3');
    await work();
    const { manifest, resources } = await exported(k.location!);
    expect(manifest).toMatchObject({ request: expect.stringContaining(`/Group/${ward}/$export`), requiresAccessToken: true, error: [] });
    expect(Date.parse(manifest.transactionTime)).toBeGreaterThan(0);
    expect(manifest.output.length).toBeGreaterThan(1); // 4 KiB files: split
    expect(manifest.output.every((o) => o.type === 'Observation')).toBe(true);
    expect(resources).toHaveLength(await countOf(members));
    const ids = resources.map((r) => r.identifier[0].value);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(resources.map((r) => r.subject.reference))).toEqual(new Set(members.map((m) => `Patient/${m}`)));
    await expectValidFhir(resources, { profiles: [VITAL_SIGNS_PROFILE] });
  });

  it('_typeFilter selects Observation codes and dates', async () => {
    const filter = encodeURIComponent(
      `Observation?code=http://loinc.org|${VITAL_CODE.spo2}&date=ge${iso(T0 + 10_000)}&date=lt${iso(T0 + 20_000)}`,
    );
    const k = await kickOff(`/Group/${ward}/$export?_typeFilter=${filter}`);
    expect(k.status).toBe(202);
    await work();
    const { resources } = await exported(k.location!);
    // SpO2 is every odd second: 5 in [10, 20) for the members with 40 and 25 rows, 2 (11, 13) for the one with 15
    expect(resources).toHaveLength(12);
    expect(resources.every((r) => r.code.coding.some((c: { code: string }) => c.code === VITAL_CODE.spo2))).toBe(true);
  });

  it('errors are OperationOutcomes: no Prefer, an unsupported or unreadable _type, a bad format, _since or _elements, an unknown Group, an unknown status', async () => {
    for (const [path, prefer, status] of [
      [`/Group/${ward}/$export`, '', 400],
      [`/Group/${ward}/$export?_type=Medication`, 'respond-async', 400],
      [`/Group/${ward}/$export?_type=Patient`, 'respond-async', 403], // the token may not read Patient
      [`/Group/${ward}/$export?_outputFormat=text/csv`, 'respond-async', 400],
      [`/Group/${ward}/$export?_since=yesterday`, 'respond-async', 400],
      [`/Group/${ward}/$export?_elements=name.given`, 'respond-async', 400],
      [`/Group/no-such-${run}/$export`, 'respond-async', 404],
    ] as const) {
      const k = await kickOff(path, analyst, prefer);
      expect(k.status, path).toBe(status);
      expect(k.body.resourceType).toBe('OperationOutcome');
    }
    const lenient = await kickOff(`/Group/${ward}/$export?_type=Observation,Patient`, analyst, 'respond-async, handling=lenient');
    expect(lenient.status).toBe(202);
    await work();
    const missing = await fetch(`${fhir}/$export-status/00000000-0000-4000-8000-000000000000`, { headers: analyst });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).resourceType).toBe('OperationOutcome');
    expect((await fetch(`${fhir}/$export?_type=Observation`, { headers: { prefer: 'respond-async' } })).status).toBe(401);
  });

  it('files need the same token, serve a Range (206, 416 outside) and gzip, and every download is audited', async () => {
    const k = await kickOff(`/Group/${ward}/$export`);
    await work();
    const manifest = await manifestOf(k.location!);
    const url = manifest.output[0]!.url;
    const full = await (await fetch(url, { headers: analyst })).text();
    expect((await fetch(url)).status).toBe(401);
    const part = await fetch(url, { headers: { ...analyst, range: 'bytes=10-109' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-109/${Buffer.byteLength(full)}`);
    expect(await part.text()).toBe(Buffer.from(full).subarray(10, 110).toString());
    const tail = await fetch(url, { headers: { ...analyst, range: 'bytes=-20' } });
    expect(await tail.text()).toBe(Buffer.from(full).subarray(-20).toString());
    const outside = await fetch(url, { headers: { ...analyst, range: `bytes=${Buffer.byteLength(full) + 5}-` } });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe(`bytes */${Buffer.byteLength(full)}`);
    const zipped = await fetch(url, { headers: { ...analyst, 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    // fetch decompresses a gzip body itself
    expect(await zipped.text()).toBe(full);
    const gzipped = () =>
      import('node:http').then(
        (http) =>
          new Promise<{ body: Buffer; length: string | undefined }>((ok, fail) => {
            http
              .get(url, { headers: { ...analyst, 'accept-encoding': 'gzip' } }, (res) => {
                const chunks: Buffer[] = [];
                res
                  .on('data', (c: Buffer) => chunks.push(c))
                  .on('end', () => ok({ body: Buffer.concat(chunks), length: res.headers['content-length'] }))
                  .on('error', fail);
              })
              .on('error', fail);
          }),
      );
    // the worker stored the file's gzip beside it (compressed once): served as stored, with its length
    const job = k.location!.split('/').pop()!;
    const storedGzip = `${storageDir}/${job}/${url.split('/').pop()!}.gz`;
    const stored = await gzipped();
    expect(stored.body.equals(readFileSync(storedGzip))).toBe(true);
    expect(stored.length).toBe(String(stored.body.length));
    expect(gunzipSync(stored.body).toString()).toBe(full);
    // a file written before the worker stored gzips (none beside it): compressed on the fly, the same bytes out
    rmSync(storedGzip);
    const onTheFly = await gzipped();
    expect(onTheFly.length).toBeUndefined();
    expect(gunzipSync(onTheFly.body).toString()).toBe(full);
    const audit = await owner.query<{ action: string; n: number }>(
      "SELECT action, count(*)::int AS n FROM audit_events WHERE detail->>'job' = $1 GROUP BY action ORDER BY action",
      [job],
    );
    expect(audit.rows).toEqual([
      { action: 'export.download', n: 6 },
      { action: 'export.kickoff', n: 1 },
    ]);
  });

  it('another client cannot read the status, download the files or cancel', async () => {
    const k = await kickOff(`/Group/${ward}/$export`);
    await work();
    const manifest = await manifestOf(k.location!);
    expect((await fetch(k.location!, { headers: other })).status).toBe(404);
    expect((await fetch(manifest.output[0]!.url, { headers: other })).status).toBe(404);
    expect((await fetch(k.location!, { method: 'DELETE', headers: other })).status).toBe(404);
    expect((await fetch(k.location!, { headers: analyst })).status).toBe(200);
  });

  it("DELETE cancels a queued export and removes a finished one's files; the status is then 404", async () => {
    const queued = await kickOff(`/Group/${ward}/$export`);
    const cancel = await fetch(queued.location!, { method: 'DELETE', headers: analyst });
    expect(cancel.status).toBe(202);
    expect((await fetch(queued.location!, { headers: analyst })).status).toBe(404);
    const done = await kickOff(`/Group/${ward}/$export`);
    await work();
    const manifest = await manifestOf(done.location!);
    const id = done.location!.split('/').pop()!;
    expect(existsSync(`${storageDir}/${id}`)).toBe(true);
    expect((await fetch(done.location!, { method: 'DELETE', headers: analyst })).status).toBe(202);
    expect(existsSync(`${storageDir}/${id}`)).toBe(false);
    expect((await fetch(manifest.output[0]!.url, { headers: analyst })).status).toBe(404);
  });

  it('a run that ends in an error is retried from its cursor; the third failure fails the export: 500 OperationOutcome', async () => {
    const k = await kickOff(`/Group/${ward}/$export`);
    const id = k.location!.split('/').pop()!;
    const broken = {
      ...storage,
      create: async () => {
        throw new Error('disk full');
      },
    };
    for (let attempt = 1; attempt <= 3; attempt++) {
      await expect(
        runNextExport(gw.deps.pool, { storage: broken, maxFileBytes: 4_096, leaseMs: 10_000, expiresMs: 3_600_000, only: [id] }),
      ).rejects.toThrow('disk full');
      const { rows } = await owner.query<{ status: string; attempts: number }>('SELECT status, attempts FROM export_jobs WHERE id = $1', [
        id,
      ]);
      expect(rows[0]).toEqual({ status: attempt < 3 ? 'queued' : 'failed', attempts: attempt });
    }
    const failed = await fetch(k.location!, { headers: analyst });
    expect(failed.status).toBe(500);
    const outcome = (await failed.json()) as any;
    expect(outcome.resourceType).toBe('OperationOutcome');
    await expectValidFhir(outcome);
  });

  it('finished exports expire: their files go and the status is 404', async () => {
    const k = await kickOff(`/Group/${ward}/$export`);
    await work();
    const id = k.location!.split('/').pop()!;
    const { rows } = await owner.query<{ ttl: number }>(
      'SELECT extract(epoch FROM expires_at - completed_at)::int AS ttl FROM export_jobs WHERE id = $1',
      [id],
    );
    expect(rows[0]!.ttl).toBe(3_600); // the worker's expiresMs (EXPORT_FILE_TTL_SECONDS in the projector)
    await owner.query("UPDATE export_jobs SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    expect(await expireExports(gw.deps.pool, storage)).toBeGreaterThanOrEqual(1);
    expect(existsSync(`${storageDir}/${id}`)).toBe(false);
    expect((await fetch(k.location!, { headers: analyst })).status).toBe(404);
  });

  it('at most EXPORT_MAX_ACTIVE_PER_CLIENT exports queued or running per client: 429 with Retry-After', async () => {
    const client = await authHeaders(gw.url, ['system/Observation.rs']);
    const a = await kickOff(`/Group/${ward}/$export`, client);
    const b = await kickOff(`/Group/${ward}/$export`, client);
    expect([a.status, b.status]).toEqual([202, 202]);
    const c = await kickOff(`/Group/${ward}/$export`, client);
    expect(c.status).toBe(429);
    expect(c.headers.get('retry-after')).toBe('3');
    expect(c.body.resourceType).toBe('OperationOutcome');
    expect((await fetch(a.location!, { method: 'DELETE', headers: client })).status).toBe(202);
    expect((await kickOff(`/Group/${ward}/$export`, client)).status).toBe(202);
  });

  it('a patient user exports only its own data, whatever the level', async () => {
    await seed(owner, 'pat-0001', 3);
    const { token } = await userTokenFor(gw.url, 'patient', ['patient/Observation.rs'], `Export app ${uid()}`);
    const me = { authorization: `Bearer ${token}` };
    for (const path of ['/$export', '/Patient/$export', `/Group/${ward}/$export`]) {
      const k = await kickOff(path, me);
      expect(k.status, path).toBe(202);
      await work();
      const { resources } = await exported(k.location!, me);
      const subjects = new Set(resources.map((r) => r.subject.reference));
      if (path.startsWith('/Group'))
        expect(resources).toHaveLength(0); // not a member of the ward
      else expect([...subjects]).toEqual(['Patient/pat-0001']);
      await fetch(k.location!, { method: 'DELETE', headers: me });
    }
  });
});

/** A heart rate a second from `start` for `seconds` from each of `devices` of one patient: rows that tie on time across devices. */
async function seedDevices(patient: string, devices: string[], start: number, seconds: number): Promise<void> {
  await owner.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT $1, d, s, $2, to_timestamp(($3::bigint + s * 1000) / 1000.0), 60 + s % 30, '/min', 0, s, vitals_series_assign($1, $2)
       FROM unnest($4::text[]) AS d, generate_series(0, $5::int - 1) AS s`,
    [patient, VITAL_CODE.heartRate, start, devices, seconds],
  );
}

describe('FHIR Bulk Data export: the order it reads the log in', () => {
  it('a whole-log export (the identity index order: time, device, seq) stopped and resumed across rows that tie on time: every row once, in order', async () => {
    // three devices sampling on the same instants, an hour before this file's other rows
    const patient = `pat-x${run}tie`;
    const start = T0 - 3_600_000;
    await seedDevices(
      patient,
      ['a', 'b', 'c'].map((d) => `tie-${run}-${d}`),
      start,
      60,
    );
    const filter = encodeURIComponent(`Observation?date=ge${iso(start)}&date=lt${iso(start + 60_000)}`);
    const k = await kickOff(`/$export?_type=Observation&_typeFilter=${filter}`);
    expect(k.status).toBe(202);
    // the worker stops (as at shutdown) after its third file: the job resumes from that file's last row
    const stop = new AbortController();
    const stopping = stoppingAfter(storage, 3, stop);
    await work({ storage: stopping, signal: stop.signal });
    const id = k.location!.split('/').pop()!;
    const { rows } = await owner.query<{ cursor: unknown; status: string; files: number }>(
      'SELECT cursor, status, (SELECT count(*)::int FROM export_files f WHERE f.job_id = j.id) AS files FROM export_jobs j WHERE id = $1',
      [id],
    );
    // it stopped at the file it had just committed (its rows arrive in one COPY chunk: a chunk is no boundary here)
    expect(rows[0]).toMatchObject({ cursor: { order: 'time-first' }, files: 3 });
    expect(rows[0]!.status).not.toBe('completed');
    await work();
    const { resources } = await exported(k.location!);
    const ours = resources.filter((r) => r.subject.reference === `Patient/${patient}`).map((r) => r.identifier[0].value as string);
    expect(ours).toHaveLength(180);
    expect(new Set(ours).size).toBe(180);
    // the file order is the log's: time first, then device (bytewise), then seq
    const keyOf = (r: any): [string, string] => [r.effectiveDateTime, (r.identifier[0].value as string).replace(/\/\d+$/, '')];
    const keys = resources.map(keyOf);
    const sorted = [...keys].sort(([t1, d1], [t2, d2]) => (t1 < t2 ? -1 : t1 > t2 ? 1 : Buffer.compare(Buffer.from(d1), Buffer.from(d2))));
    expect(keys).toEqual(sorted);
  });
});

describe('FHIR Bulk Data export: a full disk', () => {
  it('a write that fails part-way through a file (ENOSPC) fails the run, which goes back to the queue; the next run resumes: every row once, in order', async () => {
    const patient = `pat-x${run}full`;
    const start = T0 - 7_200_000;
    await seedDevices(
      patient,
      ['a', 'b'].map((d) => `full-${run}-${d}`),
      start,
      300,
    );
    const filter = encodeURIComponent(`Observation?date=ge${iso(start)}&date=lt${iso(start + 300_000)}`);
    const k = await kickOff(`/$export?_type=Observation&_typeFilter=${filter}`);
    const id = k.location!.split('/').pop()!;
    // the disk is full after 40 KB of NDJSON: in the middle of the tenth 4 KB file
    const options = { maxFileBytes: 4_096, leaseMs: 10_000, expiresMs: 3_600_000, only: [id] };
    await expect(runNextExport(gw.deps.pool, { ...options, storage: fullAfter(storage, 40_000) })).rejects.toThrow('ENOSPC');
    const { rows } = await owner.query<{ status: string; attempts: number; files: number }>(
      'SELECT status, attempts, (SELECT count(*)::int FROM export_files f WHERE f.job_id = j.id) AS files FROM export_jobs j WHERE id = $1',
      [id],
    );
    expect(rows[0]).toMatchObject({ status: 'queued', attempts: 1 });
    expect(rows[0]!.files).toBeGreaterThan(0); // the files before the failure stay committed
    await runNextExport(gw.deps.pool, { ...options, storage });
    const { resources, manifest } = await exported(k.location!);
    expect(manifest.output.length).toBeGreaterThan(rows[0]!.files);
    const ids = resources.map((r) => r.identifier[0].value as string);
    expect(new Set(ids).size).toBe(ids.length); // nothing twice
    const ours = resources.filter((r) => r.subject.reference === `Patient/${patient}`);
    expect(ours).toHaveLength(600);
    const times = ours.map((r) => r.effectiveDateTime as string);
    expect(times).toEqual([...times].sort());
  });
});

describe('FHIR Bulk Data export: the snapshot', () => {
  it('a row committed after transactionTime (with an older effective time) is not in the export, and the next _since export holds exactly it', async () => {
    const late = `pat-x${run}late`;
    await owner.query('UPDATE export_groups SET members = members || $2 WHERE id = $1', [ward, [late]]);
    const first = await kickOff(`/Group/${ward}/$export`);
    await work();
    const before = await exported(first.location!);
    // a transaction open across a kick-off: it commits after that export's transactionTime
    const writer = await owner.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
        VALUES ($1, $2, 1, $3, '2020-01-01T00:00:00Z', 71, '/min', 0, 0, vitals_series_assign($1, $3))`,
        [late, `dev-${late}`, VITAL_CODE.heartRate],
      );
      const second = await kickOff(`/Group/${ward}/$export`);
      await writer.query('COMMIT');
      await work();
      const during = await exported(second.location!);
      expect(during.resources).toHaveLength(before.resources.length);
      expect(during.resources.some((r) => r.subject.reference === `Patient/${late}`)).toBe(false);
      const since = await kickOff(`/Group/${ward}/$export?_since=${encodeURIComponent(during.manifest.transactionTime)}`);
      await work();
      const after = await exported(since.location!);
      expect(after.resources.map((r) => r.subject.reference)).toEqual([`Patient/${late}`]);
      expect(after.resources[0].effectiveDateTime).toBe('2020-01-01T00:00:00.000000Z');
      // and since the first export: the same one row (nothing else was written for the ward)
      const sinceFirst = await kickOff(`/Group/${ward}/$export?_since=${encodeURIComponent(before.manifest.transactionTime)}`);
      await work();
      expect((await exported(sinceFirst.location!)).resources).toHaveLength(1);
    } finally {
      await writer.query('ROLLBACK').catch(() => {});
      writer.release();
    }
  });
});

describe('FHIR Bulk Data export: a worker killed mid-export', () => {
  const clientIdOf = (headers: Record<string, string>) =>
    String(decodeJwt(must(headers.authorization, 'the bearer header authHeaders made').slice('Bearer '.length)).client_id);
  function startWorker(env: Record<string, string> = {}): ChildProcess {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/projector/src/exports-main.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: testEnv.APP_DATABASE_URL,
        // this file's client's jobs only: other files' exports run beside it in their own processes
        EXPORT_WORKER_ONLY_CLIENTS: clientIdOf(analyst),
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        EXPORT_MAX_FILE_BYTES: '32768',
        EXPORT_LEASE_MS: '1500',
        EXPORT_POLL_INTERVAL_MS: '200',
        READINESS_DRAIN_SECONDS: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  }

  it('SIGKILL after some files, a restart: the export completes with every row exactly once', async () => {
    const cohort = `cohort-${run}`;
    const patients = [`pat-k${run}a`, `pat-k${run}b`];
    await owner.query('INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3)', [cohort, `Cohort ${run}`, patients]);
    await seed(owner, patients[0]!, 20_000);
    await seed(owner, patients[1]!, 20_000);
    const k = await kickOff(`/Group/${cohort}/$export`);
    const id = k.location!.split('/').pop()!;
    const first = startWorker();
    const filesOf = async () =>
      (
        await owner.query<{ n: number; status: string }>(
          'SELECT (SELECT count(*)::int FROM export_files WHERE job_id = $1) AS n, status FROM export_jobs WHERE id = $1',
          [id],
        )
      ).rows[0]!;
    let state = await filesOf();
    for (let i = 0; i < 600 && state.n < 3; i++) {
      await new Promise((ok) => setTimeout(ok, 50));
      state = await filesOf();
    }
    first.kill('SIGKILL');
    await new Promise((ok) => first.once('exit', ok));
    state = await filesOf();
    expect(state.status).toBe('running'); // killed mid-export
    const committed = state.n;
    const second = startWorker();
    for (let i = 0; i < 1200 && state.status !== 'completed'; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      state = await filesOf();
    }
    expect(state.status).toBe('completed');
    const { resources, manifest } = await exported(k.location!);
    expect(manifest.output.length).toBeGreaterThan(committed); // resumed, not restarted: the first files stay
    second.kill('SIGKILL'); // the next test's job is for a worker of its own
    await new Promise((ok) => (second.exitCode === null ? second.once('exit', ok) : ok(null)));
    const ids = resources.map((r) => r.identifier[0].value);
    expect(ids).toHaveLength(await countOf(patients));
    expect(new Set(ids).size).toBe(ids.length);
  }, 180_000);

  it('a kick-off wakes an idle worker at once (NOTIFY), long before its next poll', async () => {
    const child = startWorker({ EXPORT_POLL_INTERVAL_MS: '600000' });
    // ready: its listening connection is open (a notification before LISTEN would wait for the poll)
    for (let i = 0; i < 600; i++) {
      const { rows } = await owner.query(
        "SELECT 1 FROM pg_stat_activity WHERE application_name = 'vitalis-export-worker' AND query = 'LISTEN vitalis_export' AND pid <> pg_backend_pid()",
      );
      if (rows.length > 0) break;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    const k = await kickOff(`/Group/${ward}/$export`);
    let status = 202;
    for (let i = 0; i < 600 && status === 202; i++) {
      await new Promise((ok) => setTimeout(ok, 100));
      status = (await fetch(k.location!, { headers: analyst })).status;
    }
    expect(status).toBe(200); // within a minute; the worker's next poll was ten minutes away
    child.kill('SIGKILL');
    await new Promise((ok) => (child.exitCode === null ? child.once('exit', ok) : ok(null)));
  }, 120_000);

  it('SIGTERM mid-export: the worker hands the job back and exits 0; the next worker completes it, every row once', async () => {
    const cohort = `cohort-t${run}`;
    const patients = [`pat-t${run}a`];
    await owner.query('INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3)', [cohort, `Cohort ${run}`, patients]);
    await seed(owner, patients[0]!, 30_000);
    const k = await kickOff(`/Group/${cohort}/$export`);
    const id = k.location!.split('/').pop()!;
    const child = startWorker();
    const stateOf = async () =>
      (
        await owner.query<{ n: number; status: string; attempts: number; owner: string | null }>(
          'SELECT (SELECT count(*)::int FROM export_files WHERE job_id = $1) AS n, status, attempts, lease_owner AS owner FROM export_jobs WHERE id = $1',
          [id],
        )
      ).rows[0]!;
    let state = await stateOf();
    // this worker holds the job (its lease names its pid) and has committed files
    for (let i = 0; i < 600 && !(state.n >= 2 && state.owner?.includes(`:${child.pid}:`)); i++) {
      await new Promise((ok) => setTimeout(ok, 50));
      state = await stateOf();
    }
    child.kill('SIGTERM');
    const code = await new Promise((ok) => child.once('exit', ok));
    expect(code).toBe(0);
    state = await stateOf();
    expect(state).toMatchObject({ status: 'queued', attempts: 0, owner: null }); // handed back, not failed
    await work({ maxFileBytes: 32_768 });
    const { resources } = await exported(k.location!);
    const ids = resources.map((r) => r.identifier[0].value);
    expect(ids).toHaveLength(await countOf(patients));
    expect(new Set(ids).size).toBe(ids.length);
  }, 180_000);
});
