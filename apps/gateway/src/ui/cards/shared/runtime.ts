/**
 * The card runtime `V`: what every card's main.ts imports. One call per operation,
 * `V.op(tool, args, restRequest)`: the MCP tool through the host when embedded (mode 'mcp'), the
 * REST request with the fragment's bearer token when opened in a browser (mode 'rest').
 * Importing it starts the card: reads and removes the URL fragment, and in MCP mode opens the
 * host handshake (ui/initialize).
 */
import { mayUse, mode, noToken, params, scopes, token } from './access';
import { callTool, hostContext, onToolInput, onToolResult, ready, unwrap } from './bridge';
import { $, el, fmtDate, fmtTime, setStatus, showError } from './dom';
import { rest } from './rest';
import { stream } from './stream';

/** A REST request: method (default GET), same-origin path, JSON body, extra headers (If-Match). */
export interface RestRequest {
  method?: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** One operation, two transports: the MCP tool (embedded) or the REST request (browser). */
function op(tool: string, args: Record<string, unknown>, req: RestRequest): Promise<any> {
  return ready.then(() => {
    if (mode === 'mcp') return callTool(tool, args);
    if (!token) throw noToken();
    return rest(req.method || 'GET', req.path, req.body, req.headers);
  });
}

export const V = {
  mode,
  params,
  scopes,
  hasToken: !!token,
  mayUse,
  op,
  rest,
  callTool,
  unwrap,
  ready,
  get hostContext() {
    return hostContext;
  },
  onToolResult,
  onToolInput,
  stream,
  el,
  $,
  setStatus,
  showError,
  fmtTime,
  fmtDate,
};
