/**
 * Issue 23 item 3: export files in an S3-compatible bucket (EXPORT_S3_BUCKET) instead of the
 * folder, against a local S3-compatible server that installs from PyPI: moto in server mode
 * (infra/bin/s3-env). The worker uploads each complete file, the gateway serves it (whole and
 * with Range) from the bucket with the caller's token, and DELETE removes the job's objects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsClient } from 'aws4fetch';
import { createPool, type Pool } from '@vitalis/db';
import { exportStorage, runNextExport } from '@vitalis/export';
import { VITAL_CODE } from '@vitalis/schemas';
import { authHeaders } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { uid } from '../records/support';

const run = uid();
const group = `ward-s${run}`;
const patient = `pat-s${run}`;
const bucket = `vitalis-export-${run}`.toLowerCase();
const keys = { EXPORT_S3_ACCESS_KEY_ID: 'testing', EXPORT_S3_SECRET_ACCESS_KEY: 'testing', EXPORT_S3_REGION: 'us-east-1' };
let moto: ChildProcess;
let endpoint: string;
let gw: RunningGateway;
let owner: Pool;
let headers: Record<string, string>;
const aws = new AwsClient({ accessKeyId: 'testing', secretAccessKey: 'testing', region: 'us-east-1', service: 's3' });

const freePort = () =>
  new Promise<number>((ok) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });

function runCommand(cmd: string): Promise<string> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, [], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => (code === 0 ? ok(out.trim().split('\n').pop()!) : fail(new Error(`${cmd} exited ${code}`))));
  });
}

const objects = async () =>
  [...(await (await aws.fetch(`${endpoint}/${bucket}?list-type=2`)).text()).matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);

beforeAll(async () => {
  const bin = await runCommand('infra/bin/s3-env');
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  moto = spawn(`${bin}/moto_server`, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(endpoint).then(
        () => true,
        () => false,
      )
    )
      break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  expect((await aws.fetch(`${endpoint}/${bucket}`, { method: 'PUT' })).status).toBe(200);
  gw = await startGateway({ EXPORT_S3_BUCKET: bucket, EXPORT_S3_ENDPOINT: endpoint, ...keys });
  owner = createPool({ url: testEnv.DATABASE_URL, max: 2 });
  headers = await authHeaders(gw.url, ['system/Observation.rs']);
  await owner.query('INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3)', [group, `Ward ${run}`, [patient]]);
  await owner.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT $1, $2, i, $3, now() - interval '1 hour' + i * interval '1 second', 60 + i % 30, '/min', 0, i, vitals_series_assign($1, $3) FROM generate_series(1, 500) AS i`,
    [patient, `dev-${patient}`, VITAL_CODE.heartRate],
  );
}, 180_000);

afterAll(async () => {
  moto?.kill('SIGKILL');
  await owner?.end();
  await gw?.close();
});

describe('bulk export into an S3-compatible bucket', () => {
  it('the worker uploads the files, the gateway serves them (and a Range) with the token, DELETE removes them', async () => {
    const k = await fetch(`${gw.url}/fhir/R4/Group/${group}/$export`, { headers: { ...headers, prefer: 'respond-async' } });
    expect(k.status).toBe(202);
    const location = k.headers.get('content-location')!;
    const id = location.split('/').pop()!;
    const storage = exportStorage({ ...gw.deps.config });
    while (await runNextExport(gw.deps.pool, { storage, maxFileBytes: 32_768, leaseMs: 10_000, expiresMs: 600_000, only: [id] }));
    const manifest = (await (await fetch(location, { headers })).json()) as { output: { url: string; count: number }[] };
    expect(manifest.output.length).toBeGreaterThan(1);
    // each file and its stored gzip (compressed once by the worker)
    const stored = (await objects()).filter((o) => o.includes(id));
    expect(stored.filter((o) => o.endsWith('.ndjson'))).toHaveLength(manifest.output.length);
    expect(stored.filter((o) => o.endsWith('.ndjson.gz'))).toHaveLength(manifest.output.length);
    let lines = 0;
    for (const o of manifest.output) {
      const res = await fetch(o.url, { headers });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text.split('\n').filter(Boolean)).toHaveLength(o.count);
      lines += o.count;
      const part = await fetch(o.url, { headers: { ...headers, range: 'bytes=5-24' } });
      expect(part.status).toBe(206);
      expect(await part.text()).toBe(Buffer.from(text).subarray(5, 25).toString());
      const zipped = await fetch(o.url, { headers: { ...headers, 'accept-encoding': 'gzip' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(Number(zipped.headers.get('content-length'))).toBeGreaterThan(0); // the stored gzip, with its length
      expect(await zipped.text()).toBe(text); // fetch decompresses it
    }
    expect(lines).toBe(500);
    expect((await fetch(location, { method: 'DELETE', headers })).status).toBe(202);
    expect((await objects()).filter((o) => o.includes(id))).toEqual([]);
  });
});
