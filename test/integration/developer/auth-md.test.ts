/**
 * GET /auth.md: the walkthrough's ```sh blocks are RUN, verbatim and in order, in one bash
 * session against a real gateway (curl + jq, as a developer would paste them). Every step must
 * succeed (curl -f, set -euo pipefail), and the steps must prove what they claim: a token, an
 * identity, an exchanged token acting for the client, a revoked token refused, a sandbox token,
 * a login page for the PKCE authorization request.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { initialAccessToken } from '../../helpers/auth';

const run = promisify(execFile);
let gw: RunningGateway;
let res: Response;
let markdown: string;

// the sandbox window counter is shared per address by every test run on this machine
beforeAll(async () => {
  gw = await startGateway({ SANDBOX_RATE_LIMIT: '1000000' });
  res = await fetch(`${gw.url}/auth.md`);
  markdown = await res.text();
});
afterAll(async () => {
  await gw?.close();
});

function shellBlocks(md: string): string[] {
  return [...md.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

describe('GET /auth.md', () => {
  it('is public Markdown naming this server', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown).toMatch(/^# Vitalis authentication walkthrough/);
    expect(markdown).toContain(`BASE=${gw.url}\n`);
    for (const step of ['Discover', 'Register', 'client credentials', 'Probe', 'Token exchange', 'Use the token', 'Revoke', 'Sandbox', 'PKCE']) {
      expect(markdown).toContain(step);
    }
  });

  it('its curl examples run green, in order, against the server', async () => {
    const blocks = shellBlocks(markdown);
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    const script = ['set -euo pipefail', ...blocks].join('\n');
    // The operator hands the developer an initial access token (as `make run` prints one).
    const env = { ...process.env, INITIAL_ACCESS_TOKEN: await initialAccessToken('nurse') };
    const { stdout } = await run('bash', ['-c', script], { timeout: 60_000, maxBuffer: 4 * 1024 * 1024, env });
    expect(stdout).toMatch(/registered [\w-]+ with scope: read:appointments\n/);
    expect(stdout).toContain('public token on vitals: HTTP 403');
    expect(stdout).toContain('"role": "nurse"');
    expect(stdout).toContain('"auth_method": "client_secret"');
    expect(stdout).toContain('"act"'); // the delegated token names the agent as actor
    expect(stdout).toContain('"derived_from"'); // the public exchange's token is bound to its subject
    expect(stdout).toContain('"patient_id": "pat-walkthrough"');
    expect(stdout).toMatch(/www-authenticate: Bearer realm="vitalis".*resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource"/i);
    expect(stdout).toContain('revoked: the token is refused immediately');
    expect(stdout).toContain('"auth_method": "sandbox"');
    expect(stdout).toContain('"sandbox_patient": "sbx-0001"'); // a sandbox token reads synthetic patients
    expect(stdout).toContain('login page: HTTP 200');
  }, 90_000);
});
