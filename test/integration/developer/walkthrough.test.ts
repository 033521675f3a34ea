/**
 * The authentication walkthrough runs as pasted (issue 30, item 11): every ```sh block of the
 * served /auth.md, and the one of docs/api.md's Authentication section, is run verbatim, in order,
 * in one bash session (set -euo pipefail) against a real gateway, with only what a reader has:
 * - the working directory is a checkout where `make run` ran: `.data/initial-access-token` holds an
 *   initial access token minted as the demo seed mints it and written by the seed's own writer
 *   (demo-files.ts), mode 0600; nothing else (no INITIAL_ACCESS_TOKEN, no client ids) is in the
 *   environment, which is PATH and HOME alone (and BASE for docs/api.md, which says to set it);
 * - the browser step is a person at a browser: headless Chromium opens the address the walkthrough
 *   printed, signs in as a demo user, allows, and the address it lands on is typed at the
 *   walkthrough's prompt (bash's stdin), as the page tells the reader to.
 * The gateway's sandbox budget is raised for the full run only because every test run on this
 * machine shares the per-address counter (in Redis); the next test puts it back to 1 and checks
 * that the walkthrough's sandbox step then prints the 429 problem's advice instead of a bare 429.
 * Also: the generated tables of docs/api.md are current.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '@vitalis/db';
import { mintInitialAccessToken } from '../../../apps/gateway/src/auth/initial-access';
import { INITIAL_ACCESS_TOKEN_FILE, saveInitialAccessToken } from '../../../apps/gateway/src/demo-files';
import { DOCS_WITH_TABLES, generatedTablesIn, withGeneratedTables } from '../../../apps/gateway/src/developer/doc-tables';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { launchBrowser, openPage } from '../../helpers/browser';
import { testEnv } from '../../helpers/env';

const CALLBACK_ORIGIN = 'http://127.0.0.1:8765';

let gw: RunningGateway;
let checkout: string;
let browser: Browser | undefined;

function shellBlocks(md: string): string[] {
  return [...md.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The `## Heading` section of `md`, up to the next `## `. */
function section(md: string, heading: string): string {
  const from = md.indexOf(`\n## ${heading}`);
  if (from < 0) throw new Error(`no section ${heading}`);
  const next = md.indexOf('\n## ', from + 1);
  return md.slice(from, next < 0 ? undefined : next);
}

/** What the reader has after `make run`: the seed's initial access token, saved where the seed saves it. */
async function makeRunCheckout(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vitalis-walkthrough-'));
  const pool = createPool({ url: testEnv.DATABASE_URL, max: 1, application: 'vitalis-test-walkthrough' });
  try {
    // as apps/gateway/src/seed-demo.ts mints it
    const minted = await mintInitialAccessToken(pool, {
      role: 'system',
      createdBy: 'make-run',
      ttlSeconds: 86_400,
      maxUses: 10,
      label: 'make run demo',
    });
    await saveInitialAccessToken(minted.initial_access_token, dir);
  } finally {
    await pool.end();
  }
  return dir;
}

/** A person at a browser: opens `url`, signs in, allows; returns the address the browser was sent to. */
async function signInAndAllow(url: string, username: string): Promise<string> {
  browser ??= await launchBrowser();
  const { page, context, errors } = await openPage(browser);
  try {
    let landed: string | undefined;
    // nothing listens on the app's redirect URI (the walkthrough says so): record where the browser goes
    await page.route(`${CALLBACK_ORIGIN}/**`, async (route) => {
      landed = route.request().url();
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'the app would take the code from here' });
    });
    await page.goto(url);
    expect(await page.locator('h1').textContent()).toBe('Sign in to Vitalis');
    await page.fill('#username', username);
    await page.fill('#password', `${username}-demo-pass`);
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Allow my-web-app access?');
    await page.click('button[value=allow]');
    await page.waitForURL(`${CALLBACK_ORIGIN}/**`);
    expect(errors).toEqual([]);
    return landed ?? page.url();
  } finally {
    await context.close();
  }
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `blocks` as one bash session in `cwd` with `env`. When the session prints the walkthrough's
 * "Open this address in a browser: URL", a person signs in there and types the address the browser
 * landed on at the prompt.
 */
function runSession(blocks: string[], cwd: string, env: Record<string, string>, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const bash = spawn('bash', ['-c', ['set -euo pipefail', ...blocks].join('\n')], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let browsing = false;
    const timer = setTimeout(() => {
      bash.kill('SIGKILL');
      reject(new Error(`walkthrough timed out\n--- stdout\n${stdout}\n--- stderr\n${stderr}`));
    }, timeoutMs);
    bash.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const open = /Open this address in a browser: (\S+)\n/.exec(stdout);
      if (open && !browsing) {
        browsing = true;
        signInAndAllow(open[1]!, 'doctor').then(
          (landed) => bash.stdin.end(`${landed}\n`),
          (err: unknown) => {
            stderr += `\n[browser] ${String(err)}`;
            bash.stdin.end();
          },
        );
      }
    });
    bash.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    bash.on('error', reject);
    bash.on('close', (code) => {
      clearTimeout(timer);
      if (!browsing) bash.stdin.destroy();
      resolve({ code, stdout, stderr });
    });
  });
}

/** The reader's environment: a shell's PATH and HOME, nothing the walkthrough would have to invent. */
const readerEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/tmp',
  ...extra,
});

beforeAll(async () => {
  gw = await startGateway({ SANDBOX_RATE_LIMIT: '1000000', DEMO_USERS_ENABLED: 'true' });
  checkout = await makeRunCheckout();
});
afterAll(async () => {
  await browser?.close();
  await gw?.close();
  if (checkout) await rm(checkout, { recursive: true, force: true });
});

describe('the auth walkthrough, pasted', () => {
  it('make run leaves the initial access token where the walkthrough reads it, readable by its owner only', async () => {
    const file = join(checkout, INITIAL_ACCESS_TOKEN_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toMatch(/^[\w-]{40,}\n$/);
    const markdown = await (await fetch(`${gw.url}/auth.md`)).text();
    expect(markdown).toContain(`$(cat ${INITIAL_ACCESS_TOKEN_FILE})`);
    expect(await readFile('docs/api.md', 'utf8')).toContain(`$(cat ${INITIAL_ACCESS_TOKEN_FILE})`);
    expect(await readFile('apps/gateway/src/seed-demo.ts', 'utf8')).toContain('saveInitialAccessToken(operator.initial_access_token)');
  });

  it('/auth.md: every sh block runs green, in order, as written, the browser sign-in and code exchange included', async () => {
    const markdown = await (await fetch(`${gw.url}/auth.md`)).text();
    const blocks = shellBlocks(markdown);
    expect(blocks.length).toBeGreaterThanOrEqual(14);
    const run = await runSession(blocks, checkout, readerEnv());
    const { stdout } = run;
    expect(run.code, `exit ${run.code}\n--- stdout\n${stdout}\n--- stderr\n${run.stderr}`).toBe(0);
    expect(stdout).toMatch(/registered [\w-]+ with scope: read:appointments\n/);
    expect(stdout).toContain('"auth_method": "client_secret"');
    expect(stdout).toContain('"derived_from"'); // the public exchange's token is bound to its subject
    expect(stdout).toContain('"act"'); // the delegated token names the agent as actor
    // the refusals: the challenge and the problem media type
    expect(stdout).toMatch(/www-authenticate: Bearer realm="vitalis".*resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource"/i);
    expect(stdout).toMatch(/content-type: application\/problem\+json/i);
    expect(stdout).toContain('public token on vitals: HTTP 403');
    // a role, with the token make run saved
    expect(stdout).toContain('"role": "system"');
    expect(stdout).toContain('"patient_id": "pat-walkthrough"');
    expect(stdout).toContain('revoked: the token is refused immediately');
    expect(stdout).toContain('"auth_method": "sandbox"');
    expect(stdout).toContain('"sandbox_patient": "sbx-0001"');
    // the browser sign-in, to its end
    expect(stdout).toContain('sign-in page: HTTP 200');
    expect(stdout).toContain('state matches this request');
    expect(stdout).toContain('"has_refresh_token": true');
    expect(stdout).toContain('"sub": "usr-demo-doctor"');
    expect(stdout).toContain('"auth_method": "authorization_code"');
    expect(stdout).toContain('"rotated": true');
    // the generated tables name every role and the diagnostics scopes
    for (const role of ['lab', 'device', 'system']) expect(markdown).toContain(`| \`${role}\` |`);
    for (const scope of ['read:diagnostics', 'write:diagnostics']) expect(markdown).toContain(`| \`${scope}\` |`);
  }, 180_000);

  it('docs/api.md: its sh block runs green as written, with BASE set as the page says', async () => {
    const blocks = shellBlocks(section(await readFile('docs/api.md', 'utf8'), 'Authentication'));
    expect(blocks.length).toBe(1);
    const run = await runSession(blocks, checkout, readerEnv({ BASE: gw.url }));
    expect(run.code, `exit ${run.code}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('"role":"system"');
    expect(run.stdout).toMatch(/"client_id":"[\w-]+"/);
    expect(run.stdout).toContain('"access_token"'); // the exchanged token
    expect(run.stdout).toContain('after revocation: HTTP 401');
  }, 60_000);

  it('over the sandbox budget: a 429 problem saying what happened and what to do, which the walkthrough prints', async () => {
    const tight = await startGateway({ SANDBOX_RATE_LIMIT: '1' });
    try {
      // the per-address counter is shared: after this one the budget of 1 is surely spent
      await fetch(`${tight.url}/api/v1/sandbox`, { method: 'POST' });
      const res = await fetch(`${tight.url}/api/v1/sandbox`, { method: 'POST' });
      expect(res.status).toBe(429);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      const problem = (await res.json()) as { type: string; status: number; detail: string; retry_after: number };
      expect(problem).toMatchObject({ type: `${tight.url}/errors/rate-limited`, status: 429 });
      expect(problem.detail).toMatch(/shared by everyone behind yours/);
      expect(problem.detail).toMatch(/Retry after \d+ s \(Retry-After\)/);
      expect(problem.detail).toContain(`register a client of your own instead: POST ${tight.url}/api/auth/register`);

      const markdown = await (await fetch(`${tight.url}/auth.md`)).text();
      const sandboxStep = shellBlocks(section(markdown, 'Sandbox'));
      const run = await runSession([`BASE=${tight.url}`, ...sandboxStep], checkout, readerEnv());
      expect(run.code).not.toBe(0); // the step fails...
      expect(run.stdout).toMatch(/used up\. Retry after \d+ s \(Retry-After\), or register a client of your own/); // ...saying why and what to do
    } finally {
      await tight.close();
    }
  }, 60_000);
});

describe('the media types the walkthrough promises', () => {
  it('a refusal of a protected resource is application/problem+json; an OAuth endpoint error stays RFC 6749 application/json', async () => {
    const refused = await fetch(`${gw.url}/api/v1/vitals/latest?patient=pat-walkthrough`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm="vitalis", resource_metadata=/);
    expect(await refused.json()).toMatchObject({ type: `${gw.url}/errors/unauthorized`, status: 401 });
    const oauth = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'wrong' }),
    });
    expect(oauth.status).toBe(401);
    expect(oauth.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await oauth.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('generated documentation tables', () => {
  it.each(DOCS_WITH_TABLES)(
    '%s holds the current scope, role, access and error tables (node --import tsx apps/gateway/src/developer/doc-tables.ts)',
    async (file) => {
      const text = await readFile(file, 'utf8');
      expect(generatedTablesIn(text)).toEqual(['scopes', 'roles', 'access', 'errors']);
      expect(text, `${file} is stale: run node --import tsx apps/gateway/src/developer/doc-tables.ts`).toBe(withGeneratedTables(text));
      for (const name of ['lab', 'read:diagnostics', 'write:diagnostics']) expect(text).toContain(`| \`${name}\` |`);
    },
  );
});
