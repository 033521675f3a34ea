/**
 * Token signing keys, persisted in PostgreSQL with a kid: one active key per algorithm. ES256
 * signs access tokens (and the ID tokens of clients that registered ES256); RS256 signs ID tokens
 * by default, as OpenID Connect requires (Core 1.0 §15.1). The private half is stored encrypted
 * (AES-256-GCM, key derived from KEY_ENCRYPTION_SECRET). Rotation retires the active key (it keeps
 * verifying tokens it signed until they expire) and creates a new one; withdrawal takes a key out
 * at once (it verifies nothing any more). Every gateway instance reads the same keys and reloads
 * them every SIGNING_KEY_REFRESH_SECONDS (`startRefresh`), so a rotation or a withdrawal reaches
 * every instance without a restart: it signs with the new key, and refuses tokens of a withdrawn
 * one, within one refresh interval. The JWKS publishes every key that may still verify, each with
 * its `alg` and `use: "sig"`.
 * A kid this instance does not know (another instance rotated) is looked up in PostgreSQL, at most
 * once per `reloadCooldownMs` (KEY_RELOAD_COOLDOWN_SECONDS): a flood of tokens with made-up kids
 * costs one query per cool-down, not one each; requests arriving during a reload share it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, calculateJwkThumbprint, type JWK, type CryptoKey } from 'jose';
import { must } from '@vitalis/runtime';
import { withTransaction, type Pool } from '@vitalis/db';

/** Every algorithm this server signs with; each has exactly one active key. */
export const SIGNING_ALGS = ['ES256', 'RS256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];
/** Access tokens (RFC 9068) are always ES256. */
export const ACCESS_TOKEN_ALG: SigningAlg = 'ES256';

export function isSigningAlg(value: unknown): value is SigningAlg {
  return (SIGNING_ALGS as readonly unknown[]).includes(value);
}

interface StoredKey {
  kid: string;
  alg: SigningAlg;
  publicJwk: JWK;
}

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  privateKey: CryptoKey;
}

interface VerifyKey {
  alg: SigningAlg;
  key: CryptoKey;
}

function encryptionKey(secret: string): Buffer {
  return createHash('sha256').update(`vitalis-signing-keys:${secret}`).digest();
}

export function sealJwk(jwk: JWK, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(secret), iv);
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(jwk), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url');
}

export function openJwk(sealed: string, secret: string): JWK {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', encryptionKey(secret), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as JWK;
}

export class KeyStore {
  #verifyKeys = new Map<string, VerifyKey>();
  #published: JWK[] = [];
  #signing = new Map<SigningAlg, SigningKey>();
  #timer: NodeJS.Timeout | undefined;
  /** Grows whenever a kid stops verifying (withdrawn): caches of verified tokens compare it and start over. */
  generation = 0;
  #lastUnknownKidReload = Number.NEGATIVE_INFINITY;
  #reloading: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly secret: string,
    /** Least time between two reloads for unknown kids. */
    private readonly reloadCooldownMs = 10_000,
  ) {}

  /** Loads keys, creating the first one of an algorithm on a fresh database (or the first RS256 one on an older one). */
  async load(): Promise<void> {
    const activeKeys = () =>
      this.pool.query<{ kid: string; alg: SigningAlg; private_jwk_encrypted: string }>(
        'SELECT kid, alg, private_jwk_encrypted FROM oauth_signing_keys WHERE retired_at IS NULL',
      );
    let active = await activeKeys();
    const missing = SIGNING_ALGS.filter((alg) => !active.rows.some((r) => r.alg === alg));
    if (missing.length > 0) {
      // Two instances starting at once: the one-active-per-alg index keeps one of their keys.
      for (const alg of missing) await createSigningKey(this.pool, this.secret, alg);
      active = await activeKeys();
    }
    for (const row of active.rows) {
      if (!isSigningAlg(row.alg) || this.#signing.get(row.alg)?.kid === row.kid) continue;
      const privateKey = (await importJWK(openJwk(row.private_jwk_encrypted, this.secret), row.alg)) as CryptoKey;
      this.#signing.set(row.alg, { kid: row.kid, alg: row.alg, privateKey });
    }
    await this.refreshVerifyKeys();
  }

  async refreshVerifyKeys(): Promise<void> {
    const { rows } = await this.pool.query<{ kid: string; alg: string; public_jwk: JWK }>(
      'SELECT kid, alg, public_jwk FROM oauth_signing_keys WHERE withdrawn_at IS NULL ORDER BY created_at DESC',
    );
    const stored: StoredKey[] = rows
      .filter((r) => isSigningAlg(r.alg))
      .map((r) => ({ kid: r.kid, alg: r.alg as SigningAlg, publicJwk: r.public_jwk }));
    const verifyKeys = new Map<string, VerifyKey>();
    for (const k of stored) {
      verifyKeys.set(k.kid, this.#verifyKeys.get(k.kid) ?? { alg: k.alg, key: (await importJWK(k.publicJwk, k.alg)) as CryptoKey });
    }
    if ([...this.#verifyKeys.keys()].some((kid) => !verifyKeys.has(kid))) this.generation += 1;
    this.#verifyKeys = verifyKeys;
    this.#published = stored.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: k.alg, use: 'sig' }));
  }

  /** Reloads the keys every `seconds` (unref'd), so rotations and withdrawals reach this instance without a restart. */
  startRefresh(seconds: number, onError: (err: unknown) => void): void {
    this.stopRefresh();
    this.#timer = setInterval(() => void this.load().catch(onError), seconds * 1000);
    this.#timer.unref();
  }

  stopRefresh(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Retires the active key of `alg` (default: the access-token algorithm) and makes a new one;
   * tokens signed by the old key stay valid. Returns the new kid.
   */
  async rotate(alg: SigningAlg = ACCESS_TOKEN_ALG): Promise<string> {
    const kids = await rotateSigningKeys(this.pool, this.secret, [alg]);
    await this.load();
    return must(kids[alg], `the new kid of ${alg}, just rotated`);
  }

  /** The active key of `alg` (default: the access-token algorithm). */
  signingKey(alg: SigningAlg = ACCESS_TOKEN_ALG): SigningKey {
    const key = this.#signing.get(alg);
    if (!key) throw new Error('KeyStore.load() was not called');
    return key;
  }

  /**
   * The public key for a kid, if it is a key of `alg`. An unknown kid (another instance may just
   * have made it) reloads the keys from the database, unless a reload is under way (then it waits
   * for that one) or the last one was less than the cool-down ago (then the kid is unknown: the
   * token is refused).
   */
  async verifyKey(kid: string, alg: SigningAlg = ACCESS_TOKEN_ALG): Promise<CryptoKey | undefined> {
    if (!this.#verifyKeys.has(kid)) {
      if (this.#reloading) await this.#reloading;
      else if (Date.now() - this.#lastUnknownKidReload >= this.reloadCooldownMs) {
        this.#lastUnknownKidReload = Date.now();
        this.#reloading = this.refreshVerifyKeys().finally(() => {
          this.#reloading = undefined;
        });
        await this.#reloading;
      }
    }
    const found = this.#verifyKeys.get(kid);
    return found?.alg === alg ? found.key : undefined;
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.#published };
  }
}

async function createSigningKey(db: Pick<Pool, 'query'>, secret: string, alg: SigningAlg): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  await db.query(
    `INSERT INTO oauth_signing_keys (kid, alg, public_jwk, private_jwk_encrypted) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [kid, alg, publicJwk, sealJwk(await exportJWK(privateKey), secret)],
  );
  return kid;
}

/**
 * Operator actions (the admin CLI; every gateway picks them up at its next key refresh):
 * rotation retires the active key of each algorithm in `algs` (default: all; their tokens stay
 * valid until they expire) and makes new ones. Returns the new kid per algorithm.
 */
export async function rotateSigningKeys(
  pool: Pool,
  secret: string,
  algs: readonly SigningAlg[] = SIGNING_ALGS,
): Promise<Partial<Record<SigningAlg, string>>> {
  return withTransaction(pool, async (tx) => {
    const kids: Partial<Record<SigningAlg, string>> = {};
    for (const alg of algs) {
      await tx.query('UPDATE oauth_signing_keys SET retired_at = now() WHERE retired_at IS NULL AND alg = $1', [alg]);
      kids[alg] = await createSigningKey(tx, secret, alg);
    }
    return kids;
  });
}

/**
 * Withdrawal takes a key out at once (a leaked private key): it verifies nothing any more, so every
 * token it signed is refused. Withdrawing the active key of an algorithm rotates that algorithm
 * first. Returns the new active kid when it rotated.
 */
export async function withdrawSigningKey(pool: Pool, secret: string, kid: string): Promise<{ withdrawn: boolean; newKid?: string }> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ retired: boolean; alg: SigningAlg }>(
      'SELECT retired_at IS NOT NULL AS retired, alg FROM oauth_signing_keys WHERE kid = $1 AND withdrawn_at IS NULL FOR UPDATE',
      [kid],
    );
    if (!rows[0]) return { withdrawn: false };
    let newKid: string | undefined;
    if (!rows[0].retired) {
      await tx.query('UPDATE oauth_signing_keys SET retired_at = now() WHERE kid = $1', [kid]);
      newKid = await createSigningKey(tx, secret, rows[0].alg);
    }
    await tx.query('UPDATE oauth_signing_keys SET withdrawn_at = now() WHERE kid = $1', [kid]);
    return { withdrawn: true, ...(newKid ? { newKid } : {}) };
  });
}
