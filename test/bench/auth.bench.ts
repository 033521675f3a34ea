/**
 * Auth benchmark (plain script: node --import tsx test/bench/auth.bench.ts; part of `make bench`).
 *
 * Starts a real gateway as a child process (database vitalis_test, its own port) and drives it over keep-alive HTTP from this process, one route at a time, for
 * BENCH_AUTH_SECONDS each (default 10) with BENCH_AUTH_CONNECTIONS (default 32) concurrent loops:
 *   baseline       GET /.well-known/oauth-protected-resource   (public, no auth work)
 *   authenticated  GET /agent/identity with a Bearer token     (verify ES256 + revocation check)
 *   token endpoint POST /api/auth/oauth2/token client_credentials (scrypt secret check + signing)
 * Prints requests/s and each as a ratio to the baseline measured in the same run. Never asserts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { initialAccessToken } from '../helpers/auth';
import http from 'node:http';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';

const SECONDS = Number(process.env.BENCH_AUTH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_AUTH_CONNECTIONS ?? 32);
const PORT = Number(process.env.BENCH_AUTH_PORT ?? 18080);
const BASE = `http://127.0.0.1:${PORT}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function send(req: Request): Promise<number> {
  return new Promise((resolve, reject) => {
    const r = http.request(`${BASE}${req.path}`, { method: req.method, headers: req.headers, agent }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    r.once('error', reject);
    r.end(req.body);
  });
}

async function json<T>(method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<T> {
  const res = await fetch(`${BASE}${path}`, { method, headers, ...(body ? { body } : {}) });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** CONNECTIONS loops sending `req` until the deadline; counts 2xx answers, fails on any other. */
async function measure(name: string, req: Request, expect: number): Promise<number> {
  // Warm-up: JIT, connection pool, caches.
  for (let i = 0; i < 50; i++) await send(req);
  let ok = 0;
  let bad = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        if ((await send(req)) === expect) ok++;
        else bad++;
      }
    }),
  );
  const rate = ok / ((performance.now() - started) / 1000);
  if (bad > 0) throw new Error(`${name}: ${bad} unexpected statuses`);
  console.log(`${name.padEnd(16)} ${rate.toFixed(0).padStart(8)} req/s`);
  return rate;
}

async function startGateway(): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/vitalis_test',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${BASE}/api/v1/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error('the gateway exited at start');
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the gateway did not start within 60 s');
}

export async function main(): Promise<void> {
  const gateway = await startGateway();
  try {
    // A PHI-capable client registers with an operator's initial access token (open registration: public scope only).
    const client = await json<{ client_id: string; client_secret: string }>(
      'POST',
      '/api/auth/register',
      {
        'content-type': 'application/json',
        authorization: `Bearer ${await initialAccessToken('nurse', process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/vitalis_test')}`,
      },
      JSON.stringify({
        client_name: 'bench',
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_post',
        scope: 'read:vitals',
      }),
    );
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.client_id,
      client_secret: client.client_secret,
    }).toString();
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    const { access_token } = await json<{ access_token: string }>('POST', '/api/auth/oauth2/token', formHeaders, form);

    console.log(`auth bench: ${SECONDS} s per route, ${CONNECTIONS} connections, gateway on ${BASE}`);
    const baseline = await measure('baseline', { method: 'GET', path: '/.well-known/oauth-protected-resource' }, 200);
    const authed = await measure(
      'authenticated',
      { method: 'GET', path: '/agent/identity', headers: { authorization: `Bearer ${access_token}` } },
      200,
    );
    const token = await measure(
      'token endpoint',
      { method: 'POST', path: '/api/auth/oauth2/token', headers: formHeaders, body: form },
      200,
    );
    const pct = (r: number) => `${((r / baseline) * 100).toFixed(0)}% of baseline`;
    console.log(`authenticated request: ${pct(authed)} (auth costs ${(100 - (authed / baseline) * 100).toFixed(0)}%; goal: under 30%)`);
    console.log(`token endpoint:        ${pct(token)} (bounded by the scrypt secret check by design)`);
  } finally {
    gateway.kill('SIGTERM');
    await once(gateway, 'exit');
    agent.destroy();
  }
}

await main();
