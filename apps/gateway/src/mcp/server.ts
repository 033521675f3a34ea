/**
 * One McpServer per session (the SDK's model: a server instance is bound to one transport). It
 * carries every tool (tools/), the ui:// cards and the live vitals resources (resources.ts), and
 * the resources/subscribe handlers (subscriptions.ts). Who is calling comes from the HTTP layer
 * (auth.ts) as `authInfo.extra.caller`: the tools never look at tokens.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode,
  McpError,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { HttpProblem, problemBody } from '@vitalis/http';
import { VITALIS_VERSION } from '@vitalis/runtime';
import type { GatewayDeps } from '../deps';
import { callerOf, toMcpError, type Extra } from './context';
import { registerResources } from './resources';
import { parseResourceUri } from './resource-uri';
import type { LiveSubscriptions } from './subscriptions';
import { TOOLS } from './tools';

export const SERVER_INSTRUCTIONS =
  'Vitalis: patients, appointments, vitals and the ED triage board of a hospital. Listing needs no token; every tool and patient resource needs an OAuth Bearer token ' +
  '(discovery: /.well-known/oauth-protected-resource) with the scopes named in the tool description. Live vitals: resources/subscribe to vitalis://patients/{id}/vitals.';

function toolError(deps: GatewayDeps, tool: string, err: unknown): CallToolResult {
  if (err instanceof HttpProblem) {
    return {
      isError: true,
      content: [{ type: 'text', text: `${err.title} (${err.status}): ${err.detail}` }],
      _meta: { 'vitalis/problem': problemBody(deps.config.baseUrl, err) },
    };
  }
  deps.logger.error({ err, tool }, 'mcp tool failed');
  return { isError: true, content: [{ type: 'text', text: 'An unexpected error occurred; it was logged. Retry later.' }] };
}

export function buildMcpServer(deps: GatewayDeps, live: () => LiveSubscriptions): McpServer {
  const server = new McpServer(
    { name: 'vitalis', title: 'Vitalis', version: VITALIS_VERSION },
    {
      capabilities: { resources: { subscribe: true, listChanged: true }, tools: { listChanged: true }, logging: {} },
      instructions: SERVER_INSTRUCTIONS,
    },
  );

  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: tool.annotations,
        // MCP Apps: the card the host renders this tool's result in (both spellings hosts read).
        ...(tool.ui ? { _meta: { ui: { resourceUri: tool.ui }, 'ui/resourceUri': tool.ui } } : {}),
      },
      (async (args: Record<string, unknown>, extra: Extra): Promise<CallToolResult> => {
        const caller = callerOf(extra);
        if (!caller) return { isError: true, content: [{ type: 'text', text: 'This tool needs a Bearer token.' }] };
        try {
          const out = await tool.run({ deps, caller }, args);
          return { content: [{ type: 'text', text: out.text }], structuredContent: out.data as Record<string, unknown> };
        } catch (err) {
          return toolError(deps, tool.name, err);
        }
      }) as never,
    );
  }

  registerResources(server, deps);

  server.server.setRequestHandler(SubscribeRequestSchema, async (req, extra) => {
    const caller = callerOf(extra);
    if (!caller) throw new McpError(ErrorCode.InvalidRequest, 'Subscribing needs a Bearer token with read:vitals.');
    // only the canonical form: a subscription is keyed by its uri, and its notifications name it
    const ref = parseResourceUri(req.params.uri);
    if (ref.kind !== 'patient-vitals' || ref.uri !== req.params.uri) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Only vitalis://patients/{id}/vitals can be subscribed to, not ${req.params.uri.slice(0, 200)}.`,
      );
    }
    try {
      await live().subscribe(ref.uri, caller);
    } catch (err) {
      throw toMcpError(err);
    }
    return {};
  });
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    live().unsubscribe(req.params.uri);
    return {};
  });
  return server;
}
