/** PKCE (RFC 7636), S256 only: `plain` would hand the verifier to anyone who sees the request. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43-128 unreserved characters. A S256 challenge is 43 base64url characters. */
export const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;
export const CHALLENGE_PATTERN = /^[A-Za-z0-9\-_]{43}$/;

export const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER_PATTERN.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
