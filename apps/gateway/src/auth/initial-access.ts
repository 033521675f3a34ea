/**
 * RFC 7591 section 3 initial access tokens: how an operator lets a client register with a role.
 * An operator mints one (admin API `POST /api/auth/admin/initial-access-tokens`, scope
 * admin:clients, or the CLI `npm run admin -- initial-access-token --role R`) for one role, with an
 * expiry and a number of uses; the client presents it as `Authorization: Bearer <token>` at
 * `POST /api/auth/register` and is registered with that role's scopes as its ceiling. Tokens are
 * 256-bit random strings stored only as SHA-256 hashes (nothing to brute-force).
 */
import { createHash } from 'node:crypto';
import type { Pool } from '@vitalis/db';
import type { Role } from '@vitalis/schemas';
import { randomToken } from './secrets';

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/** Longest an initial access token may live (a registration is a one-off act, not a credential). */
export const MAX_INITIAL_ACCESS_TTL_SECONDS = 30 * 86_400;

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
  return { initial_access_token: token, role: opts.role, expires_at: Number(rows[0]!.exp), max_uses: opts.maxUses, label: opts.label ?? '' };
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
