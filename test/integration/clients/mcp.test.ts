/**
 * MCP client bindings of @vitalis/client: the official SDK Client connected to the gateway's MCP
 * server at /.well-known/mcp with the VitalisClient's own token (renewed after a revocation).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VitalisClient } from '@vitalis/client';
import { connectMcp } from '@vitalis/client/mcp';
import { startClientStack, type ClientStack } from './support';

let stack: ClientStack;
beforeAll(async () => {
  stack = await startClientStack('mcp');
});
afterAll(async () => {
  await stack?.close();
});

describe('MCP bindings', () => {
  it('connect with the client token, list and call tools, survive a token revocation', async () => {
    const api = VitalisClient.withClientCredentials(stack.gw.url, stack.client.client_id, stack.client.client_secret);
    const mcp = await connectMcp(api, { name: 'vitalis-client-test' });
    try {
      expect(mcp.getServerVersion()?.name).toBeTruthy();
      const { tools } = await mcp.listTools();
      expect(tools.length).toBeGreaterThan(0);
      const who = await mcp.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ client_id: stack.client.client_id });
      await api.revokeToken(); // the next MCP request is refused once, then renewed transparently
      const again = await mcp.listTools();
      expect(again.tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
      // the renewed token (same subject) keeps the session and its tools working
      expect((await mcp.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
    } finally {
      await mcp.close();
    }
  });

  it('without a token the handshake and listing work (MCP authorization spec), but patient tools answer 401', async () => {
    const anonymous = new VitalisClient({ baseUrl: stack.gw.url });
    const mcp = await connectMcp(anonymous);
    try {
      expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
      await expect(mcp.callTool({ name: 'get_patient', arguments: { patient_id: 'pat-0001' } })).rejects.toThrow(/401|Unauthorized/);
    } finally {
      await mcp.close();
    }
  });
});
