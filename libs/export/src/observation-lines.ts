/**
 * The Observations of an export as the append log gives them (worker.ts streams them): the WHERE
 * clause of a job's rows (its snapshot, patients, `_since` / `_until`, `_typeFilter`), the COPY that
 * reads them in the log's identity-key order, a COPY line's resume key, and a COPY line as its
 * FHIR Observation's NDJSON line (the FHIR API's own mapping, through its per-code template).
 * Untrusted values enter the COPY statement (which takes no bind parameters) only through escapeLiteral.
 */
import pg from 'pg';
import { observationFromRow, STORED_INSTANT_SQL } from '@vitalis/live';
import { numericObservationJson, observationJson } from '@vitalis/schemas';
import { subsetElements } from './elements';
import type { ExportCursor, ExportJob } from './jobs';

const lit = pg.escapeLiteral;

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

/**
 * The order an export reads the log in, and the resume key's comparison after a cursor: the
 * identity index's (migration 0020: effective time, device bytewise, seq), so the rows come off the
 * index and no sort runs, however large the export; a cursor of an older worker resumes in the
 * order it was written in (device, seq, effective time), sorted.
 */
interface ReadOrder {
  orderBy: string;
  /** The rows after `c` in this order. */
  after: (c: ExportCursor) => string;
}
const at = (c: ExportCursor) => `${lit(c.t)}::timestamptz`;
const TIME_FIRST: ReadOrder = {
  orderBy: 'effective_at, device_id COLLATE "C", seq',
  after: (c) => `(effective_at, device_id COLLATE "C", seq) > (${at(c)}, ${lit(c.d)}, ${Number(c.s)})`,
};
const DEVICE_FIRST: ReadOrder = {
  orderBy: 'device_id, seq, effective_at',
  after: (c) => `(device_id, seq, effective_at) > (${lit(c.d)}, ${Number(c.s)}, ${at(c)})`,
};

/**
 * The planner setting a COPY of the job's rows (one patient's, organized by patient) runs under, as
 * the statements that set and reset it; undefined: none. A COPY of the whole log (no patient list,
 * no one patient) runs with the planner's sort off: costing a scan of every row, the planner may
 * prefer a sequential scan and an external sort of the whole log, on the disk the export writes
 * to, while the identity index gives the rows in the export's order, and the ingest writes in about
 * that order, so the heap is read nearly sequentially anyway. A patient list keeps the planner's
 * choice: a sort of a few patients' rows may well be cheaper than the whole index.
 */
export function exportPlannerSetting(job: Pick<ExportJob, 'patients'>, patient?: string): { set: string; reset: string } | undefined {
  return job.patients === null && patient === undefined ? { set: 'SET enable_sort = off', reset: 'RESET enable_sort' } : undefined;
}

/** The COPY of a job's rows after `cursor` (one patient's, organized by patient), in the resume order. */
export function exportCopySql(job: ExportJob, cursor: ExportCursor | null, patient?: string): string {
  let where = exportWhere(job);
  if (patient !== undefined) where += ` AND patient_id = ${lit(patient)}`;
  const order = cursor !== null && cursor.order === undefined ? DEVICE_FIRST : TIME_FIRST;
  if (cursor) where += ` AND ${order.after(cursor)}`;
  return `COPY (SELECT patient_id, device_id, seq, code, ${STORED_INSTANT_SQL}, value, unit, sample_period_ms, samples, encode(sample_steps, 'hex')
    FROM vitals_observations WHERE ${where} ORDER BY ${order.orderBy}) TO STDOUT`;
}

/** COPY text format field (ids are validated at the door; the unescape is defence in depth). */
const unescape = (v: string) => (v.includes('\\') ? v.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r' })[c] ?? c) : v);

/** The resume key of one COPY line (device, seq, effective time; read in time-first order): read for a file's last line only. */
export function exportKeyOf(line: string): ExportCursor {
  const t1 = line.indexOf('\t');
  const t2 = line.indexOf('\t', t1 + 1);
  const t3 = line.indexOf('\t', t2 + 1);
  const t4 = line.indexOf('\t', t3 + 1);
  return {
    d: unescape(line.slice(t1 + 1, t2)),
    s: Number(line.slice(t2 + 1, t3)),
    t: line.slice(t4 + 1, line.indexOf('\t', t4 + 1)),
    order: 'time-first',
  };
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
  const t9 = line.indexOf('\t', t8 + 1);
  const patient = unescape(line.slice(0, t1));
  const device = unescape(line.slice(t1 + 1, t2));
  const seq = Number(line.slice(t2 + 1, t3));
  const code = unescape(line.slice(t3 + 1, t4));
  const at = line.slice(t4 + 1, t5);
  const value = line.slice(t5 + 1, t6);
  const unit = unescape(line.slice(t6 + 1, t7));
  const samples = line.slice(t8 + 1, t9); // the real[] of rows stored before migration 0036
  const steps = line.slice(t9 + 1); // sample_steps as plain hex (encode(), whatever the server's bytea_output)
  if (samples === '\\N' && steps === '\\N') {
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
      sample_steps: steps === '\\N' ? null : Buffer.from(steps, 'hex'),
    }),
  );
}

/** A COPY line's Observation as its NDJSON line, reduced to the job's `_elements` when it has them. */
export function observationNdjson(line: string, elements: readonly string[] | null): string {
  const json = ndjsonOf(line);
  return elements && elements.length > 0 ? JSON.stringify(subsetElements(JSON.parse(json) as Record<string, unknown>, elements)) : json;
}
