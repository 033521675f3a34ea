/**
 * Critical-result latency benchmark (node --import tsx test/bench/diagnostics.bench.ts; `make bench`).
 * One gateway (in this process, on an ephemeral port) over a database of the run's own (dropped
 * and created afresh), one clinician's SSE subscription to the patient; BENCH_REPORTS (200) times,
 * one after the other: the lab posts a report with a critical potassium (6.5 mmol/L, HH) for an
 * active order, and the clock runs from the POST being sent to the `critical-result` event reaching
 * the subscriber. Prints p50/p99 of that and, as baselines measured in the same run, the POST's own
 * round trip (decide + commit + audit + publish) and a bare Redis publish → subscriber hop. Never
 * asserts (the issue's goal: p99 under 1 s).
 */
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import { createPool, migrate } from '@vitalis/db';
import { recreateBenchDatabase } from './database';
import { createRedis } from '@vitalis/redis';
import { clientCredentialsToken, registerClient } from '../helpers/auth';
import { startGateway } from '../helpers/gateway';
import { pumpSse } from '../helpers/sse';
import { registerPatient } from '../../apps/gateway/src/patients/service';

const env = process.env;
const REPORTS = Number(env.BENCH_REPORTS ?? 200);
const REDIS_URL = env.REDIS_URL ?? 'redis://127.0.0.1:56379';
const out = (line: string) => process.stdout.write(`${line}\n`);
const LOINC = 'http://loinc.org';

async function freshDatabase(): Promise<string> {
  const url = await recreateBenchDatabase('vitalis_bench_diagnostics');
  const pool = createPool({ url, max: 1, application: 'vitalis-bench-diagnostics' });
  await migrate(pool);
  await pool.end();
  return url;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const line = (name: string, xs: number[]) =>
  out(`${name.padEnd(46)} p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms   p99 ${pct(xs, 99).toFixed(1).padStart(7)} ms   (n=${xs.length})`);

const DB_URL = await freshDatabase();
const gw = await startGateway({ DATABASE_URL: DB_URL, LOG_LEVEL: 'error', NODE_ENV: 'development' });
try {
  const bearer = async (role: 'doctor' | 'lab', scopes: Parameters<typeof registerClient>[1]) => ({
    authorization: `Bearer ${await clientCredentialsToken(gw.url, await registerClient(gw.url, scopes, `bench-${role}`, role, DB_URL))}`,
  });
  const doctor = await bearer('doctor', ['read:diagnostics', 'write:diagnostics', 'read:vitals']);
  const lab = await bearer('lab', ['read:diagnostics', 'write:diagnostics']);
  const patient = (
    await registerPatient(
      gw.deps.pool,
      {
        principal: {
          clientId: 'bench',
          subject: 'bench',
          scopes: ['write:patients'],
          roles: ['system'],
          tokenId: 'bench',
          expiresAt: 2e9,
          authMethod: 'client_secret',
          derivedFrom: [],
          sandbox: false,
        },
      },
      { family: 'Bench', given: ['Kay'] },
    )
  ).id;
  const post = (path: string, headers: Record<string, string>, body: unknown) =>
    fetch(`${gw.url}/api/v1/diagnostics${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  // the subscriber
  const arrived = new Map<string, number>();
  let wake: (() => void) | undefined;
  const ctrl = new AbortController();
  const res = await fetch(`${gw.url}/api/v1/vitals/stream?patient=${patient}`, {
    headers: { ...doctor, accept: 'text/event-stream' },
    signal: ctrl.signal,
  });
  if (res.status !== 200 || !res.body) throw new Error(`stream refused: ${res.status}`);
  const parser = createParser({
    onEvent: (e) => {
      if (e.event !== 'critical-result') return;
      const d = JSON.parse(e.data) as { event: string; report_id: string };
      if (d.event === 'CriticalResultRaised') arrived.set(d.report_id, performance.now());
      wake?.();
    },
  });
  void pumpSse(res.body, parser);

  const toSubscriber: number[] = [];
  const roundTrip: number[] = [];
  for (let i = 0; i < REPORTS + 10; i++) {
    const order = (await (
      await post('/orders', doctor, {
        resourceType: 'ServiceRequest',
        intent: 'order',
        priority: 'stat',
        subject: { reference: `Patient/${patient}` },
        code: { coding: [{ system: LOINC, code: '51990-0' }] },
      })
    ).json()) as { id: string };
    const body = {
      resourceType: 'DiagnosticReport',
      status: 'final',
      identifier: [{ system: 'urn:bench:accession', value: `B-${i}-${order.id}` }],
      basedOn: [{ reference: `ServiceRequest/${order.id}` }],
      contained: [
        {
          resourceType: 'Observation',
          code: { coding: [{ system: LOINC, code: '2823-3' }] },
          valueQuantity: { value: 6.5, unit: 'mmol/L' },
        },
      ],
    };
    const t0 = performance.now();
    const r = await post('/reports', lab, body);
    const t1 = performance.now();
    const { id } = (await r.json()) as { id: string };
    const deadline = Date.now() + 10_000;
    while (!arrived.has(id)) {
      if (Date.now() > deadline) throw new Error(`no critical-result for ${id}`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    if (i < 10) continue; // warm-up
    toSubscriber.push(arrived.get(id)! - t0);
    roundTrip.push(t1 - t0);
  }
  ctrl.abort();

  // baseline: a bare Redis publish -> subscriber hop on the same server
  const pub = createRedis({ url: REDIS_URL, name: 'bench-pub' });
  const sub = createRedis({ url: REDIS_URL, name: 'bench-sub' });
  await Promise.all([pub.connect(), sub.connect()]);
  const hops: number[] = [];
  let sent = 0;
  let resolveHop: (() => void) | undefined;
  sub.on('message', () => {
    hops.push(performance.now() - sent);
    resolveHop?.();
  });
  await sub.subscribe('vitalis:bench:diagnostics');
  for (let i = 0; i < REPORTS; i++) {
    const got = new Promise<void>((resolve) => (resolveHop = resolve));
    sent = performance.now();
    await pub.publish('vitalis:bench:diagnostics', 'x');
    await got;
  }
  pub.disconnect();
  sub.disconnect();

  out(`critical results: ${REPORTS} (after 10 warm-up), one SSE subscriber, gateway in process`);
  line('report POST sent -> SSE critical-result event', toSubscriber);
  line('baseline: report POST round trip (201)', roundTrip);
  line('baseline: Redis publish -> subscriber', hops);
  out(
    `subscriber minus the POST's answer at p50: ${(pct(toSubscriber, 50) - pct(roundTrip, 50)).toFixed(1)} ms (negative: the clinician sees it before the lab has its 201)`,
  );
} finally {
  await gw.close();
}
process.exit(0);
