/**
 * The export worker: claims a job (jobs.ts), writes what it holds (worker-phases.ts: the records
 * read at kick-off and the Observations streamed out of the append log with `COPY (SELECT ...) TO
 * STDOUT`, one pass, no OFFSET paging, constant memory; each row mapped with the one FHIR mapping,
 * observation-lines.ts) into NDJSON files of at most `maxFileBytes` (one line or one patient block
 * more at most), and settles the run.
 *
 * Consistency (ADR 0014): the rows are those whose writing transaction is visible in the job's
 * snapshot, recorded at kick-off; `_since` / `_until` are snapshots too. Resumption: after each file
 * the job records where the run got to with the file, in one transaction (worker-run.ts), so a
 * worker that dies (kill -9) is followed by one that starts after it, writes the unfinished part
 * again under the same name, and no row is written twice.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Pool } from '@vitalis/db';
import {
  claimExportJob,
  exportJobExists,
  handBackExportJob,
  releaseExportJob,
  finishExportJob,
  renewExportLease,
  expiredExportJobs,
  forgetExportJobs,
} from './jobs';
import type { ExportStorage } from './storage';
import { writeByPatient, writeByType } from './worker-phases';
import { BLOCK_BYTES, LostJob, Stopped, type ExportRunState, type ExportWorkerOptions } from './worker-run';

export { exportCopySql, exportKeyOf, exportPlannerSetting, exportWhere, ndjsonOf } from './observation-lines';
export type { ExportWorkerOptions } from './worker-run';

/** Runs of one job that may end in an error before it fails for good. */
const MAX_ATTEMPTS = 3;

export interface ExportRun {
  job: string;
  files: number;
  exported: number;
  outcome: 'completed' | 'lost' | 'stopped';
}

/** Runs the next claimable job to its end (or until the job is lost); undefined when none waits. */
export async function runNextExport(pool: Pool, options: ExportWorkerOptions): Promise<ExportRun | undefined> {
  const worker = options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const claimed = await claimExportJob(pool, worker, options.leaseMs, options.only, options.onlyClients);
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
    committing: Promise.resolve(),
    type: '',
    key: '',
    count: 0,
    bytes: 0,
    mark: undefined,
    lastLine: undefined,
    inBlock: false,
    block: Buffer.allocUnsafe(BLOCK_BYTES),
    used: 0,
  };
  const renewal = renewLease(run);
  const client = await pool.connect();
  let failed: unknown;
  try {
    await (run.job.organize_by === 'Patient' ? writeByPatient(run, client) : writeByType(run, client));
  } catch (err) {
    failed = err;
  }
  try {
    // the file committing beside the run is recorded (or fails) before the run settles: a stopped run hands the job back with it
    await run.committing;
  } catch (err) {
    failed ??= err;
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
