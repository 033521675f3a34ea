/**
 * MCP test plumbing: the SDK's own Client over its Streamable HTTP client transport against a real
 * gateway, with a Bearer token that a test can swap (a mutable holder read on every request), and
 * raw JSON-RPC over fetch for the HTTP-level contract (401/403 headers, session binding).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Scope } from '@vitalis/schemas';
import { clientCredentialsToken, registerClient, type RegisteredClient } from '../../helpers/auth';
import { pumpSse } from '../../helpers/sse';
import { DEMO_PASSWORDS, REDIRECT_URI, pkcePair, registerCodeClient, signInAndConsent, type CodeClient } from '../auth/support';

export const MCP_PATH = '/.well-known/mcp';
export const PROTOCOL_VERSION = '2025-06-18';

export interface TokenHolder {
  token?: string;
}

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  auth: TokenHolder;
  close: () => Promise<void>;
}

/** Connects the SDK Client (initialize handshake included); `auth.token` may be changed later. */
export async function connect(baseUrl: string, token?: string, opts: { onNotification?: boolean } = {}): Promise<Connected> {
  const auth: TokenHolder = { token };
  const transport = new StreamableHTTPClientTransport(new URL(baseUrl + MCP_PATH), {
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      if (auth.token) headers.set('authorization', `Bearer ${auth.token}`);
      return fetch(input, { ...init, headers });
    },
  });
  const client = new Client({ name: 'vitalis-mcp-test', version: '1.0.0' }, { capabilities: {} });
  void opts;
  await client.connect(transport);
  return { client, transport, auth, close: () => client.close() };
}

export async function tokenFor(
  baseUrl: string,
  scopes: Scope[],
  name = 'vitalis-mcp-test',
): Promise<{ client: RegisteredClient; token: string }> {
  const client = await registerClient(baseUrl, scopes, name);
  return { client, token: await clientCredentialsToken(baseUrl, client) };
}

/**
 * A demo user's access token through the real login and consent pages, held by `via` (an
 * authorization-code client, or the name of a fresh one: two calls with names give the same
 * subject through two different clients).
 */
export async function userTokenFor(
  baseUrl: string,
  user: keyof typeof DEMO_PASSWORDS,
  scopes: Scope[],
  via: CodeClient | string = 'MCP host <test>',
): Promise<{ client: CodeClient; clientId: string; token: string }> {
  const client = typeof via === 'string' ? await registerCodeClient(baseUrl, scopes, { name: via }) : via;
  const { verifier, challenge } = pkcePair();
  const url = new URL(`${baseUrl}/api/auth/oauth2/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    scope: scopes.join(' '),
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }))
    url.searchParams.set(k, v);
  const { location } = await signInAndConsent(url, user);
  const res = await fetch(`${baseUrl}/api/auth/oauth2/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: client.client_id,
      client_secret: client.client_secret!,
    }),
  });
  if (res.status !== 200) throw new Error(`token failed: ${res.status} ${await res.text()}`);
  return { client, clientId: client.client_id, token: ((await res.json()) as { access_token: string }).access_token };
}

/** One JSON-RPC POST with fetch (no SDK), to look at the HTTP answer itself. */
export async function rpc(baseUrl: string, message: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(baseUrl + MCP_PATH, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL_VERSION,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', ...message }),
  });
}

/** initialize over raw HTTP; returns the session id. */
export async function rawInitialize(baseUrl: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await rpc(
    baseUrl,
    {
      id: 1,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    },
    headers,
  );
  if (res.status !== 200) throw new Error(`initialize: ${res.status} ${await res.text()}`);
  const sid = res.headers.get('mcp-session-id');
  await res.body?.cancel();
  if (!sid) throw new Error('no session id');
  const ack = await rpc(baseUrl, { method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': sid });
  await ack.body?.cancel();
  return sid;
}

/** The JSON-RPC result of a raw response (JSON or a one-message SSE body). */
export async function rpcResult(res: Response): Promise<any> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
    return data.find((m) => 'result' in m || 'error' in m);
  }
  return JSON.parse(text);
}

export interface StreamEvent {
  id?: string;
  message: any;
}

export interface RawStream {
  status: number;
  events: StreamEvent[];
  /** Waits until `done(events)` holds (the deadline only bounds a hang; nothing asserts on time). */
  waitUntil: (done: (events: StreamEvent[]) => boolean, what: string, timeoutMs?: number) => Promise<StreamEvent[]>;
  close: () => void;
}

/** The session's GET stream over fetch (SSE), optionally resuming with Last-Event-ID. */
export async function openStream(baseUrl: string, headers: Record<string, string>): Promise<RawStream> {
  const { createParser } = await import('eventsource-parser');
  const ctrl = new AbortController();
  const res = await fetch(baseUrl + MCP_PATH, {
    headers: { accept: 'text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION, ...headers },
    signal: ctrl.signal,
  });
  const events: StreamEvent[] = [];
  const stream: RawStream = {
    status: res.status,
    events,
    waitUntil: async (done, what, timeoutMs = 45_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!done(events)) {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${what}; have ${events.length}: ${JSON.stringify(events.slice(-3))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return events;
    },
    close: () => ctrl.abort(),
  };
  if (res.status !== 200 || !res.body) return stream;
  const parser = createParser({
    onEvent: (e) => {
      if (e.data.trim() !== '') events.push({ id: e.id, message: JSON.parse(e.data) });
    },
  });
  void pumpSse(res.body, parser);
  return stream;
}

/** The `_meta["vitalis/live"]` payloads of resource-updated notifications, in arrival order. */
export const liveEvents = (messages: any[]) =>
  messages
    .filter((m) => m?.method === 'notifications/resources/updated')
    .map((m) => ({
      uri: m.params.uri as string,
      ...(m.params._meta['vitalis/live'] as { type: string; id: string; event?: string; data: any }),
    }));
