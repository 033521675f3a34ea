/** The vitals service's rules (pure): who may read or publish, ranges, aggregates, cursors, resume ids. */
import { describe, expect, it } from 'vitest';
import { HttpProblem } from '@vitalis/http';
import type { Principal } from '../../../apps/gateway/src/access/principal';
import { encodeHistoryCursor, queryFingerprint } from '../../../apps/gateway/src/vitals/history-cursor';
import {
  aggregatesOf,
  assertRangeWithinLimit,
  DAY_MS,
  orderedRange,
  pageCursor,
  parseResumeId,
  rangeLimitMs,
  vitalsDenial,
} from '../../../apps/gateway/src/vitals/service';

const clinician: Principal = {
  clientId: 'c',
  subject: 'nurse',
  scopes: ['read:vitals'],
  roles: ['nurse'],
  tokenId: 'j',
  expiresAt: 0,
  authMethod: 'client_secret',
  derivedFrom: [],
  sandbox: false,
};
const patientUser: Principal = { ...clinician, subject: 'user-me', roles: ['patient'], patientId: 'me' };

/** The problem a call throws (or undefined). */
function problemOf(fn: () => unknown): HttpProblem | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpProblem) return err;
    throw err;
  }
  return undefined;
}

describe('who may read or publish vitals', () => {
  it('a clinician with the scope reads any patient, a ward included', () => {
    expect(vitalsDenial(clinician, ['a'])).toBeUndefined();
    expect(vitalsDenial(clinician, ['a', 'b', 'c'])).toBeUndefined();
  });

  it('a patient user only their own id; a ward with anyone else is refused, naming only the others', () => {
    expect(vitalsDenial(patientUser, ['me'])).toBeUndefined();
    expect(vitalsDenial(patientUser, ['me', 'me'])).toBeUndefined();
    expect(vitalsDenial(patientUser, ['other'])).toEqual({
      reason: 'patient mismatch',
      patients: ['other'],
      detail: 'A patient user may only access their own vitals.',
    });
    expect(vitalsDenial(patientUser, ['me', 'x', 'y', 'x'])).toMatchObject({ reason: 'patient mismatch', patients: ['x', 'y'] });
  });

  it('the scope is part of the rule: reading needs read:vitals, publishing write:vitals, whoever asks', () => {
    const device: Principal = { ...clinician, roles: ['device'], scopes: ['write:vitals'] };
    expect(vitalsDenial(device, ['a'])).toMatchObject({ reason: 'missing scope', patients: ['a'] });
    expect(vitalsDenial(device, ['a'], 'write:vitals')).toBeUndefined();
    expect(vitalsDenial(clinician, ['a'], 'write:vitals')).toMatchObject({
      reason: 'missing scope',
      detail: 'This needs a token with write:vitals.',
    });
    expect(vitalsDenial({ ...patientUser, scopes: ['read:appointments'] }, ['me'])).toMatchObject({ reason: 'missing scope' });
    // a patient user never publishes vitals (the Observation write cell names no patient scope)
    expect(vitalsDenial({ ...patientUser, scopes: ['write:vitals'] }, ['me'], 'write:vitals')).toMatchObject({ reason: 'missing scope' });
  });

  it('the role is part of the rule too (the access policy): a scope holder whose role reaches no patient is refused', () => {
    expect(vitalsDenial({ ...clinician, roles: ['device'], scopes: ['read:vitals', 'write:vitals'] }, ['a'])).toMatchObject({
      reason: 'forbidden',
      patients: ['a'],
    });
    expect(vitalsDenial({ ...clinician, roles: ['nurse'], scopes: ['write:vitals'] }, ['a'], 'write:vitals')).toMatchObject({
      reason: 'forbidden',
    });
    expect(vitalsDenial({ ...clinician, roles: [], scopes: ['read:vitals'] }, ['a'])).toMatchObject({ reason: 'forbidden' });
  });
});

describe('history ranges', () => {
  it('from must be before to; both are normalised to UTC', () => {
    expect(orderedRange('2026-01-01T01:00:00+01:00', '2026-01-01T00:30:00Z')).toMatchObject({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-01T00:30:00.000Z',
    });
    const equal = problemOf(() => orderedRange('2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'querystring.'));
    expect(equal).toMatchObject({ status: 400, extensions: { errors: [{ path: 'querystring.from', message: 'must be before to' }] } });
    expect(problemOf(() => orderedRange('2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z'))?.extensions).toEqual({
      errors: [{ path: 'from', message: 'must be before to' }],
    });
  });

  it('the longest range per query shape: raw and buckets 31 days, 1s one day, 1h/1d on minute-aligned ranges 366 days', () => {
    const aligned = [Date.parse('2026-01-01T00:00:00Z'), Date.parse('2026-06-01T00:00:00Z')] as const;
    const unaligned = [aligned[0] + 1_000, aligned[1]] as const;
    expect(rangeLimitMs(undefined, ...aligned)).toBe(31 * DAY_MS);
    expect(rangeLimitMs('1s', ...aligned)).toBe(DAY_MS);
    expect(rangeLimitMs('1m', ...aligned)).toBe(31 * DAY_MS);
    expect(rangeLimitMs('1h', ...aligned)).toBe(366 * DAY_MS);
    expect(rangeLimitMs('1d', ...aligned)).toBe(366 * DAY_MS);
    expect(rangeLimitMs('1h', ...unaligned)).toBe(31 * DAY_MS);
  });

  it('a range at the limit passes, one millisecond more is a 400 naming the limit', () => {
    const at = (from: string, ms: number) => orderedRange(from, new Date(Date.parse(from) + ms).toISOString());
    expect(problemOf(() => assertRangeWithinLimit(at('2026-01-01T00:00:00Z', 31 * DAY_MS), undefined))).toBeUndefined();
    const tooLong = problemOf(() => assertRangeWithinLimit(at('2026-01-01T00:00:00Z', 31 * DAY_MS + 1), undefined, 'querystring.'));
    expect(tooLong).toMatchObject({ status: 400, detail: 'The range is too long for this query: at most 31 days' });
    expect(tooLong?.extensions).toEqual({ errors: [{ path: 'querystring.to', message: 'range must be at most 31 days' }] });
    expect(problemOf(() => assertRangeWithinLimit(at('2026-01-01T00:00:00Z', DAY_MS + 1), '1s'))?.detail).toBe(
      'The range is too long for this query: at most 1 days',
    );
    expect(problemOf(() => assertRangeWithinLimit(at('2026-01-01T00:00:00Z', 366 * DAY_MS), '1d'))).toBeUndefined();
  });
});

describe('aggregates', () => {
  it('default avg,min,max,count with a bucket; a list is deduplicated; unknown or empty names are refused', () => {
    expect(aggregatesOf('1m', undefined)).toEqual(['avg', 'min', 'max', 'count']);
    expect(aggregatesOf('1m', 'last, max,last')).toEqual(['last', 'max']);
    expect(problemOf(() => aggregatesOf('1m', 'median', 'querystring.'))?.extensions).toEqual({
      errors: [{ path: 'querystring.agg', message: 'unknown: median' }],
    });
    expect(problemOf(() => aggregatesOf('1m', ' , '))?.extensions).toEqual({ errors: [{ path: 'agg', message: 'unknown: (empty)' }] });
  });

  it('no bucket: no aggregates, and agg alone is refused', () => {
    expect(aggregatesOf(undefined, undefined)).toBeUndefined();
    expect(problemOf(() => aggregatesOf(undefined, 'avg'))).toMatchObject({ status: 400, detail: 'agg needs bucket' });
  });
});

describe('page cursors', () => {
  const q = queryFingerprint(['p1', undefined, 'a', 'b', undefined, undefined, 'rest']);
  const raw = encodeHistoryCursor({ k: 'raw', t: '2026-01-01T00:00:00.000000Z', d: 'dev', s: 1, q });

  it('a cursor is accepted only with the query and the kind of page it was minted for', () => {
    expect(pageCursor(undefined, q, 'raw')).toBeUndefined();
    expect(pageCursor(raw, q, 'raw')).toMatchObject({ k: 'raw', s: 1 });
    const otherQuery = queryFingerprint(['p1', undefined, 'a', 'b', undefined, undefined, 'mcp']);
    expect(problemOf(() => pageCursor(raw, otherQuery, 'raw'))).toMatchObject({
      status: 400,
      detail: 'The cursor is invalid or belongs to a different query.',
    });
    expect(problemOf(() => pageCursor(raw, q, 'agg'))?.status).toBe(400);
    expect(problemOf(() => pageCursor('not-a-cursor', q, 'raw', 'querystring.'))?.extensions).toEqual({
      errors: [{ path: 'querystring.cursor', message: 'invalid cursor' }],
    });
  });
});

describe('resume ids', () => {
  it('absent or empty: from now; a well-formed id: its positions; anything else: 400', () => {
    expect(parseResumeId(undefined)).toBeUndefined();
    expect(parseResumeId('')).toBeUndefined();
    expect(parseResumeId('3-1042.1_7-88')).toEqual(
      new Map([
        [3, { offset: 1042, k: 1 }],
        [7, { offset: 88, k: 0 }],
      ]),
    );
    for (const bad of ['nope', '3-', '3-1_3-2', '-1-2', '3-1.', 'x'.repeat(9_000)])
      expect(problemOf(() => parseResumeId(bad))?.status, bad).toBe(400);
  });
});
