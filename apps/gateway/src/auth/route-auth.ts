/**
 * The contract between routes and the authorization layer. A route declares what it needs in
 * its options, `config: { auth: { scopes: ['read:vitals'] } }` (every scope) or
 * `config: { auth: { anyOf: ['read:patients', 'write:patients'] } }` (at least one), and never
 * checks a token itself. One onRequest hook (the auth plugin) enforces it for every route and sets
 * `request.principal` (access/principal.ts). Routes without `config.auth` are public (discovery, health, docs).
 * What depends on the resource (a patient user and someone else's record) is decided by the
 * domain services, which refuse through the same 403 builder (`insufficientScope`, access/refusal.ts).
 */
import type { Scope } from '@vitalis/schemas';
import type { Principal } from '../access/principal';

export type RouteAuth =
  /** Every listed scope is required; `[]` means any valid token (authenticated, no scope). */
  | { scopes: Scope[]; anyOf?: undefined }
  /**
   * At least one listed scope is required: a route several roles reach through different scopes
   * (the service then decides what each may see of the resource).
   */
  | { anyOf: Scope[]; scopes?: undefined };

/** What a request needs of a token: every scope of `all` (none: any valid token), or one of `any`. */
export type ScopeRequirement = { all: readonly Scope[] } | { any: readonly Scope[] };

export const requirementOf = (auth: RouteAuth): ScopeRequirement => (auth.anyOf ? { any: auth.anyOf } : { all: auth.scopes });

/** Whether `granted` meets `need`. */
export function meets(granted: readonly Scope[], need: ScopeRequirement): boolean {
  return 'any' in need ? need.any.some((s) => granted.includes(s)) : need.all.every((s) => granted.includes(s));
}

/** The requirement's scopes, as named in a refusal (`scope="..."`) and in the OpenAPI. */
export const scopesOf = (need: ScopeRequirement): readonly Scope[] => ('any' in need ? need.any : need.all);

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** Whether a principal's token meets a route guard (what the guard would let through; used where one request reads several types, as an export). */
export const principalMeets = (principal: Principal, auth: RouteAuth | undefined): boolean =>
  auth === undefined || meets(principal.scopes, requirementOf(auth));

/** The FHIR resource types a token's SMART resource scopes name (`system/Observation.rs` names Observation); empty: none named. */
export function smartResourceTypesOf(principal: Principal): Set<string> {
  return new Set(principal.scopes.flatMap((s) => /^(?:patient|user|system)\/([A-Za-z]+)\.rs$/.exec(s)?.[1] ?? []));
}
