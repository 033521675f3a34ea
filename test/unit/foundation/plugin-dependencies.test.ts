/**
 * The gateway's plugins declare the plugins and decorators they need (apps/gateway/src/plugins.ts,
 * issue 32 item 6): fastify refuses to start when a route module or a shared plugin is registered
 * without, or before, what it declares, and a declared route module stays encapsulated. Bare
 * fastify instances, no database: the checks run before a plugin's body does, so the real plugins
 * are registered with empty dependencies. (That the real app starts with every declaration met is
 * what every integration test's buildGateway shows.)
 */
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { describe, expect, it } from 'vitest';
import { problemDetails } from '@vitalis/http';
import { authPlugin } from '../../../apps/gateway/src/auth';
import { mcpRoutes } from '../../../apps/gateway/src/mcp';
import { patientRoutes } from '../../../apps/gateway/src/patients/routes';
import { PLUGIN, routeModule } from '../../../apps/gateway/src/plugins';

/** A stand-in for a shared plugin: its name, and the instance decorators it provides. */
const stub = (name: string, decorators: string[] = []) =>
  fp(
    async (app: FastifyInstance) => {
      for (const d of decorators) app.decorate(d, () => undefined);
    },
    { name },
  );

/** What starting `app` with `register` applied throws (its fastify error code), or 'started'. */
async function startWith(register: (app: FastifyInstance) => Promise<unknown>): Promise<string> {
  const app = Fastify();
  try {
    await register(app);
    await app.ready();
    return 'started';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  } finally {
    await app.close().catch(() => undefined);
  }
}

const hello = routeModule('hello-routes', async (app) => {
  app.decorate('helloOnly', true);
  app.get('/hello', async () => ({ hello: true }));
});

describe('a route module (routeModule)', () => {
  it('refuses to start without the auth plugin', async () => {
    expect(
      await startWith(async (app) => {
        await app.register(problemDetails, { baseUrl: 'http://x' });
        await app.register(stub(PLUGIN.developer));
        await app.register(hello);
      }),
    ).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
  });

  it('refuses to start when the auth plugin is registered after it', async () => {
    expect(
      await startWith(async (app) => {
        await app.register(problemDetails, { baseUrl: 'http://x' });
        await app.register(stub(PLUGIN.developer));
        await app.register(hello);
        await app.register(stub(PLUGIN.auth));
      }),
    ).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
  });

  it('refuses to start without a decorator it declares', async () => {
    expect(
      await startWith(async (app) => {
        await app.register(problemDetails, { baseUrl: 'http://x' });
        await app.register(stub(PLUGIN.developer));
        await app.register(stub(PLUGIN.auth));
        await app.register(routeModule('needs-bearer', async () => undefined, ['verifyBearer']));
      }),
    ).toBe('FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE');
  });

  it('starts with what it needs registered before it, and stays encapsulated', async () => {
    const app = Fastify();
    await app.register(problemDetails, { baseUrl: 'http://x' });
    await app.register(stub(PLUGIN.developer));
    await app.register(stub(PLUGIN.auth, ['verifyBearer']));
    await app.register(hello);
    await app.register(routeModule('needs-bearer', async () => undefined, ['verifyBearer']));
    await app.ready();
    expect((await app.inject({ url: '/hello' })).json()).toEqual({ hello: true });
    expect(app.hasDecorator('helloOnly')).toBe(false);
    await app.close();
  });

  it("a real one (the patients' routes) refuses to start without the auth plugin", async () => {
    expect(
      await startWith(async (app) => {
        await app.register(problemDetails, { baseUrl: 'http://x' });
        await app.register(stub(PLUGIN.developer));
        await app.register(routeModule('vitalis-patient-routes', patientRoutes({} as never)));
      }),
    ).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
  });
});

describe('the shared plugins', () => {
  it('the auth plugin refuses to start without problem details', async () => {
    expect(await startWith(async (app) => app.register(authPlugin({} as never)))).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
  });

  it('the MCP endpoint refuses to start without the auth plugin, and without the decorators it uses', async () => {
    const upTo = (names: string[], decorators: string[] = []) =>
      startWith(async (app) => {
        await app.register(problemDetails, { baseUrl: 'http://x' });
        for (const name of names) await app.register(stub(name));
        await app.register(stub('decorators', decorators));
        await app.register(mcpRoutes({} as never, {} as never));
      });
    const used = ['verifyBearer', 'bearerAuth', 'rateLimiter'];
    expect(await upTo([PLUGIN.developer], used)).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
    expect(await upTo([PLUGIN.developer, PLUGIN.auth], used)).toBe('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED');
    // With all it declares the checks pass and its body runs (and fails on the empty deps).
    expect(await upTo([PLUGIN.developer, PLUGIN.auth, PLUGIN.rateLimits], used)).not.toMatch(/^FST_ERR_PLUGIN_/);
    expect(await upTo([PLUGIN.developer, PLUGIN.auth, PLUGIN.rateLimits], ['verifyBearer', 'bearerAuth'])).toBe(
      'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE',
    );
  });
});
