/**
 * SMART App Launch v2 over real HTTP, driven by third-party client libraries:
 *  - `fhirclient` (SMART Health IT's client-js, its Node adapter) runs a SMART app on a real HTTP
 *    server of its own: it discovers the server at {FHIR base}/.well-known/smart-configuration,
 *    sends the user to the authorization endpoint (PKCE S256, `aud`), and on the callback exchanges
 *    the code; the demo patient signs in through the real login and consent pages in between.
 *  - `openid-client` (v6) gets a SMART Backend Services token: client_credentials with
 *    private_key_jwt (ES384, as SMART Backend Services asks), configured from the SMART document.
 * Then the scope rules: a nurse's `user/*.rs` is what the nurse role covers, a patient never gets
 * `user/` scopes, a client without a role never gets SMART data scopes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { randomUUID } from 'node:crypto';
import * as oidc from 'openid-client';
import { SignJWT, createRemoteJWKSet, decodeJwt, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '@vitalis/schemas';
import { initialAccessToken } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { registerCodeClient, signInAndConsent, userTokens, DEMO_PASSWORDS } from './support';

// fhirclient is CommonJS: its Node entry exports the `smart(request, response, storage)` function.
const require = createRequire(import.meta.url);
type SmartApi = {
  authorize(options: Record<string, unknown>): Promise<unknown>;
  ready(): Promise<{
    state: { tokenResponse: Record<string, unknown> };
    patient: { id: string | null };
    user: { fhirUser: string | null };
    getIdToken(): Record<string, unknown> | null;
  }>;
};
const smart = require('fhirclient') as (req: IncomingMessage, res: ServerResponse, storage: unknown) => SmartApi;

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => gw?.close());

const SMART_FIELDS = [
  'issuer',
  'jwks_uri',
  'authorization_endpoint',
  'token_endpoint',
  'grant_types_supported',
  'token_endpoint_auth_methods_supported',
  'token_endpoint_auth_signing_alg_values_supported',
  'scopes_supported',
  'response_types_supported',
  'code_challenge_methods_supported',
  'capabilities',
  'registration_endpoint',
  'userinfo_endpoint',
  'revocation_endpoint',
  'introspection_endpoint',
];

describe('/.well-known/smart-configuration', () => {
  it.each(['/.well-known/smart-configuration', '/fhir/R4/.well-known/smart-configuration'])('%s has the SMART v2 fields', async (path) => {
    const res = await fetch(`${gw.url}${path}`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    for (const field of SMART_FIELDS) expect(doc, field).toHaveProperty(field);
    expect(doc).toMatchObject({
      issuer: gw.url,
      token_endpoint: `${gw.url}/api/auth/oauth2/token`,
      authorization_endpoint: `${gw.url}/api/auth/oauth2/authorize`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: expect.arrayContaining(['authorization_code', 'client_credentials']),
      token_endpoint_auth_methods_supported: expect.arrayContaining(['private_key_jwt', 'none']),
      token_endpoint_auth_signing_alg_values_supported: expect.arrayContaining(['RS384', 'ES384']),
      scopes_supported: expect.arrayContaining([
        'launch/patient',
        'fhirUser',
        'offline_access',
        'openid',
        'patient/Observation.rs',
        'user/*.rs',
        'system/*.rs',
      ]),
    });
    expect(doc.capabilities).toEqual(
      expect.arrayContaining([
        'launch-standalone',
        'client-public',
        'client-confidential-symmetric',
        'client-confidential-asymmetric',
        'context-standalone-patient',
        'permission-patient',
        'permission-user',
        'permission-v2',
        'sso-openid-connect',
      ]),
    );
    // Only what is true: no EHR launch, no POST authorization requests.
    expect(doc.capabilities).not.toContain('launch-ehr');
    expect(doc.capabilities).not.toContain('authorize-post');
  });
});

/** A SMART app run by fhirclient on a real HTTP server: /launch starts the launch, /callback completes it. */
async function startSmartApp(options: () => Record<string, unknown>): Promise<{ url: string; server: Server }> {
  const sessions = new Map<string, unknown>();
  const storage = {
    get: async (key: string) => sessions.get(key),
    set: async (key: string, value: unknown) => {
      sessions.set(key, value);
      return value;
    },
    unset: async (key: string) => sessions.delete(key),
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://app').pathname;
    const run = async () => {
      if (path === '/launch') return void (await smart(req, res, storage).authorize(options()));
      if (path === '/callback') {
        const client = await smart(req, res, storage).ready();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            tokenResponse: client.state.tokenResponse,
            patient: client.patient.id,
            fhirUser: client.user.fhirUser,
            idToken: client.getIdToken(),
          }),
        );
        return;
      }
      res.writeHead(404).end();
    };
    run().catch((err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function registerPublicApp(redirectUri: string, scope: string, role = 'patient'): Promise<{ client_id: string; scope: string }> {
  const res = await fetch(`${gw.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken(role as 'patient')}` },
    body: JSON.stringify({
      client_name: 'SMART patient app <test>',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      redirect_uris: [redirectUri],
      scope,
    }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { client_id: string; scope: string };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('SMART standalone launch for the demo patient (fhirclient)', () => {
  const scope = 'launch/patient openid fhirUser offline_access patient/*.rs';
  let app: { url: string; server: Server };
  let clientId = '';
  beforeAll(async () => {
    app = await startSmartApp(() => ({ iss: `${gw.url}/fhir/R4`, clientId, scope, redirectUri: `${app.url}/callback` }));
    const registered = await registerPublicApp(`${app.url}/callback`, scope);
    clientId = registered.client_id;
    // The wildcard registered what the patient role covers, nothing waits for approval.
    expect(registered.scope.split(' ').sort()).toEqual([
      'fhirUser',
      'launch/patient',
      'offline_access',
      'openid',
      'patient/AllergyIntolerance.rs',
      'patient/Observation.rs',
      'patient/Patient.rs',
    ]);
  });
  afterAll(() => new Promise<void>((resolve) => app.server.close(() => resolve())));

  it('ends with a token response holding the patient, the SMART scopes, a refresh token and an ID token with fhirUser', async () => {
    const launch = await fetch(`${app.url}/launch`, { redirect: 'manual' });
    expect(launch.status).toBe(302);
    const authorizeUrl = new URL(launch.headers.get('location')!);
    expect(authorizeUrl.origin + authorizeUrl.pathname).toBe(`${gw.url}/api/auth/oauth2/authorize`);
    expect(authorizeUrl.searchParams.get('aud')).toBe(`${gw.url}/fhir/R4`);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const { location } = await signInAndConsent(authorizeUrl, 'patient');
    expect(location.origin).toBe(app.url);
    const done = await fetch(location);
    expect(done.status, await done.clone().text()).toBe(200);
    const result = (await done.json()) as {
      tokenResponse: Record<string, string>;
      patient: string;
      fhirUser: string;
      idToken: Record<string, unknown>;
    };

    expect(result.patient).toBe('pat-0001');
    expect(result.fhirUser).toBe('Patient/pat-0001');
    const { tokenResponse } = result;
    expect(tokenResponse.patient).toBe('pat-0001');
    expect(tokenResponse.scope!.split(' ').sort()).toEqual([
      'fhirUser',
      'launch/patient',
      'offline_access',
      'openid',
      'patient/AllergyIntolerance.rs',
      'patient/Observation.rs',
      'patient/Patient.rs',
    ]);
    expect(tokenResponse.refresh_token).toEqual(expect.any(String));
    // The ID token verifies against the JWKS the SMART document names, and says who the user is.
    const { payload } = await jwtVerify(tokenResponse.id_token!, createRemoteJWKSet(new URL(`${gw.url}/.well-known/jwks.json`)), {
      issuer: gw.url,
      audience: clientId,
    });
    expect(payload).toMatchObject({ sub: 'usr-demo-patient', fhirUser: 'Patient/pat-0001' });

    // The token reads the patient's own vitals (patient/Observation.rs), never another patient's.
    const token = tokenResponse.access_token!;
    expect((await fetch(`${gw.url}/api/v1/vitals/latest?patient=pat-0001`, { headers: bearer(token) })).status).toBe(200);
    expect((await fetch(`${gw.url}/api/v1/vitals/latest?patient=pat-0002`, { headers: bearer(token) })).status).toBe(403);
    // Userinfo says fhirUser too.
    const info = await fetch(`${gw.url}/api/auth/userinfo`, { headers: bearer(token) });
    expect(await info.json()).toMatchObject({ sub: 'usr-demo-patient', fhirUser: 'Patient/pat-0001' });

    // A refresh keeps the launch context.
    const refreshed = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokenResponse.refresh_token!, client_id: clientId }),
    });
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({ patient: 'pat-0001' });
  });

  it('refuses an aud that names another FHIR server', async () => {
    const url = new URL(`${gw.url}/api/auth/oauth2/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: `${app.url}/callback`,
      scope,
      state: 's',
      aud: 'https://fhir.example.org/r4',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });
});

describe("SMART user/ scopes are bounded by the user's role", () => {
  it("a nurse asking for user/*.rs gets the nurse role's read scopes, and only reads", async () => {
    const client = await registerCodeClient(gw.url, ['openid', 'fhirUser', 'user/*.rs', 'user/Patient.cruds'] as unknown as Scope[]);
    const { tokens } = await userTokens(gw.url, client, 'nurse', DEMO_PASSWORDS.nurse, 'openid fhirUser user/*.rs launch/patient');
    expect(tokens.scope.split(' ').sort()).toEqual([
      'fhirUser',
      'openid',
      'user/AllergyIntolerance.rs',
      'user/Observation.rs',
      'user/Patient.rs',
    ]);
    const idToken = (tokens as unknown as { id_token: string }).id_token;
    const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${gw.url}/.well-known/jwks.json`)), { issuer: gw.url });
    expect(payload.fhirUser).toBe('Practitioner/usr-demo-nurse');
    // user/Observation.rs stands for read:vitals at the guard; user/Patient.rs gives no write:patients.
    expect((await fetch(`${gw.url}/api/v1/vitals/latest?patient=pat-0002`, { headers: bearer(tokens.access_token) })).status).toBe(200);
    const write = await fetch(`${gw.url}/api/v1/patients`, {
      method: 'POST',
      headers: { ...bearer(tokens.access_token), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(write.status).toBe(403);
  });

  it('reception (no read:patients, no read:vitals) gets none of user/*.rs', async () => {
    const client = await registerCodeClient(gw.url, ['openid', 'user/*.rs'] as unknown as Scope[]);
    const { tokens } = await userTokens(gw.url, client, 'reception', DEMO_PASSWORDS.reception, 'openid user/*.rs');
    expect(tokens.scope).toBe('openid');
  });

  it('a patient asking for user/Patient.rs gets none of it', async () => {
    const client = await registerCodeClient(gw.url, ['openid', 'user/Patient.rs'] as Scope[]);
    const { tokens } = await userTokens(gw.url, client, 'patient', DEMO_PASSWORDS.patient, 'openid user/Patient.rs');
    expect(tokens.scope).toBe('openid');
    expect((await fetch(`${gw.url}/api/v1/patients`, { headers: bearer(tokens.access_token) })).status).toBe(403);
  });

  it('a client registered openly (no role) gets no SMART data scopes', async () => {
    const res = await fetch(`${gw.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Self-registered SMART app <test>',
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'none',
        redirect_uris: ['http://127.0.0.1:53682/callback'],
        scope: 'openid patient/*.rs user/*.rs',
      }),
    });
    expect(res.status).toBe(201);
    const client = (await res.json()) as { client_id: string; scope: string; approval?: string };
    expect(client.scope).toBe('openid');
    expect(client.approval).toBeUndefined();
    const { tokens } = await userTokens(
      gw.url,
      { ...client, redirect_uris: [] },
      'patient',
      DEMO_PASSWORDS.patient,
      'openid patient/*.rs user/*.rs',
    );
    expect(tokens.scope).toBe('openid');
  });
});

describe('SMART Backend Services (openid-client, private_key_jwt ES384)', () => {
  async function backendClient(role: 'system' | 'nurse' | 'device') {
    const { publicKey, privateKey } = await generateKeyPair('ES384');
    const jwk = { ...(await exportJWK(publicKey)), alg: 'ES384', kid: `smart-${role}` };
    const res = await fetch(`${gw.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken(role)}` },
      body: JSON.stringify({
        client_name: `SMART backend <test ${role}>`,
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [jwk] },
        scope: 'system/*.rs',
      }),
    });
    expect(res.status).toBe(201);
    const client = (await res.json()) as { client_id: string; scope: string };
    // openid-client configured from the SMART document (its token endpoint and issuer).
    const metadata = (await (await fetch(`${gw.url}/fhir/R4/.well-known/smart-configuration`)).json()) as oidc.ServerMetadata;
    const config = new oidc.Configuration(metadata, client.client_id, undefined, oidc.PrivateKeyJwt({ key: privateKey, kid: jwk.kid }));
    oidc.allowInsecureRequests(config);
    return { client, config };
  }

  it('a system backend gets system/*.rs and calls a protected route with it', async () => {
    const { config } = await backendClient('system');
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'system/*.rs' });
    expect(tokens.scope!.split(' ').sort()).toEqual(['system/AllergyIntolerance.rs', 'system/Observation.rs', 'system/Patient.rs']);
    expect(tokens.refresh_token).toBeUndefined();
    const res = await fetch(`${gw.url}/api/v1/patients`, { headers: bearer(tokens.access_token) });
    expect(res.status).toBe(200);
    const identity = await (await fetch(`${gw.url}/agent/identity`, { headers: bearer(tokens.access_token) })).json();
    expect(identity).toMatchObject({ auth_method: 'private_key_jwt' });
  });

  it('backend tokens live at most 300 s (SMART Backend Services: SHOULD NOT exceed five minutes)', async () => {
    const { config } = await backendClient('system');
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'system/*.rs' });
    expect(tokens.expires_in).toBe(300);
    const claims = decodeJwt(tokens.access_token);
    expect(claims.exp! - claims.iat!).toBe(300);
  });

  it('a jku header fails for a client registered with its JWKS inline (no URL is registered, so no jku matches)', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS384');
    const jwk = { ...(await exportJWK(publicKey)), alg: 'RS384', kid: 'smart-jku' };
    const registered = await fetch(`${gw.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await initialAccessToken('system')}` },
      body: JSON.stringify({
        client_name: 'SMART backend <test jku>',
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'private_key_jwt',
        jwks: { keys: [jwk] },
        scope: 'system/*.rs',
      }),
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    const tokenUrl = `${gw.url}/api/auth/oauth2/token`;
    const token = async (header: Record<string, string>) => {
      const now = Math.floor(Date.now() / 1000);
      const assertion = await new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: 'RS384', kid: jwk.kid, typ: 'JWT', ...header })
        .setIssuer(client_id)
        .setSubject(client_id)
        .setAudience(tokenUrl)
        .setIssuedAt(now)
        .setExpirationTime(now + 60)
        .sign(privateKey);
      return fetch(tokenUrl, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: 'system/Patient.rs',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: assertion,
        }),
      });
    };
    const refused = await token({ jku: 'https://127.0.0.1:9/not-registered-jwks.json' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('jku') });
    const accepted = await token({});
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ scope: 'system/Patient.rs', expires_in: 300 });
  });

  it('a backend never gets user/ or patient/ scopes, and a device backend no system/ read scopes', async () => {
    const { config } = await backendClient('system');
    await expect(oidc.clientCredentialsGrant(config, { scope: 'user/Patient.rs' })).rejects.toMatchObject({ error: 'invalid_scope' });
    const device = await backendClient('device');
    expect(device.client.scope).toBe('');
    await expect(oidc.clientCredentialsGrant(device.config, { scope: 'system/*.rs' })).rejects.toMatchObject({ error: 'invalid_scope' });
  });
});
