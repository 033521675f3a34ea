import { describe, expect, it } from 'vitest';
import { VerifiedTokenCache } from '../../../apps/gateway/src/auth/bearer';
import type { Principal } from '../../../apps/gateway/src/access/principal';

const principal = (expiresAt: number): Principal => ({
  clientId: 'c',
  subject: 'c',
  scopes: ['read:vitals'],
  roles: [],
  tokenId: `j${expiresAt}`,
  expiresAt,
  authMethod: 'client_secret',
  derivedFrom: [],
  sandbox: false,
});

describe('VerifiedTokenCache', () => {
  it('returns a cached principal only before its expiry', () => {
    const cache = new VerifiedTokenCache();
    cache.set('t', principal(100));
    expect(cache.get('t', 99)?.tokenId).toBe('j100');
    expect(cache.get('t', 100)).toBeUndefined();
    expect(cache.get('t', 50)).toBeUndefined(); // evicted once seen expired
  });

  it('is bounded: the oldest entry goes first', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('a', principal(10));
    cache.set('b', principal(11));
    cache.set('c', principal(12));
    expect(cache.get('a', 0)).toBeUndefined();
    expect(cache.get('b', 0)?.tokenId).toBe('j11');
    expect(cache.get('c', 0)?.tokenId).toBe('j12');
  });
});
