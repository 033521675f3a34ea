/**
 * Bulk export benchmark (node --import tsx test/bench/export.bench.ts; issue 23). One run prints:
 *  1. raw COPY: `COPY (SELECT <the export's columns> FROM vitals_observations) TO STDOUT` of the
 *     BENCH_EXPORT_ROWS rows, read and dropped by this process (rows/s, MB/s); the same COPY with
 *     the export's own query (snapshot test, identity order) as a second baseline;
 *  2. the export worker (@vitalis/export runNextExport: COPY, the FHIR mapping, NDJSON files of
 *     BENCH_EXPORT_FILE_MB): observations/s, MB/s of NDJSON written, and both as ratios to the raw
 *     COPY; the process RSS sampled every 100 ms, mean of the first and of the last third;
 *     the same export into storage that drops the bytes (what the process does, without the disk);
 *  3. the time to first byte of the manifest of a small export (BENCH_EXPORT_SMALL rows, one
 *     patient) over real HTTP: kick-off, a worker started at once, polling the status every 10 ms;
 *  4. the whole log over HTTP: kick-off, the worker, every file downloaded with gzip (the stored
 *     gzips), as a ratio to the export's own time; and this box's fsync'ed write rate (`dd` with
 *     conv=fdatasync, the export's byte count, the export's folder) as the export's disk baseline.
 * Uses its own database (vitalis_bench_export), dropped and created afresh on every run.
 * Default 10 M rows (the figure); run it small: BENCH_EXPORT_ROWS=200000.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import copyStreams from 'pg-copy-streams';
import { createPool, migrate, type Pool } from '@vitalis/db';
import { createExportJob, exportCopySql, exportPlannerSetting, folderStorage, runNextExport, type ExportStorage } from '@vitalis/export';
import { STORED_INSTANT_SQL } from '@vitalis/live';
import { recreateBenchDatabase } from './database';
import { cpuOf, cpuUsedBetween, loadAverage, machineCpu, serversCpu } from './proc-cpu';
import { cpuFigures, figure } from './report';

const env = process.env;
const ROWS = Number(env.BENCH_EXPORT_ROWS ?? 10_000_000);
const PATIENTS = Number(env.BENCH_EXPORT_PATIENTS ?? 200);
const FILE_MB = Number(env.BENCH_EXPORT_FILE_MB ?? 64);
const SMALL = Number(env.BENCH_EXPORT_SMALL ?? 1_000);
const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const mb = (bytes: number) => bytes / 1_048_576;

/** ROWS numeric vitals over PATIENTS patients (one device each), one per second per patient, in batches. */
async function seed(pool: Pool): Promise<void> {
  const batch = 500_000;
  for (let from = 0; from < ROWS; from += batch) {
    const to = Math.min(ROWS, from + batch);
    await pool.query(
      `WITH k AS (SELECT p, c.code, vitals_series_assign('pat-' || p, c.code) AS series_id
                    FROM generate_series(0, $3 - 1) AS p, (VALUES ('8867-4'), ('59408-5')) AS c(code))
       INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
       SELECT 'pat-' || (i % $3), 'dev-' || (i % $3), i / $3, k.code,
              now() - interval '1 day' + (i / $3) * interval '1 second', 60 + i % 40, CASE WHEN i % 2 = 0 THEN '/min' ELSE '%' END, i % 6, i, k.series_id
         FROM generate_series($1::bigint, $2::bigint - 1) AS i
         JOIN k ON k.p = i % $3 AND k.code = CASE WHEN i % 2 = 0 THEN '8867-4' ELSE '59408-5' END
        ORDER BY i -- the heap in time order, as an ingest lays it out (the join alone may not keep it)`,
      [from, to, PATIENTS],
    );
  }
  await pool.query('ANALYZE vitals_observations');
}

/** Runs a COPY TO STDOUT and drops the bytes (under the planner setting the export worker uses, when given); returns bytes and seconds. */
async function rawCopy(pool: Pool, sql: string, setting?: { set: string; reset: string }): Promise<{ seconds: number; bytes: number }> {
  const client = await pool.connect();
  try {
    if (setting) await client.query(setting.set);
    const started = performance.now();
    let bytes = 0;
    for await (const chunk of client.query(copyStreams.to(sql)) as AsyncIterable<Buffer>) bytes += chunk.length;
    return { seconds: (performance.now() - started) / 1000, bytes };
  } finally {
    if (setting) await client.query(setting.reset);
    client.release();
  }
}

/** This box's fsync'ed write rate: `dd` of `bytes` zeros into the export's folder with conv=fdatasync (bytes/s). */
function ddRate(folder: string, bytes: number): number {
  const count = Math.max(1, Math.round(bytes / 1_048_576));
  const target = join(folder, 'dd.bin');
  const started = performance.now();
  execFileSync('dd', ['if=/dev/zero', `of=${target}`, 'bs=1M', `count=${count}`, 'conv=fdatasync'], { stdio: 'ignore' });
  const seconds = (performance.now() - started) / 1000;
  execFileSync('rm', ['-f', target]);
  return (count * 1_048_576) / seconds;
}

/** Downloads `url` with Accept-Encoding: gzip as a client that stores the file would (bytes counted, not decompressed). */
function gzippedDownload(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((ok, fail) => {
    http
      .get(url, { headers: { ...headers, 'accept-encoding': 'gzip' } }, (res) => {
        if (res.headers['content-encoding'] !== 'gzip') fail(new Error(`not gzip: ${res.statusCode}`));
        let n = 0;
        res
          .on('data', (c: Buffer) => (n += c.length))
          .on('end', () => ok(n))
          .on('error', fail);
      })
      .on('error', fail);
  });
}

const pool = createPool({ url: await recreateBenchDatabase('vitalis_bench_export'), max: 6, application: 'vitalis-bench-export' });
await migrate(pool);
out(`seeding ${fmt(ROWS)} observations over ${PATIENTS} patients ...`);
await seed(pool);
const dir = await mkdtemp(join(tmpdir(), 'vitalis-export-bench-'));
const storage = folderStorage(dir);

try {
  const plain = await rawCopy(
    pool,
    `COPY (SELECT patient_id, device_id, seq, code, ${STORED_INSTANT_SQL}, value, unit, sample_period_ms, samples, sample_steps FROM vitals_observations) TO STDOUT`,
  );
  const kick = await createExportJob(pool, { clientId: 'bench', subject: 'bench', request: 'bench', filters: [] }, 100);
  if (kick.kind !== 'created') throw new Error('kick-off refused');
  const same = await rawCopy(pool, exportCopySql(kick.job, null), exportPlannerSetting(kick.job));

  // the same export once more into storage that drops the bytes: the figure without the disk
  const dropped = await createExportJob(pool, { clientId: 'bench', subject: 'bench', request: 'bench', filters: [] }, 100);
  if (dropped.kind !== 'created') throw new Error('kick-off refused');
  const discarding: ExportStorage = {
    ...storage,
    create: async () => ({
      stream: new Writable({ write: (_c, _e, done) => done() }) as unknown as WriteStream,
      commit: async () => {},
      discard: async () => {},
    }),
  };
  const t1 = performance.now();
  await runNextExport(pool, {
    storage: discarding,
    maxFileBytes: FILE_MB * 1_048_576,
    leaseMs: 600_000,
    expiresMs: 3_600_000,
    only: [dropped.job.id],
  });
  const droppedSeconds = (performance.now() - t1) / 1000;

  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(process.memoryUsage().rss), 100);
  const load = loadAverage();
  const cpu0 = { worker: cpuOf('self'), postgres: serversCpu().postgres, machine: machineCpu() };
  const started = performance.now();
  const run = await runNextExport(pool, {
    storage,
    maxFileBytes: FILE_MB * 1_048_576,
    leaseMs: 600_000,
    expiresMs: 3_600_000,
    only: [kick.job.id],
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu1 = { worker: cpuOf('self'), postgres: serversCpu().postgres, machine: machineCpu() };
  clearInterval(sampler);
  if (!run || run.outcome !== 'completed' || run.exported !== ROWS) throw new Error(`export ended ${JSON.stringify(run)}`);
  const { rows: files } = await pool.query<{ bytes: number }>('SELECT sum(bytes)::bigint AS bytes FROM export_files WHERE job_id = $1', [
    kick.job.id,
  ]);
  const written = files[0]!.bytes;

  const rate = (s: number) => ROWS / s;
  out('');
  out(
    `raw COPY (no order)          ${fmt(rate(plain.seconds))} rows/s   ${mb(plain.bytes / plain.seconds).toFixed(1)} MB/s (${mb(plain.bytes).toFixed(0)} MB in ${plain.seconds.toFixed(2)} s)`,
  );
  out(
    `raw COPY (the export's query, index order) ${fmt(rate(same.seconds))} rows/s   ${mb(same.bytes / same.seconds).toFixed(1)} MB/s   ordered scan / raw COPY: ${(plain.seconds / same.seconds).toFixed(2)} (goal >= 0.85)`,
  );
  out(
    `export (COPY -> FHIR NDJSON)  ${fmt(rate(seconds))} observations/s   ${mb(written / seconds).toFixed(1)} MB/s of NDJSON (${mb(written).toFixed(0)} MB, ${run.files} files, ${seconds.toFixed(2)} s)`,
  );
  out(
    `  ratio to raw COPY (no order):        ${((rate(seconds) / rate(plain.seconds)) * 100).toFixed(0)}% of rows/s, ${((written / seconds / (plain.bytes / plain.seconds)) * 100).toFixed(0)}% of MB/s`,
  );
  out(`  ratio to raw COPY (the export query): ${((rate(seconds) / rate(same.seconds)) * 100).toFixed(0)}% of rows/s`);
  out(
    `export, files dropped (no disk; gzip still computed) ${fmt(rate(droppedSeconds))} observations/s   ${mb(written / droppedSeconds).toFixed(1)} MB/s of NDJSON`,
  );
  out(
    `  ratio to raw COPY (no order):        ${((rate(droppedSeconds) / rate(plain.seconds)) * 100).toFixed(0)}% of rows/s; to the export's query: ${((rate(droppedSeconds) / rate(same.seconds)) * 100).toFixed(0)}%`,
  );
  // CPU per component from /proc: this process is the export worker (and zlib's thread pool); PostgreSQL all its processes
  const machineBusy = (cpu1.machine.busy - cpu0.machine.busy) / Math.max(1, cpu1.machine.total - cpu0.machine.total);
  figure({
    phase: 'export',
    name: 'ordered scan / raw COPY TO',
    value: plain.seconds / same.seconds,
    unit: 'x',
    load,
    goal: { op: '>=', target: 0.85 },
  });
  figure({ phase: 'export', name: 'export (COPY -> FHIR NDJSON files)', value: rate(seconds), unit: 'obs/s', load });
  cpuFigures(
    'export',
    'export',
    {
      us: { worker: ((cpu1.worker - cpu0.worker) * 1e6) / ROWS, postgres: (cpuUsedBetween(cpu0.postgres, cpu1.postgres) * 1e6) / ROWS },
      busy: machineBusy,
    },
    load,
  );
  const disk = ddRate(dir, written);
  figure({
    phase: 'export',
    name: 'export / dd with fdatasync (same bytes)',
    value: written / seconds / disk,
    unit: 'x',
    load,
    goal: { op: '>=', target: 0.85 },
  });
  out(
    `disk: dd of ${mb(written).toFixed(0)} MB with fdatasync ${mb(disk).toFixed(1)} MB/s; export / dd: ${(written / seconds / disk).toFixed(2)} (goal >= 0.85)`,
  );
  const third = Math.max(1, Math.floor(rss.length / 3));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  out(
    `  RSS: first third ${mb(mean(rss.slice(0, third))).toFixed(0)} MB, last third ${mb(mean(rss.slice(-third))).toFixed(0)} MB (${rss.length} samples)`,
  );

  // 3. time to first byte of the manifest, over real HTTP (the helpers read DATABASE_URL at import)
  const appUrl = new URL((pool.options as { connectionString: string }).connectionString);
  process.env.DATABASE_URL = appUrl.toString();
  appUrl.username = 'vitalis_app';
  const { startGateway } = await import('../helpers/gateway');
  const { authHeaders } = await import('../helpers/auth');
  await pool.query(`INSERT INTO export_groups (id, name, members) VALUES ('bench-small', 'small', ARRAY['pat-small'])`);
  await pool.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT 'pat-small', 'dev-small', i, '8867-4', now() - i * interval '1 second', 70, '/min', 0, i, (SELECT vitals_series_assign('pat-small', '8867-4')) FROM generate_series(1, $1) AS i`,
    [SMALL],
  );
  const gw = await startGateway({
    NODE_ENV: 'test',
    DATABASE_URL: appUrl.toString(),
    EXPORT_STORAGE_DIR: dir,
    EXPORT_MAX_ACTIVE_PER_CLIENT: '100',
  });
  try {
    const headers = await authHeaders(gw.url, ['system/Observation.rs']);
    const ttfb: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const k = await fetch(`${gw.url}/fhir/R4/Group/bench-small/$export`, { headers: { ...headers, prefer: 'respond-async' } });
      const location = k.headers.get('content-location')!;
      const worker = runNextExport(pool, {
        storage,
        maxFileBytes: FILE_MB * 1_048_576,
        leaseMs: 60_000,
        expiresMs: 3_600_000,
        only: [location.split('/').pop()!],
      });
      for (;;) {
        const s = await fetch(location, { headers });
        if (s.status === 200) {
          await s.text();
          break;
        }
        await s.arrayBuffer();
        await new Promise((ok) => setTimeout(ok, 10));
      }
      ttfb.push(performance.now() - t0);
      await worker;
    }
    ttfb.sort((a, b) => a - b);

    // 4. the whole log exported over HTTP and every file downloaded with Accept-Encoding: gzip (the stored gzips)
    const whole0 = performance.now();
    const k = await fetch(`${gw.url}/fhir/R4/$export?_type=Observation`, { headers: { ...headers, prefer: 'respond-async' } });
    const location = k.headers.get('content-location')!;
    const workStarted = performance.now();
    await runNextExport(pool, {
      storage,
      maxFileBytes: FILE_MB * 1_048_576,
      leaseMs: 600_000,
      expiresMs: 3_600_000,
      only: [location.split('/').pop()!],
    });
    const exportSeconds = (performance.now() - workStarted) / 1000;
    const manifest = (await (await fetch(location, { headers })).json()) as { output: { url: string }[] };
    let gzipBytes = 0;
    for (const o of manifest.output) gzipBytes += await gzippedDownload(o.url, headers);
    const wholeSeconds = (performance.now() - whole0) / 1000;
    out(
      `kick-off -> ${manifest.output.length} files downloaded with gzip: ${wholeSeconds.toFixed(2)} s = ${(wholeSeconds / exportSeconds).toFixed(2)} x the export's ${exportSeconds.toFixed(2)} s (goal <= 1.5); ${mb(gzipBytes).toFixed(0)} MB gzip for ${mb(written).toFixed(0)} MB NDJSON (${(written / gzipBytes).toFixed(1)}x)`,
    );
    figure({
      phase: 'export',
      name: 'kick-off -> all files downloaded with gzip / export time',
      value: wholeSeconds / exportSeconds,
      unit: 'x',
      load,
      goal: { op: '<=', target: 1.5 },
    });
    out(
      `time to the manifest of a ${fmt(SMALL)}-row export (kick-off to 200, worker started at once; the projector adds up to EXPORT_POLL_INTERVAL_MS): median ${ttfb[2]!.toFixed(0)} ms, min ${ttfb[0]!.toFixed(0)} ms, max ${ttfb[4]!.toFixed(0)} ms`,
    );
  } finally {
    await gw.close();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
  await pool.end();
}
