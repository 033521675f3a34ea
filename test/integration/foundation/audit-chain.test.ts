/**
 * Audit integrity (security finding 11): the hash chain and its signed checkpoints, attacked the
 * way someone with owner rights would (triggers disabled, rows changed, deleted, the table
 * truncated and refilled). The attacks run on throwaway databases cloned from one migrated base
 * (CREATE DATABASE ... TEMPLATE), never on the shared test database.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, migrate, withTransaction, type Pool } from '@vitalis/db';
import {
  GENESIS_HASH,
  checkpointFileName,
  recordAudit,
  signCheckpoint,
  startAuditCheckpoints,
  verifyAuditTrail,
  writeCheckpoint,
} from '@vitalis/audit';
import { testEnv } from '../../helpers/env';

const KEY = 'a-test-only-audit-checkpoint-key-of-32-chars';
const suffix = randomUUID().slice(0, 8);
const baseDb = `vitalis_chain_base_${suffix}`;
const created: string[] = [];
const pools: Pool[] = [];
let admin: Pool;
let dir: string;
/** The checkpointed head (rows after it were written later). */
let checkpointed: { id: number; hash: string };
let rowsInBase = 0;

const urlOf = (db: string) => {
  const url = new URL(testEnv.DATABASE_URL);
  url.pathname = `/${db}`;
  return url.toString();
};
const poolOf = (db: string, max = 4) => {
  const pool = createPool({ url: urlOf(db), max, application: 'vitalis-test-audit-chain' });
  pools.push(pool);
  return pool;
};

async function createDb(name: string, template?: string): Promise<void> {
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  created.push(name);
}

const nameOf = new WeakMap<Pool, string>();

/** A fresh copy of the base: its chain is intact and matches the checkpoint in `dir`. */
async function clone(): Promise<Pool> {
  const name = `vitalis_chain_${suffix}_${created.length}`;
  await createDb(name, baseDb);
  const pool = poolOf(name);
  nameOf.set(pool, name);
  return pool;
}

const row = (i: number, writer: number) => ({
  action: 'test.chain',
  outcome: 'success' as const,
  clientId: `client-${writer}`,
  subject: `usr-${writer}`,
  scope: 'read:patients',
  resourceType: 'Patient',
  resourceId: `pat-${i}`,
  requestId: `req-${writer}-${i}`,
  ip: i % 2 ? '10.0.0.7' : '2001:db8::7',
  detail: { i, writer, note: 'ünïcode ✓', nested: { b: 1, a: [1, 2] } },
});

/** `writers` concurrent writers, `each` rows apiece. */
async function writeConcurrently(pool: Pool, writers: number, each: number): Promise<void> {
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; i < each; i++) await recordAudit(pool, row(i, w));
    }),
  );
}

beforeAll(async () => {
  admin = createPool({ url: testEnv.DATABASE_URL, max: 1, application: 'vitalis-test-audit-chain' });
  dir = await mkdtemp(join(tmpdir(), 'vitalis-audit-checkpoints-'));
  await createDb(baseDb);
  const base = createPool({ url: urlOf(baseDb), max: 8, application: 'vitalis-test-audit-chain' });
  try {
    await migrate(base);
    await writeConcurrently(base, 8, 25);
    const written = await writeCheckpoint(base, dir, KEY);
    checkpointed = { id: written!.head_id, hash: written!.head_hash };
    await writeConcurrently(base, 4, 5);
    rowsInBase = Number((await base.query('SELECT count(*) AS n FROM audit_events')).rows[0].n);
  } finally {
    await base.end(); // a template must have no connections
  }
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  for (const db of created.reverse()) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
  await admin?.end();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** As an attacker with owner rights: the append-only trigger off for one statement. */
async function tamper(pool: Pool, sql: string, params: unknown[] = []): Promise<void> {
  await withTransaction(pool, async (c) => {
    await c.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only');
    await c.query(sql, params);
    await c.query('ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only');
  });
}

const idsOf = async (pool: Pool) => (await pool.query<{ id: number }>('SELECT id FROM audit_events ORDER BY id')).rows.map((r) => r.id);

describe('the audit hash chain', () => {
  it('rows from concurrent writers form one chain in id order that verifies, with the checkpoint', async () => {
    const pool = await clone();
    const ids = await idsOf(pool);
    expect(ids).toHaveLength(rowsInBase);
    expect(ids).toEqual(Array.from({ length: rowsInBase }, (_, i) => i + 1)); // ids taken under the chain lock: no gaps, chain order
    const result = await verifyAuditTrail(pool, { dir, key: KEY, batchSize: 50 }); // several batches
    expect(result).toMatchObject({
      ok: true,
      rows: rowsInBase,
      firstBrokenId: null,
      problems: [],
      checkpoints: { files: 1, valid: 1, latest: { head_id: checkpointed.id } },
    });
    expect(result.head.id).toBe(rowsInBase);
    const first = (await pool.query('SELECT prev_hash FROM audit_events ORDER BY id LIMIT 1')).rows[0];
    expect(first.prev_hash).toBe(GENESIS_HASH);
  });

  it('a rolled-back audit row leaves the chain as it was; the next row links to the last committed one', async () => {
    const pool = await clone();
    await expect(
      withTransaction(pool, async (c) => {
        await recordAudit(c, row(1, 99));
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await recordAudit(pool, row(2, 99));
    const result = await verifyAuditTrail(pool, { dir, key: KEY });
    expect(result).toMatchObject({ ok: true, rows: rowsInBase + 1 });
  });

  it('an application role with only INSERT and SELECT on audit_events appends to the chain (SECURITY DEFINER trigger)', async () => {
    const pool = await clone();
    const role = `vitalis_chain_app_${suffix}`;
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    try {
      await pool.query(`GRANT INSERT, SELECT ON audit_events TO ${role}`);
      const url = new URL(urlOf(nameOf.get(pool)!));
      url.username = role;
      const app = createPool({ url: url.toString(), max: 1 });
      try {
        await recordAudit(app, row(1, 7));
        await expect(app.query('SELECT * FROM audit_chain_head')).rejects.toThrow(/permission denied/);
        await expect(app.query('UPDATE audit_chain_head SET last_id = 0')).rejects.toThrow(/permission denied/);
        expect((await app.query('SELECT last_id FROM vitalis_audit_chain_head()')).rows[0].last_id).toBe(rowsInBase + 1);
        expect(await writeCheckpoint(app, await mkdtemp(join(tmpdir(), 'vitalis-audit-cp-app-')), KEY)).toMatchObject({
          head_id: rowsInBase + 1,
        });
      } finally {
        await app.end();
      }
      expect((await verifyAuditTrail(pool, { dir, key: KEY })).ok).toBe(true);
    } finally {
      await pool.query(`REVOKE ALL ON audit_events FROM ${role}`);
      await admin.query(`DROP ROLE ${role}`);
    }
  });

  it('a row changed in place is found at that row', async () => {
    const pool = await clone();
    await tamper(pool, `UPDATE audit_events SET detail = detail || '{"i": 1000}' WHERE id = 42`);
    const result = await verifyAuditTrail(pool, { dir, key: KEY });
    expect(result.ok).toBe(false);
    expect(result.firstBrokenId).toBe(42);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'hash-mismatch', id: 42 })]);
  });

  it('a row changed with its hash recomputed breaks the link of the next row', async () => {
    const pool = await clone();
    await tamper(
      pool,
      `UPDATE audit_events SET actor_subject = 'someone-else',
      hash = vitalis_audit_hash(prev_hash, id, occurred_at, action, outcome, actor_client_id, 'someone-else', scope, resource_type, resource_id, request_id, ip, detail) WHERE id = 42`,
    );
    const result = await verifyAuditTrail(pool, { dir, key: KEY });
    expect(result.firstBrokenId).toBe(43);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'broken-link', id: 43 })]);
  });

  it('a deleted middle row is found at the row after the gap', async () => {
    const pool = await clone();
    await tamper(pool, 'DELETE FROM audit_events WHERE id = 100');
    const result = await verifyAuditTrail(pool, { dir, key: KEY });
    expect(result.firstBrokenId).toBe(101);
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'broken-link', id: 101 })]);
  });

  it('deleted last rows are found by the chain head', async () => {
    const pool = await clone();
    await tamper(pool, 'DELETE FROM audit_events WHERE id > $1', [rowsInBase - 3]);
    const result = await verifyAuditTrail(pool, { dir, key: KEY });
    expect(result.problems).toEqual([expect.objectContaining({ kind: 'head-mismatch' })]);
  });

  it('TRUNCATE is refused; a table truncated anyway and refilled with a chain that is valid in itself fails against the checkpoint', async () => {
    const pool = await clone();
    await expect(pool.query('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
    await withTransaction(pool, async (c) => {
      await c.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_truncate');
      await c.query('TRUNCATE audit_events');
      await c.query('ALTER TABLE audit_events ENABLE TRIGGER audit_events_no_truncate');
      await c.query('UPDATE audit_chain_head SET last_id = 0, last_hash = $1', [GENESIS_HASH]);
      await c.query("SELECT setval('audit_events_id_seq', 1, false)");
    });
    // A forged history through the real trigger: every hash and link is right, and there are as many rows.
    for (let i = 0; i < rowsInBase; i++) await recordAudit(pool, { action: 'test.forged', outcome: 'success', detail: { i } });
    const result = await verifyAuditTrail(pool, { dir, key: KEY });
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ kind: 'checkpoint-mismatch', id: checkpointed.id, file: checkpointFileName(checkpointed.id) }),
    ]);
    expect(result.firstBrokenId).toBe(checkpointed.id);

    // Refilled with fewer rows: the checkpointed row is gone.
    const shorter = await clone();
    await withTransaction(shorter, async (c) => {
      await c.query('ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_truncate');
      await c.query('TRUNCATE audit_events');
      await c.query('UPDATE audit_chain_head SET last_id = 0, last_hash = $1', [GENESIS_HASH]);
    });
    await recordAudit(shorter, { action: 'test.forged', outcome: 'success' });
    expect((await verifyAuditTrail(shorter, { dir, key: KEY })).problems).toEqual([
      expect.objectContaining({
        kind: 'checkpoint-mismatch',
        id: checkpointed.id,
        message: expect.stringMatching(/no longer in the trail/),
      }),
    ]);
  });

  it('a forged or altered checkpoint is reported (bad signature) and not trusted', async () => {
    const pool = await clone();
    const forgedDir = await mkdtemp(join(tmpdir(), 'vitalis-audit-cp-forged-'));
    try {
      await cp(dir, forgedDir, { recursive: true });
      // Signed with another key, naming the current head: it would "bless" a rewritten table.
      const head = (await pool.query('SELECT last_id, last_hash FROM vitalis_audit_chain_head()')).rows[0];
      const forged = signCheckpoint({ head_id: head.last_id, head_hash: head.last_hash }, 'an-attackers-key-that-is-32-chars-long');
      await writeFile(join(forgedDir, checkpointFileName(head.last_id)), JSON.stringify(forged));
      // A genuine checkpoint with its hash swapped.
      const altered = { ...signCheckpoint({ head_id: 5, head_hash: 'a'.repeat(64) }, KEY), head_hash: 'b'.repeat(64) };
      await writeFile(join(forgedDir, checkpointFileName(5)), JSON.stringify(altered));
      await writeFile(join(forgedDir, 'garbage.json'), '{not json');
      const result = await verifyAuditTrail(pool, { dir: forgedDir, key: KEY });
      expect(result.ok).toBe(false);
      expect(result.firstBrokenId).toBeNull(); // the chain itself is intact
      expect(result.checkpoints).toMatchObject({ files: 4, valid: 1 });
      expect(result.problems.map((p) => [p.kind, 'file' in p ? p.file : null]).sort()).toEqual(
        [
          ['checkpoint-invalid', checkpointFileName(5)],
          ['checkpoint-invalid', checkpointFileName(head.last_id)],
          ['checkpoint-invalid', 'garbage.json'],
        ].sort(),
      );
    } finally {
      await rm(forgedDir, { recursive: true, force: true });
    }
  });

  it('after a key rotation, checkpoints signed with the retired key verify when it is named as a previous key', async () => {
    const pool = await clone();
    const rotated = 'the-new-audit-checkpoint-key-after-rotation';
    const without = await verifyAuditTrail(pool, { dir, key: rotated });
    expect(without.problems).toEqual([expect.objectContaining({ kind: 'checkpoint-invalid', file: checkpointFileName(checkpointed.id) })]);
    expect(await verifyAuditTrail(pool, { dir, key: rotated, previousKeys: [KEY] })).toMatchObject({ ok: true, checkpoints: { valid: 1 } });
  });

  it('a checkpoint is written once per head; another writer of the same head writes nothing', async () => {
    const pool = await clone();
    const own = await mkdtemp(join(tmpdir(), 'vitalis-audit-cp-once-'));
    try {
      expect(await writeCheckpoint(pool, own, KEY)).toMatchObject({ head_id: rowsInBase });
      expect(await writeCheckpoint(pool, own, KEY)).toBeNull();
      await recordAudit(pool, row(1, 1));
      expect(await writeCheckpoint(pool, own, KEY)).toMatchObject({ head_id: rowsInBase + 1 });
      expect((await verifyAuditTrail(pool, { dir: own, key: KEY })).checkpoints).toMatchObject({ files: 2, valid: 2 });
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe('the periodic checkpoint writer', () => {
  it('writes signed checkpoints of the moving head until stopped', async () => {
    const pool = await clone();
    const own = await mkdtemp(join(tmpdir(), 'vitalis-audit-cp-timer-'));
    const errors: unknown[] = [];
    const writer = startAuditCheckpoints({ pool, dir: own, key: KEY, seconds: 1, onError: (err) => errors.push(err) });
    try {
      const filesNamed = async (name: string) => (await readdir(own)).includes(name);
      await expect.poll(() => filesNamed(checkpointFileName(rowsInBase)), { timeout: 15_000, interval: 200 }).toBe(true);
      await recordAudit(pool, row(1, 2));
      await expect.poll(() => filesNamed(checkpointFileName(rowsInBase + 1)), { timeout: 15_000, interval: 200 }).toBe(true);
    } finally {
      writer.stop();
    }
    expect(errors).toEqual([]);
    expect(await verifyAuditTrail(pool, { dir: own, key: KEY })).toMatchObject({ ok: true, checkpoints: { files: 2, valid: 2 } });
    await rm(own, { recursive: true, force: true });
  });
});

describe('npm run admin -- audit-verify', () => {
  const run = (db: string) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'apps/gateway/src/admin-cli.ts', 'audit-verify'], {
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: urlOf(db), AUDIT_CHECKPOINT_DIR: dir, AUDIT_CHECKPOINT_KEY: KEY },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('exits 0 on an intact trail and 1 on a broken one, naming the first broken row', async () => {
    const intact = await clone();
    const ok = run(nameOf.get(intact)!);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, rows: rowsInBase, checkpoint_dir: dir });

    const broken = await clone();
    await tamper(broken, 'DELETE FROM audit_events WHERE id = 7');
    const failed = run(nameOf.get(broken)!);
    expect(failed.status).toBe(1);
    expect(JSON.parse(failed.stdout)).toMatchObject({ ok: false, firstBrokenId: 8, problems: [{ kind: 'broken-link', id: 8 }] });
  });
});
