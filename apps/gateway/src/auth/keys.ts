/**
 * Token signing keys: ES256, persisted in PostgreSQL with a kid. The private half is stored
 * encrypted (AES-256-GCM, key derived from KEY_ENCRYPTION_SECRET). Rotation retires the active
 * key (it keeps verifying tokens it signed until they expire) and creates a new one.
 * Every gateway instance reads the same keys, so any instance verifies any instance's tokens.
 * A kid this instance does not know (another instance rotated) is looked up in PostgreSQL, at most
 * once per `reloadCooldownMs` (KEY_RELOAD_COOLDOWN_SECONDS): a flood of tokens with made-up kids
 * costs one query per cool-down, not one each; requests arriving during a reload share it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, calculateJwkThumbprint, type JWK, type CryptoKey } from 'jose';
import type { Pool } from '@vitalis/db';

export const SIGNING_ALG = 'ES256';

interface StoredKey {
  kid: string;
  publicJwk: JWK;
  retiredAt: Date | null;
}

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
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
  #verifyKeys = new Map<string, CryptoKey>();
  #published: JWK[] = [];
  #signing: SigningKey | undefined;
  #lastUnknownKidReload = Number.NEGATIVE_INFINITY;
  #reloading: Promise<void> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly secret: string,
    /** Least time between two reloads for unknown kids. */
    private readonly reloadCooldownMs = 10_000,
  ) {}

  /** Loads keys, creating the first one on a fresh database. */
  async load(): Promise<void> {
    let active = await this.pool.query<{ kid: string; private_jwk_encrypted: string }>(
      'SELECT kid, private_jwk_encrypted FROM oauth_signing_keys WHERE retired_at IS NULL',
    );
    if (active.rowCount === 0) {
      await this.#create();
      active = await this.pool.query('SELECT kid, private_jwk_encrypted FROM oauth_signing_keys WHERE retired_at IS NULL');
    }
    const row = active.rows[0]!;
    this.#signing = { kid: row.kid, privateKey: (await importJWK(openJwk(row.private_jwk_encrypted, this.secret), SIGNING_ALG)) as CryptoKey };
    await this.refreshVerifyKeys();
  }

  async refreshVerifyKeys(): Promise<void> {
    const { rows } = await this.pool.query<{ kid: string; public_jwk: JWK; retired_at: Date | null }>(
      'SELECT kid, public_jwk, retired_at FROM oauth_signing_keys ORDER BY created_at DESC',
    );
    const stored: StoredKey[] = rows.map((r) => ({ kid: r.kid, publicJwk: r.public_jwk, retiredAt: r.retired_at }));
    const verifyKeys = new Map<string, CryptoKey>();
    for (const key of stored) verifyKeys.set(key.kid, (await importJWK(key.publicJwk, SIGNING_ALG)) as CryptoKey);
    this.#verifyKeys = verifyKeys;
    this.#published = stored.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: SIGNING_ALG, use: 'sig' }));
  }

  /** Retires the active key and makes a new one; tokens signed by the old key stay valid. */
  async rotate(): Promise<string> {
    await this.pool.query('UPDATE oauth_signing_keys SET retired_at = now() WHERE retired_at IS NULL');
    const kid = await this.#create();
    await this.load();
    return kid;
  }

  signingKey(): SigningKey {
    if (!this.#signing) throw new Error('KeyStore.load() was not called');
    return this.#signing;
  }

  /**
   * The public key for a kid. An unknown kid (another instance may just have made it) reloads the
   * keys from the database, unless a reload is under way (then it waits for that one) or the last
   * one was less than the cool-down ago (then the kid is unknown: the token is refused).
   */
  async verifyKey(kid: string): Promise<CryptoKey | undefined> {
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
    return this.#verifyKeys.get(kid);
  }

  jwks(): { keys: JWK[] } {
    return { keys: this.#published };
  }

  async #create(): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const publicJwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(publicJwk);
    await this.pool.query(
      `INSERT INTO oauth_signing_keys (kid, alg, public_jwk, private_jwk_encrypted) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING`,
      [kid, SIGNING_ALG, publicJwk, sealJwk(await exportJWK(privateKey), this.secret)],
    );
    return kid;
  }
}
