/**
 * Audit chain benchmark (node --import tsx test/bench/audit.bench.ts): the price of the hash chain
 * (migration 0014: one row lock on the chain head per insert, held to COMMIT). One run prints
 * audit inserts/s for 1, 4 and 16 concurrent writers (BENCH_WRITERS), each row its own
 * transaction, first on the schema before 0014 and then after it, and the verifier's rows/s.
 * Uses its own database (vitalis_bench_audit_chain), dropped and created afresh on every run.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { recreateBenchDatabase } from './database';
import { createPool, migrate, MIGRATIONS_DIR, readMigrations, type Pool } from '@vitalis/db';
import { recordAudit, verifyChain } from '@vitalis/audit';

const env = process.env;
const ROWS = Number(env.BENCH_ROWS ?? 4_000);
const WRITERS = (env.BENCH_WRITERS ?? '1,4,16').split(',').map(Number);
const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** `total` audit rows over `writers` concurrent loops (each row its own transaction); rows/s. */
async function rate(pool: Pool, writers: number, total: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = next++; i < total; i = next++) {
        await recordAudit(pool, {
          action: 'patient.read',
          outcome: 'success',
          clientId: 'bench-client',
          subject: `usr-${i % 50}`,
          scope: 'read:patients',
          resourceType: 'Patient',
          resourceId: `pat-${i}`,
          requestId: `req-${i}`,
          ip: '10.0.0.1',
          detail: { view: 'clinical', vitals: true },
        });
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

const pool = createPool({
  url: await recreateBenchDatabase('vitalis_bench_audit_chain'),
  max: Math.max(...WRITERS) + 2,
  application: 'vitalis-bench-audit',
});
const before = await mkdtemp(join(tmpdir(), 'vitalis-bench-migrations-'));
try {
  // The schema before the chain: every migration up to 0013.
  for (const m of await readMigrations()) {
    if (m.version < 14)
      await cp(
        join(MIGRATIONS_DIR, `${String(m.version).padStart(4, '0')}_${m.name}.sql`),
        join(before, `${String(m.version).padStart(4, '0')}_${m.name}.sql`),
      );
  }
  await migrate(pool, `${before}/`);
  out(`audit rows per run: ${fmt(ROWS)}`);
  const plain = new Map<number, number>();
  for (const w of WRITERS) plain.set(w, await rate(pool, w, ROWS));
  const backfillStarted = performance.now();
  await migrate(pool); // 0014: the chain, backfilling every row written above
  const backfilled = Number((await pool.query('SELECT count(*) AS n FROM audit_events')).rows[0].n);
  out(`migration 0014 backfill: ${fmt(backfilled)} rows in ${fmt(performance.now() - backfillStarted)} ms`);
  for (const w of WRITERS) {
    const chained = await rate(pool, w, ROWS);
    out(
      `writers ${String(w).padStart(2)}: before ${fmt(plain.get(w)!).padStart(7)} rows/s, chained ${fmt(chained).padStart(7)} rows/s (${Math.round((chained / plain.get(w)!) * 100)}%)`,
    );
  }
  const verifyStarted = performance.now();
  const result = await verifyChain(pool);
  const seconds = (performance.now() - verifyStarted) / 1000;
  out(`verify: ${fmt(result.rows)} rows in ${seconds.toFixed(2)} s (${fmt(result.rows / seconds)} rows/s), ok: ${result.ok}`);
} finally {
  await pool.end();
  await rm(before, { recursive: true, force: true });
}
