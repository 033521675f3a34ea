/**
 * The auth plugin: loads signing keys, restores the revocation list into Redis, installs the
 * one enforcement hook for every route, and registers the OAuth routes.
 */
import formbody from '@fastify/formbody';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { authGuard } from './guard';
import { KeyStore } from './keys';
import { RevocationList } from './revocation';
import { authRoutes } from './routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signing keys (for rotation by operators and tests). */
    signingKeys: KeyStore;
  }
}

/**
 * Wrapped with fastify-plugin on purpose: the enforcement hook must sit on the root instance so
 * it runs for every route of every plugin, not only those inside this one.
 */
export function authPlugin(deps: GatewayDeps) {
  const plugin: FastifyPluginAsyncZod = async (app) => {
    const keys = new KeyStore(deps.pool, deps.config.KEY_ENCRYPTION_SECRET);
    await keys.load();
    const revocations = new RevocationList(deps.pool, deps.redis);
    await revocations.restore();
    const tokenSettings = { issuer: deps.config.baseUrl, audience: deps.config.baseUrl };
    await app.register(formbody);
    app.addHook('onRequest', authGuard({ keys, revocations, settings: tokenSettings, baseUrl: deps.config.baseUrl, pool: deps.pool }));
    await app.register(authRoutes({ ...deps, keys, revocations, tokenSettings }));
    app.decorate('signingKeys', keys);
  };
  return fp(plugin, { name: 'vitalis-auth', fastify: '5.x' });
}
