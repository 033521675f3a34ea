/**
 * The whole MCP authorization flow as an MCP client runs it, with the SDK's own OAuth support
 * (OAuthClientProvider): anonymous handshake, a tool call answered 401 with resource_metadata,
 * discovery (RFC 9728 → RFC 8414), dynamic registration (RFC 7591, public client: the public scopes
 * only, the rest pending), an operator approving the host with a role (admin API), authorization
 * code + PKCE through the real login and consent pages (a demo doctor signs in), token exchange,
 * and the retried call succeeding on the same session as that user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { headPosition } from '@vitalis/eventstore';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection } from '../../../apps/projector/src/projections/definitions';
import { seedRecords } from '../../../apps/gateway/src/seed-records';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { REDIRECT_URI, signInAndConsent } from '../auth/support';
import { MCP_PATH } from './support';
import { approveClient } from '../../helpers/auth';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
  await seedRecords(gw.deps.pool, new Date()); // pat-0001, the demo patient user's record (idempotent)
});
afterAll(async () => {
  await gw?.close();
});

/** What an MCP host keeps per server: its registration, tokens, PKCE verifier; "opens" the browser. */
class HostProvider implements OAuthClientProvider {
  constructor(private readonly scope = 'read:patients read:vitals') {}
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'MCP host <test>',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: this.scope,
    };
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

describe('MCP OAuth flow with the SDK client', () => {
  it('401 → discovery → registration → login and consent → token → the call succeeds as the doctor', async () => {
    const provider = new HostProvider();
    const transport = new StreamableHTTPClientTransport(new URL(gw.url + MCP_PATH), { authProvider: provider });
    const client = new Client({ name: 'mcp-oauth-test', version: '1.0.0' });
    await client.connect(transport); // anonymous handshake
    try {
      expect((await client.listTools()).tools.length).toBe(20); // 11 + the 5 diagnostics tools + list_alarms, acknowledge_alarm, get_pipeline_status, record_allergy
      await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
      expect(provider.client?.client_id).toBeTruthy(); // registered itself (RFC 7591)
      expect(provider.client).toMatchObject({ scope: 'read:appointments openid' }); // the public scopes; PHI scopes wait for an operator
      await approveClient(gw.url, provider.client!.client_id, 'doctor');
      const url = provider.authorizationUrl!;
      expect(url.origin + url.pathname).toBe(`${gw.url}/api/auth/oauth2/authorize`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');

      const { location } = await signInAndConsent(url, 'doctor');
      const code = location.searchParams.get('code')!;
      expect(code).toBeTruthy();
      await transport.finishAuth(code);
      expect(provider.saved?.access_token).toBeTruthy();

      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.isError).toBeFalsy();
      expect(who.structuredContent).toMatchObject({
        roles: ['doctor'],
        auth_method: 'authorization_code',
        client_id: provider.client!.client_id,
      });
      expect((who.structuredContent as { scopes: string[] }).scopes).toEqual(expect.arrayContaining(['read:patients', 'read:vitals']));
      const record = await client.callTool({ name: 'get_patient', arguments: { patient_id: 'pat-none' } });
      expect(record.isError).toBe(true); // authorised; the patient simply does not exist
      expect((record.content as { text: string }[])[0]!.text).toContain('(404)');
    } finally {
      await client.close();
    }
  });

  it('a patient user (linked to pat-0001) reaches only their own record and bookings through the tools', async () => {
    const provider = new HostProvider('read:appointments write:appointments patient/Patient.rs patient/AllergyIntolerance.rs');
    const transport = new StreamableHTTPClientTransport(new URL(gw.url + MCP_PATH), { authProvider: provider });
    const client = new Client({ name: 'mcp-oauth-patient', version: '1.0.0' });
    await client.connect(transport);
    try {
      await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toBeInstanceOf(UnauthorizedError);
      await approveClient(gw.url, provider.client!.client_id, 'patient');
      const { location } = await signInAndConsent(provider.authorizationUrl!, 'patient');
      await transport.finishAuth(location.searchParams.get('code')!);

      expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({
        roles: ['patient'],
        patient_id: 'pat-0001',
      });
      const own = await client.callTool({ name: 'get_patient', arguments: { patient_id: 'pat-0001' } });
      expect(own.isError).toBeFalsy();
      expect(own.structuredContent).toMatchObject({ view: 'clinical', patient: { id: 'pat-0001' } });
      const other = await client.callTool({ name: 'get_patient', arguments: { patient_id: 'pat-0002' } });
      expect(other.isError).toBe(true);
      expect((other.content as { text: string }[])[0]!.text).toContain('Forbidden (403)');
      await catchUpTo(gw.deps.pool, patientsProjection, await headPosition(gw.deps.pool)); // search reads the projection
      const search = await client.callTool({ name: 'search_patients', arguments: {} });
      expect((search.structuredContent as { patients: { id: string }[] }).patients.map((p) => p.id)).toEqual(['pat-0001']);
      const forOther = await client.callTool({ name: 'book_appointment', arguments: { slot_id: 'no-such-slot', patient_id: 'pat-0002' } });
      expect(forOther.isError).toBe(true);
      expect((forOther.content as { text: string }[])[0]!.text).toContain('only book for themselves');
      // Its own vitals through the SMART scope patient/Observation.rs it consented to (the patient role
      // holds no read:vitals; the vitals service keeps a patient user to its own id), never another's.
      const ownVitals = await client.callTool({ name: 'get_latest_vitals', arguments: { patient_id: 'pat-0001' } });
      expect(ownVitals.isError).toBeFalsy();
      const otherVitals = await client.callTool({ name: 'get_latest_vitals', arguments: { patient_id: 'pat-0002' } });
      expect(otherVitals.isError).toBe(true);
      expect((otherVitals.content as { text: string }[])[0]!.text).toMatch(/403|insufficient_scope|Forbidden/i);
    } finally {
      await client.close();
    }
  });
});
