/**
 * The contract check (`make contract-check`; docs/contract-testing.md): fuzzes every operation of
 * the gateway's published OpenAPI document with Schemathesis against a real gateway and fails on
 * any finding.
 *
 * Steps: make a fresh database of its own and migrate it, create topics of its own (CONTRACT_TOPICS), seed the demo records (patients pat-0001..0020, slots, ED arrivals) so the operations find data,
 * start the real gateway (apps/gateway/src/main.ts) as a child process on a free port as the
 * least-privileged app role with the test suite's settings, register a `system` client holding
 * every machine scope through the real registration endpoint and take a client_credentials token,
 * run `schemathesis run` (the settings live in test/contract/schemathesis.toml, each with its
 * reason) with that token on the document the gateway serves, then stop the gateway.
 *
 * Env: DATABASE_URL (the owner; default vitalis_test: the check runs in `<its database>_fuzz`, made
 * anew), CONTRACT_DATABASE_URL (another database, as it is), REDIS_URL, KAFKA_BROKERS as for the tests;
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
import { CONTRACT_TOPICS, ONE_ADDRESS_LIMITS, asAppRole, testEnv } from '../helpers/env';
import { recreateDatabase } from '../helpers/fresh-database';
import { freePort } from '../helpers/processes';

const root = fileURLToPath(new URL('../../', import.meta.url));
const venvBin = process.env.CONTRACT_VENV_BIN ?? `${root}.data/contract-venv/bin`;

/**
 * The fuzzer writes (registers patients, books slots, posts results): it gets a database of its own,
 * `<DATABASE_URL's database>_fuzz`, dropped and created anew at every run (CONTRACT_DATABASE_URL
 * names another), so the test suite's data is never touched and every run starts from the same
 * seeded state (with the fixed seed: the same cases). Returns the owner's URL.
 */
async function prepareDatabase(): Promise<string> {
  const owner = new URL(testEnv.DATABASE_URL);
  const ownerUrl =
    process.env.CONTRACT_DATABASE_URL ??
    (await recreateDatabase(Object.assign(new URL(owner), { pathname: '/postgres' }).toString(), `${owner.pathname.slice(1)}_fuzz`));
  const pool = createPool({ url: ownerUrl, max: 2, application: 'vitalis-contract-check' });
  try {
    await migrate(pool);
    await ensureTopics(
      createKafka({ brokers: testEnv.KAFKA_BROKERS, clientId: 'vitalis-contract-check', retries: 2 }),
      undefined,
      CONTRACT_TOPICS,
    );
    await seedRecords(pool);
  } finally {
    await pool.end();
  }
  return ownerUrl;
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
  const database = await prepareDatabase();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const gateway = spawn(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
      DATABASE_URL: asAppRole(database),
      REDIS_URL: testEnv.REDIS_URL,
      KAFKA_BROKERS: testEnv.KAFKA_BROKERS.join(','),
      // Topics of its own: the fuzzer's records (edge values among them) reach no demo or test ingest.
      VITALS_TOPIC: CONTRACT_TOPICS.vitalsObservations,
      LIVE_TOPIC: CONTRACT_TOPICS.vitalsObservations,
      // The fuzzer speaks from 127.0.0.1 for every request: the per-address budgets would otherwise
      // turn most of its cases into 429s and test the limiter instead of the operations. The
      // limits keep their 429 declared in the document; test/integration tests each limit.
      ...ONE_ADDRESS_LIMITS,
      // One client_credentials token serves the whole run, which may outlast the five minutes a
      // backend token lives in production (a 401 midway would pass as an expected refusal).
      BACKEND_TOKEN_TTL_SECONDS: '3600',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitUntilUp(base, () => gateway.exitCode !== null);
    const client = await registerClient(
      base,
      SCOPE_NAMES.filter((s) => !isSignInScope(s)),
      'vitalis-contract-check',
      'system',
      database,
    );
    const token = await clientCredentialsToken(base, client);
    const extra = (process.env.CONTRACT_FUZZ_ARGS ?? '').split(/\s+/).filter(Boolean);
    // The document as this gateway serves it, from a file: loaded from its URL, Schemathesis leaves
    // out the operation that serves it (GET /openapi.json), and every operation is tested here.
    const documentFile = `${root}.data/contract-openapi.json`;
    await writeFile(documentFile, await (await fetch(`${base}/openapi.json`)).text());
    const fuzzer = spawn(
      `${venvBin}/schemathesis`,
      ['--config-file', `${root}test/contract/schemathesis.toml`, 'run', documentFile, '--url', base, ...extra],
      {
        cwd: root,
        // The token reaches the fuzzer in its environment (schemathesis.toml reads ${CONTRACT_TOKEN}),
        // never in an argv other processes can list; Schemathesis masks it in its output.
        // hooks.py: one workaround for a CPython 3.11 bug under two workers (see the file)
        env: { ...process.env, CONTRACT_TOKEN: token, SCHEMATHESIS_HOOKS: `${root}test/contract/hooks.py` },
        stdio: 'inherit',
      },
    );
    const [code] = (await once(fuzzer, 'exit')) as [number | null];
    return code ?? 1;
  } finally {
    gateway.kill('SIGTERM');
    if (gateway.exitCode === null) await once(gateway, 'exit');
  }
}

process.exitCode = await main();
