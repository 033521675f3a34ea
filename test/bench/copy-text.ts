/**
 * The append log's rows in COPY's text format, the ingest's encoding before ADR 0035 (it writes the
 * binary format now): the copy phase COPYs the same rows both ways, so what the binary format saves
 * PostgreSQL is measured in each run, and builds the `real[]` form of migration 0036's comparison
 * from it.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import copyStreams from 'pg-copy-streams';
import type { PoolClient } from '@vitalis/db';
import { sampleStepsBytes } from '@vitalis/live';
import { COLUMNS, type StoredRow } from '../../apps/ingest/src/store';

/** COPY text format: the few characters that matter escaped. */
const text = (value: string): string =>
  /[\\\t\n\r]/.test(value) ? value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : value;

/** One row as one line of COPY text (`\N` for NULL; `sample_steps` as a bytea hex literal, its backslash escaped). */
export function copyTextLine(r: StoredRow): string {
  const steps = r.steps ? `\\\\x${sampleStepsBytes(r.steps).toString('hex')}` : '\\N';
  return `${text(r.patient_id)}\t${text(r.device_id)}\t${r.seq}\t${text(r.code)}\t${text(r.effective_at)}\t${r.value ?? '\\N'}\t${text(r.unit)}\t${
    r.sample_period_ms ?? '\\N'
  }\t${steps}\t${r.kafka_partition}\t${r.kafka_offset}\t${r.record_item ?? 0}\t${r.series_id ?? '\\N'}\n`;
}

/** `rows` COPYed into `table` in the text format, 500 lines a chunk (as the ingest streamed them). */
export async function copyTextRows(client: PoolClient, table: string, rows: StoredRow[]): Promise<void> {
  function* chunks() {
    for (let i = 0; i < rows.length; i += 500)
      yield Buffer.from(
        rows
          .slice(i, i + 500)
          .map(copyTextLine)
          .join(''),
      );
  }
  await pipeline(Readable.from(chunks()), client.query(copyStreams.from(`COPY ${table} (${COLUMNS}) FROM STDIN`)));
}
