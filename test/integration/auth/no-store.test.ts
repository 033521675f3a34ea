/**
 * PHI and tokens are never cacheable (issue 30 item 6), over real HTTP: every operation the
 * OpenAPI document secures answers `Cache-Control: no-store`, whether it serves (a system token
 * holding every scope), refuses without a token (401) or refuses a token without its scopes (403).
 * The PHI routes the probe named answer 200 with it: a patient, its search and history, the triage
 * board, diagnostic reports and the audit trail. One onSend hook does it (auth/guard.ts), so a new
 * route cannot forget it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_SCOPES } from '@vitalis/schemas';
import { issueAccessToken } from '../../../apps/gateway/src/auth/tokens';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { operationsOf } from '../../helpers/openapi-walk';
import { patientBody, uid } from '../records/support';

let gw: RunningGateway;
let secured: { method: string; path: string }[];
let system: { authorization: string };
let noScope: { authorization: string };
let patientId: string;

beforeAll(async () => {
  gw = await startGateway();
  const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Record<string, any>;
  secured = operationsOf(doc)
    .filter(({ op }) => ((op.security ?? []) as unknown[]).length > 0)
    .map(({ key }) => ({ method: key.split(' ')[0]!, path: key.slice(key.indexOf(' ') + 1) }));
  system = await authHeaders(gw.url, ROLE_SCOPES.system);
  // a valid token holding no scope, as the authorization server would sign it
  const { token } = await issueAccessToken(
    gw.app.signingKeys,
    { issuer: gw.url, audience: gw.url },
    { clientId: `cli_nostore_${uid()}`, subject: `cli_nostore_${uid()}`, scopes: [], roles: [], authMethod: 'client_secret' },
    600,
  );
  noScope = { authorization: `Bearer ${token}` };
  const created = await fetch(`${gw.url}/api/v1/patients`, {
    method: 'POST',
    headers: { ...system, 'content-type': 'application/json' },
    body: JSON.stringify(patientBody(`NoStore${uid()}`)),
  });
  expect(created.status).toBe(201);
  patientId = ((await created.json()) as { id: string }).id;
});
afterAll(async () => gw?.close());

/** The operation with its path parameters filled; the answer's headers only (a stream's body is not read). */
async function call(op: { method: string; path: string }, headers: Record<string, string>): Promise<Response> {
  const url = `${gw.url}${op.path.replace(/\{[^}]+\}/g, 'pat-nostore-none')}`;
  const res =
    op.method === 'GET' || op.method === 'DELETE'
      ? await fetch(url, { method: op.method, headers })
      : await fetch(url, { method: op.method, headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
  await res.body?.cancel();
  return res;
}

describe('Cache-Control: no-store on every authenticated operation', () => {
  it('the document secures operations to walk', () => {
    expect(secured.length).toBeGreaterThan(50);
  });

  it('every secured operation: no token (401) and a token without scopes (403, or 2xx where any valid token will do)', async () => {
    const missing: string[] = [];
    for (const op of secured) {
      const what = `${op.method} ${op.path}`;
      const anonymous = await call(op, {});
      expect(anonymous.status, what).toBe(401);
      if (anonymous.headers.get('cache-control') !== 'no-store') missing.push(`${what} 401: ${anonymous.headers.get('cache-control')}`);
      const scopeless = await call(op, noScope);
      if (scopeless.headers.get('cache-control') !== 'no-store')
        missing.push(`${what} ${scopeless.status}: ${scopeless.headers.get('cache-control')}`);
    }
    expect(missing).toEqual([]);
  });

  it('every secured GET with a system token, whatever it answers', async () => {
    const missing: string[] = [];
    for (const op of secured.filter((o) => o.method === 'GET' && !o.path.includes('$export'))) {
      const res = await call(op, system);
      if (res.headers.get('cache-control') !== 'no-store')
        missing.push(`GET ${op.path} ${res.status}: ${res.headers.get('cache-control')}`);
    }
    expect(missing).toEqual([]);
  });

  it('the PHI routes the probe named answer 200 with no-store', async () => {
    const family = encodeURIComponent('NoStore');
    for (const path of [
      `/api/v1/patients/${patientId}`,
      `/api/v1/patients?family=${family}`,
      `/api/v1/patients/${patientId}/history`,
      '/api/v1/triage',
      `/api/v1/diagnostics/reports?patient=${patientId}`,
      '/api/v1/audit?limit=5',
    ]) {
      const res = await fetch(`${gw.url}${path}`, { headers: system });
      await res.body?.cancel();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});
