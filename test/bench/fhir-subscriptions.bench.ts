/**
 * FHIR subscription numbering benchmark (node --import tsx test/bench/fhir-subscriptions.bench.ts):
 * the price of giving events their numbers (store.ts `numberEvents`: one transaction per batch, the
 * subscription row's lock, an idempotency probe, the event row with its Observation, the counter).
 * Prints events/s for BENCH_SUBSCRIPTIONS (default 1,16) subscriptions numbered at once, each one
 * in order as the numberer does (BENCH_EVENTS each, default 2,000), the same again as a second
 * gateway would (every event already numbered), and `$events` reads of 1,000 events; BENCH_BATCH
 * events per transaction (default 1).
 * Uses its own database (vitalis_bench_fhir_subscriptions), dropped and created afresh on every run.
 */
import { performance } from 'node:perf_hooks';
import { createPool, migrate, MIGRATIONS_DIR } from '@vitalis/db';
import { toFhirObservation, VITAL_CODE } from '@vitalis/schemas';
import { eventsBetween, insertSubscription, numberEvents } from '../../apps/gateway/src/fhir/subscriptions/store';
import { recreateBenchDatabase } from './database';

const env = process.env;
const EVENTS = Number(env.BENCH_EVENTS ?? 2_000);
const SUBSCRIPTIONS = (env.BENCH_SUBSCRIPTIONS ?? '1,16').split(',').map(Number);
/** Events per transaction: 1 (an event at a time, a quiet patient) or more (what arrives while one is numbered). */
const BATCH = Number(env.BENCH_BATCH ?? 1);
const out = (line: string) => process.stdout.write(`${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

const pool = createPool({
  url: await recreateBenchDatabase('vitalis_bench_fhir_subscriptions'),
  max: Math.max(...SUBSCRIPTIONS) + 2,
  application: 'vitalis-bench-fhir-subs',
});
try {
  await migrate(pool, MIGRATIONS_DIR);
  const focus = (i: number) => ({
    fullUrl: `urn:uuid:00000000-0000-5000-8000-${String(i).padStart(12, '0')}`,
    resource: toFhirObservation({
      patient_id: 'pat-b',
      device_id: 'dev-b',
      seq: i,
      effective_at: new Date(Date.UTC(2026, 10, 25, 0, 0, i)).toISOString(),
      code: VITAL_CODE.heartRate,
      value: 70,
      unit: '/min',
    }) as unknown as Record<string, unknown>,
  });
  for (const n of SUBSCRIPTIONS) {
    const ids = Array.from({ length: n }, (_, s) => `bench-${n}-${s}`);
    for (const id of ids) {
      await insertSubscription(
        pool,
        id,
        { clientId: 'bench', subject: 'bench' },
        { topic: 'vitals', patientId: 'pat-b', codes: null, reason: 'bench', payloadContent: 'full-resource', heartbeatSeconds: null },
        { liveTopic: 'bench', id: '' },
      );
    }
    const run = async () => {
      const started = performance.now();
      await Promise.all(
        ids.map(async (id) => {
          for (let i = 1; i <= EVENTS; i += BATCH) {
            await numberEvents(
              pool,
              id,
              Array.from({ length: Math.min(BATCH, EVENTS - i + 1) }, (_, j) => ({ liveId: `0-${i + j}`, focus: focus(i + j) })),
            );
          }
        }),
      );
      return (n * EVENTS) / ((performance.now() - started) / 1000);
    };
    out(
      `${n} subscription(s) x ${fmt(EVENTS)} events, ${BATCH} a transaction: numbered ${fmt(await run())} events/s; again (already numbered, a second gateway) ${fmt(await run())} events/s`,
    );
  }
  const started = performance.now();
  const reads = 20;
  for (let r = 0; r < reads; r++) await eventsBetween(pool, `bench-${SUBSCRIPTIONS[0]}-0`, 1, 1_000, 1_000);
  out(`$events store read of 1,000 events: ${((performance.now() - started) / reads).toFixed(1)} ms`);
} finally {
  await pool.end();
}
