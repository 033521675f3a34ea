/**
 * Event store benchmark (node --import tsx test/bench/eventstore.bench.ts). One run prints:
 *  1. baseline: plain single-row INSERTs (one per transaction, W concurrent writers) into a scratch
 *     table shaped like `events` without its constraints/trigger/indexes beyond the primary key;
 *  2. append(): one event per call on new streams (version check + unique constraint + trigger),
 *     same writers — events/s and the ratio to the baseline; the same with the NOTIFY trigger
 *     disabled (its price), and with the commit-order position lock disabled (its price, ADR 0017);
 *     and 10-event appends vs 10-row INSERTs;
 *  3. projection catch-up: the patients projection replaying BENCH_EVENTS events from zero
 *     (gap-safe reads, fold, upserts, checkpoint per batch) — events/s and the ratio to the baseline;
 *  4. freshness under a foreign transaction: while another database of the server holds a
 *     transaction with an xid open, the time from an append's commit until readAll returns it
 *     (median of 50; before ADR 0017 it waited for the foreign transaction to end).
 * Uses its own database (vitalis_bench_i5), dropped and created afresh on every run.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createPool, migrate, type Pool } from '@vitalis/db';
import { recreateBenchDatabase } from './database';
import { append, readAll } from '@vitalis/eventstore';
import { catchUp } from '../../apps/projector/src/projections/runner';
import { patientsProjection } from '../../apps/projector/src/projections/definitions';

const env = process.env;
const EVENTS = Number(env.BENCH_EVENTS ?? 20_000);
const WRITERS = Number(env.BENCH_WRITERS ?? 8);
const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function ensureDatabase(): Promise<Pool> {
  const pool = createPool({
    url: await recreateBenchDatabase('vitalis_bench_i5'),
    max: WRITERS + 2,
    application: 'vitalis-bench-eventstore',
  });
  await migrate(pool);
  return pool;
}

/** Runs `total` operations over `WRITERS` concurrent loops; returns operations per second. */
async function rate(total: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      for (let i = next++; i < total; i = next++) await op(i);
    }),
  );
  return total / ((performance.now() - started) / 1000);
}

const data = (i: number) => ({
  patientId: `pat-b${i}`,
  family: `Bench${i}`,
  given: ['Ann'],
  birthDate: '1970-01-01',
  gender: 'female',
  identifiers: [{ system: 'urn:bench', value: String(i) }],
});

/** Median ms from an append's return to readAll returning it, while another database holds an xid. */
async function freshnessUnderForeignTransaction(db: Pool, run: string): Promise<string> {
  const foreign = createPool({ url: env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres', max: 1 });
  const holder = await foreign.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_current_xact_id()');
    const ms: number[] = [];
    for (let i = 0; i < 50; i++) {
      const { events } = await append(db, `patient-pat-${run}-f${i}`, 0, [
        { type: 'PatientRegistered', data: { ...data(i), patientId: `pat-${run}-f${i}` } },
      ]);
      const at = events[0]!.globalPosition;
      const started = performance.now();
      for (;;) {
        const got = await readAll(db, at - 1, 1);
        if (got[0]?.globalPosition === at) break;
        if (performance.now() - started > 5_000) return 'not read within 5 s (the reader waits for the foreign transaction)';
      }
      ms.push(performance.now() - started);
    }
    ms.sort((a, b) => a - b);
    return `median ${ms[25]!.toFixed(2)} ms, max ${ms[49]!.toFixed(2)} ms from commit to read (50 appends)`;
  } finally {
    await holder.query('ROLLBACK').catch(() => {});
    holder.release();
    await foreign.end();
  }
}

const pool = await ensureDatabase();
try {
  await pool.query('DROP TABLE IF EXISTS bench_plain_events');
  await pool.query(`CREATE TABLE bench_plain_events (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, event_id uuid NOT NULL, stream_id text NOT NULL,
    stream_version integer NOT NULL, type text NOT NULL, data jsonb NOT NULL, metadata jsonb NOT NULL)`);
  const run = randomUUID().slice(0, 8);
  out(`events: ${fmt(EVENTS)}, concurrent writers: ${WRITERS}`);

  const baseline = await rate(EVENTS, (i) =>
    pool.query('INSERT INTO bench_plain_events (event_id, stream_id, stream_version, type, data, metadata) VALUES ($1,$2,1,$3,$4,$5)', [
      randomUUID(),
      `b-${run}-${i}`,
      'PatientRegistered',
      data(i),
      { actor: 'bench' },
    ]),
  );
  out(`1. baseline plain INSERT (1 row/tx):          ${fmt(baseline)} rows/s`);

  const single = await rate(EVENTS, (i) =>
    append(pool, `patient-pat-${run}-${i}`, 0, [{ type: 'PatientRegistered', data: { ...data(i), patientId: `pat-${run}-${i}` } }], {
      actor: 'bench',
    }),
  );
  out(`2. append() 1 event/call (new streams):       ${fmt(single)} events/s = ${(single / baseline).toFixed(2)} x baseline`);

  // The same without the NOTIFY trigger (migration 0007): NOTIFY serialises committing
  // transactions on a global queue lock, so its price shows under concurrency.
  await pool.query('ALTER TABLE events DISABLE TRIGGER events_notify');
  const quiet = await rate(EVENTS, (i) =>
    append(pool, `patient-pat-${run}-q${i}`, 0, [{ type: 'PatientRegistered', data: { ...data(i), patientId: `pat-${run}-q${i}` } }], {
      actor: 'bench',
    }),
  ).finally(() => pool.query('ALTER TABLE events ENABLE TRIGGER events_notify'));
  out(`   append() without the NOTIFY trigger:       ${fmt(quiet)} events/s = ${(quiet / baseline).toFixed(2)} x baseline`);

  // The same without the commit-order lock (migration 0024): what serialising writers costs.
  await pool.query('ALTER TABLE events DISABLE TRIGGER events_position_lock');
  const unordered = await rate(EVENTS, (i) =>
    append(pool, `patient-pat-${run}-u${i}`, 0, [{ type: 'PatientRegistered', data: { ...data(i), patientId: `pat-${run}-u${i}` } }], {
      actor: 'bench',
    }),
  ).finally(() => pool.query('ALTER TABLE events ENABLE TRIGGER events_position_lock'));
  out(
    `   append() without the position lock:        ${fmt(unordered)} events/s = ${(unordered / baseline).toFixed(2)} x baseline (with it: ${(single / unordered).toFixed(2)} x)`,
  );

  const batches = EVENTS / 10;
  const plain10 =
    (await rate(batches, (i) =>
      pool.query(
        `INSERT INTO bench_plain_events (event_id, stream_id, stream_version, type, data, metadata)
     SELECT gen_random_uuid(), $1, v, 'PatientUpdated', $2, $3 FROM generate_series(1, 10) v`,
        [`b10-${run}-${i}`, { family: 'X' }, { actor: 'bench' }],
      ),
    )) * 10;
  const append10 =
    (await rate(batches, (i) =>
      append(
        pool,
        `patient-pat-${run}-${i}`,
        1,
        Array.from({ length: 10 }, () => ({ type: 'PatientUpdated', data: { family: 'X' } })),
        { actor: 'bench' },
      ),
    )) * 10;
  out(`   10-row INSERT / 10-event append():         ${fmt(plain10)} / ${fmt(append10)} events/s = ${(append10 / plain10).toFixed(2)} x`);

  // A fresh table and checkpoint: the replay covers every event in the bench database.
  await pool.query('DROP TABLE IF EXISTS rm_patients_rebuild_bench');
  await pool.query('CREATE TABLE rm_patients_rebuild_bench (LIKE rm_patients INCLUDING ALL)');
  const started = performance.now();
  const r = await catchUp(pool, patientsProjection, {
    checkpoint: `patients-bench-${run}`,
    table: 'rm_patients_rebuild_bench',
    batch: 1_000,
  });
  const catchRate = r.events / ((performance.now() - started) / 1000);
  out(
    `3. projection catch-up (patients, from 0):    ${fmt(catchRate)} events/s over ${fmt(r.events)} events = ${(catchRate / baseline).toFixed(2)} x baseline`,
  );
  await pool.query('DROP TABLE IF EXISTS rm_patients_rebuild_bench');

  out(`4. freshness with a foreign transaction open:  ${await freshnessUnderForeignTransaction(pool, run)}`);
} finally {
  await pool.end();
}
