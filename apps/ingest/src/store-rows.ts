/**
 * The rows the ingest stores in the append log (`vitals_observations`) and their COPY encoding (the
 * binary format, ADR 0035): one decoded observation becomes one StoredRow, and COPY FROM STDIN
 * streams them (store.ts).
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import copyStreams from 'pg-copy-streams';
import type { PoolClient } from '@vitalis/db';
import { ByteWriter } from '@vitalis/runtime';
import { sampleStepsBytes, storedTime } from '@vitalis/live';
import { isEcg, waveformSteps, type VitalsObservation } from '@vitalis/schemas';

export interface StoredRow {
  patient_id: string;
  device_id: string;
  seq: number;
  code: string;
  effective_at: string;
  /** `effective_at` as whole ms since the epoch, when the decoder read it (@vitalis/schemas `DecodedObservation.effectiveMs`). */
  effective_ms?: number | undefined;
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
  /** The key of (patient_id, code) in the series dictionary (series-keys.ts, migration 0037); set before the row is written. */
  series_id?: number | undefined;
}

export type WriteMethod = 'copy' | 'unnest';

/**
 * One decoded observation as the row stored for it, with its Kafka position (`item`: its index in
 * the record) and, for an ECG chunk, its steps when the decoder has them (else folded here).
 */
export function toRow(
  o: VitalsObservation,
  partition: number,
  offset: string,
  item = 0,
  steps?: Int32Array | null,
  effectiveMs?: number,
): StoredRow {
  // One object literal of a fixed shape (no spread): this runs once per observation on the hot path.
  const ecg = isEcg(o) ? o.waveform : undefined;
  return {
    patient_id: o.patient_id,
    device_id: o.device_id,
    seq: o.seq,
    code: o.code,
    effective_at: o.effective_at,
    effective_ms: effectiveMs,
    value: ecg ? null : (o as { value: number }).value,
    unit: o.unit,
    sample_period_ms: ecg ? ecg.period_ms : null,
    steps: ecg ? (steps ?? waveformSteps(ecg)) : null,
    kafka_partition: partition,
    kafka_offset: offset,
    record_item: item,
    series_id: undefined,
  };
}

/** The log's columns, in the order of a COPY tuple (and of the staged and unnest writes); a waveform goes to `sample_steps` (migration 0036). */
export const COLUMNS =
  'patient_id, device_id, seq, code, effective_at, value, unit, sample_period_ms, sample_steps, kafka_partition, kafka_offset, record_item, series_id';
const FIELDS = 13;

/** COPY's binary format (ADR 0035): the signature, no flags, no header extension; a field count of -1 ends the data. */
const BINARY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
const BINARY_TRAILER = Buffer.from([0xff, 0xff]);

/** 2000-01-01T00:00:00Z, PostgreSQL's epoch for timestamps, in ms since the Unix epoch. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 4_294_967_296;

/**
 * Room for a row's binary tuple: the field count, a length word per field, the fixed-width values
 * (seq, time, value, period, partition, offset, item, series key: 46 bytes), its four texts at their UTF-8
 * worst case (3 bytes a UTF-16 unit) and its sample steps.
 */
const tupleBytes = (r: StoredRow) =>
  2 + FIELDS * 4 + 46 + 3 * (r.patient_id.length + r.device_id.length + r.code.length + r.unit.length) + (r.steps ? r.steps.length * 4 : 0);

/** A 32-bit big-endian integer at `at` (byte stores: cheaper than writeInt32BE's checks, on the hot path). */
function int32(buf: Buffer, at: number, v: number): number {
  buf[at] = v >>> 24;
  buf[at + 1] = v >>> 16;
  buf[at + 2] = v >>> 8;
  buf[at + 3] = v;
  return at + 4;
}

/** A text field: its UTF-8 bytes after their length; an ASCII string (every id, code and unit the schema admits) byte by byte. */
function writeText(buf: Buffer, at: number, s: string): number {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    buf[at + 4 + i] = c;
  }
  const bytes = i === n ? n : buf.write(s, at + 4);
  int32(buf, at, bytes);
  return at + 4 + bytes;
}

/** A bigint field from a safe integer (seq, the Kafka offset; timestamps within ±285 years of 2000). */
function writeInt64(buf: Buffer, at: number, v: number): number {
  const hi = Math.floor(v / TWO_32);
  int32(buf, at, 8);
  int32(buf, at + 4, hi);
  return int32(buf, at + 8, v - hi * TWO_32);
}

/** A bigint field past the safe integers (a timestamp centuries away, an offset past 2^53). */
function writeBigInt64(buf: Buffer, at: number, v: bigint): number {
  int32(buf, at, 8);
  buf.writeBigInt64BE(v, at + 4);
  return at + 12;
}

/**
 * A timestamptz field: the instant PostgreSQL's input function would store for the text (its
 * offset applied, a finer fraction rounded to the µs: `storedTime`) as int64 µs since 2000-01-01.
 * toISOString's form (24 characters, ms, Z), nearly every device's, is its ms since the epoch: the
 * decoder's reading (`ms`) when the row has it, else `Date.parse`'s.
 */
function writeTimestamp(buf: Buffer, at: number, iso: string, ms: number | undefined): number {
  if (iso.length === 24 && iso.charCodeAt(19) === 46 /* . */ && iso.charCodeAt(23) === 90 /* Z */) {
    const micros = ((ms ?? Date.parse(iso)) - PG_EPOCH_MS) * 1000;
    if (Number.isSafeInteger(micros)) return writeInt64(buf, at, micros);
  }
  const t = storedTime(iso);
  if (!t) throw new TypeError(`effective_at is not an ISO 8601 date-time: ${JSON.stringify(iso)}`); // the schema admits none
  const micros = ((t.second - PG_EPOCH_MS) / 1000) * 1e6 + t.micros;
  if (Number.isSafeInteger(micros)) return writeInt64(buf, at, micros);
  return writeBigInt64(buf, at, BigInt((t.second - PG_EPOCH_MS) / 1000) * 1_000_000n + BigInt(t.micros));
}

/**
 * One row's tuple in COPY's binary format written into `out`: each field its length and its value
 * in PostgreSQL's send form (big-endian integers and IEEE floats, UTF-8 text, an ECG chunk's
 * `sample_steps` as its bytes: no text to parse, no hex). The values are those the text format
 * stored (the period is float4-exact by the schema; -0 is stored as 0, as its text "0" was).
 */
export function writeCopyTuple(out: ByteWriter, r: StoredRow): void {
  const buf = out.reserve(tupleBytes(r));
  const start = out.position;
  buf[start] = 0;
  buf[start + 1] = FIELDS;
  let at = writeText(buf, start + 2, r.patient_id);
  at = writeText(buf, at, r.device_id);
  at = writeInt64(buf, at, r.seq);
  at = writeText(buf, at, r.code);
  at = writeTimestamp(buf, at, r.effective_at, r.effective_ms);
  if (r.value === null) at = int32(buf, at, -1);
  else at = buf.writeDoubleBE(r.value + 0, int32(buf, at, 8));
  at = writeText(buf, at, r.unit);
  if (r.sample_period_ms === null) at = int32(buf, at, -1);
  else at = buf.writeFloatBE(r.sample_period_ms, int32(buf, at, 4));
  if (r.steps) {
    const steps = sampleStepsBytes(r.steps);
    at = int32(buf, at, steps.length);
    at += steps.copy(buf, at);
  } else at = int32(buf, at, -1);
  at = int32(buf, int32(buf, at, 4), r.kafka_partition);
  const offset = Number(r.kafka_offset);
  at = Number.isSafeInteger(offset) ? writeInt64(buf, at, offset) : writeBigInt64(buf, at, BigInt(r.kafka_offset));
  // smallint: a frame holds at most 64 observations (writeInt16BE refuses anything past int16)
  at = buf.writeInt16BE(r.record_item ?? 0, int32(buf, at, 2));
  out.advance(seriesKey(buf, at, r.series_id));
}

/** The row's series key (int4); a row without one is written as NULL, which the log refuses (NOT NULL). */
function seriesKey(buf: Buffer, at: number, key: number | undefined): number {
  return key === undefined ? int32(buf, at, -1) : int32(buf, int32(buf, at, 4), key);
}

/** One row's binary tuple alone (tests). */
export function copyTuple(r: StoredRow): Buffer {
  const out = new ByteWriter(tupleBytes(r));
  writeCopyTuple(out, r);
  return out.bytes();
}

/** The bytes of a binary COPY of `rows`: the header, then 500 rows a chunk (each chunk's bytes written once), then the trailer. */
export function* copyChunks(rows: readonly StoredRow[]): Generator<Buffer> {
  const CHUNK = 500;
  yield BINARY_HEADER;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const end = Math.min(i + CHUNK, rows.length);
    let bytes = 0;
    for (let j = i; j < end; j++) bytes += tupleBytes(rows[j] as StoredRow);
    const out = new ByteWriter(bytes);
    for (let j = i; j < end; j++) writeCopyTuple(out, rows[j] as StoredRow);
    yield out.bytes();
  }
  yield BINARY_TRAILER;
}

/** Streams `rows` into `table` with COPY FROM STDIN in the binary format (`copyChunks`). */
export async function copyRows(client: PoolClient, table: string, rows: StoredRow[]): Promise<void> {
  const stream = client.query(copyStreams.from(`COPY ${table} (${COLUMNS}) FROM STDIN (FORMAT binary)`));
  await pipeline(Readable.from(copyChunks(rows)), stream);
}

/** Where a stored row came from; the write paths return those of the rows that were new. */
export interface StoredPosition {
  kafka_partition: number;
  kafka_offset: string;
}
/** The clause by which a write path returns the new rows' positions. */
export const RETURNING = 'RETURNING kafka_partition, kafka_offset';
