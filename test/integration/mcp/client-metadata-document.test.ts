/**
 * MCP clients registering the 2025-11-25 way (issue 33 item 9): a Client ID Metadata Document
 * (draft-ietf-oauth-client-id-metadata-document). The gateway advertises
 * `client_id_metadata_document_supported`; the MCP SDK's own OAuth support (OAuthClientProvider with
 * `clientMetadataUrl`) then uses its document's URL as client_id instead of registering, and the
 * flow runs through the real sign-in pages to a tool call. The document is served by an https
 * server on 127.0.0.1, which only the gateway started with the test-only JWKS_FETCH_ALLOW_HOSTS /
 * JWKS_FETCH_CA_FILE may reach (the same SSRF rules and exemption as a jwks_uri); the gateway
 * without them applies the production rules. Refusals: a document naming another client_id, a
 * redirect_uri the document does not list, a private address under the production rules, an
 * oversized document, a shared-secret authentication method. A private_key_jwt document client
 * authenticates with the keys its document holds.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CLIENT_DOCUMENT_MAX_BYTES } from '../../../apps/gateway/src/auth/client-metadata-document';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { approveClient } from '../../helpers/auth';
import { KeySetServer, selfSignedCertificate, type Certificate } from '../auth/key-set-server';
import { REDIRECT_URI, pkcePair, signInAndConsent } from '../auth/support';
import { MCP_PATH } from './support';

let tls: Certificate;
let host: KeySetServer; // https on 127.0.0.1: where the MCP hosts publish their documents
let allowed: RunningGateway; // 127.0.0.1 exempt, the test CA trusted (test-only settings)
let strict: RunningGateway; // the production rules

beforeAll(async () => {
  tls = selfSignedCertificate();
  host = await new KeySetServer(tls).listen('127.0.0.1');
  allowed = await startGateway({ JWKS_FETCH_ALLOW_HOSTS: '127.0.0.1', JWKS_FETCH_CA_FILE: tls.certFile });
  strict = await startGateway();
});
afterAll(async () => {
  await allowed?.close();
  await strict?.close();
  await host?.close();
  tls?.remove();
});

/** Serves `body` (a document or raw text) at a new path on the test host; returns its URL. */
function publish(document: (url: string) => object | string, contentType = 'application/json'): string {
  const path = `/clients/mcp-host-${randomUUID()}.json`;
  const url = `https://127.0.0.1:${host.port}${path}`;
  const body = document(url);
  host.routes.set(path, (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'max-age=600' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  return url;
}

/** What an MCP host publishes about itself: a public client signing users in at REDIRECT_URI. */
const hostDocument =
  (extra: Record<string, unknown> = {}) =>
  (url: string) => ({
    client_id: url,
    client_name: 'MCP host <metadata document>',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'openid read:appointments read:patients read:vitals',
    ...extra,
  });

/** What an MCP host keeps per server; it names itself by its document's URL (clientMetadataUrl). */
class DocumentHostProvider implements OAuthClientProvider {
  constructor(readonly clientMetadataUrl: string) {}
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'MCP host <metadata document>', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier!;
  }
}

/** A browser's GET of the authorization endpoint for `clientId` (the page it answers with). */
async function authorize(gw: RunningGateway, clientId: string, redirectUri = REDIRECT_URI): Promise<{ status: number; html: string }> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'read:appointments',
    state: 'st-1',
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  });
  const res = await fetch(`${gw.url}/api/auth/oauth2/authorize?${query}`, { redirect: 'manual' });
  return { status: res.status, html: await res.text() };
}

/** The last audit row of `action` about `clientId`. */
async function lastAudit(gw: RunningGateway, action: string, clientId: string) {
  const { rows } = await gw.deps.pool.query(
    'SELECT detail, resource_id, scope FROM audit_events WHERE action = $1 AND actor_client_id = $2 ORDER BY id DESC LIMIT 1',
    [action, clientId],
  );
  return rows[0] as { detail: Record<string, unknown>; resource_id: string | null; scope: string | null } | undefined;
}

describe('Client ID Metadata Documents', () => {
  it('the authorization server metadata advertises them, with registration still offered as the fallback', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const metadata = await (await fetch(`${allowed.url}${path}`)).json();
      expect(metadata).toMatchObject({
        client_id_metadata_document_supported: true,
        registration_endpoint: `${allowed.url}/api/auth/register`,
      });
    }
  });

  it("the MCP SDK's flow: client_id is the document's URL → sign-in → token → a tool call as the doctor", async () => {
    const url = publish(hostDocument());
    const provider = new DocumentHostProvider(url);
    const transport = new StreamableHTTPClientTransport(new URL(allowed.url + MCP_PATH), { authProvider: provider });
    const client = new Client({ name: 'mcp-cimd-test', version: '1.0.0' });
    await client.connect(transport); // anonymous handshake
    try {
      await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
      // No registration: the SDK took the document's URL as its client_id.
      expect(provider.client?.client_id).toBe(url);
      const authorizationUrl = provider.authorizationUrl!;
      expect(authorizationUrl.searchParams.get('client_id')).toBe(url);

      // The sign-in page fetched the document: the client is stored and its first use audited as a registration is.
      const page = await fetch(authorizationUrl, { redirect: 'manual' });
      expect(page.status).toBe(200);
      await page.body?.cancel();
      expect(host.requestsTo(new URL(url).pathname)).toBe(1);
      const registered = await lastAudit(allowed, 'client.registered', url);
      expect(registered?.resource_id).toBe(url);
      expect(registered?.scope).toBe('openid read:appointments'); // the public scopes: open registration's, no role
      expect(registered?.detail).toMatchObject({
        registration: 'client_id_metadata_document',
        role: null,
        token_endpoint_auth_method: 'none',
        requested_scope: 'openid read:appointments read:patients read:vitals',
        approval: 'pending',
      });

      // Like a registered client nobody vouches for: the public scopes until an operator gives it a role.
      await approveClient(allowed.url, url, 'doctor');
      const { location } = await signInAndConsent(authorizationUrl, 'doctor');
      await transport.finishAuth(location.searchParams.get('code')!);
      expect(provider.saved?.access_token).toBeTruthy();
      // Cached (Cache-Control max-age=600): the token endpoint and the second page did not fetch it again.
      expect(host.requestsTo(new URL(url).pathname)).toBe(1);

      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(who.structuredContent).toMatchObject({ roles: ['doctor'], auth_method: 'authorization_code', client_id: url });
      expect((who.structuredContent as { scopes: string[] }).scopes).toEqual(expect.arrayContaining(['read:patients', 'read:vitals']));
    } finally {
      await client.close();
    }
  });

  it('a redirect_uri the document does not list is refused on the page, never redirected to', async () => {
    const url = publish(hostDocument());
    const page = await authorize(allowed, url, 'http://127.0.0.1:53682/elsewhere');
    expect(page.status).toBe(400);
    expect(page.html).toContain('Invalid redirect');
    // The document itself was good: the same client with its listed redirect_uri gets the sign-in page.
    expect((await authorize(allowed, url)).status).toBe(200);
  });

  const refusals: [string, () => string, RegExp][] = [
    [
      'a document naming another client_id',
      () => publish((u) => hostDocument({ client_id: `${u}-other` })(u)),
      /different client_id than the URL/,
    ],
    [
      'an oversized document',
      () => publish((u) => hostDocument({ client_name: 'x'.repeat(CLIENT_DOCUMENT_MAX_BYTES) })(u)),
      new RegExp(`larger than ${CLIENT_DOCUMENT_MAX_BYTES} bytes`),
    ],
    [
      'a shared-secret authentication method (client_secret_basic)',
      () => publish(hostDocument({ token_endpoint_auth_method: 'client_secret_basic' })),
      /client_secret_basic needs a shared secret/,
    ],
    [
      'a client secret in the document',
      () => publish(hostDocument({ client_secret: 'not-secret-at-all' })),
      /must not hold a client secret/,
    ],
    ['a document not served as JSON', () => publish(hostDocument(), 'text/html'), /served as text\/html/],
  ];
  for (const [what, make, reason] of refusals) {
    it(`refused: ${what} (an unknown application, audited with the reason)`, async () => {
      const url = make();
      const page = await authorize(allowed, url);
      expect(page.status).toBe(400);
      expect(page.html).toContain('Unknown application');
      expect(String((await lastAudit(allowed, 'client.refused', url))?.detail.reason)).toMatch(reason);
      // Not fetched again on the next request (the cool-down), still refused.
      expect((await authorize(allowed, url)).status).toBe(400);
      expect(host.requestsTo(new URL(url).pathname)).toBe(1);
    });
  }

  it('the token endpoint refuses a document client presenting a secret (invalid_client)', async () => {
    const url = publish(hostDocument());
    const res = await fetch(`${allowed.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT_URI, code_verifier: 'v'.repeat(43) }),
      headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(url)}:guess`).toString('base64')}` },
    });
    expect(res.status).toBe(401);
    expect((await res.json()).error).toBe('invalid_client');
  });

  it('a private_key_jwt document client (its jwks in the document) gets a client_credentials token with the public scopes only', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'doc-key', alg: 'ES256' };
    const url = publish((u) => ({
      client_id: u,
      client_name: 'MCP backend <metadata document>',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [jwk] },
      scope: 'read:appointments read:vitals',
    }));
    const tokenEndpoint = `${allowed.url}/api/auth/oauth2/token`;
    const assertion = (key: CryptoKey) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: 'doc-key' })
        .setIssuer(url)
        .setSubject(url)
        .setAudience(tokenEndpoint)
        .setJti(randomUUID())
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(key);
    const token = (signed: string) =>
      fetch(tokenEndpoint, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: signed,
        }),
      });
    const granted = await token(await assertion(privateKey));
    expect(granted.status).toBe(200);
    expect((await granted.json()).scope).toBe('read:appointments'); // read:vitals waits for an operator's role
    const stranger = await generateKeyPair('ES256');
    const forged = await token(await assertion(stranger.privateKey));
    expect(forged.status).toBe(401);
    expect((await forged.json()).error).toBe('invalid_client');
  });

  it('under the production rules a private address is never fetched: the URL is refused before any connection', async () => {
    const url = publish(hostDocument());
    const before = host.connections;
    const page = await authorize(strict, url);
    expect(page.status).toBe(400);
    expect(page.html).toContain('Unknown application');
    expect(host.connections).toBe(before);
    expect(host.requestsTo(new URL(url).pathname)).toBe(0);
    expect(String((await lastAudit(strict, 'client.refused', url))?.detail.reason)).toMatch(/non-public address/);
  });

  it('URLs the draft forbids are refused without a fetch: no path, a query, dot segments, http', async () => {
    const base = `https://127.0.0.1:${host.port}`;
    for (const url of [`${base}/`, `${base}/client.json?v=1`, `${base}/a/../client.json`, `http://127.0.0.1:${host.port}/client.json`]) {
      const page = await authorize(allowed, url);
      expect(page.status, url).toBe(400);
    }
    expect(host.requestsTo('/client.json')).toBe(0);
  });
});
