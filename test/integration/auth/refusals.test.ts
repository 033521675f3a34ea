/**
 * One 401/403 contract everywhere (issue 19, item 3; service spec section 7), over real HTTP:
 *  - every operation the OpenAPI document secures answers no token, and a token it cannot verify,
 *    with the spec section 7 401; and a valid token without any scope with the guard's 403 (or,
 *    for the one operation open to any valid token, 200);
 *  - every refusal is `application/json` (under /fhir/R4 the same refusal as a FHIR OperationOutcome,
 *    `application/fhir+json`), with `WWW-Authenticate` naming the resource metadata,
 *    and every 403 says `error="insufficient_scope"` and `scope="..."` with problem type
 *    `insufficient-scope`, whether the guard refused the token or a service refused the resource
 *    (a patient user and another patient's record or vitals; a client without a role and bookings);
 *  - `GET /api/v1/patients` and `GET /api/v1/patients/{id}` refuse a token holding only
 *    read:appointments through the guard (they used to answer a 403 of another shape, without
 *    `WWW-Authenticate`, from the service).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, Scope } from '@vitalis/schemas';
import { issueAccessToken } from '../../../apps/gateway/src/auth/tokens';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { patientBody, uid } from '../records/support';

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  security: Record<string, string[]>[];
}

let gw: RunningGateway;
let operations: Operation[];

/** A token as the authorization server would sign it, with exactly these claims (scopes may be none). */
async function mintedToken(scopes: Scope[], extra: { roles?: Role[]; patientId?: string } = {}): Promise<string> {
  const id = `cli_refusals_${uid()}`;
  const { token } = await issueAccessToken(
    gw.app.signingKeys,
    { issuer: gw.url, audience: gw.url },
    {
      clientId: id,
      subject: extra.patientId ? `usr_${uid()}` : id,
      scopes,
      roles: extra.roles ?? [],
      authMethod: 'client_secret',
      ...(extra.patientId ? { patientId: extra.patientId } : {}),
    },
    600,
  );
  return token;
}

beforeAll(async () => {
  gw = await startGateway();
  const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, op]) => (op.security ?? []).length > 0)
      .map(([method, op]) => ({ method: method.toUpperCase(), path, security: op.security! })),
  );
});
afterAll(async () => gw?.close());

const metadata = () => `resource_metadata="${gw.url}/.well-known/oauth-protected-resource"`;

/** The scopes an operation names: its one requirement's, or (any of) one per requirement. */
function scopesOf(op: Operation): string[] {
  const oauth = op.security.filter((r) => 'oauth2' in r).map((r) => r.oauth2!);
  return oauth.length === 1 ? oauth[0]! : oauth.map((scopes) => scopes[0]!);
}

/**
 * The id a path is called with. An operation open to any valid token is open for some ids only
 * where the resource says so: Practitioner read is open for the catalog's clinicians (reference
 * data); a staff user's Practitioner is the access policy's staff directory (asserted below).
 */
const ID_FOR: Record<string, string> = { '/fhir/R4/Practitioner/{id}': 'clin-001' };

function call(op: Operation, token?: string): Promise<Response> {
  const url = `${gw.url}${op.path.replace(/\{[^}]+\}/g, ID_FOR[op.path] ?? 'pat-refusals')}`;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (op.method === 'GET' || op.method === 'DELETE') return fetch(url, { method: op.method, headers });
  return fetch(url, { method: op.method, headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
}

/** The FHIR API (/fhir/R4) sends the same refusal (status, WWW-Authenticate, detail) as an OperationOutcome. */
const isFhir = (what: string) => what.includes(' /fhir/R4/');
async function expectFhirOutcome(res: Response, what: string, code: string) {
  expect(res.headers.get('content-type'), what).toMatch(/^application\/fhir\+json(;|$)/);
  const body = (await res.json()) as { resourceType: string; issue: { code: string; diagnostics: string }[] };
  expect(body.resourceType, what).toBe('OperationOutcome');
  expect(body.issue[0]!.code, what).toBe(code);
  expect(body.issue[0]!.diagnostics, what).toContain(`${gw.url}/auth.md`);
}

async function expectSpec401(res: Response, what: string, invalidToken: boolean) {
  expect(res.status, what).toBe(401);
  const challenge = res.headers.get('www-authenticate')!;
  if (invalidToken)
    expect(challenge, what).toMatch(
      new RegExp(`^Bearer realm="vitalis", error="invalid_token", error_description="[^"]+", ${metadata().replace(/[.?]/g, '\\$&')}$`),
    );
  else expect(challenge, what).toBe(`Bearer realm="vitalis", ${metadata()}`);
  if (isFhir(what)) return expectFhirOutcome(res, what, 'login');
  expect(res.headers.get('content-type'), what).toMatch(/^application\/problem\+json(;|$)/);
  const body = (await res.json()) as Json;
  expect(body, what).toMatchObject({ type: `${gw.url}/errors/unauthorized`, title: 'Unauthorized', status: 401 });
  expect(body.detail, what).toMatch(/Bearer token (is required|is invalid)/);
  expect(body.detail, what).toContain(`${gw.url}/auth.md`);
}

async function expect403(res: Response, what: string, scope: string) {
  expect(res.status, what).toBe(403);
  expect(res.headers.get('www-authenticate'), what).toBe(
    `Bearer realm="vitalis", error="insufficient_scope", scope="${scope}", ${metadata()}`,
  );
  if (isFhir(what)) return expectFhirOutcome(res, what, 'forbidden');
  expect(res.headers.get('content-type'), what).toMatch(/^application\/problem\+json(;|$)/);
  const body = (await res.json()) as Json;
  expect(body, what).toMatchObject({ type: `${gw.url}/errors/insufficient-scope`, title: 'Forbidden', status: 403, required_scope: scope });
  expect(body.detail, what).toContain(`${gw.url}/auth.md`);
}

describe('every secured operation of the OpenAPI document', () => {
  it('covers the whole API (the walk is not vacuous)', () => {
    expect(operations.length).toBeGreaterThan(25);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'GET /api/v1/patients',
        'GET /api/v1/patients/{id}',
        'POST /api/v1/vitals',
        'GET /api/auth/admin/clients',
        'GET /fhir/R4/Patient/{id}',
        'GET /fhir/R4/Observation',
      ]),
    );
  });

  it('no token: the spec section 7 401', async () => {
    for (const op of operations) await expectSpec401(await call(op), `${op.method} ${op.path}`, false);
  });

  it('a token that cannot be verified: 401 invalid_token, same body', async () => {
    for (const op of operations) await expectSpec401(await call(op, 'not.a-token'), `${op.method} ${op.path}`, true);
  });

  it('a valid token without any scope: the guard 403 naming the scopes the operation declares', async () => {
    const none = await mintedToken([]);
    for (const op of operations) {
      const what = `${op.method} ${op.path}`;
      const scopes = scopesOf(op);
      const res = await call(op, none);
      if (scopes.length === 0) expect(res.status, `${what} is open to any valid token`).toBe(200);
      else await expect403(res, what, scopes.join(' '));
    }
    // the open read is open for the clinicians only: a staff user's Practitioner is the staff directory
    const staff = await fetch(`${gw.url}/fhir/R4/Practitioner/usr-demo-nurse`, { headers: { authorization: `Bearer ${none}` } });
    await expect403(staff, 'GET /fhir/R4/Practitioner/{staff id}', 'read:patients');
  });
});

describe('patients: a token holding only read:appointments', () => {
  it('is refused by the guard on search and read, like any missing scope', async () => {
    const appointmentsOnly = await authHeaders(gw.url, ['read:appointments']);
    for (const path of ['/api/v1/patients?name=Ada', '/api/v1/patients/pat-0001']) {
      await expect403(
        await fetch(`${gw.url}${path}`, { headers: appointmentsOnly }),
        path,
        'read:patients write:patients patient/Patient.rs',
      );
    }
  });
});

describe('resource-level refusals have the guard shape', () => {
  it('a patient user reading another patient record, and another patient vitals', async () => {
    const writer = await authHeaders(gw.url, ['write:patients']);
    const ids: string[] = [];
    for (const family of [`Own${uid()}`, `Other${uid()}`]) {
      const res = await fetch(`${gw.url}/api/v1/patients`, {
        method: 'POST',
        headers: { ...writer, 'content-type': 'application/json' },
        body: JSON.stringify(patientBody(family)),
      });
      ids.push(((await res.json()) as { id: string }).id);
    }
    const [own, other] = ids as [string, string];
    const patient = {
      authorization: `Bearer ${await mintedToken(['patient/Patient.rs', 'read:vitals'], { roles: ['patient'], patientId: own })}`,
    };
    expect((await fetch(`${gw.url}/api/v1/patients/${own}`, { headers: patient })).status).toBe(200);
    await expect403(
      await fetch(`${gw.url}/api/v1/patients/${other}`, { headers: patient }),
      'another record',
      'read:patients write:patients patient/Patient.rs',
    );
    await expect403(
      await fetch(`${gw.url}/api/v1/vitals/latest?patient=${other}`, { headers: patient }),
      'another patient vitals',
      'read:vitals',
    );
    await expect403(await fetch(`${gw.url}/api/v1/patients/${own}/history`, { headers: patient }), 'the history', 'read:patients');
  });

  it('a client without a role asking for a patient bookings', async () => {
    const availabilityOnly = { authorization: `Bearer ${await mintedToken(['read:appointments'])}` };
    expect((await fetch(`${gw.url}/api/v1/appointments`, { headers: availabilityOnly })).status).toBe(200);
    await expect403(
      await fetch(`${gw.url}/api/v1/appointments?patient=pat-0001`, { headers: availabilityOnly }),
      'bookings of a patient',
      'read:appointments',
    );
  });
});
