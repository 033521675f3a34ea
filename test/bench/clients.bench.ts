/**
 * Client-library overhead (plain script: node --import tsx test/bench/clients.bench.ts; part of
 * `make bench`). A real gateway in this process (database from DATABASE_URL, default vitalis_test)
 * answers GET /api/v1/patients/{id}/vitals/latest; BENCH_CLIENTS_CONNECTIONS loops (default 16)
 * call it for BENCH_CLIENTS_SECONDS each (default 5):
 *   baseline  raw fetch with a fixed Bearer header
 *   client    @vitalis/client `vitals.latest()` (token cache, typed errors, URL building)
 * Prints requests/s and the client as a ratio to the baseline measured in the same run. Never asserts.
 */
import { performance } from 'node:perf_hooks';
import { ClientCredentials, VitalisClient } from '@vitalis/client';
import setup from '../helpers/global-setup';
import { startGateway } from '../helpers/gateway';
import { registerClient, clientCredentialsToken } from '../helpers/auth';

const SECONDS = Number(process.env.BENCH_CLIENTS_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CLIENTS_CONNECTIONS ?? 16);

async function measure(name: string, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 100; i++) await call(); // warm-up: JIT, keep-alive pool, token cache
  let n = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        await call();
        n++;
      }
    }),
  );
  const rate = n / ((performance.now() - started) / 1000);
  console.log(`${name.padEnd(10)} ${rate.toFixed(0).padStart(7)} req/s`);
  return rate;
}

await setup();
const gw = await startGateway({ LOG_LEVEL: 'error' });
try {
  const registered = await registerClient(gw.url, ['read:vitals'], 'bench-clients');
  const token = await clientCredentialsToken(gw.url, registered);
  const patient = 'pat-bench-clients';
  const url = `${gw.url}/api/v1/patients/${patient}/vitals/latest`;
  const raw = async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (!res.ok) throw new Error(`baseline: ${res.status}`);
    await res.json();
  };
  const api = new VitalisClient({
    baseUrl: gw.url,
    auth: new ClientCredentials(gw.url, { clientId: registered.client_id, clientSecret: registered.client_secret }),
  });
  // baseline before and after the client, so warm-up and drift do not favour either side
  const before = await measure('baseline', raw);
  const client = await measure('client', () => api.vitals.latest(patient));
  const after = await measure('baseline', raw);
  const baseline = (before + after) / 2;
  console.log(`client / baseline = ${(client / baseline).toFixed(2)} (${CONNECTIONS} loops, ${SECONDS} s each, gateway in-process)`);
} finally {
  await gw.close();
}
