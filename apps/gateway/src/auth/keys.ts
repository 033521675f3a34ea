/**
 * Token signing keys: ES256, persisted in PostgreSQL with a kid. The private half is stored
 * encrypted (AES-256-GCM, key derived from KEY_ENCRYPTION_SECRET). Rotation retires the active
 * key (it keeps verifying tokens it signed until they expire) and creates a new one; withdrawal
 * takes a key out at once (it verifies nothing any more). Every gateway instance reads the same
 * keys and reloads them every SIGNING_KEY_REFRESH_SECONDS (`startRefresh`), so a rotation or a
 * withdrawal reaches every instance without a restart: it signs with the new key, and refuses
 * tokens of a withdrawn one, within one refresh interval.
 * A kid this instance does not know (another instance rotated) is looked up in PostgreSQL, at most
 * once per `reloadCooldownMs` (KEY_RELOAD_COOLDOWN_SECONDS): a flood of tokens with made-up kids
 * costs one query per cool-down, not one each; requests arriving during a reload share it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, calculateJwkThumbprint, type JWK, type CryptoKey } from 'jose';
import { withTransaction, type Pool } from '@vitalis/db';

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
    if (this.#signing?.kid !== row.kid) {
      this.#signing = { kid: row.kid, privateKey: (await importJWK(openJwk(row.private_jwk_encrypted, this.secret), SIGNING_ALG)) as CryptoKey };
    }
    await this.refreshVerifyKeys();
  }

  async refreshVerifyKeys(): Promise<void> {
    const { rows } = await this.pool.query<{ kid: string; public_jwk: JWK; retired_at: Date | null }>(
      'SELECT kid, public_jwk, retired_at FROM oauth_signing_keys WHERE withdrawn_at IS NULL ORDER BY created_at DESC',
    );
    const stored: StoredKey[] = rows.map((r) => ({ kid: r.kid, publicJwk: r.public_jwk, retiredAt: r.retired_at }));
    const verifyKeys = new Map<string, CryptoKey>();
    for (const key of stored) verifyKeys.set(key.kid, this.#verifyKeys.get(key.kid) ?? ((await importJWK(key.publicJwk, SIGNING_ALG)) as CryptoKey));
    if ([...this.#verifyKeys.keys()].some((kid) => !verifyKeys.has(kid))) this.generation += 1;
    this.#verifyKeys = verifyKeys;
    this.#published = stored.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: SIGNING_ALG, use: 'sig' }));
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

  /** Retires the active key and makes a new one; tokens signed by the old key stay valid. */
  async rotate(): Promise<string> {
    return rotateSigningKey(this.pool, this.secret).then(async (kid) => {
      await this.load();
      return kid;
    });
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
    return createSigningKey(this.pool, this.secret);
  }
}

async function createSigningKey(db: Pick<Pool, 'query'>, secret: string): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  await db.query(
    `INSERT INTO oauth_signing_keys (kid, alg, public_jwk, private_jwk_encrypted) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [kid, SIGNING_ALG, publicJwk, sealJwk(await exportJWK(privateKey), secret)],
  );
  return kid;
}

/**
 * Operator actions (the admin CLI; every gateway picks them up at its next key refresh):
 * rotation retires the active key (its tokens stay valid until they expire) and makes a new one.
 */
export async function rotateSigningKey(pool: Pool, secret: string): Promise<string> {
  return withTransaction(pool, async (tx) => {
    await tx.query('UPDATE oauth_signing_keys SET retired_at = now() WHERE retired_at IS NULL');
    return createSigningKey(tx, secret);
  });
}

/**
 * Withdrawal takes a key out at once (a leaked private key): it verifies nothing any more, so every
 * token it signed is refused. Withdrawing the active key rotates first. Returns the new active kid
 * when it rotated.
 */
export async function withdrawSigningKey(pool: Pool, secret: string, kid: string): Promise<{ withdrawn: boolean; newKid?: string }> {
  return withTransaction(pool, async (tx) => {
    const { rows } = await tx.query<{ retired: boolean }>('SELECT retired_at IS NOT NULL AS retired FROM oauth_signing_keys WHERE kid = $1 AND withdrawn_at IS NULL FOR UPDATE', [kid]);
    if (!rows[0]) return { withdrawn: false };
    let newKid: string | undefined;
    if (!rows[0].retired) {
      await tx.query('UPDATE oauth_signing_keys SET retired_at = now() WHERE kid = $1', [kid]);
      newKid = await createSigningKey(tx, secret);
    }
    await tx.query('UPDATE oauth_signing_keys SET withdrawn_at = now() WHERE kid = $1', [kid]);
    return { withdrawn: true, ...(newKid ? { newKid } : {}) };
  });
}
