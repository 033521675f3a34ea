/**
 * The rows the ingest stores in the append log (`vitals_observations`) and their COPY text encoding:
 * one decoded observation becomes one StoredRow, and COPY FROM STDIN streams them (store.ts).
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import copyStreams from 'pg-copy-streams';
import type { PoolClient } from '@vitalis/db';
import { ByteWriter } from '@vitalis/runtime';
import { sampleStepsBytes } from '@vitalis/live';
import { isEcg, waveformSteps, type VitalsObservation } from '@vitalis/schemas';

export interface StoredRow {
  patient_id: string;
  device_id: string;
  seq: number;
  code: string;
  effective_at: string;
  value: number | null;
  unit: string;
  sample_period_ms: number | null;
  /**
   * An ECG chunk's absolute potentials (origin already added: the stored waveform has origin 0) as
   * whole 0.1 µV steps (@vitalis/schemas `DecodedObservation.steps`), stored as `sample_steps`
   * (`sampleStepsBytes`); the live stage publishes them. Null for a numeric.
   */
  steps: Int32Array | null;
  kafka_partition: number;
  kafka_offset: string;
  /** The observation's index in its Kafka record (a frame's observation index; absent or 0 for a single observation). */
  record_item?: number;
}

export type WriteMethod = 'copy' | 'unnest';

/**
 * One decoded observation as the row stored for it, with its Kafka position (`item`: its index in
 * the record) and, for an ECG chunk, its steps when the decoder has them (else folded here).
 */
export function toRow(o: VitalsObservation, partition: number, offset: string, item = 0, steps?: Int32Array | null): StoredRow {
  // One object literal of a fixed shape (no spread): this runs once per observation on the hot path.
  const ecg = isEcg(o) ? o.waveform : undefined;
  return {
    patient_id: o.patient_id,
    device_id: o.device_id,
    seq: o.seq,
    code: o.code,
    effective_at: o.effective_at,
    value: ecg ? null : (o as { value: number }).value,
    unit: o.unit,
    sample_period_ms: ecg ? ecg.period_ms : null,
    steps: ecg ? (steps ?? waveformSteps(ecg)) : null,
    kafka_partition: partition,
    kafka_offset: offset,
    record_item: item,
  };
}

/** The log's columns, in the order of a copyLine (and of the staged and unnest writes); a waveform goes to `sample_steps` (migration 0036). */
export const COLUMNS =
  'patient_id, device_id, seq, code, effective_at, value, unit, sample_period_ms, sample_steps, kafka_partition, kafka_offset, record_item';

/** COPY text format: escape the few characters that matter (ids are validated, this is defence in depth). */
function text(value: string): string {
  return /[\\\t\n\r]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : value;
}

/** One row as one line of COPY text format (`\\N` for NULL): `writeCopyLine`'s text (tests, benches). */
export function copyLine(r: StoredRow): string {
  const out = new ByteWriter(copyLineBytes(r));
  writeCopyLine(out, r);
  return out.bytes().toString('utf8');
}

/** Room for a row's COPY line: its sample steps as hex (8 characters a step) and the rest. */
const copyLineBytes = (r: StoredRow) => (r.steps ? r.steps.length * 8 : 0) + 256;

/**
 * One row's COPY text line written into `out`. An ECG chunk's `sample_steps` is the bytea hex
 * literal with its backslash escaped (`\\x…`), its 8 hex characters a step written as bytes, not
 * gathered into the line's text.
 */
export function writeCopyLine(out: ByteWriter, r: StoredRow): void {
  out.text(
    `${text(r.patient_id)}\t${text(r.device_id)}\t${r.seq}\t${text(r.code)}\t${text(r.effective_at)}\t${r.value ?? '\\N'}\t${text(r.unit)}\t${
      r.sample_period_ms ?? '\\N'
    }\t`,
  );
  if (r.steps) {
    out.text('\\\\x');
    out.latin1(sampleStepsBytes(r.steps).toString('hex'));
  } else out.text('\\N');
  out.text(`\t${r.kafka_partition}\t${r.kafka_offset}\t${r.record_item ?? 0}\n`);
}

/** Streams `rows` into `table` with COPY FROM STDIN (text format), 500 rows a chunk, each chunk's bytes written once. */
export async function copyRows(client: PoolClient, table: string, rows: StoredRow[]): Promise<void> {
  const stream = client.query(copyStreams.from(`COPY ${table} (${COLUMNS}) FROM STDIN`));
  const CHUNK = 500;
  function* chunks() {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const end = Math.min(i + CHUNK, rows.length);
      let bytes = 0;
      for (let j = i; j < end; j++) bytes += copyLineBytes(rows[j] as StoredRow);
      const out = new ByteWriter(bytes);
      for (let j = i; j < end; j++) writeCopyLine(out, rows[j] as StoredRow);
      yield out.bytes();
    }
  }
  await pipeline(Readable.from(chunks()), stream);
}

/** Where a stored row came from; the write paths return those of the rows that were new. */
export interface StoredPosition {
  kafka_partition: number;
  kafka_offset: string;
}
/** The clause by which a write path returns the new rows' positions. */
export const RETURNING = 'RETURNING kafka_partition, kafka_offset';
