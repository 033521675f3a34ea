/**
 * The auth plugin: loads signing keys, restores the revocation list into Redis, seeds the demo
 * users, installs the one enforcement hook for every route, the request rate limits
 * (`app.rateLimiter`, rate-limits.ts; the OAuth endpoints' per-address limit), and registers the
 * OAuth routes:
 *
 *   discovery      /.well-known/oauth-protected-resource, oauth-authorization-server,
 *                  openid-configuration, jwks.json
 *   registration   POST /api/auth/register                      (RFC 7591)
 *   authorization  GET|POST /api/auth/oauth2/authorize          (login + consent, PKCE S256)
 *   token          POST /api/auth/oauth2/token                  (4 grants)
 *   introspection  POST /api/auth/oauth2/introspect             (RFC 7662)
 *   revocation     POST /api/auth/revoke                        (RFC 7009)
 *   identity       GET /agent/identity
 *   userinfo       GET|POST /api/auth/userinfo                  (OpenID Connect)
 *   sandbox        POST|GET /api/v1/sandbox
 */
import formbody from '@fastify/formbody';
import fp from 'fastify-plugin';
import { FASTIFY_VERSIONS, PLUGIN } from '../plugins';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { adminRoutes } from './admin';
import { authorizeRoutes } from './authorize';
import type { AuthContext } from './context';
import { discoveryRoutes } from './discovery';
import { BearerAuthenticator, RefusalBudget, bearerToken } from './bearer';
import { authGuard, bearerContextOf, noStoreWhenAuthenticated } from './guard';
import { identityRoutes } from './identity';
import { KeyStore } from './keys';
import { registrationRoutes } from './registration';
import { RevocationList } from './revoked-tokens';
import { revocationRoutes } from './revocation-endpoints';
import { rateLimitsPlugin } from './rate-limits';
import { sandboxRoutes } from './sandbox';
import { limitOAuthEndpoints, tokenEndpoint } from './token-endpoint';
import { seedDemoUsers } from './users';
import { userInfoRoutes } from './userinfo';
import type { FastifyRequest } from 'fastify';
import type { Scope } from '@vitalis/schemas';
import type { Principal } from '../access/principal';

declare module 'fastify' {
  interface FastifyInstance {
    /** The signing keys (for rotation by operators and tests). */
    signingKeys: KeyStore;
    /**
     * The route guard's bearer check for surfaces outside the route contract (a WebSocket's header
     * or first auth message, the MCP endpoint): signature, expiry, revocation (503 when unknowable),
     * every scope in `scopes`, the refusal audit; throws the same 401/403/503 problems. The token is
     * the request's `Authorization: Bearer` unless `token` is given.
     */
    verifyBearer: (
      req: FastifyRequest,
      scopes: readonly Scope[],
      options?: { token?: string | undefined; detail?: Record<string, unknown> },
    ) => Promise<Principal>;
    /** The one bearer check itself (for refusals decided outside it, e.g. a bound MCP session). */
    bearerAuth: BearerAuthenticator;
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
    const keys = new KeyStore(deps.pool, deps.config.KEY_ENCRYPTION_SECRET, deps.config.KEY_RELOAD_COOLDOWN_SECONDS * 1000);
    await keys.load();
    // Rotations and withdrawals by an operator reach this instance within one interval, no restart.
    keys.startRefresh(deps.config.SIGNING_KEY_REFRESH_SECONDS, (err) =>
      deps.logger.error({ err }, 'signing key refresh failed; keeping the keys loaded before'),
    );
    app.addHook('onClose', async () => keys.stopRefresh());
    const revocations = new RevocationList(deps.pool, deps.redis);
    await revocations.restore();
    if (deps.config.demoUsers) await seedDemoUsers(deps.pool);
    const ctx: AuthContext = { ...deps, keys, revocations, tokenSettings: { issuer: deps.config.baseUrl, audience: deps.config.baseUrl } };

    const bearer = new BearerAuthenticator({
      keys,
      revocations,
      settings: ctx.tokenSettings,
      baseUrl: deps.config.baseUrl,
      pool: deps.pool,
      logger: deps.logger,
      refusals: new RefusalBudget(deps.redis, deps.config.REFUSAL_AUDIT_LIMIT, deps.config.REFUSAL_AUDIT_WINDOW_SECONDS),
    });

    await app.register(formbody);
    app.addHook('onRequest', authGuard(bearer));
    app.addHook('onSend', noStoreWhenAuthenticated);
    await app.register(rateLimitsPlugin(deps));
    limitOAuthEndpoints(app, ctx);
    for (const routes of [
      discoveryRoutes,
      registrationRoutes,
      adminRoutes,
      authorizeRoutes,
      tokenEndpoint,
      revocationRoutes,
      identityRoutes,
      userInfoRoutes,
      sandboxRoutes,
    ]) {
      await app.register(routes(ctx));
    }
    app.decorate('signingKeys', keys);
    app.decorate('revocations', revocations);
    app.decorate('bearerAuth', bearer);
    app.decorate(
      'verifyBearer',
      (req: FastifyRequest, scopes: readonly Scope[], options: { token?: string | undefined; detail?: Record<string, unknown> } = {}) =>
        bearer.authenticate(options.token ?? bearerToken(req.headers.authorization), { all: scopes }, bearerContextOf(req, options.detail)),
    );
  };
  return fp(plugin, { name: PLUGIN.auth, fastify: FASTIFY_VERSIONS, dependencies: [PLUGIN.problems] });
}
