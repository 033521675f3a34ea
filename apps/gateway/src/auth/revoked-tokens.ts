/**
 * Revoked access tokens, checked on every authenticated request by every gateway instance.
 * Redis holds the shared, fast copy (one key per jti, expiring with the token); PostgreSQL holds
 * the record, replayed into Redis at start so a Redis restart revives nothing. When Redis cannot
 * answer, the check fails CLOSED: the request is refused with 503, never let through.
 */
import type { Pool } from '@vitalis/db';
import type { Redis } from '@vitalis/redis';
import { revocationIds, type Principal } from '../access/principal';

const key = (jti: string) => `vitalis:revoked:${jti}`;

export class RevocationList {
  constructor(
    private readonly pool: Pool,
    private readonly redis: Redis,
  ) {}

  async revoke(jti: string, expiresAt: number): Promise<void> {
    const ttl = expiresAt - Math.floor(Date.now() / 1000);
    if (ttl <= 0) return; // already dead
    await this.pool.query('INSERT INTO oauth_revocations (jti, expires_at) VALUES ($1, to_timestamp($2)) ON CONFLICT (jti) DO NOTHING', [
      jti,
      expiresAt,
    ]);
    await this.redis.set(key(jti), '1', 'EX', ttl);
  }

  /** Redis only: for revocations whose PostgreSQL record is written in the caller's transaction. */
  async markRevoked(entries: { jti: string; expiresAt: number }[]): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const live = entries.filter((e) => e.expiresAt > now);
    if (live.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const e of live) pipeline.set(key(e.jti), '1', 'EX', e.expiresAt - now);
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
  }

  /** Throws when Redis cannot answer: callers turn that into a 503, not a pass. */
  async isRevoked(jti: string): Promise<boolean> {
    return (await this.redis.exists(key(jti))) === 1;
  }

  /**
   * The chain rule, the one every check of a token uses (the guard, WebSocket, MCP, introspection,
   * subscription bindings): a token is revoked when it, or any token it was exchanged from, is.
   * Throws when Redis cannot answer (fail closed).
   */
  async isChainRevoked(p: Pick<Principal, 'tokenId' | 'derivedFrom'>): Promise<boolean> {
    return p.derivedFrom.length === 0 ? this.isRevoked(p.tokenId) : (await this.revokedAmong(revocationIds(p))).size > 0;
  }

  /** Which of `jtis` are revoked, in one round trip (live streams re-check their tokens with it). */
  async revokedAmong(jtis: string[]): Promise<Set<string>> {
    if (jtis.length === 0) return new Set();
    const values = await this.redis.mget(jtis.map(key));
    return new Set(jtis.filter((_, i) => values[i] !== null));
  }

  /** Replays unexpired revocations from PostgreSQL into Redis; returns how many. */
  async restore(): Promise<number> {
    const { rows } = await this.pool.query<{ jti: string; ttl: number }>(
      `SELECT jti, ceil(extract(epoch FROM expires_at - now()))::int AS ttl FROM oauth_revocations WHERE expires_at > now()`,
    );
    if (rows.length === 0) return 0;
    const pipeline = this.redis.pipeline();
    for (const row of rows) pipeline.set(key(row.jti), '1', 'EX', Math.max(row.ttl, 1));
    await pipeline.exec();
    return rows.length;
  }
}
