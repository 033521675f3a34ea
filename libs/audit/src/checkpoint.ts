/**
 * Checkpoints: the chain's head {id, hash, time}, signed (HMAC-SHA256) with a key PostgreSQL never
 * sees, written every AUDIT_CHECKPOINT_SECONDS to a directory outside the database (in production a
 * write-once location: see docs/security.md). Someone with owner rights can rewrite the whole table
 * and recompute every hash, but cannot make it match a checkpoint written before, nor sign a new one.
 *
 * One file per head (`<head id, 20 digits>.json`), created atomically and never overwritten, so
 * several gateways may share the directory; an advisory lock keeps them from doing the work twice.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { link, mkdir, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Pool } from '@vitalis/db';
import { verifyChain, type ChainProblem, type ChainVerification } from './chain';

export interface Checkpoint {
  version: 1;
  head_id: number;
  head_hash: string;
  /** When the head was read (ISO 8601). */
  time: string;
  /** HMAC-SHA256 (hex) over the fields above. */
  signature: string;
}

const LOCK_KEY = 7_202_614; // arbitrary, constant: "vitalis audit checkpoints"

const signedText = (c: Pick<Checkpoint, 'head_id' | 'head_hash' | 'time'>) =>
  `vitalis-audit-checkpoint-v1|${c.head_id}|${c.head_hash}|${c.time}`;
const hmac = (key: string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest('hex');

export function signCheckpoint(head: { head_id: number; head_hash: string }, key: string, time = new Date()): Checkpoint {
  const c = { head_id: head.head_id, head_hash: head.head_hash, time: time.toISOString() };
  return { version: 1, ...c, signature: hmac(key, signedText(c)) };
}

export function checkpointSignatureValid(c: Checkpoint, key: string): boolean {
  const expected = Buffer.from(hmac(key, signedText(c)), 'hex');
  const given = Buffer.from(typeof c.signature === 'string' ? c.signature : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const checkpointFileName = (headId: number) => `${String(headId).padStart(20, '0')}.json`;

/**
 * Writes a checkpoint of the current head, unless another instance holds the lock, the chain is
 * empty, or this head is checkpointed already. Returns the checkpoint written, or null.
 */
export async function writeCheckpoint(pool: Pool, dir: string, key: string, now = new Date()): Promise<Checkpoint | null> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows: locked } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS ok', [LOCK_KEY]);
    if (!locked[0]?.ok) return null;
    const { rows } = await client.query<{ last_id: number; last_hash: string }>(
      'SELECT last_id, last_hash FROM vitalis_audit_chain_head()',
    );
    const head = rows[0];
    if (!head || head.last_id === 0) return null;
    await mkdir(dir, { recursive: true });
    const checkpoint = signCheckpoint({ head_id: head.last_id, head_hash: head.last_hash }, key, now);
    const file = join(dir, checkpointFileName(head.last_id));
    // Create-if-absent, atomically: a complete temp file hard-linked to its name (EEXIST: done already).
    const temp = join(dir, `.${checkpointFileName(head.last_id)}.${process.pid}.${now.getTime()}.tmp`);
    await writeFile(temp, `${JSON.stringify(checkpoint, null, 2)}\n`, { mode: 0o644 });
    try {
      await link(temp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return null;
    } finally {
      await unlink(temp).catch(() => {});
    }
    return checkpoint;
  } finally {
    await client.query('COMMIT').catch(() => {});
    client.release();
  }
}

export interface CheckpointFile {
  file: string;
  checkpoint?: Checkpoint;
  /** Why the file is not a usable checkpoint (unreadable, malformed, bad signature). */
  invalid?: string;
}

const checkpointShape = (v: unknown): v is Checkpoint => {
  const c = v as Partial<Checkpoint> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    c.version === 1 &&
    Number.isSafeInteger(c.head_id) &&
    typeof c.head_hash === 'string' &&
    /^[0-9a-f]{64}$/.test(c.head_hash) &&
    typeof c.time === 'string' &&
    typeof c.signature === 'string'
  );
};

/**
 * Every checkpoint file in `dir` (none when it does not exist), each checked against `keys` (the
 * current key and any retired ones: checkpoints signed before a key rotation still verify).
 */
export async function readCheckpoints(dir: string, keys: readonly string[]): Promise<CheckpointFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return Promise.all(
    names.map(async (file): Promise<CheckpointFile> => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(join(dir, file), 'utf8'));
      } catch (err) {
        return { file, invalid: `unreadable: ${(err as Error).message}` };
      }
      if (!checkpointShape(parsed)) return { file, invalid: 'not a checkpoint' };
      if (!keys.some((key) => checkpointSignatureValid(parsed, key)))
        return { file, checkpoint: parsed, invalid: 'bad signature: forged, altered, or signed with another key' };
      return { file, checkpoint: parsed };
    }),
  );
}

export interface AuditCheckpointOptions {
  pool: Pool;
  dir: string;
  key: string;
  seconds: number;
  onError: (err: unknown) => void;
}

/** Writes a checkpoint every `seconds` (the first one a period after start); `stop` ends it. */
export function startAuditCheckpoints(o: AuditCheckpointOptions): { stop: () => void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    writeCheckpoint(o.pool, o.dir, o.key)
      .catch(o.onError)
      .finally(() => (running = false));
  }, o.seconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

export interface AuditTrailVerification extends ChainVerification {
  checkpoints: { files: number; valid: number; latest: { head_id: number; time: string } | null };
}

/**
 * The chain (every row, link and the head) and every checkpoint in `dir` (signature under `key` or
 * one of `previousKeys`, then presence in the chain).
 */
export async function verifyAuditTrail(
  pool: Pool,
  o: { dir: string; key: string; previousKeys?: readonly string[]; batchSize?: number },
): Promise<AuditTrailVerification> {
  // Files first: every checkpoint then names a head at or before the snapshot the walk reads.
  const files = await readCheckpoints(o.dir, [o.key, ...(o.previousKeys ?? [])]);
  const valid = files.flatMap((f) => (f.checkpoint && !f.invalid ? [{ ...f.checkpoint, file: f.file }] : []));
  const chain = await verifyChain(pool, { checkpoints: valid, ...(o.batchSize ? { batchSize: o.batchSize } : {}) });
  const invalid: ChainProblem[] = files
    .filter((f) => f.invalid)
    .map((f) => ({
      kind: 'checkpoint-invalid',
      id: f.checkpoint?.head_id ?? null,
      file: f.file,
      message: `checkpoint ${f.file}: ${f.invalid}`,
    }));
  const latest = valid.reduce<(typeof valid)[number] | null>((a, c) => (!a || c.head_id > a.head_id ? c : a), null);
  const problems = [...invalid, ...chain.problems];
  return {
    ...chain,
    ok: problems.length === 0,
    problems,
    checkpoints: { files: files.length, valid: valid.length, latest: latest ? { head_id: latest.head_id, time: latest.time } : null },
  };
}
