/**
 * MCP client bindings: connects the official SDK's Client to the gateway's MCP server
 * (`/.well-known/mcp`, Streamable HTTP) with the VitalisClient's own token source, so an agent
 * uses one set of credentials for REST and MCP. Every MCP HTTP request carries a current Bearer
 * token; after a 401 the token is renewed and the request retried once (as for REST calls).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { VitalisClient } from './client';

export const MCP_PATH = '/.well-known/mcp';

export interface McpConnectOptions {
  /** Reported to the server in the initialize handshake. */
  name?: string;
  version?: string;
  /** Override the endpoint path (default `/.well-known/mcp`). */
  path?: string;
}

/** A fetch that adds the client's Bearer token and renews it once after a 401. */
export function authorizedFetch(client: VitalisClient): typeof fetch {
  const auth = client.transport.auth;
  return async (input, init) => {
    const attempt = async () => {
      const headers = new Headers(init?.headers);
      if (auth) headers.set('authorization', `Bearer ${await auth.token()}`);
      return fetch(input, { ...init, headers });
    };
    let res = await attempt();
    if (res.status === 401 && auth) {
      await res.body?.cancel();
      auth.invalidate();
      res = await attempt();
    }
    return res;
  };
}

/** Connects and completes the MCP handshake; close with `await mcp.close()`. */
export async function connectMcp(client: VitalisClient, opts: McpConnectOptions = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(client.baseUrl + (opts.path ?? MCP_PATH)), {
    fetch: authorizedFetch(client),
  });
  const mcp = new Client({ name: opts.name ?? '@vitalis/client', version: opts.version ?? '0.2.0' });
  await mcp.connect(transport);
  return mcp;
}
