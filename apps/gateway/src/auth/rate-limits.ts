/**
 * Request rate limits, one mechanism for the whole gateway: @fastify/rate-limit (registered once,
 * not global) counting in its Redis store, so every instance shares the same windows (one script
 * per request: INCR, and PEXPIRE on the first of a window). A rule is a name, a budget per fixed
 * window, and what it counts by (the client address by default, see client-address.ts, or a key
 * the caller gives, e.g. a client id). `app.rateLimiter(rule)` returns the check; the caller
 * decides what a refusal looks like (an OAuth error body at the OAuth endpoints, an RFC 9457
 * problem elsewhere), always 429 with `Retry-After` (seconds to the end of the window).
 *
 * Where the rules are: the token, introspection and revocation endpoints (token-endpoint.ts
 * `limitOAuthEndpoints`), registration (registration.ts), the sandbox (sandbox.ts), anonymous MCP
 * sessions (mcp/index.ts). `app.failureBudget` counts failures instead of requests (the token
 * endpoint's failed client authentications, per address and per presented client id).
 * Unknown-kid key reloads have a per-instance cool-down instead (keys.ts); sign-in failures their
 * own throttle (login-throttle.ts), because those count failures, not requests.
 *
 * The first refusal of a key in a window is one `rate_limit.exceeded` audit row (rule, budget,
 * route), never one per refused request. When Redis cannot count, the request goes through and the
 * failure is logged: these limits protect capacity, and a Redis outage should not also take token
 * issuance down (the checks that must fail closed, revocation and sign-in, do so on their own).
 * Redis keys: `vitalis:ratelimit:...<rule>:<key>` (the store's) and `vitalis:ratelimit-noted:<rule>:<key>`.
 */
import { createHash } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { FASTIFY_VERSIONS, PLUGIN } from '../plugins';
import { recordAudit } from '@vitalis/audit';
import type { GatewayDeps } from '../deps';
import { clientAddress } from './client-address';

export interface RateLimitRule {
  /** Names the counter (Redis key, audit detail): e.g. `oauth`, `sandbox`. */
  name: string;
  /** Requests allowed per window. */
  max: number;
  windowSeconds: number;
  /** What it counts by: the client address (default), or the client id the caller passes. */
  by?: 'address' | 'client';
}

export interface RateLimitVerdict {
  exceeded: boolean;
  max: number;
  remaining: number;
  /** Seconds until the window ends (Retry-After when exceeded). */
  resetSeconds: number;
}

/** Counts this request against the rule (a `by: 'client'` rule counts `clientId`'s requests). */
export type RateLimiter = (req: FastifyRequest, clientId?: string) => Promise<RateLimitVerdict>;

/**
 * A budget of failures (not requests): `check` before the costly work refuses once `failed` was
 * called `max` times in the window, on the address or on the client id given (each its own
 * counter). The failed client authentications of the token endpoint use it, so a wrong secret
 * costs the caller a tighter budget than the request limit, while successes cost nothing extra.
 */
export interface FailureBudget {
  /** Before the work: a verdict with `exceeded` once the address's or the client's failures reached the budget. */
  check: (req: FastifyRequest, clientId?: string) => Promise<RateLimitVerdict>;
  /** After a failure: count it on the address and on the client id, if any. */
  failed: (req: FastifyRequest, clientId?: string) => Promise<void>;
}

export interface FailureRule {
  name: string;
  /** Failures per window from one client address. */
  max: number;
  /** Failures per window naming one client id. */
  clientMax: number;
  windowSeconds: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A check for one rule (create it once, at registration; call it per request). */
    rateLimiter: (rule: RateLimitRule) => RateLimiter;
    /** A failure budget for one rule: `max` failures per window per address, `clientMax` per client id. */
    failureBudget: (rule: FailureRule) => FailureBudget;
  }
}

const FAILURES_PREFIX = 'vitalis:ratelimit-failures:';
/** KEYS: counters; ARGV: window (ms). INCR each, PEXPIRE on the first of a window. */
const COUNT_FAILURE = `
for i, key in ipairs(KEYS) do
  if redis.call('INCR', key) == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
end
return 1`;
/** KEYS: the address's counter, the client's (optional); ARGV: their budgets. Returns the PTTL of the first at or past its budget, or 0. */
const CHECK_FAILURES = `
for i, key in ipairs(KEYS) do
  if tonumber(redis.call('GET', key) or '0') >= tonumber(ARGV[i]) then
    local ttl = redis.call('PTTL', key)
    if ttl < 1 then ttl = 1 end
    return ttl
  end
end
return 0`;

const NOTED_PREFIX = 'vitalis:ratelimit-noted:';

/** Wrapped with fastify-plugin: `app.rateLimiter` is for every route module. */
export function rateLimitsPlugin(deps: GatewayDeps) {
  return fp(
    async (app: FastifyInstance) => {
      await app.register(fastifyRateLimit, { global: false, redis: deps.redis, nameSpace: 'vitalis:ratelimit:', skipOnError: false });
      app.decorate('rateLimiter', (rule: RateLimitRule): RateLimiter => {
        // The library's key generator sees only the request: a caller's client id travels beside it.
        const clientIds = new WeakMap<FastifyRequest, string>();
        const check = app.createRateLimit({
          max: rule.max,
          timeWindow: rule.windowSeconds * 1000,
          keyGenerator: (req) => `${rule.name}:${rule.by === 'client' ? `client:${clientIds.get(req)}` : clientAddress(req)}`,
        });
        return async (req, clientId) => {
          if (rule.by === 'client') {
            if (clientId === undefined) throw new Error(`rate limit ${rule.name} counts by client: pass the client id`);
            clientIds.set(req, clientId);
          }
          let result: Awaited<ReturnType<typeof check>>;
          try {
            result = await check(req);
          } catch (err) {
            req.log.error({ err, limit: rule.name }, 'rate limit could not be counted (Redis); letting the request through');
            return { exceeded: false, max: rule.max, remaining: rule.max, resetSeconds: rule.windowSeconds };
          } finally {
            clientIds.delete(req);
          }
          if (result.isAllowed) return { exceeded: false, max: rule.max, remaining: rule.max, resetSeconds: rule.windowSeconds };
          const verdict = {
            exceeded: result.isExceeded,
            max: result.max,
            remaining: result.remaining,
            resetSeconds: Math.max(1, result.ttlInSeconds),
          };
          if (verdict.exceeded) await noteFirstRefusal(deps, req, rule, result.key, verdict.resetSeconds, clientId);
          return verdict;
        };
      });
      app.decorate('failureBudget', (rule: FailureRule): FailureBudget => failureBudgetOf(deps, rule));
    },
    { name: PLUGIN.rateLimits, fastify: FASTIFY_VERSIONS, dependencies: [PLUGIN.problems] },
  );
}

/** A failure budget (app.failureBudget): failures counted per address and per presented client id in Redis; checked before, counted after. */
function failureBudgetOf(deps: GatewayDeps, rule: FailureRule): FailureBudget {
  const keysOf = (req: FastifyRequest, clientId: string | undefined) => [
    `${FAILURES_PREFIX}${rule.name}:${clientAddress(req)}`,
    // the presented client id, hashed: it is caller input and may be anything
    ...(clientId === undefined
      ? []
      : [`${FAILURES_PREFIX}${rule.name}:client:${createHash('sha256').update(clientId).digest('base64url')}`]),
  ];
  return {
    check: async (req, clientId) => {
      const keys = keysOf(req, clientId);
      let ttlMs: number;
      try {
        ttlMs = Number(await deps.redis.eval(CHECK_FAILURES, keys.length, ...keys, String(rule.max), String(rule.clientMax)));
      } catch (err) {
        req.log.error({ err, limit: rule.name }, 'failure budget could not be read (Redis); letting the request through');
        return { exceeded: false, max: rule.max, remaining: rule.max, resetSeconds: rule.windowSeconds };
      }
      if (ttlMs === 0) return { exceeded: false, max: rule.max, remaining: rule.max, resetSeconds: rule.windowSeconds };
      const verdict = { exceeded: true, max: rule.max, remaining: 0, resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
      // the presented client id is not audited as the actor: nobody proved to be that client
      await noteFirstRefusal(
        deps,
        req,
        { name: rule.name, max: rule.max, windowSeconds: rule.windowSeconds },
        `failures:${keys.join(':')}`,
        verdict.resetSeconds,
        undefined,
      );
      return verdict;
    },
    failed: async (req, clientId) => {
      const keys = keysOf(req, clientId);
      try {
        await deps.redis.eval(COUNT_FAILURE, keys.length, ...keys, String(rule.windowSeconds * 1000));
      } catch (err) {
        req.log.error({ err, limit: rule.name }, 'failure could not be counted (Redis)');
      }
    },
  };
}

/** One audit row per rule, key and window: the first refusal (a marker in Redis until the window ends). */
async function noteFirstRefusal(
  deps: GatewayDeps,
  req: FastifyRequest,
  rule: RateLimitRule,
  counterKey: string,
  ttlSeconds: number,
  clientId: string | undefined,
): Promise<void> {
  try {
    const first = await deps.redis.set(`${NOTED_PREFIX}${counterKey}`, '1', 'EX', ttlSeconds, 'NX');
    if (first !== 'OK') return;
    await recordAudit(deps.pool, {
      action: 'rate_limit.exceeded',
      outcome: 'failure',
      clientId,
      requestId: req.id,
      ip: req.ip,
      detail: { limit: rule.name, max: rule.max, window_seconds: rule.windowSeconds, route: req.routeOptions.url, method: req.method },
    });
  } catch (err) {
    req.log.error({ err }, 'rate limit refusal could not be audited');
  }
}
