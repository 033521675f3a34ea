/**
 * The token behind every live stream, watched: a stream ends when its token expires, or when it or
 * any token it was exchanged from is revoked (on any instance: one round trip to the revocation
 * list per check for all open streams). Shared by the live hub and the sandbox's synthetic source,
 * so both close streams by the same rule. Fails closed, like the request guard, after a short blip.
 */
import { must } from '@vitalis/runtime';
import type { Logger } from '@vitalis/log';
import { revocationIds } from './principal';

export interface TokenBinding {
  id: string;
  /** Seconds since the epoch. */
  expiresAt: number;
  derivedFrom?: string[];
}

export interface Watched {
  readonly token: TokenBinding | undefined;
  end(reason: 'revoked' | 'expired'): void;
}

export interface TokenWatchOptions {
  logger: Logger;
  /** Which token ids are revoked; without it only expiry is checked. */
  revokedAmong?: (ids: string[]) => Promise<Set<string>>;
  checkMs?: number;
}

/** The ids whose revocation ends the stream: the chain rule (principal.ts revocationIds). */
const chainOf = (t: TokenBinding) => revocationIds({ tokenId: t.id, derivedFrom: t.derivedFrom ?? [] });

/** Consecutive failed revocation checks tolerated before token-bound streams are closed. */
const TOLERATED_FAILURES = 3;

export class TokenWatch {
  readonly #watched = new Set<Watched>();
  #timer?: NodeJS.Timeout;
  #failures = 0;

  constructor(private readonly opts: TokenWatchOptions) {}

  start(): void {
    this.#timer = setInterval(() => void this.check(), this.opts.checkMs ?? 500);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  add(w: Watched): void {
    if (w.token) this.#watched.add(w);
  }

  delete(w: Watched): void {
    this.#watched.delete(w);
  }

  /** Ends the streams whose token has expired or was revoked. */
  async check(): Promise<void> {
    const now = Math.floor(Date.now() / 1000);
    const ids = new Set<string>();
    for (const w of [...this.#watched]) {
      const t = must(w.token, 'the token of a watched stream (add keeps only those with one)');
      if (t.expiresAt <= now) w.end('expired');
      else for (const id of chainOf(t)) ids.add(id);
    }
    if (ids.size === 0 || !this.opts.revokedAmong) return;
    let revoked: Set<string>;
    try {
      revoked = await this.opts.revokedAmong([...ids]);
      this.#failures = 0;
    } catch (err) {
      if (++this.#failures < TOLERATED_FAILURES) return;
      this.opts.logger.error({ err }, 'revocation list unreachable; closing token-bound live streams');
      revoked = ids;
    }
    if (revoked.size === 0) return;
    for (const w of [...this.#watched]) {
      const t = must(w.token, 'the token of a watched stream (add keeps only those with one)');
      if (chainOf(t).some((id) => revoked.has(id))) w.end('revoked');
    }
  }
}
