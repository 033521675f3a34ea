/**
 * The auth plugin: loads signing keys, restores the revocation list into Redis, seeds the demo
 * users, installs the one enforcement hook for every route, and registers the OAuth routes:
 *
 *   discovery      /.well-known/oauth-protected-resource, oauth-authorization-server,
 *                  openid-configuration, jwks.json
 *   registration   POST /api/auth/register                      (RFC 7591)
 *   authorization  GET|POST /api/auth/oauth2/authorize          (login + consent, PKCE S256)
 *   token          POST /api/auth/oauth2/token                  (4 grants)
 *   introspection  POST /api/auth/oauth2/introspect             (RFC 7662)
 *   revocation     POST /api/auth/revoke                        (RFC 7009)
 *   identity       GET /agent/identity
 *   sandbox        POST|GET /api/v1/sandbox
 */
import formbody from '@fastify/formbody';
import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { authorizeRoutes } from './authorize';
import type { AuthContext } from './context';
import { discoveryRoutes } from './discovery';
import { authGuard } from './guard';
import { identityRoutes } from './identity';
import { KeyStore } from './keys';
import { registrationRoutes } from './registration';
import { RevocationList } from './revocation';
import { revocationRoutes } from './revoke';
import { sandboxRoutes } from './sandbox';
import { tokenEndpoint } from './token-endpoint';
import { seedDemoUsers } from './users';
import type { Scope } from '@vitalis/schemas';
import type { Principal } from './route-auth';
import { InvalidToken, verifyAccessToken } from './tokens';
import { insufficientScope, unauthorized } from './oauth-errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signing keys (for rotation by operators and tests). */
    signingKeys: KeyStore;
    /**
     * Verifies a Bearer token outside the route contract (a WebSocket's first auth message):
     * signature, expiry, revocation and every scope in `scopes`; throws the same 401/403 problems.
     */
    verifyBearer: (token: string, scopes: Scope[]) => Promise<Principal>;
    /** The shared revocation list (live streams re-check their tokens against it). */
    revocations: RevocationList;
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
    if (deps.config.demoUsers) await seedDemoUsers(deps.pool);
    const ctx: AuthContext = { ...deps, keys, revocations, tokenSettings: { issuer: deps.config.baseUrl, audience: deps.config.baseUrl } };

    await app.register(formbody);
    app.addHook('onRequest', authGuard({ keys, revocations, settings: ctx.tokenSettings, baseUrl: deps.config.baseUrl, pool: deps.pool }));
    for (const routes of [discoveryRoutes, registrationRoutes, authorizeRoutes, tokenEndpoint, revocationRoutes, identityRoutes, sandboxRoutes]) {
      await app.register(routes(ctx));
    }
    app.decorate('signingKeys', keys);
    app.decorate('revocations', revocations);
    app.decorate('verifyBearer', async (token: string, scopes: Scope[]) => {
      let principal: Principal;
      try {
        principal = (await verifyAccessToken(keys, ctx.tokenSettings, token)).principal;
      } catch (err) {
        if (!(err instanceof InvalidToken)) throw err;
        throw unauthorized(deps.config.baseUrl, err.message);
      }
      if (await revocations.isRevoked(principal.tokenId)) throw unauthorized(deps.config.baseUrl, 'the token has been revoked');
      if (scopes.some((s) => !principal.scopes.includes(s))) throw insufficientScope(deps.config.baseUrl, scopes);
      return principal;
    });
  };
  return fp(plugin, { name: 'vitalis-auth', fastify: '5.x' });
}
