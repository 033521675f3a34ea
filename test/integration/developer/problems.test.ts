/**
 * Problem details everywhere: the framework's own refusals (404, 405, 413, 415, malformed JSON),
 * the sandbox rate limit (429) and an unexpected throw (500) all answer RFC 9457
 * application/problem+json, never fastify's default shape, and every response carries x-request-id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { newRequestId, problemDetails } from '@vitalis/http';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

let gw: RunningGateway;
let writer: Record<string, string>;

beforeAll(async () => {
  gw = await startGateway({ BODY_LIMIT_BYTES: '4096', SANDBOX_RATE_LIMIT: '1' });
  writer = await authHeaders(gw.url, ['write:vitals']);
});
afterAll(async () => {
  await gw?.close();
});

async function expectProblem(res: Response, status: number, kind: string): Promise<Record<string, unknown>> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ type: `${gw.url}/errors/${kind}`, status });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(body).not.toHaveProperty('error'); // fastify's default shape is { statusCode, error, message }
  expect(body).not.toHaveProperty('statusCode');
  return body;
}

describe('problem details for the framework statuses', () => {
  it('404 for an unknown path', async () => {
    const body = await expectProblem(await fetch(`${gw.url}/api/v1/no-such-thing?x=1`), 404, 'not-found');
    expect(body.instance).toBe('/api/v1/no-such-thing');
  });

  it('405 with Allow when the path exists under other methods', async () => {
    const res = await fetch(`${gw.url}/api/v1/vitals`, { method: 'DELETE' });
    const body = await expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(body.detail).toContain('DELETE');
    const templated = await fetch(`${gw.url}/api/v1/patients/pat-1/vitals/latest`, { method: 'PUT' });
    await expectProblem(templated, 405, 'method-not-allowed');
    expect(templated.headers.get('allow')).toBe('GET, HEAD');
  });

  it('415 for a content type no parser accepts', async () => {
    const res = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { ...writer, 'content-type': 'application/xml' },
      body: '<observations/>',
    });
    await expectProblem(res, 415, 'unsupported-media-type');
  });

  it('413 for a body over the limit', async () => {
    const big = JSON.stringify({ observations: [{ padding: 'x'.repeat(8_000) }] });
    const res = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { ...writer, 'content-type': 'application/json' },
      body: big,
    });
    await expectProblem(res, 413, 'payload-too-large');
  });

  it('400 for malformed JSON', async () => {
    const res = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { ...writer, 'content-type': 'application/json' },
      body: '{"observations": [',
    });
    await expectProblem(res, 400, 'bad-request');
  });

  it('429 from the sandbox rate limit, with Retry-After', async () => {
    // the window counter is shared per address, so the first call may already be over the limit of 1
    await fetch(`${gw.url}/api/v1/sandbox`, { method: 'POST' });
    const res = await fetch(`${gw.url}/api/v1/sandbox`, { method: 'POST' });
    const body = await expectProblem(res, 429, 'rate-limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(body.retry_after).toBe(Number(res.headers.get('retry-after')));
  });

  it('mints its own request id, on success and on error; a sane caller id is echoed apart, never adopted', async () => {
    const ok = await fetch(`${gw.url}/openapi.json`, { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(ok.headers.get('x-client-request-id')).toBe('trace-abc.123');
    await ok.body?.cancel();
    const bad = await fetch(`${gw.url}/nope`, { headers: { 'x-request-id': 'has spaces and <tags>' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(bad.headers.get('x-client-request-id')).toBeNull();
    await bad.body?.cancel();
  });
});

describe('500: an unexpected throw', () => {
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    // a route that exists only in this test app, behind the real problem plugin
    app = Fastify({ genReqId: newRequestId });
    await app.register(problemDetails, { baseUrl: 'http://vitalis.test' });
    app.get('/boom', async () => {
      throw new Error('connection string postgres://secret@db leaked?');
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers a generic problem without internals', async () => {
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    const text = await res.text();
    expect(text).not.toContain('secret');
    expect(text).not.toContain('stack');
    expect(JSON.parse(text)).toMatchObject({
      type: 'http://vitalis.test/errors/internal',
      title: 'Internal Server Error',
      status: 500,
      instance: '/boom',
    });
  });
});
