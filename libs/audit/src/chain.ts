/**
 * The audit hash chain, verified from outside the database: every row's hash is recomputed here
 * from its columns (the encoding of vitalis_audit_hash, migration 0014, written independently so a
 * verifier does not trust the database's own code), and every row's prev_hash must be the hash of
 * the row before it. The walk is streamed in id batches inside one REPEATABLE READ snapshot, so it
 * sees a consistent chain while writers keep appending, and never loads the table.
 */
import { createHash } from 'node:crypto';
import type { Pool } from '@vitalis/db';

/** The prev_hash of the first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** One row as the chain sees it: every column as the text the hash covers. */
export interface ChainRow {
  id: number;
  /** UTC, microseconds: 2026-01-01T00:00:00.123456Z */
  occurred_at: string;
  action: string;
  outcome: string;
  actor_client_id: string | null;
  actor_subject: string | null;
  scope: string | null;
  resource_type: string | null;
  resource_id: string | null;
  request_id: string | null;
  /** inet as text (with its mask: 127.0.0.1/32). */
  ip: string | null;
  /** jsonb as PostgreSQL prints it (canonical: sorted keys, fixed spacing). */
  detail: string;
  prev_hash: string;
  hash: string;
}

/** The SELECT list that yields a ChainRow (the same text renderings vitalis_audit_hash hashes). */
export const CHAIN_COLUMNS = `id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS occurred_at, action, outcome,
  actor_client_id, actor_subject, scope, resource_type, resource_id, request_id, ip::text AS ip, detail::text AS detail, prev_hash, hash`;

/** <octet length>:<text>, NULL as '~': no value can imitate a field boundary. */
const field = (value: string | null): string => (value === null ? '~' : `${Buffer.byteLength(value, 'utf8')}:${value}`);

/** SHA-256 (hex) of a row's canonical encoding after `prevHash`. */
export function rowHash(prevHash: string, r: Omit<ChainRow, 'prev_hash' | 'hash'>): string {
  const encoded =
    'vitalis-audit-v1' +
    field(prevHash) +
    field(String(r.id)) +
    field(r.occurred_at) +
    field(r.action) +
    field(r.outcome) +
    field(r.actor_client_id) +
    field(r.actor_subject) +
    field(r.scope) +
    field(r.resource_type) +
    field(r.resource_id) +
    field(r.request_id) +
    field(r.ip) +
    field(r.detail);
  return createHash('sha256').update(encoded, 'utf8').digest('hex');
}

export type ChainProblem =
  /** The row's columns no longer hash to its hash: it was changed. */
  | { kind: 'hash-mismatch'; id: number; message: string }
  /** The row's prev_hash is not the hash of the row before it: a row was removed (or inserted) before it. */
  | { kind: 'broken-link'; id: number; message: string }
  /** The chain head (audit_chain_head) names another last row: rows were removed at the end, or the head was rewritten. */
  | { kind: 'head-mismatch'; id: number | null; message: string }
  /** A signed checkpoint's head is missing or different: the table was truncated or rewritten. */
  | { kind: 'checkpoint-mismatch'; id: number; file: string; message: string }
  /** A checkpoint file whose signature does not verify (forged or corrupted), or that does not parse. */
  | { kind: 'checkpoint-invalid'; id: number | null; file: string; message: string };

export interface ChainVerification {
  ok: boolean;
  /** Rows walked. */
  rows: number;
  head: { id: number; hash: string };
  /** The lowest row id at which the chain is broken (null: none, or only a checkpoint file is bad). */
  firstBrokenId: number | null;
  /** The first problems found (at most `maxProblems`). */
  problems: ChainProblem[];
}

export interface VerifyChainOptions {
  /** Signed (already signature-checked) checkpoints: head id → hash, and the file each came from. */
  checkpoints?: ReadonlyArray<{ head_id: number; head_hash: string; file: string }>;
  batchSize?: number;
  maxProblems?: number;
}

/**
 * The checks of one row: it follows the row before it (`prev`), its columns match its hash, and it
 * is what each checkpoint naming it recorded.
 */
function checkRow(
  r: ChainRow,
  prev: { prevHash: string; prevId: number },
  checkpoints: ReadonlyArray<{ head_hash: string; file: string }>,
  report: (p: ChainProblem) => void,
): void {
  if (r.prev_hash !== prev.prevHash)
    report({
      kind: 'broken-link',
      id: r.id,
      message: `row ${r.id} does not follow row ${prev.prevId || '(genesis)'}: a row between them was removed, or one of them was changed`,
    });
  if (rowHash(r.prev_hash, r) !== r.hash)
    report({
      kind: 'hash-mismatch',
      id: r.id,
      message: `row ${r.id} was changed after it was written: its columns no longer match its hash`,
    });
  for (const c of checkpoints) {
    if (c.head_hash !== r.hash)
      report({
        kind: 'checkpoint-mismatch',
        id: r.id,
        file: c.file,
        message: `row ${r.id} differs from the checkpointed one (${c.file}): the trail was rewritten`,
      });
  }
}

/** Walks the whole chain (streamed) and checks every hash, every link, the head and the checkpoints. */
export async function verifyChain(pool: Pool, options: VerifyChainOptions = {}): Promise<ChainVerification> {
  const batchSize = options.batchSize ?? 5_000;
  const maxProblems = options.maxProblems ?? 20;
  const problems: ChainProblem[] = [];
  const report = (p: ChainProblem) => {
    if (problems.length < maxProblems) problems.push(p);
  };
  const pending = new Map<number, Array<{ head_hash: string; file: string }>>();
  for (const c of options.checkpoints ?? []) pending.set(c.head_id, [...(pending.get(c.head_id) ?? []), c]);

  const client = await pool.connect();
  let rows = 0;
  let prev = GENESIS_HASH;
  let lastId = 0;
  let head: { id: number; hash: string };
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const { rows: heads } = await client.query<{ last_id: number | null; last_hash: string | null }>(
      'SELECT last_id, last_hash FROM vitalis_audit_chain_head()',
    );
    head = { id: heads[0]?.last_id ?? 0, hash: heads[0]?.last_hash ?? GENESIS_HASH };
    for (;;) {
      const { rows: batch } = await client.query<ChainRow>(`SELECT ${CHAIN_COLUMNS} FROM audit_events WHERE id > $1 ORDER BY id LIMIT $2`, [
        lastId,
        batchSize,
      ]);
      for (const r of batch) {
        rows++;
        checkRow(r, { prevHash: prev, prevId: lastId }, pending.get(r.id) ?? [], report);
        pending.delete(r.id);
        prev = r.hash;
        lastId = r.id;
      }
      if (batch.length < batchSize) break;
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  if (head.id !== lastId || head.hash !== prev) {
    report({
      kind: 'head-mismatch',
      id: lastId || null,
      message: `the chain head names row ${head.id}, the last row is ${lastId || '(none)'}: rows were removed at the end, or the head was rewritten`,
    });
  }
  for (const [id, list] of pending) {
    for (const c of list)
      report({
        kind: 'checkpoint-mismatch',
        id,
        file: c.file,
        message: `row ${id}, checkpointed in ${c.file}, is no longer in the trail: it was truncated or rewritten`,
      });
  }
  const located = problems.map((p) => p.id).filter((id): id is number => id !== null);
  return { ok: problems.length === 0, rows, head, firstBrokenId: located.length ? Math.min(...located) : null, problems };
}
