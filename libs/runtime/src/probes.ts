/**
 * Liveness and readiness for orchestrators (Kubernetes probes), shared by every app.
 *
 * Liveness (GET /livez): the process runs and its event loop is not stuck. No dependency is
 * checked: a database outage must not get every pod restarted, only taken out of rotation.
 * Readiness (GET /readyz): the schema is current (checked until first seen current, then cached:
 * migrations only go forward), and each dependency answered within a short timeout. The result is
 * cached for `cacheMs` and concurrent probes share one check, so probing is cheap. While draining
 * (shutdown.ts) readiness is 503 without checking anything. Bodies are tiny and carry no driver
 * text (hosts, user names): the gateway's /api/v1/health/details is where an operator reads those.
 *
 * The gateway serves both on its own port; the ingest and the projector have no HTTP surface, so
 * they serve them on a small server of their own (startProbeServer, PROBE_PORT).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { Logger } from '@vitalis/log';

export interface Check {
  status: 'ok' | 'down';
  latency_ms: number;
  /** The driver's message (logs and operators only, never a public body). */
  error?: string;
}

/** A driver message without credentials a URL in it may carry (`scheme://user:pass@host`). */
export const scrubError = (message: string) => message.replace(/\/\/[^\s/@]*@/g, '//[redacted]@');

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Times one probe; never throws. */
export async function runCheck(name: string, probe: () => Promise<unknown>, timeoutMs: number): Promise<Check> {
  const started = performance.now();
  try {
    await withTimeout(probe(), timeoutMs, name);
    return { status: 'ok', latency_ms: round(performance.now() - started) };
  } catch (err) {
    return { status: 'down', latency_ms: round(performance.now() - started), error: scrubError((err as Error).message) };
  }
}

// ---- liveness -------------------------------------------------------------------------------

export interface Liveness {
  status: 'ok' | 'stuck';
  /** How late the last event-loop tick ran, in milliseconds. */
  event_loop_delay_ms: number;
}

const TICK_MS = 500;

/**
 * Watches the event loop with an unref'd timer. A loop blocked outright cannot answer a probe at
 * all (the kubelet's timeout catches that); this catches a loop starved for longer than
 * `maxDelayMs` between the requests it still manages to serve.
 */
export function watchEventLoop(maxDelayMs = 10_000): { state: () => Liveness; stop: () => void } {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(0, now - last - TICK_MS);
    last = now;
  }, TICK_MS);
  timer.unref();
  return {
    state: () => {
      // a tick overdue right now counts too (the loop may be stuck in between ticks)
      const delay = Math.max(worst, performance.now() - last - TICK_MS, 0);
      return { status: delay > maxDelayMs ? 'stuck' : 'ok', event_loop_delay_ms: Math.round(delay) };
    },
    stop: () => clearInterval(timer),
  };
}

// ---- readiness ------------------------------------------------------------------------------

export interface Dependency {
  name: string;
  probe: () => Promise<unknown>;
}

export type ReadinessStatus = 'ready' | 'not_ready' | 'draining';

export interface Readiness {
  status: ReadinessStatus;
  /** One word per check: schema `ok` | `pending`, each dependency `ok` | `down`. Absent while draining. */
  checks?: Record<string, 'ok' | 'down' | 'pending'>;
}

export interface ReadinessOptions {
  dependencies: Dependency[];
  /** Whether every migration is applied; asked until it first says yes. */
  schemaCurrent: () => Promise<boolean>;
  timeoutMs: number;
  /** How long one result answers later probes (default 1 s). */
  cacheMs?: number;
  /** Told each dependency result (the app logs changes). */
  onChecks?: (checks: Record<string, Check>) => void;
}

export interface ReadinessGate {
  state: () => Promise<Readiness>;
  /** From now on not ready (shutdown: load balancers stop sending before anything closes). */
  drain: () => void;
  readonly draining: boolean;
}

export function createReadiness(opts: ReadinessOptions): ReadinessGate {
  const cacheMs = opts.cacheMs ?? 1_000;
  let draining = false;
  let schemaOk = false;
  let cached: { at: number; result: Readiness } | undefined;
  let inFlight: Promise<Readiness> | undefined;

  const schema = async (): Promise<boolean> => {
    if (!schemaOk) schemaOk = await withTimeout(opts.schemaCurrent(), opts.timeoutMs, 'schema').catch(() => false);
    return schemaOk;
  };

  const check = async (): Promise<Readiness> => {
    const [current, ...named] = await Promise.all([
      schema(),
      ...opts.dependencies.map(async (d) => [d.name, await runCheck(d.name, d.probe, opts.timeoutMs)] as const),
    ]);
    const byName = Object.fromEntries(named);
    const results = named.map(([, c]) => c);
    opts.onChecks?.(byName);
    const checks: Readiness['checks'] = { schema: current ? 'ok' : 'pending' };
    for (const [name, c] of Object.entries(byName)) checks[name] = c.status;
    const ready = current && results.every((c) => c.status === 'ok');
    return { status: ready ? 'ready' : 'not_ready', checks };
  };

  return {
    state: async () => {
      if (draining) return { status: 'draining' };
      if (cached && performance.now() - cached.at < cacheMs) return cached.result;
      inFlight ??= check().then(
        (result) => ((cached = { at: performance.now(), result }), (inFlight = undefined), result),
        (err) => ((inFlight = undefined), Promise.reject(err)),
      );
      const result = await inFlight;
      return draining ? { status: 'draining' } : result;
    },
    drain: () => {
      draining = true;
    },
    get draining() {
      return draining;
    },
  };
}

/** An onChecks that logs a dependency when first seen down (scrubbed driver text) and when back, not on every probe. */
export function logDependencyChanges(logger: Logger): (checks: Record<string, Check>) => void {
  const down = new Set<string>();
  return (checks) => {
    for (const [name, check] of Object.entries(checks)) {
      if (check.status === 'down' && !down.has(name)) {
        down.add(name);
        logger.warn({ component: name, error: check.error }, 'not ready: dependency unreachable');
      } else if (check.status === 'ok' && down.delete(name)) logger.info({ component: name }, 'ready again: dependency reachable');
    }
  };
}

/** The HTTP status a readiness answer is served with. */
export const readinessCode = (r: Readiness) => (r.status === 'ready' ? 200 : 503);
export const livenessCode = (l: Liveness) => (l.status === 'ok' ? 200 : 503);

// ---- the probe server of an app without an HTTP surface -------------------------------------

export interface ProbeServer {
  /** Where it listens, e.g. http://127.0.0.1:8091. */
  url: string;
  close: () => Promise<void>;
}

/**
 * GET /livez and GET /readyz on their own small server (the ingest and the projector). Anything
 * else is a 404; bodies are JSON, never cached. Closed last at shutdown, so the kubelet sees
 * `draining` until the process exits.
 */
export async function startProbeServer(opts: {
  host: string;
  port: number;
  liveness: () => Liveness;
  readiness: ReadinessGate;
}): Promise<ProbeServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const send = (code: number, body: object) => {
      res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { status: 'method not allowed' });
    if (path === '/livez') {
      const l = opts.liveness();
      return send(livenessCode(l), l);
    }
    if (path === '/readyz') {
      opts.readiness.state().then(
        (r) => send(readinessCode(r), r),
        () => send(503, { status: 'not_ready' }),
      );
      return;
    }
    send(404, { status: 'not found' });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The probe server when `address` says so (PROBE_PORT), with the event-loop watch behind /livez; closed last at shutdown. */
export async function startAppProbes(opts: {
  address: { host: string; port: number } | undefined;
  readiness: ReadinessGate;
  logger: Logger;
}): Promise<{ close: () => Promise<void> }> {
  if (!opts.address) return { close: async () => {} };
  const loop = watchEventLoop();
  const server = await startProbeServer({ ...opts.address, liveness: loop.state, readiness: opts.readiness });
  opts.logger.info({ url: server.url }, 'probes listening (GET /livez, GET /readyz)');
  return { close: async () => (loop.stop(), server.close()) };
}
