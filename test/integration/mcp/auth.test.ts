/**
 * The MCP endpoint's HTTP contract against a real gateway: anonymous handshake and listing; 401
 * with WWW-Authenticate resource_metadata (and an RFC 9457 body) for patient data without a valid
 * token; 403 insufficient_scope; sessions bound to their subject and client; revocation at once; the SDK
 * client seeing the 401; foreign browser origins refused; the route in the OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { fetchFrom, randomLoopbackAddress } from '../../helpers/http-from';
import { uid, waitFor } from '../vitals/support';
import { connect, rawInitialize, rpc, rpcResult, tokenFor, userTokenFor } from './support';

let gw: RunningGateway;
let reader: { token: string; client: { client_id: string } };
let writerOnly: { token: string };

beforeAll(async () => {
  gw = await startGateway();
  reader = await tokenFor(gw.url, ['read:vitals', 'read:patients']);
  writerOnly = await tokenFor(gw.url, ['write:vitals']);
});
afterAll(async () => {
  await gw?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (id: number, name: string, args: object = {}) => ({ id, method: 'tools/call', params: { name, arguments: args } });
const metadataUrl = () => `${gw.url}/.well-known/oauth-protected-resource`;

describe('anonymous MCP', () => {
  it('initializes, lists tools, resources and templates with the SDK client and no token', async () => {
    const c = await connect(gw.url);
    try {
      expect(c.client.getServerVersion()).toMatchObject({ name: 'vitalis' });
      expect(c.client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true }, tools: {} });
      const { tools } = await c.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(
        [
          'acknowledge_alarm',
          'acknowledge_critical_result',
          'book_appointment',
          'cancel_appointment',
          'find_available_slots',
          'get_diagnostic_report',
          'get_latest_vitals',
          'get_patient',
          'get_pipeline_status',
          'get_triage_board',
          'get_vitals_history',
          'list_alarms',
          'list_critical_results',
          'list_pending_orders',
          'order_diagnostic_test',
          'record_allergy',
          'register_patient',
          'search_patients',
          'set_triage_level',
          'whoami',
        ].sort(),
      );
      const { resources } = await c.client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual([
        'ui://vitalis/appointment-booking-form',
        'ui://vitalis/emergency-triage-board',
        'ui://vitalis/patient-search-card',
        'ui://vitalis/vitals-telemetry-monitor',
      ]);
      const { resourceTemplates } = await c.client.listResourceTemplates();
      expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['vitalis://patients/{patient_id}/vitals']);
      await c.client.ping();
    } finally {
      await c.close();
    }
  });

  it('answers 401 with WWW-Authenticate resource_metadata and a problem body for a tool call without a token', async () => {
    const sid = await rawInitialize(gw.url);
    const res = await rpc(gw.url, call(2, 'get_latest_vitals', { patient_id: 'pat-0001' }), { 'mcp-session-id': sid });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="vitalis", resource_metadata="${metadataUrl()}"`);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/); // RFC 9457 (ADR 0011)
    expect(await res.json()).toMatchObject({ status: 401, title: 'Unauthorized', type: `${gw.url}/errors/unauthorized` });
    // the resource metadata it points to names this server as the resource and our issuer
    const meta = (await (await fetch(metadataUrl())).json()) as { resource: string; authorization_servers: string[] };
    expect(meta.authorization_servers).toContain(gw.url);
  });

  it('answers 401 for reading or subscribing to patient vitals without a token, but serves ui:// cards anonymously', async () => {
    const sid = await rawInitialize(gw.url);
    const h = { 'mcp-session-id': sid };
    for (const method of ['resources/read', 'resources/subscribe']) {
      const res = await rpc(gw.url, { id: 3, method, params: { uri: 'vitalis://patients/pat-0001/vitals' } }, h);
      expect(res.status, method).toBe(401);
      expect(res.headers.get('www-authenticate'), method).toContain(`resource_metadata="${metadataUrl()}"`);
      await res.body?.cancel();
    }
    const card = await rpcResult(
      await rpc(gw.url, { id: 4, method: 'resources/read', params: { uri: 'ui://vitalis/vitals-telemetry-monitor' } }, h),
    );
    expect(card.result.contents[0]).toMatchObject({ uri: 'ui://vitalis/vitals-telemetry-monitor', mimeType: 'text/html;profile=mcp-app' });
    expect(card.result.contents[0].text).toMatch(/<html/i);
  });

  it('the SDK client surfaces the 401 of a tool call as an HTTP error (the cue to start OAuth)', async () => {
    const c = await connect(gw.url);
    try {
      const err = await c.client.callTool({ name: 'whoami', arguments: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StreamableHTTPError);
      expect((err as StreamableHTTPError).code).toBe(401);
      // then the same session continues once the client holds a token
      c.auth.token = reader.token;
      const who = await c.client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ client_id: reader.client.client_id });
    } finally {
      await c.close();
    }
  });
});

describe('tokens and scopes', () => {
  it("403 insufficient_scope when the token lacks the tool's scope", async () => {
    const sid = await rawInitialize(gw.url, bearer(writerOnly.token));
    const res = await rpc(
      gw.url,
      call(2, 'get_vitals_history', { patient_id: 'pat-0001', from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }),
      { ...bearer(writerOnly.token), 'mcp-session-id': sid },
    );
    expect(res.status).toBe(403);
    const challenge = res.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="read:vitals"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    expect(await res.json()).toMatchObject({ status: 403, required_scope: 'read:vitals' });
    // the same scopes as REST: set_triage_level needs write:triage
    const triage = await rpc(gw.url, call(3, 'set_triage_level', { patient_id: 'pat-0001', esi: 2 }), {
      ...bearer(reader.token),
      'mcp-session-id': await rawInitialize(gw.url, bearer(reader.token)),
    });
    expect(triage.status).toBe(403);
    expect(triage.headers.get('www-authenticate')).toContain('scope="write:triage"');
  });

  it('an invalid token is refused (401 invalid_token) even where none is needed', async () => {
    const res = await rpc(
      gw.url,
      { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      bearer('not.a.jwt'),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await res.body?.cancel();
  });

  it('Redis unreachable while checking revocation: 503 problem, the same as every route (fail closed, never a 500)', async () => {
    const own = await startGateway();
    try {
      const { token } = await tokenFor(own.url, ['read:vitals']);
      own.deps.redis.disconnect();
      const res = await rpc(own.url, call(1, 'whoami'), bearer(token));
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await res.json()).toMatchObject({
        type: `${own.url}/errors/unavailable`,
        status: 503,
        detail: expect.stringContaining('revocation list'),
      });
      // the REST guard answers the same
      const rest = await fetch(`${own.url}/agent/identity`, { headers: bearer(token) });
      expect(rest.status).toBe(503);
      expect(await rest.json()).toMatchObject({ type: `${own.url}/errors/unavailable`, status: 503 });
    } finally {
      await own.close();
    }
  });

  it('a revoked token stops working at once', async () => {
    const { token } = await tokenFor(gw.url, ['read:vitals']);
    const c = await connect(gw.url, token);
    try {
      expect((await c.client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
      const revoke = await fetch(`${gw.url}/api/auth/revoke`, { method: 'POST', body: new URLSearchParams({ token }) });
      expect(revoke.status).toBe(200);
      const err = await c.client.callTool({ name: 'whoami', arguments: {} }).catch((e: unknown) => e);
      expect((err as StreamableHTTPError).code).toBe(401);
      const list = await c.client.listTools().catch((e: unknown) => e); // a presented token is always checked
      expect((list as StreamableHTTPError).code).toBe(401);
    } finally {
      await c.close();
    }
  });
});

describe('sessions', () => {
  it("are bound to the subject: another subject's token gets 403, no token gets 401, a renewed token of the same subject works", async () => {
    const sid = await rawInitialize(gw.url, bearer(reader.token));
    const h = { 'mcp-session-id': sid };
    const other = await tokenFor(gw.url, ['read:vitals', 'read:patients']);
    const stolen = await rpc(gw.url, call(2, 'whoami'), { ...h, ...bearer(other.token) });
    expect(stolen.status).toBe(403);
    expect(await stolen.json()).toMatchObject({ status: 403, detail: expect.stringContaining('another subject') });
    const listing = await rpc(gw.url, { id: 3, method: 'tools/list' }, { ...h, ...bearer(other.token) });
    expect(listing.status).toBe(403);
    await listing.body?.cancel();
    const anonymous = await rpc(gw.url, { id: 4, method: 'tools/list' }, h);
    expect(anonymous.status).toBe(401);
    await anonymous.body?.cancel();
    const stream = await fetch(gw.url + '/.well-known/mcp', { headers: { ...h, accept: 'text/event-stream' } });
    expect(stream.status).toBe(401);
    await stream.body?.cancel();
    // the same client's next token (same subject) continues the session
    const { clientCredentialsToken } = await import('../../helpers/auth');
    const renewed = await clientCredentialsToken(gw.url, reader.client as never);
    const ok = await rpcResult(await rpc(gw.url, call(5, 'whoami'), { ...h, ...bearer(renewed) }));
    expect(ok.result.structuredContent).toMatchObject({ client_id: reader.client.client_id });
  });

  it('are bound to the client too: the same user through another client gets 403 (and a new token through the same client continues)', async () => {
    const viaA = await userTokenFor(gw.url, 'doctor', ['read:vitals', 'read:patients'], 'MCP host A');
    const viaB = await userTokenFor(gw.url, 'doctor', ['read:vitals', 'read:patients'], 'MCP host B');
    const sid = await rawInitialize(gw.url, bearer(viaA.token));
    const h = { 'mcp-session-id': sid };
    for (const message of [call(2, 'whoami'), { id: 3, method: 'tools/list' }]) {
      const otherClient = await rpc(gw.url, message, { ...h, ...bearer(viaB.token) });
      expect(otherClient.status).toBe(403);
      expect(await otherClient.json()).toMatchObject({ status: 403, detail: expect.stringContaining('another subject or client') });
    }
    const stream = await fetch(gw.url + '/.well-known/mcp', {
      headers: { ...h, ...bearer(viaB.token), accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    });
    expect(stream.status).toBe(403);
    await stream.body?.cancel();
    const renewed = await userTokenFor(gw.url, 'doctor', ['read:vitals', 'read:patients'], viaA.client); // the same user, the same client
    expect(renewed.token).not.toBe(viaA.token);
    const ok = await rpcResult(await rpc(gw.url, call(4, 'whoami'), { ...h, ...bearer(renewed.token) }));
    expect(ok.result.structuredContent).toMatchObject({ sub: 'usr-demo-doctor', client_id: viaA.clientId });
  });

  it('an unknown session id is 404, a request without one that is not initialize is 400, DELETE ends a session', async () => {
    const unknown = await rpc(gw.url, { id: 1, method: 'tools/list' }, { 'mcp-session-id': '00000000-0000-4000-8000-000000000000' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    const none = await rpc(gw.url, { id: 1, method: 'tools/list' });
    expect(none.status).toBe(400);
    await none.body?.cancel();
    const sid = await rawInitialize(gw.url);
    const before = gw.app.mcpSessions.size;
    const del = await fetch(gw.url + '/.well-known/mcp', {
      method: 'DELETE',
      headers: { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
    });
    expect(del.status).toBe(200);
    expect(gw.app.mcpSessions.size).toBe(before - 1);
    expect((await rpc(gw.url, { id: 2, method: 'tools/list' }, { 'mcp-session-id': sid })).status).toBe(404);
  });

  it("refuses a browser origin other than the gateway's own (DNS rebinding protection)", async () => {
    const res = await rpc(
      gw.url,
      { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      { origin: 'https://evil.example' },
    );
    expect(res.status).toBe(403);
    await res.body?.cancel();
    const own = await rpc(
      gw.url,
      { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
      { origin: new URL(gw.url).origin },
    );
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});

describe('limits', () => {
  it('caps sessions per gateway (503 with Retry-After), and idle sessions without a stream are reaped', async () => {
    const small = await startGateway({ MCP_MAX_SESSIONS: '2', MCP_SESSION_IDLE_SECONDS: '60' });
    try {
      await rawInitialize(small.url);
      const second = await rawInitialize(small.url);
      const third = await rpc(small.url, {
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      });
      expect(third.status).toBe(503);
      expect(third.headers.get('retry-after')).toBe('30');
      expect(await third.json()).toMatchObject({ status: 503 });
      const stream = await fetch(small.url + '/.well-known/mcp', {
        headers: { 'mcp-session-id': second, accept: 'text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      });
      expect(stream.status).toBe(200);
      await waitFor(
        async () => small.app.mcpSessions.get(second)?.openStreams,
        (n) => n === 1,
        10_000,
        'the stream to open',
      );
      expect(small.app.mcpSessions.reap(Date.now() + 120_000)).toBe(1); // the one with an open stream stays
      expect(small.app.mcpSessions.size).toBe(1);
      expect(small.app.mcpSessions.get(second)).toBeDefined();
      await stream.body?.cancel();
      expect((await rawInitialize(small.url)).length).toBeGreaterThan(0); // room again
    } finally {
      await small.close();
    }
  });

  it('sessions opened without a token are limited per client address (429 problem with Retry-After); with a token, or from elsewhere, they are not', async () => {
    const small = await startGateway({ MCP_ANONYMOUS_SESSION_LIMIT: '2', MCP_ANONYMOUS_SESSION_WINDOW_SECONDS: '3600' });
    try {
      const address = randomLoopbackAddress();
      const initialize = (from: string, headers: Record<string, string> = {}) =>
        fetchFrom(from, small.url + '/.well-known/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            ...headers,
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
          }),
        });
      expect((await initialize(address)).status).toBe(200);
      expect((await initialize(address)).status).toBe(200);
      const before = small.app.mcpSessions.size;
      const third = await initialize(address);
      expect(third.status).toBe(429);
      const retryAfter = Number(third.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(third.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await third.json()).toMatchObject({ status: 429, type: `${small.url}/errors/rate-limited`, retry_after: retryAfter });
      expect(small.app.mcpSessions.size).toBe(before); // nothing was created
      const withToken = await tokenFor(small.url, ['read:vitals']);
      expect((await initialize(address, bearer(withToken.token))).status).toBe(200);
      expect((await initialize(randomLoopbackAddress())).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('a stale holder cannot write the session record back once another instance claimed it', async () => {
    const { SessionStore } = await import('../../../apps/gateway/src/mcp/session-store');
    const id = `test-${uid()}`;
    const x = new SessionStore(gw.deps.redis, 60, 'instance-x');
    const y = new SessionStore(gw.deps.redis, 60, 'instance-y');
    const binding = { subject: 'alice', clientId: 'cli_alice_app' };
    expect(await x.save(id, { binding, subscriptions: ['vitalis://patients/p1/vitals'] })).toBe(true);
    await y.claim(id);
    expect(await x.save(id, { binding, subscriptions: [] })).toBe(false);
    expect(await x.touch(id)).toBe(false);
    expect(await x.lostAmong([id])).toEqual([id]);
    expect(await y.lostAmong([id])).toEqual([]);
    expect(await y.load(id)).toEqual({ binding, subscriptions: ['vitalis://patients/p1/vitals'] });
    await y.remove(id);
    expect(await y.load(id)).toBeUndefined();
  });

  it("a record bound to a subject without its client (an older gateway's) is not taken over: the session is gone (404)", async () => {
    const id = `legacy-${uid()}`;
    await gw.deps.redis.set(`vitalis:mcp:session:${id}`, JSON.stringify({ subject: reader.client.client_id, subscriptions: [] }), 'EX', 60);
    try {
      const res = await rpc(gw.url, { id: 1, method: 'tools/list' }, { 'mcp-session-id': id, ...bearer(reader.token) });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: -32001 } });
      expect(gw.app.mcpSessions.get(id)).toBeUndefined();
    } finally {
      await gw.deps.redis.del(`vitalis:mcp:session:${id}`);
    }
  });
});

describe('route contract', () => {
  it('documents POST, GET and DELETE /.well-known/mcp in /openapi.json as public, tagged mcp, with 401/403', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags: string[]; summary: string; security: unknown[]; responses: Record<string, unknown> }>>;
      tags: { name: string }[];
    };
    for (const m of ['post', 'get', 'delete']) {
      const op = doc.paths['/.well-known/mcp']![m]!;
      expect(op.tags, m).toEqual(['mcp']);
      expect(op.summary, m).toMatch(/^MCP/);
      expect(op.security, m).toEqual([]);
      expect(Object.keys(op.responses), m).toEqual(expect.arrayContaining(['200', '401', '403']));
    }
    expect(doc.tags.map((t) => t.name)).toContain('mcp');
  });
});
