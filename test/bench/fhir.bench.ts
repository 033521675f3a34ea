/**
 * FHIR R4 Observation search benchmark (plain script: node --import tsx test/bench/fhir.bench.ts).
 * One patient's 24 h of 1 Hz heart rate (86,400 rows) among BENCH_FHIR_ROWS rows of the append log
 * (default 10,000,000: the acceptance size; run it small on a shared machine), searched the whole
 * day page by page (BENCH_FHIR_PAGE rows a page, following the next link) through
 *   FHIR:    GET /fhir/R4/Observation?patient=&code=&date=ge&date=lt&_count=   (Bundle.link next)
 *   REST v1: GET /api/v1/vitals?patient=&code=&from=&to=&limit=                 (next cursor)
 *   REST v1 as FHIR: the same with Accept: application/fhir+json (the same Bundle of Observations)
 * the same query through the same vitals service (readHistory). Prints per-page p50/p99 and
 * whole-day walk p50/p99 of each, and the FHIR/REST ratios (goal: within 1.25x). A FHIR page is
 * about 6 times the bytes of a REST v1 JSON page (a full Observation per row), so the ratio to REST
 * v1 as FHIR is what the FHIR layer itself costs. The walks are interleaved, so a load spike on the
 * shared machine hits each.
 * Uses its own database (BENCH_DATABASE, default vitalis_bench_fhir), dropped and made anew.
 */
import { performance } from 'node:perf_hooks';
import { availableParallelism } from 'node:os';
import { createPool, migrate } from '@vitalis/db';
import { VITAL_CODE } from '@vitalis/schemas';
import { clientCredentialsToken, registerClient } from '../helpers/auth';
import { startGateway } from '../helpers/gateway';
import { recreateBenchDatabase } from './database';

const env = process.env;
const ROWS = Number(env.BENCH_FHIR_ROWS ?? 10_000_000);
const PAGE = Number(env.BENCH_FHIR_PAGE ?? 1_000);
/** Whole-day walks per API (each is 86,400 / PAGE requests). */
const WALKS = Number(env.BENCH_FHIR_WALKS ?? 10);
const DAY_ROWS = 86_400;

const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

const dbUrl = await recreateBenchDatabase('vitalis_bench_fhir');
const pool = createPool({ url: dbUrl, max: 4, application: 'vitalis-bench-fhir' });
await migrate(pool);
await pool.query('SELECT vitalis_ensure_vitals_partitions(3, 1)');

const day = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) - 86_400_000);
const from = day.toISOString();
const to = new Date(day.getTime() + 86_400_000).toISOString();
const target = 'fhirbench-target';
out(
  `fhir bench: ${new Date().toISOString()}, BENCH_FHIR_ROWS=${fmt(ROWS)}, page ${PAGE}, ${WALKS} whole-day walks per API, cores ${availableParallelism()}`,
);

const t0 = performance.now();
await pool.query(
  `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
   SELECT $1, $1 || '-dev', s, $3, $2::timestamptz + s * interval '1 second', 60 + 20 * sin(s / 600.0) + (s % 7), '/min', 0, s, (SELECT vitals_series_assign($1, $3)) FROM generate_series(0, 86399) s`,
  [target, from, VITAL_CODE.heartRate],
);
const others = Math.max(0, ROWS - DAY_ROWS);
for (let p = 0; p * DAY_ROWS < others; p += 10) {
  await pool.query(
    `WITH k AS (SELECT p, vitals_series_assign('fhirbench-p' || p, $2) AS series_id FROM generate_series($3::int, $3::int + 9) p)
     INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT 'fhirbench-p' || p, 'fhirbench-p' || p || '-dev', s, $2, $1::timestamptz + s * interval '1 second', 70 + (s % 13), '/min', p % 12, s, k.series_id
       FROM k, generate_series(0, 86399) s WHERE p * 86400 + s < $4`,
    [from, VITAL_CODE.heartRate, p, others],
  );
}
await pool.query('ANALYZE vitals_observations');
out(`  ${fmt(ROWS)} rows generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

const gw = await startGateway({ DATABASE_URL: dbUrl, LOG_LEVEL: 'error', NODE_ENV: env.NODE_ENV ?? 'development' });
try {
  const client = await registerClient(gw.url, ['read:vitals'], 'fhir-bench', 'system', dbUrl);
  const headers = { authorization: `Bearer ${await clientCredentialsToken(gw.url, client)}` };
  const code = VITAL_CODE.heartRate;
  const first = {
    fhir: `${gw.url}/fhir/R4/Observation?patient=${target}&code=${code}&date=ge${from}&date=lt${to}&_count=${PAGE}`,
    rest: `${gw.url}/api/v1/vitals?patient=${target}&code=${code}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&limit=${PAGE}`,
  };
  type Api = 'fhir' | 'rest' | 'restFhir';
  const firstOf = (api: Api) => (api === 'restFhir' ? first.rest : first[api]);
  const acceptOf = (api: Api): Record<string, string> => (api === 'restFhir' ? { accept: 'application/fhir+json' } : {});
  const nextOf = {
    fhir: (b: any): string | undefined => b.link.find((l: { relation: string }) => l.relation === 'next')?.url,
    rest: (b: any): string | undefined => b.next ?? undefined,
    restFhir: (b: any): string | undefined => b.link.find((l: { relation: string }) => l.relation === 'next')?.url,
  };
  const rowsOf = {
    fhir: (b: any): number => b.entry?.length ?? 0,
    rest: (b: any): number => b.count,
    restFhir: (b: any): number => b.entry?.length ?? 0,
  };
  const pages: Record<Api, number[]> = { fhir: [], rest: [], restFhir: [] };
  const walks: Record<Api, number[]> = { fhir: [], rest: [], restFhir: [] };
  const walk = async (api: Api, record: boolean) => {
    let url: string | undefined = firstOf(api);
    let rows = 0;
    const start = performance.now();
    while (url) {
      const t = performance.now();
      const res = await fetch(url, { headers: { ...headers, ...acceptOf(api) } });
      const body = (await res.json()) as any;
      if (res.status !== 200) throw new Error(`${api} ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
      if (record) pages[api].push(performance.now() - t);
      rows += rowsOf[api](body);
      url = nextOf[api](body);
    }
    if (rows !== DAY_ROWS) throw new Error(`${api} walked ${rows} rows, not ${DAY_ROWS}`);
    if (record) walks[api].push(performance.now() - start);
  };
  await walk('fhir', false); // warm-up
  await walk('rest', false);
  await walk('restFhir', false);
  const order: Api[] = ['fhir', 'rest', 'restFhir'];
  for (let i = 0; i < WALKS; i++) {
    // rotate which goes first, so none always follows another's cache warm-up
    for (let k = 0; k < order.length; k++) await walk(order[(i + k) % order.length]!, true);
  }
  for (const a of [...Object.values(pages), ...Object.values(walks)]) a.sort((x, y) => x - y);
  const line = (label: string, xs: number[]) =>
    `  ${label}: p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms (${xs.length})`;
  out(`24 h of 1 Hz heart rate (${fmt(DAY_ROWS)} rows, ${Math.ceil(DAY_ROWS / PAGE)} pages) of one patient among ${fmt(ROWS)} rows:`);
  out(line('FHIR    page', pages.fhir));
  out(line('REST v1 page', pages.rest));
  out(line('FHIR    whole day', walks.fhir));
  out(line('REST v1 whole day', walks.rest));
  out(line('REST v1 as FHIR page', pages.restFhir));
  out(line('REST v1 as FHIR whole day', walks.restFhir));
  const ratio = (a: number[], b: number[], p: number) => (pct(a, p) / pct(b, p)).toFixed(2);
  const ratios = (of: Api) =>
    `page p50 ${ratio(pages.fhir, pages[of], 50)}x, page p99 ${ratio(pages.fhir, pages[of], 99)}x, whole day p50 ${ratio(walks.fhir, walks[of], 50)}x, whole day p99 ${ratio(walks.fhir, walks[of], 99)}x`;
  out(`ratios FHIR / REST v1 JSON (goal within 1.25x): ${ratios('rest')}`);
  out(`ratios FHIR / REST v1 as FHIR (the same Bundle): ${ratios('restFhir')}`);
} finally {
  await gw.close();
  await pool.end();
}
