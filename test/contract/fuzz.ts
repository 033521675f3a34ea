/**
 * The contract check (`make contract-check`; docs/contract-testing.md): fuzzes every operation of
 * the gateway's published OpenAPI document with Schemathesis against a real gateway and fails on
 * any finding.
 *
 * Steps: migrate the database and create the topics (as the test suite's global setup does), seed
 * the demo records (patients pat-0001..0020, slots, ED arrivals) so the operations find data,
 * start the real gateway (apps/gateway/src/main.ts) as a child process on a free port as the
 * least-privileged app role with the test suite's settings, register a `system` client holding
 * every machine scope through the real registration endpoint and take a client_credentials token,
 * run `schemathesis run` (the settings live in test/contract/schemathesis.toml, each with its
 * reason) with that token on the document the gateway serves, then stop the gateway.
 *
 * Env: DATABASE_URL (the owner; default vitalis_test), REDIS_URL, KAFKA_BROKERS as for the tests;
 * CONTRACT_FUZZ_ARGS: extra schemathesis arguments (e.g. `--include-path /api/v1/vitals`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createPool, migrate } from '@vitalis/db';
import { createKafka, ensureTopics } from '@vitalis/kafka';
import { SCOPE_NAMES, isSignInScope } from '@vitalis/schemas';
import { seedRecords } from '../../apps/gateway/src/seed-records';
import { clientCredentialsToken, registerClient } from '../helpers/auth';
import { ONE_ADDRESS_LIMITS, testEnv } from '../helpers/env';
import { freePort } from '../helpers/processes';

const root = fileURLToPath(new URL('../../', import.meta.url));
const venvBin = process.env.CONTRACT_VENV_BIN ?? `${root}.data/contract-venv/bin`;

async function prepareDatabase(): Promise<void> {
  const pool = createPool({ url: testEnv.DATABASE_URL, max: 2, application: 'vitalis-contract-check' });
  try {
    await migrate(pool);
    await ensureTopics(createKafka({ brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-contract-check', retries: 2 }));
    await seedRecords(pool);
  } finally {
    await pool.end();
  }
}

async function waitUntilUp(base: string, exited: () => boolean): Promise<void> {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (exited()) throw new Error('contract check: the gateway exited at start');
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('contract check: the gateway did not start within 60 s');
}

async function main(): Promise<number> {
  await prepareDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const gateway = spawn(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
      DATABASE_URL: testEnv.APP_DATABASE_URL,
      REDIS_URL: testEnv.REDIS_URL,
      KAFKA_BROKERS: testEnv.KAFKA_BROKERS.join(','),
      // The fuzzer speaks from 127.0.0.1 for every request: the per-address budgets would otherwise
      // turn most of its cases into 429s and test the limiter instead of the operations. The
      // limits keep their 429 declared in the document; test/integration tests each limit.
      ...ONE_ADDRESS_LIMITS,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitUntilUp(base, () => gateway.exitCode !== null);
    const client = await registerClient(base, SCOPE_NAMES.filter((s) => !isSignInScope(s)), 'vitalis-contract-check');
    const token = await clientCredentialsToken(base, client);
    const extra = (process.env.CONTRACT_FUZZ_ARGS ?? '').split(/\s+/).filter(Boolean);
    // The document as this gateway serves it, from a file: loaded from its URL, Schemathesis leaves
    // out the operation that serves it (GET /openapi.json), and every operation is tested here.
    const documentFile = `${root}.data/contract-openapi.json`;
    await writeFile(documentFile, await (await fetch(`${base}/openapi.json`)).text());
    const fuzzer = spawn(`${venvBin}/schemathesis`, ['--config-file', `${root}test/contract/schemathesis.toml`, 'run', documentFile, '--url', base, ...extra], {
      cwd: root,
      // The token reaches the fuzzer in its environment (schemathesis.toml reads ${CONTRACT_TOKEN}),
      // never in an argv other processes can list; Schemathesis masks it in its output.
      env: { ...process.env, CONTRACT_TOKEN: token },
      stdio: 'inherit',
    });
    const [code] = (await once(fuzzer, 'exit')) as [number | null];
    return code ?? 1;
  } finally {
    gateway.kill('SIGTERM');
    if (gateway.exitCode === null) await once(gateway, 'exit');
  }
}

process.exitCode = await main();
