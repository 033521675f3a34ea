/**
 * COPY baselines (node --import tsx test/bench/copy.bench.ts; `make bench` runs it as its phase
 * "copy"): the ceiling the ingest is measured against. For each row shape (numeric rows, ECG-chunk
 * rows, and the monitor mix a frame stores: six numerics and one ECG chunk), the same rows are
 * COPYed (text format, the ingest's own encoder: ECG samples as `sample_steps` bytea) in the ingest's transaction size
 * (INGEST_GROUP_MAX_ROWS, 5,000) over the ingest's number of connections (INGEST_WRITERS, 4):
 *  - raw: into a plain table of the append log's columns, no index;
 *  - indexed: into the append log itself (partitioned, identity and series B-trees, BRINs).
 * Prints rows/s and, read from /proc, the CPU of the writing PostgreSQL backends per row and of all
 * PostgreSQL processes (WAL writer and checkpointer included). Uses its own database
 * (vitalis_bench_copy), created afresh.
 */
import { randomUUID } from 'node:crypto';
import { createPool, migrate, type PoolClient } from '@vitalis/db';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import copyStreams from 'pg-copy-streams';
import { foldedSamplesText } from '@vitalis/live';
import { stepPotentials } from '@vitalis/schemas';
import type { StoredRow } from '../../apps/ingest/src/store';
import { copyTextLine, copyTextRows } from './copy-text';
import { copyFigures, copyOver, TX_ROWS, WRITERS } from './copy-over';
import { recreateBenchDatabase } from './database';
import { loadAverage } from './proc-cpu';
import { fmt, out } from './report';
import { benchRows, type RowShape } from './rows';

const env = process.env;
/** Rows per shape: ECG chunks are ~2 KB of text each, numerics ~100 bytes. */
const ROWS: Record<RowShape, number> = {
  numeric: Number(env.BENCH_COPY_NUMERIC_ROWS ?? 400_000),
  ecg: Number(env.BENCH_COPY_ECG_ROWS ?? 40_000),
  monitor: Number(env.BENCH_COPY_MONITOR_ROWS ?? 280_000),
};
const LABEL: Record<RowShape, string> = {
  numeric: 'numeric rows',
  ecg: 'ECG-chunk rows',
  monitor: 'monitor mix (6 numerics : 1 ECG chunk)',
};
/** Goals of PostgreSQL backend CPU per row, both indexes kept (issue 34). */
const BACKEND_GOAL: Partial<Record<RowShape, number>> = { numeric: 4, ecg: 6 };

/**
 * The same COPY with the samples as a `real[]` text literal, the append log's form before migration
 * 0036 (the ingest now writes `sample_steps` bytea): beside the raw COPY above it shows what
 * `array_in` cost PostgreSQL per ECG chunk, the figure the binary column was chosen by.
 */
async function copyRealArray(client: PoolClient, table: string, rows: StoredRow[]): Promise<void> {
  let text = '';
  for (const row of rows) {
    const fields = copyTextLine(row).split('\t');
    if (row.steps) fields[8] = `{${foldedSamplesText(stepPotentials(row.steps))}}`;
    text += fields.join('\t');
  }
  await pipeline(Readable.from([text]), client.query(copyStreams.from(`COPY ${table} FROM STDIN`)));
}

const pool = createPool({ url: await recreateBenchDatabase('vitalis_bench_copy'), max: WRITERS + 2, application: 'vitalis-bench-copy' });
try {
  await migrate(pool);
  await pool.query('SELECT vitalis_ensure_vitals_partitions()');
  await pool.query('CREATE TABLE bench_copy_raw (LIKE vitals_observations INCLUDING DEFAULTS)');
  out(`COPY baselines: ${WRITERS} connections, ${fmt(TX_ROWS)}-row transactions, binary format (the ingest's encoder)`);
  for (const shape of ['numeric', 'ecg', 'monitor'] as const) {
    for (const [kind, table] of [
      ['raw', 'bench_copy_raw'],
      ['indexed', 'vitals_observations'],
    ] as const) {
      const rows = benchRows(ROWS[shape], `copy-${kind}-${randomUUID().slice(0, 6)}`, { shape });
      const load = loadAverage();
      const r = await copyOver(pool, table, rows);
      const goal = kind === 'indexed' ? BACKEND_GOAL[shape] : undefined;
      copyFigures('copy', `${kind} COPY, ${LABEL[shape]}`, rows.length, r, load, goal);
    }
    await pool.query('TRUNCATE bench_copy_raw');
  }
  // numeric and ECG rows in the text format (the ingest's before ADR 0035) beside the binary, each indexed COPY into the emptied
  // log (the log's size moves the cost per row): what the binary format saves PostgreSQL, in this run
  for (const shape of ['numeric', 'ecg'] as const) {
    for (const [kind, table, copy] of [
      ['raw, text format', 'bench_copy_raw', copyTextRows],
      ['indexed, text format', 'vitals_observations', copyTextRows],
      ['indexed, binary format', 'vitals_observations', undefined],
    ] as const) {
      await pool.query(`TRUNCATE ${table}`);
      const rows = benchRows(ROWS[shape], `copy-fmt-${randomUUID().slice(0, 6)}`, { shape });
      const load = loadAverage();
      const r = await copyOver(pool, table, rows, copy);
      copyFigures('copy', `${kind} (the emptied table), ${LABEL[shape]}`, rows.length, r, load);
    }
  }
  // the ECG rows once more with the samples as real[] text (no index: what array_in costs, against the raw text-format COPY above)
  await pool.query(
    `CREATE TABLE bench_copy_real AS SELECT patient_id, device_id, seq, code, effective_at, value, unit, sample_period_ms, samples,
            kafka_partition, kafka_offset, record_item, series_id FROM vitals_observations WITH NO DATA`,
  );
  const ecgRows = benchRows(ROWS.ecg, `copy-real-${randomUUID().slice(0, 6)}`, { shape: 'ecg' });
  const load = loadAverage();
  const r = await copyOver(pool, 'bench_copy_real', ecgRows, copyRealArray);
  copyFigures('copy', 'raw COPY, ECG-chunk rows, samples as real[] text (before migration 0036)', ecgRows.length, r, load);
} finally {
  await pool.end();
}
