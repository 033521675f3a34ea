/**
 * Resources:
 *  - `ui://vitalis/<name>`: the four UI cards (apps/gateway/src/ui/cards.ts), MCP Apps style
 *    (`text/html;profile=mcp-app`), public HTML without patient data;
 *  - `vitalis://patients/{patient_id}/vitals` (template): the latest vitals of one patient as
 *    JSON; subscribe to it for live observations and alerts.
 * Every handler classifies the URI it was given (resource-uri.ts, as the SDK parsed it) before
 * serving it, and the patient resource asks the vitals service (read:vitals, a patient user only
 * their own id, audited) with the caller the HTTP layer verified, whatever the gate let through.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayDeps } from '../deps';
import { uiCards } from '../ui/cards';
import { readLatestWithNews2 } from '../vitals/service';
import { callerOf, toMcpError } from './context';
import { parseResourceUri, type ResourceRef } from './resource-uri';

export const MCP_APP_MIME = 'text/html;profile=mcp-app';

/** The resource a handler was handed, if it is of the kind that handler serves (refused otherwise). */
function resourceOf<K extends ResourceRef['kind']>(uri: URL, kind: K): Extract<ResourceRef, { kind: K }> {
  const ref = parseResourceUri(uri.href);
  if (ref.kind !== kind)
    throw new McpError(ErrorCode.InvalidParams, ref.kind === 'refused' ? `Refused: ${ref.reason}.` : `Not a ${kind} resource.`);
  return ref as Extract<ResourceRef, { kind: K }>;
}

export function registerResources(server: McpServer, deps: GatewayDeps): void {
  // the monitor's data carries the site's alarm settings (config.alarms)
  for (const card of uiCards(deps.config.alarms)) {
    const uri = `ui://vitalis/${card.name}`;
    const meta = { ui: { prefersBorder: true, csp: { connectDomains: [deps.config.baseUrl] } } };
    // public: a card document holds no patient data (no token, no scope)
    server.registerResource(
      card.name,
      uri,
      { title: card.title, description: card.description, mimeType: MCP_APP_MIME, _meta: meta },
      async (given) => {
        resourceOf(given, 'ui');
        return { contents: [{ uri, mimeType: MCP_APP_MIME, text: card.html(), _meta: meta }] };
      },
    );
  }

  server.registerResource(
    'patient-vitals',
    new ResourceTemplate('vitalis://patients/{patient_id}/vitals', { list: undefined }),
    {
      title: 'Live vitals of a patient',
      description:
        'The latest observation per vital sign and NEWS2 (JSON). Subscribe (resources/subscribe) for every new observation and alert, delivered as notifications/resources/updated with the event in _meta["vitalis/live"]. Needs read:vitals.',
      mimeType: 'application/json',
    },
    async (uri, _vars, extra) => {
      const caller = callerOf(extra);
      if (!caller) throw new McpError(ErrorCode.InvalidRequest, 'Reading patient vitals needs a Bearer token with read:vitals.');
      const { patientId } = resourceOf(uri, 'patient-vitals');
      try {
        const { rows, news2 } = await readLatestWithNews2(deps.pool, caller, patientId, undefined, 'mcp');
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'application/json',
              text: JSON.stringify({ patient_id: patientId, count: rows.length, observations: rows, news2 }),
            },
          ],
        };
      } catch (err) {
        throw toMcpError(err);
      }
    },
  );
}
