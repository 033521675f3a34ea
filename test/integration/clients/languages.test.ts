/**
 * The Python (libs/client-py) and Go (libs/client-go) client suites, run by their own standard
 * tools (pytest, go test) against a real gateway started here with an ingest worker, so vitals they
 * publish travel through Kafka. Each suite gets the gateway URL and a client holding every scope
 * in its environment; this test passes when the suite exits 0, and prints its output either way.
 */
import { initialAccessToken } from '../../helpers/auth';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSlots, startClientStack, type ClientStack } from './support';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let stack: ClientStack;

beforeAll(async () => {
  stack = await startClientStack('languages');
});
afterAll(async () => {
  await stack?.close();
});

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The gateway, a client holding every scope, and (once appointments exist) free slots of a clinician of the suite's own. */
async function suiteEnv(): Promise<Record<string, string>> {
  const clinician = await createTestSlots(stack.gw, 2);
  return {
    VITALIS_BASE_URL: stack.gw.url,
    VITALIS_CLIENT_ID: stack.client.client_id,
    VITALIS_CLIENT_SECRET: stack.client.client_secret,
    // An operator's initial access token, for the tests that register clients of their own.
    VITALIS_INITIAL_ACCESS_TOKEN: await initialAccessToken(),
    ...(clinician ? { VITALIS_TEST_CLINICIAN: clinician } : {}),
  };
}

function report(name: string, result: { code: number | null; output: string }) {
  console.log(`---- ${name} (exit ${result.code})\n${result.output}`);
  expect(result.code, `${name} failed; its output is printed above`).toBe(0);
}

describe('client libraries in their own languages', () => {
  it('Python: pytest in libs/client-py', async () => {
    const venv = await run(`${root}infra/bin/python-env`, [], root);
    report('infra/bin/python-env', venv);
    const python = venv.output.trim().split('\n').at(-1)!;
    report('pytest', await run(python, ['-m', 'pytest', '-v', '-p', 'no:cacheprovider'], `${root}libs/client-py`, await suiteEnv()));
  }, 300_000);

  it('Go: go test in libs/client-go', async () => {
    const toolchain = await run(`${root}infra/bin/go-env`, [], root);
    report('infra/bin/go-env', toolchain);
    const go = toolchain.output.trim().split('\n').at(-1)!;
    report('go test', await run(go, ['test', '-count=1', '-v', './...'], `${root}libs/client-go`, await suiteEnv()));
  }, 300_000);
});
