import { describe, expect, it } from 'vitest';
import { decodeHistoryCursor, encodeHistoryCursor, queryFingerprint } from '../../../apps/gateway/src/vitals/history-cursor';
import { chooseSource } from '../../../apps/gateway/src/vitals/history';

describe('history cursors', () => {
  it('round-trips raw and bucket cursors as opaque base64url', () => {
    const raw = { k: 'raw' as const, t: '2026-03-01T10:00:00.123456Z', d: 'dev-1', s: 1_700_000_000_000_000, q: 'abc' };
    const token = encodeHistoryCursor(raw);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeHistoryCursor(token)).toEqual(raw);
    const agg = { k: 'agg' as const, b: '2026-03-01T10:00:00.000000Z', c: '8867-4', q: 'abc' };
    expect(decodeHistoryCursor(encodeHistoryCursor(agg))).toEqual(agg);
  });

  it('rejects anything it did not mint', () => {
    for (const bad of [
      '',
      'not a cursor',
      '!!!',
      Buffer.from('{"k":"raw"}').toString('base64url'),
      Buffer.from('[1,2]').toString('base64url'),
      Buffer.from('{"k":"raw","t":"yesterday","d":"x","s":1,"q":"a"}').toString('base64url'),
      Buffer.from('{"k":"raw","t":"2026-03-01T10:00:00Z","d":"x","s":1.5,"q":"a"}').toString('base64url'),
      'a'.repeat(2000),
    ]) {
      expect(decodeHistoryCursor(bad)).toBeUndefined();
    }
  });

  it('fingerprints queries so a cursor cannot be replayed against different filters', () => {
    expect(queryFingerprint(['p1', '8867-4', 'a', 'b'])).toBe(queryFingerprint(['p1', '8867-4', 'a', 'b']));
    expect(queryFingerprint(['p1', '8867-4', 'a', 'b'])).not.toBe(queryFingerprint(['p2', '8867-4', 'a', 'b']));
    expect(queryFingerprint(['p1', undefined, 'a'])).not.toBe(queryFingerprint(['p1', 'a', undefined]));
  });
});

describe('bucket source choice', () => {
  it('uses the coarsest rollup the bucket and range are aligned to', () => {
    expect(chooseSource('1m', '2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z')).toBe('rollup_1m');
    expect(chooseSource('1h', '2026-03-01T10:00:00Z', '2026-03-01T12:00:00Z')).toBe('rollup_1h');
    expect(chooseSource('1d', '2026-03-01T00:00:00Z', '2026-03-03T00:00:00Z')).toBe('rollup_1h');
    expect(chooseSource('1h', '2026-03-01T10:01:00Z', '2026-03-01T12:00:00Z')).toBe('rollup_1m');
    expect(chooseSource('1m', '2026-03-01T10:00:01Z', '2026-03-01T11:00:00Z')).toBe('raw');
    expect(chooseSource('1s', '2026-03-01T10:00:00Z', '2026-03-01T11:00:00Z')).toBe('raw');
  });
});
