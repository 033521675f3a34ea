/**
 * The export worker: claims a job (jobs.ts), streams its Observations out of the append log with
 * `COPY (SELECT ...) TO STDOUT` (one pass, no OFFSET paging, constant memory: the COPY stream is
 * pulled chunk by chunk and waits while a file is committed), maps each row with the one FHIR
 * mapping (@vitalis/live `observationFromRow` then @vitalis/schemas `toFhirObservation`, the same
 * as the FHIR API, through its per-code template: @vitalis/schemas fhir-json.ts) and writes NDJSON files of at most `maxFileBytes` (one line more at most).
 *
 * Consistency (ADR 0014): the rows are those whose writing transaction is visible in the job's
 * snapshot, recorded at kick-off; `_since` / `_until` are snapshots too. Resumption: the rows come
 * in the order of the log's identity key (device_id, seq, effective_at); after each file the job
 * records the key of its last row with the file, in one transaction, so a worker that dies (kill
 * -9) is followed by one that starts after that key, writes the unfinished part again under the
 * same name, and no row is written twice. Untrusted values enter the COPY statement (which takes
 * no bind parameters) only through escapeLiteral.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { Pool, PoolClient } from '@vitalis/db';
import { observationFromRow, STORED_INSTANT_SQL } from '@vitalis/live';
import {
  claimExportJob,
  commitExportFile,
  exportJobExists,
  handBackExportJob,
  releaseExportJob,
  finishExportJob,
  renewExportLease,
  expiredExportJobs,
  forgetExportJobs,
  type ExportCursor,
  type ExportJob,
} from './jobs';
import type { ExportStorage } from './storage';
import { numericObservationJson, observationJson } from '@vitalis/schemas';

export interface ExportWorkerOptions {
  storage: ExportStorage;
  /** A file is closed once it holds this many bytes (the line that crosses it included). */
  maxFileBytes: number;
  /** How long a claim lasts without renewal (a dead worker's job waits this long). */
  leaseMs: number;
  /** How long finished files are kept. */
  expiresMs: number;
  /** This worker's name in the lease (default: host, pid, random). */
  workerId?: string;
  /** Only these jobs (a test's own, an operator re-running one); default: any. */
  only?: readonly string[];
  /** Aborted at shutdown: the run stops at the next chunk and hands the job back (resumed elsewhere). */
  signal?: AbortSignal;
}

const lit = pg.escapeLiteral;
/** Lines are encoded into blocks of this many bytes (a longer line gets a block of its own), written to the file when full. */
const BLOCK_BYTES = 1 << 20;
/** Runs of one job that may end in an error before it fails for good. */
const MAX_ATTEMPTS = 3;

/** The WHERE clause of a job's rows (everything but the resume key). */
export function exportWhere(
  job: Pick<ExportJob, 'patients' | 'filters' | 'snapshot' | 'since_snapshot' | 'since_at' | 'until_snapshot' | 'until_at'>,
): string {
  const visibleIn = (snapshot: string) => `(ingest_xid IS NULL OR pg_visible_in_snapshot(ingest_xid, ${lit(snapshot)}::pg_snapshot))`;
  const where = [visibleIn(job.snapshot)];
  if (job.patients) where.push(job.patients.length === 0 ? 'false' : `patient_id IN (${job.patients.map(lit).join(', ')})`);
  if (job.since_snapshot) where.push(`NOT ${visibleIn(job.since_snapshot)}`);
  else if (job.since_at) where.push(`ingested_at >= ${lit(job.since_at.toISOString())}::timestamptz`);
  if (job.until_snapshot) where.push(visibleIn(job.until_snapshot));
  else if (job.until_at) where.push(`ingested_at < ${lit(job.until_at.toISOString())}::timestamptz`);
  const clauses = job.filters.map((f) => {
    const parts: string[] = [];
    if (f.codes) parts.push(f.codes.length === 0 ? 'false' : `code IN (${f.codes.map(lit).join(', ')})`);
    if (f.from) parts.push(`effective_at >= ${lit(f.from)}::timestamptz`);
    if (f.to) parts.push(`effective_at < ${lit(f.to)}::timestamptz`);
    return parts.length === 0 ? 'true' : `(${parts.join(' AND ')})`;
  });
  if (clauses.length > 0) where.push(`(${clauses.join(' OR ')})`);
  return where.join(' AND ');
}

/** The COPY of a job's rows after `cursor`, in the identity key's order (the resume order). */
export function exportCopySql(job: ExportJob, cursor: ExportCursor | null): string {
  let where = exportWhere(job);
  if (cursor) where += ` AND (device_id, seq, effective_at) > (${lit(cursor.d)}, ${Number(cursor.s)}, ${lit(cursor.t)}::timestamptz)`;
  return `COPY (SELECT patient_id, device_id, seq, code, ${STORED_INSTANT_SQL}, value, unit, sample_period_ms, samples
    FROM vitals_observations WHERE ${where} ORDER BY device_id, seq, effective_at) TO STDOUT`;
}

/** COPY text format field (ids are validated at the door; the unescape is defence in depth). */
const unescape = (v: string) => (v.includes('\\') ? v.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c] ?? c) : v);

/** The resume key of one COPY line (device, seq, effective time): read for a file's last line only. */
export function exportKeyOf(line: string): ExportCursor {
  const t1 = line.indexOf('\t');
  const t2 = line.indexOf('\t', t1 + 1);
  const t3 = line.indexOf('\t', t2 + 1);
  const t4 = line.indexOf('\t', t3 + 1);
  return { d: unescape(line.slice(t1 + 1, t2)), s: Number(line.slice(t2 + 1, t3)), t: line.slice(t4 + 1, line.indexOf('\t', t4 + 1)) };
}

/**
 * One COPY line of the export's query as its FHIR Observation's NDJSON line. The fields are found
 * with indexOf (no array of nine strings per row: this runs once per exported row); a numeric vital
 * takes its code's template, anything else the mapping itself.
 */
export function ndjsonOf(line: string): string {
  const t1 = line.indexOf('\t');
  const t2 = line.indexOf('\t', t1 + 1);
  const t3 = line.indexOf('\t', t2 + 1);
  const t4 = line.indexOf('\t', t3 + 1);
  const t5 = line.indexOf('\t', t4 + 1);
  const t6 = line.indexOf('\t', t5 + 1);
  const t7 = line.indexOf('\t', t6 + 1);
  const t8 = line.indexOf('\t', t7 + 1);
  const patient = unescape(line.slice(0, t1));
  const device = unescape(line.slice(t1 + 1, t2));
  const seq = Number(line.slice(t2 + 1, t3));
  const code = unescape(line.slice(t3 + 1, t4));
  const at = line.slice(t4 + 1, t5);
  const value = line.slice(t5 + 1, t6);
  const unit = unescape(line.slice(t6 + 1, t7));
  const samples = line.slice(t8 + 1);
  if (samples === '\\N') {
    const json = numericObservationJson(patient, device, seq, code, at, Number(value), unit);
    if (json !== undefined) return json;
  }
  const period = line.slice(t7 + 1, t8);
  return observationJson(
    observationFromRow(patient, {
      device_id: device,
      seq,
      code,
      at,
      unit,
      value: value === '\\N' ? null : Number(value),
      sample_period_ms: period === '\\N' ? null : Number(period),
      samples: samples === '\\N' ? null : samples.slice(1, -1).split(',').map(Number),
    }),
  );
}

export interface ExportRun {
  job: string;
  files: number;
  exported: number;
  outcome: 'completed' | 'lost' | 'stopped';
}

class LostJob extends Error {}
class Stopped extends Error {}

/** Writes with backpressure: waits for `drain` when the file's buffer is full. */
async function write(stream: NodeJS.WritableStream, bytes: Buffer): Promise<void> {
  if (!stream.write(bytes)) await new Promise<void>((ok) => stream.once('drain', () => ok()));
}

/** A file being written: its storage handle (commit or discard) and its stream. */
type ExportFile = Awaited<ReturnType<ExportStorage['create']>>;

/**
 * What the steps of one run of a claimed job share (named steps, ADR 0023): the run's totals, the
 * file being written with its figures, and the block of encoded lines not yet written to it.
 */
interface ExportRunState {
  readonly pool: Pool;
  readonly options: ExportWorkerOptions;
  readonly job: ExportJob;
  /** This worker's name in the lease. */
  readonly worker: string;
  /** The last part number taken: the next file is part + 1. */
  part: number;
  exported: number;
  files: number;
  /** Set when a lease renewal found the job gone or claimed by another worker. */
  lost: boolean;
  current: ExportFile | undefined;
  /** The current file's storage key, rows, bytes written and last COPY line (its resume key). */
  key: string;
  count: number;
  bytes: number;
  lastLine: string | undefined;
  // Each line is encoded straight into a block of bytes, written to the file when full: gathering the
  // lines into one string and encoding that cost a quarter of the export's CPU (the string of
  // concatenated lines is flattened, then scanned again). A block is never reused: the file holds it until written.
  block: Buffer;
  used: number;
}

/** Runs the next claimable job to its end (or until the job is lost); undefined when none waits. */
export async function runNextExport(pool: Pool, options: ExportWorkerOptions): Promise<ExportRun | undefined> {
  const worker = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const claimed = await claimExportJob(pool, worker, options.leaseMs, options.only);
  if (!claimed) return undefined;
  if (options.signal?.aborted) {
    await handBackExportJob(pool, claimed.job.id, worker);
    return undefined;
  }
  const run: ExportRunState = {
    pool,
    options,
    job: claimed.job,
    worker,
    part: claimed.parts,
    exported: 0,
    files: 0,
    lost: false,
    current: undefined,
    key: '',
    count: 0,
    bytes: 0,
    lastLine: undefined,
    block: Buffer.allocUnsafe(BLOCK_BYTES),
    used: 0,
  };
  const renewal = renewLease(run);
  const client = await pool.connect();
  let failed: unknown;
  try {
    await streamRows(run, client);
  } catch (err) {
    failed = err;
  } finally {
    clearInterval(renewal);
    if (run.current) await run.current.discard();
    // a COPY cut short leaves the connection mid-protocol: never back into the pool
    client.release(failed !== undefined ? true : undefined);
  }
  return settleRun(run, failed);
}

/** The lease outlives a slow file: renewed on a timer too, not only at each commit; a refused renewal marks the run lost. */
function renewLease(run: ExportRunState): ReturnType<typeof setInterval> {
  const { pool, job, worker, options } = run;
  return setInterval(
    () => {
      renewExportLease(pool, job.id, worker, options.leaseMs).then(
        (ok) => (run.lost ||= !ok),
        () => {},
      );
    },
    Math.max(100, Math.floor(options.leaseMs / 3)),
  );
}

/** Streams the job's rows after its cursor out of the log into files, each committed with its last row's key. */
async function streamRows(run: ExportRunState, client: PoolClient): Promise<void> {
  const copy = client.query(copyStreams.to(exportCopySql(run.job, run.job.cursor)));
  let rest = '';
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    if (run.lost) throw new LostJob();
    if (run.options.signal?.aborted) throw new Stopped();
    const text = rest + chunk.toString('utf8');
    const end = text.lastIndexOf('\n');
    rest = text.slice(end + 1);
    if (end < 0) continue;
    for (const line of text.slice(0, end).split('\n')) await appendLine(run, line);
  }
  await flushBlock(run);
  await commitFile(run);
}

/** One COPY line into the current file (opened for it if none is), which is committed once it holds maxFileBytes. */
async function appendLine(run: ExportRunState, line: string): Promise<void> {
  const json = ndjsonOf(line);
  if (!run.current) {
    run.part += 1;
    run.key = `${run.job.id}/Observation-${run.part}.ndjson`;
    run.current = await run.options.storage.create(run.key, run.worker.replace(/[^\w.-]/g, '_'));
  }
  const most = 3 * json.length + 1; // UTF-8 bytes of the line and its newline, at most
  if (run.used + most > run.block.length) {
    await flushBlock(run);
    if (most > run.block.length) run.block = Buffer.allocUnsafe(most);
  }
  run.used += run.block.write(json, run.used, 'utf8');
  run.block[run.used++] = 0x0a;
  run.count += 1;
  run.lastLine = line;
  if (run.bytes + run.used >= run.options.maxFileBytes) {
    await flushBlock(run);
    await commitFile(run);
  }
}

/** Writes the block's encoded lines to the current file and starts a new block. */
async function flushBlock(run: ExportRunState): Promise<void> {
  if (run.used === 0 || !run.current) return;
  const full = run.block.subarray(0, run.used);
  run.bytes += run.used;
  run.block = Buffer.allocUnsafe(BLOCK_BYTES);
  run.used = 0;
  await write(run.current.stream, full);
}

/** Commits the current file and records it with its last row's key (one transaction); LostJob if the job is no longer this worker's. */
async function commitFile(run: ExportRunState): Promise<void> {
  if (!run.current || run.lastLine === undefined) return;
  await run.current.commit();
  const { count, bytes } = run;
  const ok = await commitExportFile(
    run.pool,
    run.job.id,
    run.worker,
    run.options.leaseMs,
    { part: run.part, type: 'Observation', storage_key: run.key, count, bytes },
    exportKeyOf(run.lastLine),
  );
  run.current = undefined;
  if (!ok) throw new LostJob();
  run.exported += count;
  run.files += 1;
  run.count = 0;
  run.bytes = 0;
}

/** The run's end: handed back (stopped), cleaned up (lost), released to the queue (failed, rethrown) or finished. */
async function settleRun(run: ExportRunState, failed: unknown): Promise<ExportRun> {
  const { pool, job, worker, options, files, exported } = run;
  if (failed instanceof Stopped) {
    await handBackExportJob(pool, job.id, worker);
    return { job: job.id, files, exported, outcome: 'stopped' };
  }
  if (failed instanceof LostJob) {
    // cancelled (the row is gone): a file renamed into place just before is nobody's; remove them all
    const gone = !(await exportJobExists(pool, job.id));
    if (gone) await options.storage.removeAll(job.id);
    return { job: job.id, files, exported, outcome: 'lost' };
  }
  if (failed !== undefined) {
    // a database restart, a full disk: back to the queue (resumed from the cursor), failed at the third run
    await releaseExportJob(pool, job.id, worker, {
      maxAttempts: MAX_ATTEMPTS,
      expiresMs: options.expiresMs,
      error: 'The export failed; start a new one.',
    }).catch(() => {});
    throw failed;
  }
  const finished = await finishExportJob(pool, job.id, worker, { expiresMs: options.expiresMs });
  return { job: job.id, files, exported, outcome: finished ? 'completed' : 'lost' };
}

/** Removes the files, then the rows, of finished jobs past their expiry. */
export async function expireExports(pool: Pool, storage: ExportStorage): Promise<number> {
  const ids = await expiredExportJobs(pool);
  for (const id of ids) await storage.removeAll(id);
  if (ids.length > 0) await forgetExportJobs(pool, ids);
  return ids.length;
}
