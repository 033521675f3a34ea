/**
 * Issue 23 item 5: the clients' bulk export against a real gateway and the real export worker
 * (run in this process for this client's jobs): the TypeScript client's `export()` and the
 * Python client's `export()` and `export_dataframe()` (pandas, in the client venv:
 * infra/bin/python-env) kick off, poll, download with the token and give every Observation of the
 * Group exactly once, the same count as the database.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '@vitalis/db';
import { exportStorageDir, folderStorage, runNextExport } from '@vitalis/export';
import { VitalisClient } from '@vitalis/client';
import { VITAL_CODE } from '@vitalis/schemas';
import { registerClient, type RegisteredClient } from '../../helpers/auth';
import { testEnv } from '../../helpers/env';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { uid } from '../records/support';

let gw: RunningGateway;
let owner: Pool;
let client: RegisteredClient;
let worker: NodeJS.Timeout;
const run = uid();
const group = `ward-c${run}`;
const members = [`pat-c${run}a`, `pat-c${run}b`];
const storage = folderStorage(exportStorageDir({ DATABASE_URL: testEnv.APP_DATABASE_URL }));

function runCommand(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((ok) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => ok({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  gw = await startGateway();
  owner = createPool({ url: testEnv.DATABASE_URL, max: 2 });
  client = await registerClient(gw.url, ['system/Observation.rs'], `export client ${run}`);
  await owner.query('INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3)', [group, `Ward ${run}`, members]);
  const t0 = Date.now() - 3_600_000;
  for (const [k, patient] of members.entries()) {
    await owner.query(
      `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
       SELECT $1, $2, i, $3, to_timestamp($4 / 1000.0) + i * interval '1 second', 60 + i % 30, '/min', 0, i, vitals_series_assign($1, $3) FROM generate_series(1, $5) AS i`,
      [patient, `dev-${patient}`, VITAL_CODE.heartRate, t0, 300 + k * 50],
    );
  }
  // the export worker, for this client's jobs only (another file's jobs are its own business)
  let busy = false;
  worker = setInterval(() => {
    if (busy) return;
    busy = true;
    void (async () => {
      const { rows } = await owner.query<{ id: string }>("SELECT id FROM export_jobs WHERE client_id = $1 AND status = 'queued'", [
        client.client_id,
      ]);
      if (rows.length > 0)
        await runNextExport(gw.deps.pool, {
          storage,
          maxFileBytes: 16_384,
          leaseMs: 10_000,
          expiresMs: 600_000,
          only: rows.map((r) => r.id),
        });
    })().finally(() => (busy = false));
  }, 100);
});

afterAll(async () => {
  clearInterval(worker);
  await owner?.end();
  await gw?.close();
});

const expected = 300 + 350;

describe('bulk export from the clients', () => {
  it('TypeScript: export() yields every Observation of the Group once', async () => {
    const api = VitalisClient.withClientCredentials(gw.url, client.client_id, client.client_secret);
    const seen: string[] = [];
    for await (const o of api.export({ group, firstDelayMs: 50, maxDelayMs: 200 })) {
      expect(o.resourceType).toBe('Observation');
      expect(members.map((m) => `Patient/${m}`)).toContain(o.subject.reference);
      seen.push((o.identifier as { value: string }[])[0]!.value);
    }
    expect(seen).toHaveLength(expected);
    expect(new Set(seen).size).toBe(expected);
  });

  it('Python: export() and export_dataframe() (pandas) give the same rows', async () => {
    const venv = await runCommand('infra/bin/python-env', [], {});
    expect(venv.code, venv.stderr).toBe(0);
    const python = venv.stdout.trim().split('\n').pop()!;
    const script = `
import json, os
from vitalis_client import VitalisClient
with VitalisClient.client_credentials(os.environ["URL"], os.environ["ID"], os.environ["SECRET"]) as api:
    records = list(api.export(group=os.environ["GROUP"]))
    frame = api.export_dataframe(group=os.environ["GROUP"])
    print(json.dumps({"records": len(records), "unique": len({r["identifier"][0]["value"] for r in records}),
                      "rows": len(frame), "columns": list(frame.columns), "patients": sorted(frame["patient"].unique().tolist()),
                      "tz": str(frame["effective"].dt.tz)}))
`;
    const out = await runCommand(python, ['-c', script], { URL: gw.url, ID: client.client_id, SECRET: client.client_secret, GROUP: group });
    expect(out.code, out.stderr).toBe(0);
    const result = JSON.parse(out.stdout.trim().split('\n').pop()!);
    expect(result).toMatchObject({ records: expected, unique: expected, rows: expected, patients: [...members].sort(), tz: 'UTC' });
    expect(result.columns).toEqual(['patient', 'device', 'code', 'display', 'effective', 'value', 'unit', 'samples', 'period_ms']);
  }, 120_000);
});
