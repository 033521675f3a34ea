/**
 * libs/runtime's readiness gate and shutdown sequence, and the lifecycle settings (libs/config):
 * what is checked when, the cache, draining, the order of the steps, and the settings' rules.
 * The real thing (a gateway and an ingest under SIGTERM) is test/integration/ops.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, lifecycleShape, parseConfig, probeServerAddress, probeServerShape, shutdownTimings } from '@vitalis/config';
import { createLogger } from '@vitalis/log';
import { createReadiness, runShutdown, startProbeServer, watchEventLoop } from '@vitalis/runtime';

const logger = createLogger('runtime-test', 'silent');

describe('createReadiness', () => {
  it('is ready only with the schema current and every dependency up; no driver text in the answer', async () => {
    let kafkaUp = false;
    const gate = createReadiness({
      timeoutMs: 200,
      cacheMs: 0,
      schemaCurrent: async () => true,
      dependencies: [
        { name: 'postgres', probe: async () => undefined },
        {
          name: 'kafka',
          probe: async () => {
            if (!kafkaUp) throw new Error('connect ECONNREFUSED 10.0.0.9:9092');
          },
        },
      ],
    });
    expect(await gate.state()).toEqual({ status: 'not_ready', checks: { schema: 'ok', postgres: 'ok', kafka: 'down' } });
    kafkaUp = true;
    expect(await gate.state()).toEqual({ status: 'ready', checks: { schema: 'ok', postgres: 'ok', kafka: 'ok' } });
  });

  it('calls a dependency that does not answer within the timeout down', async () => {
    const gate = createReadiness({
      timeoutMs: 50,
      cacheMs: 0,
      schemaCurrent: async () => true,
      dependencies: [{ name: 'redis', probe: () => new Promise(() => {}) }],
    });
    expect(await gate.state()).toEqual({ status: 'not_ready', checks: { schema: 'ok', redis: 'down' } });
  });

  it('asks for the schema until it is current, then never again', async () => {
    const answers = [false, true];
    let asked = 0;
    const gate = createReadiness({ timeoutMs: 100, cacheMs: 0, schemaCurrent: async () => answers[asked++] ?? false, dependencies: [] });
    expect(await gate.state()).toEqual({ status: 'not_ready', checks: { schema: 'pending' } });
    expect(await gate.state()).toEqual({ status: 'ready', checks: { schema: 'ok' } });
    expect(await gate.state()).toEqual({ status: 'ready', checks: { schema: 'ok' } });
    expect(asked).toBe(2);
  });

  it('shares one check between concurrent probes and reuses it within the cache period', async () => {
    let probes = 0;
    const gate = createReadiness({
      timeoutMs: 100,
      cacheMs: 60_000,
      schemaCurrent: async () => true,
      dependencies: [{ name: 'postgres', probe: async () => probes++ }],
    });
    await Promise.all([gate.state(), gate.state(), gate.state()]);
    await gate.state();
    expect(probes).toBe(1);
  });

  it('answers draining once drained, without checking anything', async () => {
    let probes = 0;
    const gate = createReadiness({
      timeoutMs: 100,
      cacheMs: 0,
      schemaCurrent: async () => true,
      dependencies: [{ name: 'postgres', probe: async () => probes++ }],
    });
    gate.drain();
    expect(gate.draining).toBe(true);
    expect(await gate.state()).toEqual({ status: 'draining' });
    expect(probes).toBe(0);
  });
});

describe('startProbeServer (ingest, projector)', () => {
  it('answers GET /livez and /readyz only; draining turns /readyz 503', async () => {
    let dbUp = true;
    const gate = createReadiness({
      timeoutMs: 100,
      cacheMs: 0,
      schemaCurrent: async () => true,
      dependencies: [
        {
          name: 'postgres',
          probe: async () => {
            if (!dbUp) throw new Error('down');
          },
        },
      ],
    });
    const loop = watchEventLoop();
    const server = await startProbeServer({ host: '127.0.0.1', port: 0, liveness: loop.state, readiness: gate });
    try {
      const get = async (path: string, method = 'GET') => {
        const res = await fetch(`${server.url}${path}`, { method });
        return { status: res.status, body: await res.json(), cache: res.headers.get('cache-control') };
      };
      expect(await get('/livez')).toEqual({
        status: 200,
        body: { status: 'ok', event_loop_delay_ms: expect.any(Number) },
        cache: 'no-store',
      });
      expect(await get('/readyz?verbose=1')).toEqual({
        status: 200,
        body: { status: 'ready', checks: { schema: 'ok', postgres: 'ok' } },
        cache: 'no-store',
      });
      dbUp = false;
      expect(await get('/readyz')).toMatchObject({ status: 503, body: { status: 'not_ready', checks: { postgres: 'down' } } });
      expect((await get('/metrics')).status).toBe(404);
      expect((await get('/readyz', 'POST')).status).toBe(405);
      gate.drain();
      expect(await get('/readyz')).toMatchObject({ status: 503, body: { status: 'draining' } });
    } finally {
      loop.stop();
      await server.close();
    }
  });
});

describe('runShutdown', () => {
  it('drains readiness first, then runs every step in order, a failing one not stopping the rest', async () => {
    const seen: string[] = [];
    const gate = createReadiness({ timeoutMs: 100, schemaCurrent: async () => true, dependencies: [] });
    const clean = await runShutdown(
      {
        logger,
        readiness: { drain: () => (seen.push('drain'), gate.drain()) },
        drainMs: 10,
        graceMs: 1_000,
        steps: [
          { name: 'streams', run: async () => seen.push(`streams (${(await gate.state()).status})`) },
          {
            name: 'broken',
            run: async () => {
              throw new Error('boom');
            },
          },
          { name: 'pool', run: async () => seen.push('pool') },
        ],
      },
      'SIGTERM',
    );
    expect(seen).toEqual(['drain', 'streams (draining)', 'pool']);
    expect(clean).toBe(false);
  });
});

describe('lifecycle settings', () => {
  it('defaults: a 5 s drain wait within a 25 s grace, 1 s readiness timeout', () => {
    const config = parseConfig(lifecycleShape, {});
    expect(config).toEqual({ READINESS_DRAIN_SECONDS: 5, SHUTDOWN_GRACE_SECONDS: 25, READINESS_TIMEOUT_MS: 1_000 });
    expect(shutdownTimings(config)).toEqual({ drainMs: 5_000, graceMs: 25_000 });
    expect(shutdownTimings(parseConfig(lifecycleShape, { READINESS_DRAIN_SECONDS: '0' }))).toEqual({ drainMs: 0, graceMs: 25_000 });
  });

  it('refuses a drain wait that leaves no time to close', () => {
    expect(() => shutdownTimings(parseConfig(lifecycleShape, { READINESS_DRAIN_SECONDS: '30', SHUTDOWN_GRACE_SECONDS: '30' }))).toThrow(
      ConfigError,
    );
    expect(() => parseConfig(lifecycleShape, { READINESS_DRAIN_SECONDS: '-1' })).toThrow(
      /READINESS_DRAIN_SECONDS: must be an integer of 0 or more/,
    );
  });

  it('probe server: on at the app port in production, off elsewhere unless PROBE_PORT is set; 0 turns it off', () => {
    const probe = (env: Record<string, string>, nodeEnv: 'production' | 'development' | 'test') =>
      probeServerAddress({ NODE_ENV: nodeEnv, ...parseConfig(probeServerShape, env) }, 8091);
    expect(probe({}, 'production')).toEqual({ host: '127.0.0.1', port: 8091 });
    expect(probe({ PROBE_HOST: '0.0.0.0' }, 'production')).toEqual({ host: '0.0.0.0', port: 8091 });
    expect(probe({ PROBE_PORT: '0' }, 'production')).toBeUndefined();
    expect(probe({}, 'development')).toBeUndefined();
    expect(probe({}, 'test')).toBeUndefined();
    expect(probe({ PROBE_PORT: '9999' }, 'test')).toEqual({ host: '127.0.0.1', port: 9999 });
    expect(() => parseConfig(probeServerShape, { PROBE_PORT: '70000' })).toThrow(/PROBE_PORT/);
  });
});
