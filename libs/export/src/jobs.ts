/**
 * Export jobs in PostgreSQL (migration 0019): the one owner of the SQL on export_jobs,
 * export_files, export_snapshots and export_groups. The gateway kicks off, reads and cancels;
 * the worker (apps/projector) claims, commits files and completes; the projector also expires.
 * A job is only ever found together with the client and subject that created it: another
 * caller's job is "not found", never "forbidden" (its existence is nobody else's business).
 */
import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type Queryable } from '@vitalis/db';

/** One `_typeFilter` clause on Observation: codes (any of) and an effective-time range. */
export interface ExportFilter {
  codes?: string[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface ExportRequest {
  clientId: string;
  subject: string;
  /** The kick-off URL, echoed in the manifest's `request`. */
  request: string;
  /** Whose observations: undefined = every patient (system level). */
  patients?: string[] | undefined;
  /** `_typeFilter` clauses, OR'ed; empty = every Observation. */
  filters: ExportFilter[];
  since?: string | undefined;
  until?: string | undefined;
  /** The job's id (default: a new one). */
  id?: string | undefined;
  /** The resource types asked for (Bulk Data 3.0 `_type`); undefined: Observations only. */
  types?: string[] | undefined;
  /** `_elements`: each resource reduced to these (elements.ts subsetElements). */
  elements?: string[] | undefined;
  /** `organizeOutputBy`: files of patient blocks (a header, the Patient, its resources). */
  organizeBy?: 'Patient' | undefined;
  /** `allowPartialManifests=true`: the status answers the committed files while the job runs. */
  partialManifests?: boolean | undefined;
  /** The messages of the manifest's `error` file (OperationOutcome issues). */
  messages?: ExportMessage[] | undefined;
  /** The resources of the types other than Observation, read at kick-off, in the order they are written. */
  records?: ExportRecord[] | undefined;
}

/** One issue of the manifest's OperationOutcome file: a parameter processed leniently, a patient not found. */
export interface ExportMessage {
  severity: 'error' | 'warning' | 'information';
  code: string;
  diagnostics: string;
}

/** One resource read at kick-off, as its NDJSON line, with its patient (the block it belongs to). */
export interface ExportRecord {
  patient: string;
  type: string;
  line: string;
}

/** Where the worker got to in the append log: the key of the last row in the last committed file. */
/**
 * A row of the log an export streamed up to: its identity key (device, seq, effective time), and
 * the order the export reads in. `time-first` is the identity index's order since migration 0020
 * (effective time, device bytewise, seq): no sort. A cursor without it was written by an older
 * worker that read in (device, seq, effective time) order, and its job resumes in that order.
 */
export interface ExportCursor {
  d: string;
  s: number;
  t: string;
  order?: 'time-first';
}

/**
 * Where a run got to, as recorded with each committed file: in the records (`n` of the last one
 * written), in the log (an ExportCursor: the records are all written), or, organized by patient,
 * the last patient whose block is written (`p`).
 */
export type ExportRunCursor = ExportCursor | { n: number } | { p: string };

export interface ExportJob {
  id: string;
  client_id: string;
  subject: string;
  request: string;
  patients: string[] | null;
  filters: ExportFilter[];
  since_snapshot: string | null;
  since_at: Date | null;
  until_snapshot: string | null;
  until_at: Date | null;
  snapshot: string;
  transaction_time: Date;
  status: 'queued' | 'running' | 'completed' | 'failed';
  cursor: ExportRunCursor | null;
  types: string[] | null;
  elements: string[] | null;
  organize_by: 'Patient' | null;
  partial_manifests: boolean;
  messages: ExportMessage[];
  exported: number;
  attempts: number;
  error: string | null;
  lease_owner: string | null;
  expires_at: Date | null;
}

export interface ExportFile {
  part: number;
  type: string;
  storage_key: string;
  count: number;
  bytes: number;
}

/**
 * The snapshot of the latest kick-off at or before `at` (for `_since` / `_until`), or undefined
 * when no export was kicked off before `at` (the bound then falls back to the ingest time).
 */
async function snapshotAtOrBefore(db: Queryable, at: string): Promise<string | undefined> {
  const { rows } = await db.query<{ snapshot: string }>(
    'SELECT snapshot FROM export_snapshots WHERE transaction_time <= $1 ORDER BY transaction_time DESC LIMIT 1',
    [at],
  );
  return rows[0]?.snapshot;
}

/** Notified (at commit) on every kick-off: the worker wakes at once instead of at its next poll. */
export const EXPORT_CHANNEL = 'vitalis_export';

export type KickOff = { kind: 'created'; job: ExportJob } | { kind: 'limited'; active: number };

/**
 * Records a job with its snapshot, unless the client already runs `maxActive` jobs. The
 * transactionTime is the statement's start, truncated to the millisecond (what the manifest
 * shows, so a `_since` of it finds this very snapshot), taken in the same statement as the snapshot.
 */
export function createExportJob(pool: Pool, req: ExportRequest, maxActive: number): Promise<KickOff> {
  return withTransaction(pool, async (client) => {
    // one kick-off per client at a time: the count below cannot be raced past the limit
    await client.query("SELECT pg_advisory_xact_lock(hashtext('vitalis-export:' || $1))", [req.clientId]);
    const active = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM export_jobs WHERE client_id = $1 AND status IN ('queued', 'running')",
      [req.clientId],
    );
    const [count] = active.rows;
    if (!count) throw new Error('count(*) of active export jobs returned no row');
    if (count.n >= maxActive) return { kind: 'limited', active: count.n };
    const since = req.since === undefined ? undefined : await snapshotAtOrBefore(client, req.since);
    const until = req.until === undefined ? undefined : await snapshotAtOrBefore(client, req.until);
    const { rows } = await client.query<ExportJob>(
      `WITH bound AS (SELECT pg_current_snapshot() AS snapshot, date_trunc('milliseconds', statement_timestamp()) AS at),
            remembered AS (INSERT INTO export_snapshots (transaction_time, snapshot) SELECT at, snapshot FROM bound ON CONFLICT DO NOTHING)
       INSERT INTO export_jobs (id, client_id, subject, request, patients, filters, since_snapshot, since_at, until_snapshot, until_at, snapshot, transaction_time,
                                types, elements, organize_by, partial_manifests, messages)
       SELECT $1, $2, $3, $4, $5, $6, $7::pg_snapshot, $8, $9::pg_snapshot, $10, snapshot, at, $11, $12, $13, $14, $15 FROM bound
       RETURNING *`,
      [
        req.id ?? randomUUID(),
        req.clientId,
        req.subject,
        req.request,
        req.patients ?? null,
        JSON.stringify(req.filters),
        since ?? null,
        since === undefined ? (req.since ?? null) : null,
        until ?? null,
        until === undefined ? (req.until ?? null) : null,
        req.types ?? null,
        req.elements ?? null,
        req.organizeBy ?? null,
        req.partialManifests ?? false,
        JSON.stringify(req.messages ?? []),
      ],
    );
    const [job] = rows;
    if (!job) throw new Error('INSERT INTO export_jobs ... RETURNING returned no row');
    await insertRecords(client, job.id, req.records ?? []);
    await client.query('SELECT pg_notify($1, $2)', [EXPORT_CHANNEL, job.id]);
    return { kind: 'created', job };
  });
}

/** A job's records, numbered 1.. in the order given, in slices (one statement per slice, bound arrays). */
async function insertRecords(db: Queryable, jobId: string, records: readonly ExportRecord[]): Promise<void> {
  const SLICE = 1_000;
  for (let from = 0; from < records.length; from += SLICE) {
    const slice = records.slice(from, from + SLICE);
    await db.query(
      `INSERT INTO export_records (job_id, n, patient_id, type, line)
       SELECT $1, n, p, t, l FROM unnest($2::int[], $3::text[], $4::text[], $5::text[]) AS r(n, p, t, l)`,
      [jobId, slice.map((_, i) => from + i + 1), slice.map((r) => r.patient), slice.map((r) => r.type), slice.map((r) => r.line)],
    );
  }
}

/** The records of a job after number `after` (at most `limit`), optionally one patient's, in their order. */
export async function exportRecords(
  db: Queryable,
  jobId: string,
  after: number,
  limit: number,
  patient?: string,
): Promise<(ExportRecord & { n: number })[]> {
  const { rows } = await db.query<ExportRecord & { n: number }>(
    `SELECT n, patient_id AS patient, type, line FROM export_records
      WHERE job_id = $1 AND n > $2 AND ($3::text IS NULL OR patient_id = $3) ORDER BY n LIMIT $4`,
    [jobId, after, patient ?? null, limit],
  );
  return rows;
}

/** The patients of a job's records, in order (the blocks of an export organized by patient). */
export async function exportRecordPatients(db: Queryable, jobId: string): Promise<string[]> {
  const { rows } = await db.query<{ patient_id: string }>(
    'SELECT DISTINCT patient_id FROM export_records WHERE job_id = $1 ORDER BY patient_id',
    [jobId],
  );
  return rows.map((r) => r.patient_id);
}

/** The job, if this client and subject created it. */
export async function findExportJob(
  db: Queryable,
  id: string,
  owner: { clientId: string; subject: string },
): Promise<ExportJob | undefined> {
  const { rows } = await db.query<ExportJob>('SELECT * FROM export_jobs WHERE id = $1 AND client_id = $2 AND subject = $3', [
    id,
    owner.clientId,
    owner.subject,
  ]);
  return rows[0];
}

export async function exportFiles(db: Queryable, jobId: string): Promise<ExportFile[]> {
  const { rows } = await db.query<ExportFile>(
    'SELECT part, type, storage_key, count, bytes FROM export_files WHERE job_id = $1 ORDER BY part',
    [jobId],
  );
  return rows;
}

/** Deletes the job (and its file rows); true when there was one. The caller removes the files. */
export async function deleteExportJob(db: Queryable, id: string, owner: { clientId: string; subject: string }): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM export_jobs WHERE id = $1 AND client_id = $2 AND subject = $3', [
    id,
    owner.clientId,
    owner.subject,
  ]);
  return (rowCount ?? 0) > 0;
}

/** The members of a Group (a ward, a cohort), or undefined when there is no such Group. */
export async function groupMembers(db: Queryable, id: string): Promise<string[] | undefined> {
  const { rows } = await db.query<{ members: string[] }>('SELECT members FROM export_groups WHERE id = $1', [id]);
  return rows[0]?.members;
}

/** Creates or replaces a Group (the operator's `npm run admin -- export-group`). */
export async function saveGroup(db: Queryable, group: { id: string; name: string; members: string[] }): Promise<void> {
  await db.query(
    'INSERT INTO export_groups (id, name, members) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET name = excluded.name, members = excluded.members',
    [group.id, group.name, group.members],
  );
}

// ---------------------------------------------------------------------------------------------
// The worker's side

export async function exportJobExists(db: Queryable, id: string): Promise<boolean> {
  return ((await db.query('SELECT 1 FROM export_jobs WHERE id = $1', [id])).rowCount ?? 0) > 0;
}

/** Claims the oldest queued job, or a running one whose worker's lease ran out (it died); of `only` jobs or `onlyClients` clients when given. */
export async function claimExportJob(
  pool: Pool,
  worker: string,
  leaseMs: number,
  only?: readonly string[],
  onlyClients?: readonly string[],
): Promise<{ job: ExportJob; parts: number } | undefined> {
  const { rows } = await pool.query<ExportJob>(
    `UPDATE export_jobs SET status = 'running', lease_owner = $1, lease_until = now() + $2 * interval '1 millisecond'
      WHERE id = (SELECT id FROM export_jobs
                   WHERE (status = 'queued' OR (status = 'running' AND lease_until < now())) AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[]))
                     AND ($4::text[] IS NULL OR client_id = ANY($4::text[]))
                   ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
      RETURNING *`,
    [worker, leaseMs, only ?? null, onlyClients ?? null],
  );
  const job = rows[0];
  if (!job) return undefined;
  const parts = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM export_files WHERE job_id = $1', [job.id]);
  const [count] = parts.rows;
  if (!count) throw new Error('count(*) of export files returned no row');
  return { job, parts: count.n };
}

/** Extends the lease; false when the job is gone (cancelled) or another worker holds it. */
export async function renewExportLease(pool: Pool, jobId: string, worker: string, leaseMs: number): Promise<boolean> {
  const { rowCount } = await pool.query(
    "UPDATE export_jobs SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
    [jobId, worker, leaseMs],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * A complete file and the cursor after its last row, in one transaction: the file counts only
 * once this commits. False (nothing recorded) when the worker lost the job.
 */
export function commitExportFile(
  pool: Pool,
  jobId: string,
  worker: string,
  leaseMs: number,
  file: ExportFile,
  cursor: ExportRunCursor,
): Promise<boolean> {
  return withTransaction(pool, async (client) => {
    const { rowCount } = await client.query(
      `UPDATE export_jobs SET cursor = $3, exported = exported + $4, lease_until = now() + $5 * interval '1 millisecond'
        WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
      [jobId, worker, JSON.stringify(cursor), file.count, leaseMs],
    );
    if ((rowCount ?? 0) === 0) return false;
    await client.query('INSERT INTO export_files (job_id, part, type, storage_key, count, bytes) VALUES ($1, $2, $3, $4, $5, $6)', [
      jobId,
      file.part,
      file.type,
      file.storage_key,
      file.count,
      file.bytes,
    ]);
    return true;
  });
}

export async function finishExportJob(
  pool: Pool,
  jobId: string,
  worker: string,
  outcome: { expiresMs: number; error?: string },
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `UPDATE export_jobs SET status = $3, error = $4, completed_at = now(), expires_at = now() + $5 * interval '1 millisecond', lease_owner = NULL, lease_until = NULL
      WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
    [jobId, worker, outcome.error === undefined ? 'completed' : 'failed', outcome.error ?? null, outcome.expiresMs],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * A run that ended in an error: the job goes back to the queue (resumed from its cursor by the
 * next worker at once), or fails for good at `maxAttempts`. True when it failed for good.
 */
export async function releaseExportJob(
  pool: Pool,
  jobId: string,
  worker: string,
  outcome: { maxAttempts: number; expiresMs: number; error: string },
): Promise<boolean> {
  const { rows } = await pool.query<{ status: string }>(
    `UPDATE export_jobs SET attempts = attempts + 1, lease_owner = NULL, lease_until = NULL,
            status = CASE WHEN attempts + 1 >= $3 THEN 'failed' ELSE 'queued' END,
            error = CASE WHEN attempts + 1 >= $3 THEN $4 END,
            completed_at = CASE WHEN attempts + 1 >= $3 THEN now() END,
            expires_at = CASE WHEN attempts + 1 >= $3 THEN now() + $5 * interval '1 millisecond' END
      WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING status`,
    [jobId, worker, outcome.maxAttempts, outcome.error, outcome.expiresMs],
  );
  return rows[0]?.status === 'failed';
}

/** A worker shutting down hands the job back at once (no attempt counted): the next worker resumes it from the cursor. */
export async function handBackExportJob(pool: Pool, jobId: string, worker: string): Promise<void> {
  await pool.query(
    "UPDATE export_jobs SET status = 'queued', lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2 AND status = 'running'",
    [jobId, worker],
  );
}

/** The finished jobs past their expiry (their files go first, then the rows: `forgetExportJobs`). */
export async function expiredExportJobs(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM export_jobs WHERE status IN ('completed', 'failed') AND expires_at < now()",
  );
  return rows.map((r) => r.id);
}

export async function forgetExportJobs(db: Queryable, ids: string[]): Promise<void> {
  await db.query('DELETE FROM export_jobs WHERE id = ANY($1::uuid[])', [ids]);
}
