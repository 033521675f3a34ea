/**
 * Grants, authorization codes and refresh-token families in PostgreSQL.
 *
 * A grant is born when an authorization code is redeemed: it carries the user, the client, the
 * scope and an absolute expiry. Its refresh tokens are one family (each use rotates: the old one
 * is marked rotated, a new one issued). Every access token issued under the grant is listed, so
 * revoking the grant (code reuse, refresh-token reuse, revocation of a refresh token) kills the
 * refresh family AND its live access tokens, on every instance (via the revocation list).
 *
 * Codes and refresh tokens are 256-bit random strings, stored as SHA-256 hashes only.
 * Every read-check-write runs in one transaction with the rows locked, so two concurrent uses of
 * one code or one refresh token cannot both succeed: the second sees the first and revokes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '@vitalis/db';
import type { Scope } from '@vitalis/schemas';
import type { RevocationList } from '../revoked-tokens';
import { randomToken } from '../secrets';

export const hashOpaque = (value: string) => createHash('sha256').update(value).digest('base64url');

export interface CodeRequest {
  clientId: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  /** OpenID Connect: the authorization request's nonce, for the ID token. */
  nonce?: string;
  /** When the user signed in (seconds since the epoch), for the ID token's auth_time. */
  authTime: number;
}

export async function createCode(pool: Pool, request: CodeRequest, ttlSeconds: number): Promise<string> {
  const code = randomToken(32);
  await pool.query(
    `INSERT INTO oauth_authorization_codes (code_hash, grant_id, client_id, user_id, redirect_uri, code_challenge, scope, expires_at, nonce, auth_time)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8), $9, to_timestamp($10))`,
    [
      hashOpaque(code),
      `grt_${randomUUID()}`,
      request.clientId,
      request.userId,
      request.redirectUri,
      request.codeChallenge,
      request.scopes.join(' '),
      ttlSeconds,
      request.nonce ?? null,
      request.authTime,
    ],
  );
  return code;
}

export interface StoredCode {
  grantId: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  expired: boolean;
  redeemed: boolean;
  nonce?: string;
  /** Seconds since the epoch. */
  authTime?: number;
}

export interface GrantRow {
  grantId: string;
  clientId: string;
  userId: string;
  scope: string;
  /** When the user signed in for this grant (seconds since the epoch); absent for grants older than OpenID Connect support. */
  authTime?: number;
}

const epochSeconds = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));

/** Access tokens to list under a grant, issued inside the grant's transaction. */
export interface IssuedUnderGrant {
  token: string;
  jti: string;
  expiresAt: number;
}

/**
 * Revokes a grant inside `tx`: marks it, records its live access tokens as revoked in PostgreSQL
 * and in Redis (Redis first, before the commit: if the commit then fails, Redis over-revokes,
 * which is the safe direction). Returns how many access tokens died.
 */
export async function revokeGrantIn(tx: PoolClient, revocations: RevocationList, grantId: string, reason: string): Promise<number> {
  await tx.query(
    'UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()), revoked_reason = coalesce(revoked_reason, $2) WHERE grant_id = $1',
    [grantId, reason],
  );
  const { rows } = await tx.query<{ jti: string; exp: number }>(
    `INSERT INTO oauth_revocations (jti, expires_at)
       SELECT jti, expires_at FROM oauth_grant_access_tokens WHERE grant_id = $1 AND expires_at > now()
     ON CONFLICT (jti) DO NOTHING
     RETURNING jti, extract(epoch FROM expires_at)::bigint AS exp`,
    [grantId],
  );
  await revocations.markRevoked(rows.map((r) => ({ jti: r.jti, expiresAt: Number(r.exp) })));
  return rows.length;
}

export async function revokeGrant(pool: Pool, revocations: RevocationList, grantId: string, reason: string): Promise<number> {
  return withTransaction(pool, (tx) => revokeGrantIn(tx, revocations, grantId, reason));
}

export type CodeOutcome =
  | { ok: true; code: StoredCode; grant: GrantRow; issued: IssuedUnderGrant; refreshToken?: string }
  | { ok: false; reason: string; code?: StoredCode; revokedTokens?: number };

/**
 * Redeems a code in one transaction. `check` validates the stored code against the request
 * (client, redirect URI, PKCE) and returns a refusal reason or undefined; `issue` signs the
 * access token, whose jti is listed under the new grant before anything commits.
 * A second redemption by the right client with the right verifier revokes the grant the first one
 * created (RFC 6749 §4.1.2); anything else is refused without touching the grant.
 */
export async function redeemCode(
  pool: Pool,
  revocations: RevocationList,
  code: string,
  opts: {
    check: (code: StoredCode) => string | undefined;
    grantTtlSeconds: number;
    withRefreshToken: boolean;
    issue: (grant: GrantRow) => Promise<IssuedUnderGrant>;
  },
): Promise<CodeOutcome> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query(
      `SELECT grant_id, client_id, user_id, redirect_uri, code_challenge, scope, expires_at <= now() AS expired, redeemed_at IS NOT NULL AS redeemed,
              nonce, extract(epoch FROM auth_time)::bigint AS auth_time
       FROM oauth_authorization_codes WHERE code_hash = $1 FOR UPDATE`,
      [hashOpaque(code)],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'unknown authorization code' };
    const stored: StoredCode = {
      grantId: row.grant_id,
      clientId: row.client_id,
      userId: row.user_id,
      redirectUri: row.redirect_uri,
      codeChallenge: row.code_challenge,
      scope: row.scope,
      expired: row.expired,
      redeemed: row.redeemed,
      ...(row.nonce !== null ? { nonce: row.nonce } : {}),
      ...(row.auth_time !== null ? { authTime: Number(row.auth_time) } : {}),
    };
    // Client, redirect URI and PKCE verifier first: only a real redemption attempt counts as a replay
    // (a guessed client id with a wrong verifier must not be able to revoke someone's grant).
    const refusal = opts.check(stored);
    if (refusal) return { ok: false, reason: refusal, code: stored };
    if (stored.redeemed) {
      const revokedTokens = await revokeGrantIn(tx, revocations, stored.grantId, 'authorization code reused');
      return { ok: false, reason: 'authorization code already used; the tokens issued from it are revoked', code: stored, revokedTokens };
    }
    if (stored.expired) return { ok: false, reason: 'authorization code expired', code: stored };

    await tx.query('UPDATE oauth_authorization_codes SET redeemed_at = now() WHERE code_hash = $1', [hashOpaque(code)]);
    await tx.query(
      `INSERT INTO oauth_grants (grant_id, client_id, user_id, scope, expires_at, auth_time)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5), to_timestamp($6))`,
      [stored.grantId, stored.clientId, stored.userId, stored.scope, opts.grantTtlSeconds, stored.authTime ?? null],
    );
    const grant: GrantRow = {
      grantId: stored.grantId,
      clientId: stored.clientId,
      userId: stored.userId,
      scope: stored.scope,
      ...(stored.authTime !== undefined ? { authTime: stored.authTime } : {}),
    };
    const issued = await opts.issue(grant);
    await listAccessToken(tx, grant.grantId, issued);
    const refreshToken = opts.withRefreshToken ? await insertRefreshToken(tx, grant.grantId, stored.scope) : undefined;
    return { ok: true, code: stored, grant, issued, ...(refreshToken ? { refreshToken } : {}) };
  });
}

async function listAccessToken(tx: PoolClient, grantId: string, issued: IssuedUnderGrant): Promise<void> {
  await tx.query('INSERT INTO oauth_grant_access_tokens (jti, grant_id, expires_at) VALUES ($1, $2, to_timestamp($3))', [
    issued.jti,
    grantId,
    issued.expiresAt,
  ]);
}

async function insertRefreshToken(tx: PoolClient, grantId: string, scope: string): Promise<string> {
  const token = randomToken(32);
  await tx.query('INSERT INTO oauth_refresh_tokens (token_hash, grant_id, scope) VALUES ($1, $2, $3)', [hashOpaque(token), grantId, scope]);
  return token;
}

export type RefreshOutcome =
  | { ok: true; grant: GrantRow; scope: string; refreshToken: string; issued: IssuedUnderGrant }
  | { ok: false; reason: string; grant?: GrantRow; revokedTokens?: number };

/**
 * Rotates a refresh token: the presented one is marked rotated and a new one issued, with a new
 * access token listed under the grant. Presenting a rotated token again is treated as theft
 * (RFC 9700 §4.14.2): the whole family and its access tokens are revoked.
 */
export async function rotateRefreshToken(
  pool: Pool,
  revocations: RevocationList,
  token: string,
  opts: { clientId: string; issue: (grant: GrantRow, scope: string) => Promise<IssuedUnderGrant>; narrow: (grantScope: string) => string },
): Promise<RefreshOutcome> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query(
      `SELECT r.grant_id, r.scope, r.rotated_at IS NOT NULL AS rotated, g.client_id, g.user_id, g.scope AS grant_scope,
              g.revoked_at IS NOT NULL AS revoked, g.expires_at <= now() AS expired, extract(epoch FROM g.auth_time)::bigint AS auth_time
       FROM oauth_refresh_tokens r JOIN oauth_grants g USING (grant_id)
       WHERE r.token_hash = $1 FOR UPDATE`,
      [hashOpaque(token)],
    );
    const row = rows[0];
    if (!row) return { ok: false, reason: 'unknown refresh token' };
    const authTime = epochSeconds(row.auth_time);
    const grant: GrantRow = {
      grantId: row.grant_id,
      clientId: row.client_id,
      userId: row.user_id,
      scope: row.grant_scope,
      ...(authTime !== undefined ? { authTime } : {}),
    };
    // Another client's token: refuse without touching it (the presenter is not its holder).
    if (grant.clientId !== opts.clientId) return { ok: false, reason: 'the refresh token was issued to another client' };
    if (row.revoked) return { ok: false, reason: 'the refresh token family has been revoked', grant };
    if (row.rotated) {
      const revokedTokens = await revokeGrantIn(tx, revocations, grant.grantId, 'refresh token reused');
      return { ok: false, reason: 'refresh token already used; the whole token family is revoked', grant, revokedTokens };
    }
    if (row.expired) return { ok: false, reason: 'the refresh token has expired', grant };
    const scope = opts.narrow(row.scope);
    await tx.query('UPDATE oauth_refresh_tokens SET rotated_at = now() WHERE token_hash = $1', [hashOpaque(token)]);
    const issued = await opts.issue(grant, scope);
    await listAccessToken(tx, grant.grantId, issued);
    // The new refresh token keeps the family's scope (a narrower access token does not shrink it, RFC 6749 §6).
    const refreshToken = await insertRefreshToken(tx, grant.grantId, row.scope);
    return { ok: true, grant, scope, refreshToken, issued };
  });
}

/** Finds the grant of a refresh token (for revocation and introspection). */
export async function refreshTokenInfo(
  pool: Pool,
  token: string,
): Promise<{ grant: GrantRow; scope: string; active: boolean; createdAt: number; expiresAt: number } | undefined> {
  const { rows } = await pool.query(
    `SELECT r.grant_id, r.scope, g.client_id, g.user_id, g.scope AS grant_scope,
            r.rotated_at IS NULL AND g.revoked_at IS NULL AND g.expires_at > now() AS active,
            extract(epoch FROM r.created_at)::bigint AS created, extract(epoch FROM g.expires_at)::bigint AS exp
     FROM oauth_refresh_tokens r JOIN oauth_grants g USING (grant_id) WHERE r.token_hash = $1`,
    [hashOpaque(token)],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    grant: { grantId: row.grant_id, clientId: row.client_id, userId: row.user_id, scope: row.grant_scope },
    scope: row.scope,
    active: row.active,
    createdAt: Number(row.created),
    expiresAt: Number(row.exp),
  };
}
