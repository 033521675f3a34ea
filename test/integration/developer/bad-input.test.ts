/**
 * Bad input is a 4xx, never a 500 (issue 19, item 5), over real HTTP:
 *  - malformed or empty JSON at the OAuth endpoints answers their own RFC 6749 / RFC 7591 error
 *    body (it used to fail the route's response schema: 500 FST_ERR_RESPONSE_SERIALIZATION);
 *  - a NUL character (U+0000, which PostgreSQL refuses) anywhere in a JSON string or key, a form
 *    field, a query-string value or a path parameter is a 400 naming where it is, on every route;
 *  - an undeclared method on a declared path is 405 with `Allow`, for every path of the OpenAPI.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { patientBody, uid } from '../records/support';

let gw: RunningGateway;
let admin: Record<string, string>;
let device: Record<string, string>;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  gw = await startGateway();
  admin = await authHeaders(gw.url, ['read:patients', 'write:patients']);
  device = await authHeaders(gw.url, ['write:vitals']);
});
afterAll(async () => gw?.close());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(`${gw.url}${path}`, { method: 'POST', headers: { ...json, ...headers }, body });

async function expectOAuthError(res: Response, error: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ error, error_description: expect.any(String) });
  return body;
}

async function expectNulProblem(res: Response, path: string) {
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await res.json()) as { type: string; detail: string; errors: { path: string; message: string }[] };
  expect(body.type).toBe(`${gw.url}/errors/validation-error`);
  expect(body.errors).toEqual([{ path, message: 'must not contain the NUL character (U+0000)' }]);
  expect(body.detail).toContain(path);
}

describe('malformed JSON at the OAuth endpoints', () => {
  it('registration: broken JSON and an empty JSON body are invalid_client_metadata, not a 500', async () => {
    for (const body of ['{"client_name":', '', 'null']) {
      await expectOAuthError(await post('/api/auth/register', body), 'invalid_client_metadata');
    }
  });

  it('token, revocation and introspection: broken or empty JSON is invalid_request', async () => {
    for (const path of ['/api/auth/oauth2/token', '/api/auth/revoke', '/api/auth/oauth2/introspect']) {
      for (const body of ['{"grant_type":', '']) await expectOAuthError(await post(path, body), 'invalid_request');
    }
  });

  it('protected and public JSON routes answer malformed JSON with a 400 problem', async () => {
    const res = await post('/api/v1/patients', '{"resourceType":', admin);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('a NUL character anywhere in the input is a 400, never a 500', () => {
  it('registration (OAuth body naming the field)', async () => {
    const body = await expectOAuthError(
      await post('/api/auth/register', JSON.stringify({ client_name: 'evil\u0000client', grant_types: ['client_credentials'] })),
      'invalid_client_metadata',
    );
    expect(body.error_description).toContain('body.client_name');
  });

  it('the token endpoint (form fields)', async () => {
    const res = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'cli_\u0000', client_secret: 'x' }),
    });
    const body = await expectOAuthError(res, 'invalid_request');
    expect(body.error_description).toContain('body.client_id');
  });

  it('patient registration: in a name, in an identifier, in a key; nothing is stored', async () => {
    const family = `Nul${uid()}`;
    await expectNulProblem(await post('/api/v1/patients', JSON.stringify(patientBody(`${family}\u0000x`)), admin), 'body.name.0.family');
    await expectNulProblem(
      await post(
        '/api/v1/patients',
        JSON.stringify(patientBody(family, { identifier: [{ system: 'urn:vitalis:mrn', value: 'MRN\u0000' }] })),
        admin,
      ),
      'body.identifier.0.value',
    );
    await expectNulProblem(
      await post('/api/v1/patients', JSON.stringify({ ...patientBody(family), 'ex\u0000tra': 1 }), admin),
      'body.ex\\u0000tra',
    );
    const { rows } = await gw.deps.pool.query('SELECT 1 FROM audit_events WHERE action = $1 AND detail::text LIKE $2', [
      'patient.register',
      `%${family}%`,
    ]);
    expect(rows).toEqual([]);
  });

  it('allergy text', async () => {
    const created = await post('/api/v1/patients', JSON.stringify(patientBody(`Nul${uid()}`)), admin);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const allergy = {
      resourceType: 'AllergyIntolerance',
      code: { text: 'Peni\u0000cillin' },
      criticality: 'high',
      reaction: [{ description: 'rash' }],
    };
    await expectNulProblem(await post(`/api/v1/patients/${id}/allergies`, JSON.stringify(allergy), admin), 'body.code.text');
    const read = (await (await fetch(`${gw.url}/api/v1/patients/${id}`, { headers: admin })).json()) as { allergies: unknown[] };
    expect(read.allergies).toEqual([]);
  });

  it('a vitals batch', async () => {
    const o = {
      patient_id: `pat-${uid()}`,
      device_id: 'dev-1',
      seq: 1,
      effective_at: new Date().toISOString(),
      code: '8867-4',
      value: 70,
      unit: '/min\u0000',
    };
    await expectNulProblem(await post('/api/v1/vitals', JSON.stringify({ observations: [o, o] }), device), 'body.observations.0.unit');
  });

  it('a query-string value and a path parameter', async () => {
    await expectNulProblem(await fetch(`${gw.url}/api/v1/patients?name=Ada%00`, { headers: admin }), 'querystring.name');
    await expectNulProblem(await fetch(`${gw.url}/api/v1/patients/pat%00x`, { headers: admin }), 'params.id');
    await expectNulProblem(await fetch(`${gw.url}/api/v1/catalog/clinicians?q=%00`), 'querystring.q');
  });

  it('the six characters \\u0000 (an escaped backslash) are text, not a NUL; JSON parsing keeps its protections', async () => {
    const family = `Back\\u0000slash${uid()}`;
    const created = await post('/api/v1/patients', JSON.stringify(patientBody(family)), admin);
    expect(created.status).toBe(201);
    expect(((await created.json()) as { name: { family: string }[] }).name[0]!.family).toBe(family);
    const poisoned = await post('/api/v1/patients', '{"resourceType":"Patient","__proto__":{"admin":true}}', admin);
    expect(poisoned.status).toBe(400);
  });

  it('a JSON body sent without any Content-Type header is a 4xx problem (415), not a 500', async () => {
    const res = await new Promise<{ status: number; type: string | undefined }>((resolve, reject) => {
      const req = http.request(`${gw.url}/api/v1/patients`, { method: 'POST', headers: admin }, (r) => {
        r.resume();
        r.on('end', () => resolve({ status: r.statusCode!, type: r.headers['content-type'] }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(patientBody('Nul\u0000Header')));
    });
    expect(res.status).toBe(415);
    expect(res.type).toMatch(/^application\/problem\+json/);
  });
});

describe('405 with Allow for an undeclared method, on every documented path', () => {
  it('walks the OpenAPI document', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const checked: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      const path = template.replace(/\{[^}]+\}/g, 'pat-405');
      const declared = Object.keys(item).map((m) => m.toUpperCase());
      const allowed = new Set([...declared, ...(declared.includes('GET') ? ['HEAD'] : [])]);
      const method = ['PATCH', 'PUT', 'DELETE', 'POST'].find((m) => !allowed.has(m));
      if (!method) continue;
      const res = await fetch(`${gw.url}${path}`, { method });
      expect(res.status, `${method} ${template}`).toBe(405);
      if (template.startsWith('/fhir/R4/')) {
        // under the FHIR base the same 405 is an OperationOutcome
        expect(res.headers.get('content-type'), template).toMatch(/^application\/fhir\+json/);
        expect(((await res.json()) as { issue: { code: string }[] }).issue[0]!.code, template).toBe('not-supported');
      } else {
        expect(res.headers.get('content-type'), template).toMatch(/^application\/problem\+json/);
      }
      expect(new Set(res.headers.get('allow')?.split(', ')), template).toEqual(allowed);
      checked.push(template);
    }
    expect(checked.length).toBeGreaterThan(30);
  });
});

/** A raw request (fetch refuses QUERY without a body and headers over its own limits). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${gw.url}${path}`, { method, headers }, (r) => {
      let body = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (body += c));
      r.on('end', () => resolve({ status: r.statusCode!, headers: r.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// Found by the contract check (test/contract, docs/contract-testing.md): each was a 400 where the
// document promised otherwise, fastify's own error shape instead of a problem, or a 500.
describe('refusals made before any route runs are problems too', () => {
  it('QUERY without a Content-Type on a served path is 405 with Allow (its body is never read)', async () => {
    const res = await raw('QUERY', '/api/v1/health');
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers.allow).toContain('GET');
  });

  it('a path segment over the router limit is a 414 problem whose detail does not echo the path', async () => {
    const res = await raw('GET', `/ui/${'x'.repeat(3_000)}`);
    expect(res.status).toBe(414);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ type: `${gw.url}/errors/uri-too-long`, status: 414 });
    expect((JSON.parse(res.body) as { detail: string }).detail).not.toContain('xxxx');
  });

  it('a header section over 16 KiB is a 431 problem', async () => {
    const res = await raw('GET', '/api/v1/health', { 'x-padding': 'p'.repeat(20_000) });
    expect(res.status).toBe(431);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ type: `${gw.url}/errors/headers-too-large`, status: 431 });
  });

  it('a plain GET of the WebSocket endpoint is a 426 problem naming the protocol', async () => {
    const res = await fetch(`${gw.url}/api/v1/vitals/ws`);
    expect(res.status).toBe(426);
    expect(res.headers.get('upgrade')).toBe('websocket');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});

describe('the published schema and the validator refuse the same input', () => {
  it('a query instant PostgreSQL cannot read (year 0000, offset beyond ±15:59) is a 400, not a 500', async () => {
    const reader = await authHeaders(gw.url, ['read:appointments']);
    for (const from of ['0052-08-24T10:07:15-19:35', '0000-01-01T00:00:00Z']) {
      const res = await fetch(`${gw.url}/api/v1/appointments?from=${encodeURIComponent(from)}`, { headers: reader });
      expect(res.status, from).toBe(400);
    }
    expect(
      (await fetch(`${gw.url}/api/v1/appointments?from=${encodeURIComponent('2026-01-01T00:00:00+15:59')}`, { headers: reader })).status,
    ).toBe(200);
  });

  it('blank text is refused by the schema (its published pattern), not only after trimming', async () => {
    const body = patientBody(`Blank${uid()}`) as { name: { family: string }[] };
    body.name[0]!.family = '   ';
    expect((await post('/api/v1/patients', JSON.stringify(body), admin)).status).toBe(400);
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Record<string, unknown>;
    // every published `family` of a name: its pattern refuses blank and control characters, takes a name
    const patterns: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const family = (v as { properties?: { family?: { pattern?: string } } }).properties?.family;
        if (family?.pattern) patterns.push(family.pattern);
        Object.values(v).forEach(walk);
      }
    };
    walk(doc);
    expect(patterns.length).toBeGreaterThan(0);
    for (const pattern of patterns) {
      const re = new RegExp(pattern, 'u');
      expect(re.test('   '), pattern).toBe(false);
      expect(re.test('Ann\u0008'), pattern).toBe(false);
      expect(re.test(" Ann O'Neil "), pattern).toBe(true);
    }
  });

  it('a __proto__ key beside a valid body is dropped like any unknown key (no 400 "not valid JSON")', async () => {
    const family = `Proto${uid()}`;
    const text = JSON.stringify(patientBody(family)).replace(/^\{/, '{"__proto__":{"admin":true},');
    const res = await post('/api/v1/patients', text, admin);
    expect(res.status).toBe(201);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
