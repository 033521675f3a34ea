/**
 * Resources:
 *  - `ui://vitalis/<name>`: the four UI cards (apps/gateway/src/ui/cards.ts), MCP Apps style
 *    (`text/html;profile=mcp-app`), public HTML without patient data;
 *  - `vitalis://patients/{patient_id}/vitals` (template): the latest vitals of one patient as
 *    JSON (read:vitals, audited); subscribe to it for live observations and alerts.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayDeps } from '../deps';
import { UI_CARDS } from '../ui/cards';
import { callerOf, toMcpError } from './context';
import { readLatestWithNews2 } from '../vitals/service';
import { VITALS_URI } from './subscriptions';

export const MCP_APP_MIME = 'text/html;profile=mcp-app';

export function registerResources(server: McpServer, deps: GatewayDeps): void {
  for (const card of UI_CARDS) {
    const uri = `ui://vitalis/${card.name}`;
    const meta = { ui: { prefersBorder: true, csp: { connectDomains: [deps.config.baseUrl] } } };
    server.registerResource(card.name, uri, { title: card.title, description: card.description, mimeType: MCP_APP_MIME, _meta: meta }, async () => ({
      contents: [{ uri, mimeType: MCP_APP_MIME, text: card.html(), _meta: meta }],
    }));
  }

  server.registerResource(
    'patient-vitals',
    new ResourceTemplate('vitalis://patients/{patient_id}/vitals', { list: undefined }),
    {
      title: 'Live vitals of a patient',
      description: 'The latest observation per vital sign and NEWS2 (JSON). Subscribe (resources/subscribe) for every new observation and alert, delivered as notifications/resources/updated with the event in _meta["vitalis/live"]. Needs read:vitals.',
      mimeType: 'application/json',
    },
    async (uri, _vars, extra) => {
      const caller = callerOf(extra);
      if (!caller) throw new McpError(ErrorCode.InvalidRequest, 'Reading patient vitals needs a Bearer token with read:vitals.');
      const m = VITALS_URI.exec(uri.href);
      if (!m) throw new McpError(ErrorCode.InvalidParams, 'Not a patient vitals resource.');
      try {
        const { rows, news2 } = await readLatestWithNews2(deps.pool, caller, m[1]!, undefined, 'mcp');
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ patient_id: m[1], count: rows.length, observations: rows, news2 }) }] };
      } catch (err) {
        throw toMcpError(err);
      }
    },
  );
}
