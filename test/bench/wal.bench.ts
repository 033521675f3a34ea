/**
 * The WAL study (issue 34 item 4; a research phase: `BENCH_ONLY=wal` or `make bench-research`):
 * what `max_wal_size` does to the cost of an indexed row. Sustained ingest fills the WAL, and a
 * checkpoint is requested each time about max_wal_size / (1 + checkpoint_completion_target) of it
 * has been written since the last one; after each checkpoint the first change to every page writes
 * a full-page image (full_page_writes = on: never traded, a torn page would be unrecoverable). Fewer
 * checkpoints, fewer images; the price is a longer crash recovery and more WAL kept on disk.
 *
 * For each size (BENCH_WAL_SIZES, default 1GB,2GB,8GB; set by ALTER SYSTEM and a reload, the
 * setting needs no restart) the same volume of monitor-mix rows (six numerics, one 1 s ECG chunk)
 * from a ward of BENCH_WAL_PATIENTS patients (2,500) is COPYed into the emptied append log after a
 * CHECKPOINT, BENCH_WAL_ROWS rows (6,000,000) in parts of 500,000, in the ingest's transactions
 * over its connections. Prints rows/s, the writing backends' and all PostgreSQL processes' CPU per
 * row, WAL bytes per row (the WAL position's advance), WAL records and full-page images per row
 * (pg_stat_wal, read once the writers' backends have exited and reported them), and the checkpoints
 * during the COPY (pg_stat_bgwriter). The server's own setting is restored (ALTER SYSTEM RESET) however it ends.
 * Uses its own database (vitalis_bench_wal), created afresh.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPool, migrate, type Pool } from '@vitalis/db';
import { copyFigures, copyOver, TX_ROWS, WRITERS, type CopyRun } from './copy-over';
import { recreateBenchDatabase } from './database';
import { loadAverage } from './proc-cpu';
import { figure, fmt, out } from './report';
import { benchRows } from './rows';

const env = process.env;
const SIZES = (env.BENCH_WAL_SIZES ?? '1GB,2GB,8GB').split(',').map((s) => s.trim());
const ROWS = Number(env.BENCH_WAL_ROWS ?? 6_000_000);
const PATIENTS = Number(env.BENCH_WAL_PATIENTS ?? 2_500);
const PART_ROWS = 500_000;
const WRITERS_APPLICATION = 'vitalis-bench-wal-writers';

interface WalReading {
  records: number;
  fpi: number;
  bytes: number;
  checkpointsRequested: number;
  checkpointsTimed: number;
}

async function walReading(pool: Pool): Promise<WalReading> {
  const { rows } = await pool.query<{ records: string; fpi: string; bytes: string; req: string; timed: string }>(
    `SELECT w.wal_records AS records, w.wal_fpi AS fpi, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS bytes,
            b.checkpoints_req AS req, b.checkpoints_timed AS timed
       FROM pg_stat_wal w, pg_stat_bgwriter b`,
  );
  const r = rows[0]!;
  return {
    records: Number(r.records),
    fpi: Number(r.fpi),
    bytes: Number(r.bytes),
    checkpointsRequested: Number(r.req),
    checkpointsTimed: Number(r.timed),
  };
}

/** Sets max_wal_size server-wide and waits until this session reads it back (a reload reaches backends between statements). */
async function setMaxWalSize(pool: Pool, size: string | undefined): Promise<void> {
  await pool.query(size === undefined ? 'ALTER SYSTEM RESET max_wal_size' : `ALTER SYSTEM SET max_wal_size = '${size.replace(/'/g, '')}'`);
  await pool.query('SELECT pg_reload_conf()');
  if (size === undefined) return;
  const wanted = (await pool.query<{ b: string }>('SELECT pg_size_bytes($1) AS b', [size])).rows[0]!.b;
  for (let i = 0; i < 50; i++) {
    const { rows } = await pool.query<{ b: string }>(`SELECT pg_size_bytes(current_setting('max_wal_size')) AS b`);
    if (rows[0]!.b === wanted) return;
    await sleep(100);
  }
  throw new Error(`max_wal_size did not become ${size} after a reload`);
}

/** A CHECKPOINT, and its count in pg_stat_bgwriter (the checkpointer reports it after the command returns). */
async function checkpoint(pool: Pool): Promise<void> {
  const before = await walReading(pool);
  await pool.query('CHECKPOINT');
  for (let i = 0; i < 50 && (await walReading(pool)).checkpointsRequested === before.checkpointsRequested; i++) await sleep(100);
}

/** The volume in parts (a part's rows built before its COPY is timed), the parts' times and CPU summed. */
async function copyVolume(url: string, prefix: string): Promise<CopyRun> {
  // The writers' own pool, ended before the WAL is read: a backend reports its WAL statistics
  // when it exits (an idle one only after up to 10 s).
  const writers = createPool({ url, max: WRITERS, application: WRITERS_APPLICATION });
  const total: CopyRun = { seconds: 0, backendCpu: 0, allCpu: 0 };
  try {
    for (let first = 0; first < ROWS; first += PART_ROWS) {
      const rows = benchRows(Math.min(PART_ROWS, ROWS - first), prefix, { shape: 'monitor', patients: PATIENTS, firstSeq: first });
      const r = await copyOver(writers, 'vitals_observations', rows);
      total.seconds += r.seconds;
      total.backendCpu += r.backendCpu;
      total.allCpu += r.allCpu;
    }
  } finally {
    await writers.end();
  }
  return total;
}

/** Waits until the writers' backends have exited (and so reported their WAL statistics). */
async function writersGone(pool: Pool): Promise<void> {
  const count = async () =>
    Number(
      (await pool.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [WRITERS_APPLICATION]))
        .rows[0]!.n,
    );
  for (let i = 0; i < 100 && (await count()) > 0; i++) await sleep(100);
}

const url = await recreateBenchDatabase('vitalis_bench_wal');
const pool = createPool({ url, max: 2, application: 'vitalis-bench-wal' });
try {
  await migrate(pool);
  await pool.query('SELECT vitalis_ensure_vitals_partitions()');
  const setting = async (name: string) => (await pool.query<{ s: string }>(`SELECT current_setting('${name}') AS s`)).rows[0]!.s;
  out(
    `WAL study: ${fmt(ROWS)} monitor-mix rows of ${fmt(PATIENTS)} patients per max_wal_size (${SIZES.join(', ')}), ${WRITERS} connections, ` +
      `${fmt(TX_ROWS)}-row transactions; checkpoint_completion_target ${await setting('checkpoint_completion_target')}, ` +
      `checkpoint_timeout ${await setting('checkpoint_timeout')}, wal_compression ${await setting('wal_compression')}, full_page_writes ${await setting('full_page_writes')}`,
  );
  for (const size of SIZES) {
    await setMaxWalSize(pool, size);
    await pool.query('TRUNCATE vitals_observations');
    await checkpoint(pool);
    const load = loadAverage();
    const before = await walReading(pool);
    const r = await copyVolume(url, `wal-${randomUUID().slice(0, 6)}`);
    await writersGone(pool);
    const after = await walReading(pool);
    const name = `indexed COPY, monitor mix, max_wal_size ${size}`;
    copyFigures('wal', name, ROWS, r, load);
    figure({ phase: 'wal', name: `${name}: WAL bytes per row`, value: (after.bytes - before.bytes) / ROWS, unit: 'B', load });
    figure({
      phase: 'wal',
      name: `${name}: full-page images per 1,000 rows`,
      value: ((after.fpi - before.fpi) * 1000) / ROWS,
      unit: '',
      load,
    });
    figure({ phase: 'wal', name: `${name}: WAL records per row`, value: (after.records - before.records) / ROWS, unit: '', load });
    figure({
      phase: 'wal',
      name: `${name}: checkpoints during the COPY (requested + timed)`,
      value: after.checkpointsRequested - before.checkpointsRequested + (after.checkpointsTimed - before.checkpointsTimed),
      unit: '',
      load,
    });
  }
} finally {
  await setMaxWalSize(pool, undefined).catch((err: unknown) => out(`could not restore max_wal_size: ${String(err)}`));
  await pool.end();
}
