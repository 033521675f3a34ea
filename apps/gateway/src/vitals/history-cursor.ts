/**
 * Opaque pagination cursors (base64url JSON). Raw pages are ordered by (effective_at, device_id, seq)
 * (unique: the idempotency key), bucketed pages by (bucket, code). A cursor also pins the query it
 * belongs to (`q`: a short hash of the filters), so it cannot be replayed against another query.
 */
import { createHash } from 'node:crypto';

export type HistoryCursor = { k: 'raw'; t: string; d: string; s: number; q: string } | { k: 'agg'; b: string; c: string; q: string };

export function encodeHistoryCursor(cursor: HistoryCursor): string {
  return Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** Returns undefined for anything that is not a cursor this server minted (shape-wise). */
export function decodeHistoryCursor(text: string): HistoryCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,1024}$/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  if (typeof c.q !== 'string') return undefined;
  if (c.k === 'raw' && typeof c.t === 'string' && ISO.test(c.t) && typeof c.d === 'string' && Number.isSafeInteger(c.s)) {
    return { k: 'raw', t: c.t, d: c.d, s: c.s as number, q: c.q };
  }
  if (c.k === 'agg' && typeof c.b === 'string' && ISO.test(c.b) && typeof c.c === 'string') {
    return { k: 'agg', b: c.b, c: c.c, q: c.q };
  }
  return undefined;
}

/** A short fingerprint of the filters a cursor belongs to. */
export function queryFingerprint(parts: (string | number | undefined)[]): string {
  return createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\u0000'))
    .digest('base64url')
    .slice(0, 12);
}
