/**
 * RFC 7591 section 3 initial access tokens: how an operator lets a client register with a role.
 * An operator mints one (admin API `POST /api/auth/admin/initial-access-tokens`, scope
 * admin:clients, or the CLI `npm run admin -- initial-access-token --role R`) for one role, with an
 * expiry and a number of uses; the client presents it as `Authorization: Bearer <token>` at
 * `POST /api/auth/register` and is registered with that role's scopes as its ceiling. Tokens are
 * 256-bit random strings stored only as SHA-256 hashes (nothing to brute-force).
 * Over HTTP a caller mints only for a role it could act as itself (`httpMintRefusal`, issue 30);
 * the CLI (and the `make run` seed, which mints as the CLI does) mints any role, `system` included.
 */
import { createHash } from 'node:crypto';
import { must } from '@vitalis/runtime';
import type { Pool } from '@vitalis/db';
import { PUBLIC_SCOPES, ROLE_SCOPES, SMART_RESOURCES, isSystemScope, needsUser, type Role, type Scope } from '@vitalis/schemas';
import { randomToken } from './secrets';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Longest an initial access token may live (a registration is a one-off act, not a credential). */
export const MAX_INITIAL_ACCESS_TTL_SECONDS = 30 * 86_400;

/**
 * What a caller's token must hold to mint, over HTTP, an initial access token for `role`: every
 * scope a client of that role could hold acting for itself, so that holding `admin:clients` is no
 * way to a role beyond the holder's own (an admin minting a `doctor` token would otherwise give
 * itself write:diagnostics). Read from ROLE_SCOPES, per scope of the role:
 * - scopes that need a signed-in user (`needsUser`: openid, profile, fhirUser, offline_access,
 *   launch/patient, patient/ and user/ resources) are left out: a client holds them only in a
 *   user's token, bounded by that user's own role, so they give the client nothing of its own;
 * - a `system/X.rs` scope counts as the Vitalis scope it reads through (SMART_RESOURCES:
 *   system/Patient.rs is read:patients), which the role holds too: a person's token never
 *   carries system/ scopes, and an admin who signed in must still be able to mint `admin`;
 * - the PUBLIC_SCOPES are left out: anyone obtains them by open registration.
 * `system` (every scope) is never minted over HTTP, whatever the caller holds (undefined): the
 * operator's command line alone mints it.
 */
export function httpMintingScopes(role: Role): Scope[] | undefined {
  if (role === 'system') return undefined;
  const needed = ROLE_SCOPES[role]
    .filter((s) => !needsUser(s))
    .map((s) => (isSystemScope(s) ? smartResourceScope(s) : s))
    .filter((s) => !PUBLIC_SCOPES.includes(s));
  return [...new Set(needed)];
}

/** `system/Patient.rs` → read:patients; a system/ scope of no known resource stands for itself. */
function smartResourceScope(scope: Scope): Scope {
  const resource = scope.slice('system/'.length, -'.rs'.length);
  return Object.hasOwn(SMART_RESOURCES, resource) ? SMART_RESOURCES[resource as keyof typeof SMART_RESOURCES] : scope;
}

export type HttpMintRefusal = { reason: 'operator only' } | { reason: 'role beyond the caller'; missing: Scope[] };

/** Why a caller holding `held` may not mint an initial access token for `role` over HTTP; undefined: it may. */
export function httpMintRefusal(role: Role, held: readonly Scope[]): HttpMintRefusal | undefined {
  const needed = httpMintingScopes(role);
  if (!needed) return { reason: 'operator only' };
  const missing = needed.filter((s) => !held.includes(s));
  return missing.length > 0 ? { reason: 'role beyond the caller', missing } : undefined;
}

export interface MintedInitialAccessToken {
  initial_access_token: string;
  role: Role;
  expires_at: number;
  /** null: any number of registrations until it expires. */
  max_uses: number | null;
  label: string;
}

export async function mintInitialAccessToken(
  pool: Pool,
  opts: { role: Role; createdBy: string; ttlSeconds: number; maxUses: number | null; label?: string },
): Promise<MintedInitialAccessToken> {
  const token = `iat_${randomToken(32)}`;
  const ttl = Math.min(opts.ttlSeconds, MAX_INITIAL_ACCESS_TTL_SECONDS);
  const { rows } = await pool.query<{ exp: string }>(
    `INSERT INTO oauth_initial_access_tokens (token_hash, role, label, created_by, expires_at, uses_left)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), $6) RETURNING extract(epoch FROM expires_at)::bigint AS exp`,
    [hash(token), opts.role, opts.label ?? '', opts.createdBy, ttl, opts.maxUses],
  );
  return {
    initial_access_token: token,
    role: opts.role,
    expires_at: Number(must(rows[0], 'the token row the INSERT ... RETURNING returned').exp),
    max_uses: opts.maxUses,
    label: opts.label ?? '',
  };
}

/**
 * Spends one use of an initial access token; the role it carries, or undefined when it is unknown,
 * expired or used up. Atomic: N parallel registrations with a one-use token register one client.
 */
export async function redeemInitialAccessToken(pool: Pool, token: string): Promise<Role | undefined> {
  const { rows } = await pool.query<{ role: Role }>(
    `UPDATE oauth_initial_access_tokens SET uses_left = uses_left - 1
      WHERE token_hash = $1 AND expires_at > now() AND (uses_left IS NULL OR uses_left > 0)
      RETURNING role`,
    [hash(token)],
  );
  return rows[0]?.role;
}
