/**
 * Forged paging cursors are a 400 problem, never a 500 (issue 30 item 7), over real HTTP: every
 * keyset cursor is decoded through one zod schema per cursor shape (access/http.ts decodeKey). The
 * probe's routes get cursors with a time that is no time, fields of the wrong type, extra or
 * missing fields, a NUL, an id out of range, text that is not JSON and text that is not base64url;
 * and the cursor a page hands out still pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES } from '@vitalis/schemas';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

let gw: RunningGateway;
let system: { authorization: string };
let publicOnly: { authorization: string };

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const json = (value: unknown) => b64(JSON.stringify(value));

/** Forged cursors for a (time, id) key named `t` and `idField`. */
const timeKeyForgeries = (idField: string) => ({
  'bad time': json({ t: 'not-a-time', [idField]: 'x' }),
  'impossible date': json({ t: '2024-02-30T10:00:00.000Z', [idField]: 'x' }),
  'time of the wrong type': json({ t: 1_700_000_000, [idField]: 'x' }),
  'id of the wrong type': json({ t: '2024-01-01T10:00:00.000Z', [idField]: { $gt: '' } }),
  'missing id': json({ t: '2024-01-01T10:00:00.000Z' }),
  'extra field': json({ t: '2024-01-01T10:00:00.000Z', [idField]: 'x', q: 1 }),
  'NUL in the id': json({ t: '2024-01-01T10:00:00.000Z', [idField]: 'x\u0000y' }),
  'an array': json(['2024-01-01T10:00:00.000Z', 'x']),
  null: json(null),
  'not JSON': b64('{"t": not json'),
  'not base64url': '***not+base64/url***',
});

const ROUTES: { path: string; param: string; forgeries: Record<string, string>; headers: () => Record<string, string> }[] = [
  { path: '/fhir/R4/Slot', param: '_cursor', forgeries: timeKeyForgeries('s'), headers: () => system },
  { path: '/fhir/R4/Appointment', param: '_cursor', forgeries: timeKeyForgeries('s'), headers: () => system },
  { path: '/api/v1/appointments', param: 'cursor', forgeries: timeKeyForgeries('s'), headers: () => publicOnly },
  { path: '/fhir/R4/DiagnosticReport', param: '_cursor', forgeries: timeKeyForgeries('i'), headers: () => system },
  { path: '/fhir/R4/ServiceRequest', param: '_cursor', forgeries: timeKeyForgeries('i'), headers: () => system },
  {
    path: '/api/v1/audit',
    param: 'cursor',
    headers: () => system,
    forgeries: {
      'id that is no number': json({ id: 'not-a-number' }),
      'id of the wrong type': json({ id: 12 }),
      'id out of range': json({ id: '99999999999999999999' }),
      'negative id': json({ id: '-1' }),
      'extra field': json({ id: '1', t: 'x' }),
      'not JSON': b64('id=1'),
      'not base64url': '%%%',
    },
  },
];

beforeAll(async () => {
  gw = await startGateway();
  system = await authHeaders(gw.url, ROLE_SCOPES.system);
  // an openly registered client: the public scope only
  const reg = await fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'cursor-test',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: 'read:appointments',
    }),
  });
  expect(reg.status).toBe(201);
  const client = (await reg.json()) as { client_id: string; client_secret: string };
  const token = await fetch(`${gw.url}/api/auth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }),
  });
  expect(token.status).toBe(200);
  publicOnly = { authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
});
afterAll(async () => gw?.close());

describe('a forged cursor is a 400 problem', () => {
  for (const route of ROUTES) {
    it(`${route.path}: every forgery is a 400 (problem or FHIR OperationOutcome), none a 500`, async () => {
      const answers: string[] = [];
      for (const [what, cursor] of Object.entries(route.forgeries)) {
        const res = await fetch(`${gw.url}${route.path}?${route.param}=${encodeURIComponent(cursor)}`, { headers: route.headers() });
        const type = res.headers.get('content-type') ?? '';
        const body = (await res.json()) as Record<string, unknown>;
        const shape = route.path.startsWith('/fhir/')
          ? body.resourceType === 'OperationOutcome' && type.startsWith('application/fhir+json')
            ? 'outcome'
            : 'other'
          : type.startsWith('application/problem+json') && body.status === 400
            ? 'problem'
            : 'other';
        answers.push(`${what}: ${res.status} ${shape}`);
      }
      const expected = Object.keys(route.forgeries).map(
        (what) => `${what}: 400 ${route.path.startsWith('/fhir/') ? 'outcome' : 'problem'}`,
      );
      expect(answers).toEqual(expected);
    });
  }

  it('the cursor a page hands out still pages (the audit trail, two rows a page)', async () => {
    const first = await fetch(`${gw.url}/api/v1/audit?limit=2`, { headers: system });
    expect(first.status).toBe(200);
    const { next } = (await first.json()) as { next: string | null };
    expect(next).toBeTruthy();
    const second = await fetch(next!, { headers: system });
    expect(second.status).toBe(200);
  });
});
