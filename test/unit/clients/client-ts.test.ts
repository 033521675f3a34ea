/**
 * Pure parts of @vitalis/client: URL building, live-event parsing, problem → typed error mapping,
 * PKCE values.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  ForbiddenError,
  OAuthError,
  ProblemError,
  RateLimitedError,
  UnauthorizedError,
  ValidationError,
  buildUrl,
  createPkce,
  errorFromResponse,
  toLiveEvent,
} from '@vitalis/client';

describe('buildUrl', () => {
  it('fills and encodes path parameters, joins lists, skips undefined, formats dates', () => {
    const url = buildUrl(
      'http://h:1',
      '/api/v1/patients/{id}/vitals/latest',
      { id: 'pat 1/2' },
      { code: ['8867-4', '59408-5'], cursor: undefined, from: new Date(Date.UTC(2026, 0, 1)) },
    );
    expect(url).toBe('http://h:1/api/v1/patients/pat%201%2F2/vitals/latest?code=8867-4%2C59408-5&from=2026-01-01T00%3A00%3A00.000Z');
    expect(() => buildUrl('http://h:1', '/x/{id}', {})).toThrow(/id/);
  });
});

describe('toLiveEvent', () => {
  const obs = { patient_id: 'p', device_id: 'd', seq: 1, effective_at: '2026-01-01T00:00:00Z', code: '8867-4', unit: '/min', value: 60 };
  it('observation and alert events carry their id; control messages and comments are not events', () => {
    expect(toLiveEvent({ id: '3-10', event: 'observation', data: JSON.stringify(obs) })).toEqual({
      type: 'observation',
      id: '3-10',
      observation: obs,
    });
    expect(toLiveEvent({ id: '3-10.1', event: 'alert', data: '{"state":"raised"}' })).toMatchObject({
      type: 'alert',
      id: '3-10.1',
      alert: { state: 'raised' },
    });
    expect(toLiveEvent({ id: undefined, event: 'lagged', data: '{"last_id":"3-9"}' })).toBeNull();
    expect(toLiveEvent({ id: undefined, event: 'closed', data: '{"reason":"revoked"}' })).toBeNull();
  });

  it('replay-truncated (no id) is an event of its own, with the gaps to read through REST', () => {
    const truncated = {
      last_event_id: '3-1',
      resume_id: '3-9',
      window_seconds: 300,
      gaps: [{ patient_id: 'p', from: '2026-01-01T00:00:00.000000Z', to: '2026-01-01T01:00:00.000Z' }],
      detail: 'd',
    };
    expect(toLiveEvent({ id: undefined, event: 'replay-truncated', data: JSON.stringify(truncated) })).toEqual({
      type: 'replay-truncated',
      truncated,
    });
  });
});

describe('errorFromResponse', () => {
  const problem = (status: number, kind: string, headers: Record<string, string> = {}) =>
    new Response(
      JSON.stringify({ type: `http://h/errors/${kind}`, title: 't', status, detail: 'd', errors: [{ path: 'x', message: 'm' }] }),
      { status, headers: { 'content-type': 'application/problem+json', ...headers } },
    );
  it('maps statuses to typed errors with the problem body and kind', async () => {
    const v = (await errorFromResponse(problem(400, 'validation-error'))) as ValidationError;
    expect(v).toBeInstanceOf(ValidationError);
    expect(v.kind).toBe('validation-error');
    expect(v.errors).toEqual([{ path: 'x', message: 'm' }]);
    expect(await errorFromResponse(problem(401, 'unauthorized', { 'www-authenticate': 'Bearer realm="vitalis"' }))).toBeInstanceOf(
      UnauthorizedError,
    );
    expect(await errorFromResponse(problem(403, 'insufficient-scope'))).toBeInstanceOf(ForbiddenError);
    expect(await errorFromResponse(problem(409, 'conflict'))).toBeInstanceOf(ConflictError);
    const limited = (await errorFromResponse(problem(429, 'rate-limited', { 'retry-after': '7' }))) as RateLimitedError;
    expect(limited.retryAfter).toBe(7);
    const other = await errorFromResponse(problem(503, 'unavailable'));
    expect(other).toBeInstanceOf(ProblemError);
    expect(other).not.toBeInstanceOf(ValidationError);
  });
  it('OAuth bodies become OAuthError; a non-JSON body still becomes a problem', async () => {
    const o = (await errorFromResponse(new Response('{"error":"invalid_client","error_description":"no"}', { status: 401 }))) as OAuthError;
    expect(o).toBeInstanceOf(OAuthError);
    expect([o.error, o.description]).toEqual(['invalid_client', 'no']);
    expect(o.retryAfter).toBeNull();
    const slow = (await errorFromResponse(
      new Response('{"error":"temporarily_unavailable","error_description":"too many requests"}', {
        status: 429,
        headers: { 'retry-after': '12' },
      }),
    )) as OAuthError;
    expect([slow.status, slow.error, slow.retryAfter]).toEqual([429, 'temporarily_unavailable', 12]);
    const p = (await errorFromResponse(
      new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    )) as ProblemError;
    expect(p.problem).toMatchObject({ type: 'about:blank', status: 502, detail: '<html>bad gateway</html>' });
  });
});

describe('createPkce', () => {
  it('makes a 43-character verifier and its S256 challenge', async () => {
    const { verifier, challenge, method } = await createPkce();
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect(method).toBe('S256');
    expect((await createPkce()).verifier).not.toBe(verifier);
  });
});
