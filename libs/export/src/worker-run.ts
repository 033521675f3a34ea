/**
 * One run of a claimed export job (worker.ts claims and settles it, worker-phases.ts feeds it): the
 * state its steps share, and how an NDJSON line goes into the current file (encoded into a block of
 * bytes, written with backpressure to the file and its gzip, export-file.ts) and how a file is committed together with the run's resume
 * cursor, in one transaction (jobs.ts commitExportFile), so a worker that dies is followed by one
 * that resumes after the last committed file and nothing is written twice.
 */
import type { Pool } from '@vitalis/db';
import { commitExportFile, type ExportFile, type ExportJob, type ExportRunCursor } from './jobs';
import { openExportFile, type ExportFileWriter } from './export-file';
import { exportKeyOf } from './observation-lines';
import type { ExportStorage } from './storage';

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
  /** Only the jobs of these clients (tests: a real worker process beside other tests' exports); default: any. */
  onlyClients?: readonly string[];
  /** Aborted at shutdown: the run stops at its next chunk or committed file and hands the job back (resumed elsewhere). */
  signal?: AbortSignal;
}

/** Lines are encoded into blocks of this many bytes (a longer line gets a block of its own), written to the file when full. */
export const BLOCK_BYTES = 1 << 20;

/** The job is no longer this worker's (cancelled, or its lease taken over). */
export class LostJob extends Error {}
/** The worker is shutting down: the job goes back to the queue. */
export class Stopped extends Error {}

/**
 * What the steps of one run of a claimed job share (named steps, ADR 0023): the run's totals, the
 * file being written with its figures, and the block of encoded lines not yet written to it.
 */
export interface ExportRunState {
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
  /** The file being written (its NDJSON and its gzip), until committed. */
  current: ExportFileWriter | undefined;
  /** The commit of the file before (commitFile), settled before the next one starts and at the run's end. */
  committing: Promise<void>;
  /** The current file's resource type (`file` for an export organized by patient), storage key, rows and bytes written. */
  type: string;
  key: string;
  count: number;
  bytes: number;
  /** The resume cursor after the current file's last line: set by the records and patient steps. */
  mark: ExportRunCursor | undefined;
  /** The current file's last COPY line, when its last line is an Observation streamed by type (its resume key). */
  lastLine: string | undefined;
  /** While a patient block is written the file is not committed (a block is never split across files). */
  inBlock: boolean;
  // Each line is encoded straight into a block of bytes, written to the file when full: gathering the
  // lines into one string and encoding that cost a quarter of the export's CPU (the string of
  // concatenated lines is flattened, then scanned again). A block is never reused: the file holds it until written.
  block: Buffer;
  used: number;
}

/** Throws when the run must stop: the job is lost or the worker shuts down. */
export function checkRun(run: ExportRunState): void {
  if (run.lost) throw new LostJob();
  if (run.options.signal?.aborted) throw new Stopped();
}

/**
 * One NDJSON line of `type` into the current file (committed first when it holds another type;
 * opened when none is), which is committed once it holds maxFileBytes, outside a patient block.
 */
export async function appendJson(run: ExportRunState, json: string, type: string): Promise<void> {
  if (run.current && run.type !== type) {
    await flushBlock(run);
    await commitFile(run);
  }
  if (!run.current) {
    run.part += 1;
    run.type = type;
    run.key = `${run.job.id}/${type}-${run.part}.ndjson`;
    run.current = await openExportFile(run.options.storage, run.key, run.worker.replace(/[^\w.-]/g, '_'));
  }
  const most = 3 * json.length + 1; // UTF-8 bytes of the line and its newline, at most
  if (run.used + most > run.block.length) {
    await flushBlock(run);
    if (most > run.block.length) run.block = Buffer.allocUnsafe(most);
  }
  run.used += run.block.write(json, run.used, 'utf8');
  run.block[run.used++] = 0x0a;
  run.count += 1;
  if (!run.inBlock) await commitIfFull(run);
}

/** Commits the current file when it holds maxFileBytes; then a run that must stop stops (its cursor is that file's). */
export async function commitIfFull(run: ExportRunState): Promise<void> {
  if (run.bytes + run.used >= run.options.maxFileBytes) {
    await flushBlock(run);
    await commitFile(run);
    checkRun(run);
  }
}

/** Writes the block's encoded lines to the current file and starts a new block. */
export async function flushBlock(run: ExportRunState): Promise<void> {
  if (run.used === 0 || !run.current) return;
  const full = run.block.subarray(0, run.used);
  run.bytes += run.used;
  run.block = Buffer.allocUnsafe(BLOCK_BYTES);
  run.used = 0;
  await run.current.write(full);
}

/**
 * Commits the current file and records it with the run's cursor (one transaction), beside the run:
 * the run goes on with the next file while this one is synced to disk, renamed and recorded
 * (`committing`; a file's fsync held the run for about a tenth of an export). One file at a time,
 * in order: it waits for the file before to be recorded first, and a run that must stop (or whose
 * job is lost) stops there, at the file recorded last, dropping this one.
 */
export async function commitFile(run: ExportRunState): Promise<void> {
  const cursor = run.mark ?? (run.lastLine === undefined ? undefined : exportKeyOf(run.lastLine));
  if (!run.current || cursor === undefined || run.count === 0) return;
  await run.committing;
  checkRun(run);
  const file = run.current;
  const entry = { part: run.part, type: run.type, storage_key: run.key, count: run.count, bytes: run.bytes };
  run.current = undefined;
  run.count = 0;
  run.bytes = 0;
  run.committing = recordFile(run, file, entry, cursor);
  run.committing.catch(() => undefined); // thrown by the next commit or the run's end (worker.ts), which await it
}

/** A file synced and renamed into place, then recorded with its cursor; LostJob if the job is no longer this worker's. */
async function recordFile(run: ExportRunState, file: ExportFileWriter, entry: ExportFile, cursor: ExportRunCursor): Promise<void> {
  await file.commit();
  const ok = await commitExportFile(run.pool, run.job.id, run.worker, run.options.leaseMs, entry, cursor);
  if (!ok) throw new LostJob();
  run.exported += entry.count;
  run.files += 1;
}
