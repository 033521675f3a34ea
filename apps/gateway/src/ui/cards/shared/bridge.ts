/**
 * MCP mode: JSON-RPC 2.0 over postMessage with the host (MCP Apps): `ui/initialize` →
 * `ui/notifications/initialized`, `tools/call` (forwarded by the host to the Vitalis MCP server),
 * `ui/notifications/size-changed` on resize; it listens to `ui/notifications/tool-input` and
 * `ui/notifications/tool-result`. Host requests it does not implement get an empty result.
 */
import { must } from './must';
import { mode } from './access';
import { showError } from './dom';
import { MCP_APPS_PROTOCOL_VERSION } from './protocol';

interface RpcMessage {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: any;
  result?: any;
  error?: { message?: string };
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: unknown;
  content?: Array<{ type?: string; text?: string }>;
}

let nextId = 1;
const pending = new Map<number | string, { resolve: (r: any) => void; reject: (e: Error) => void }>();
const resultHandlers: Array<(r: any) => void> = [];
const inputHandlers: Array<(args: Record<string, any>) => void> = [];

function post(msg: RpcMessage): void {
  window.parent.postMessage(msg, '*');
}

function rpc(method: string, params?: unknown): Promise<any> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ jsonrpc: '2.0', id, method, params: params || {} });
  });
}

/** A tool result as the card reads it: `structuredContent`, else the text content as JSON; isError throws. */
export function unwrap(result: ToolResult | null | undefined): any {
  if (!result) return null;
  if (result.isError) {
    const t = (result.content || []).map((c) => c.text || '').join(' ');
    throw new Error(t || 'tool failed');
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = (result.content || [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('');
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

window.addEventListener('message', (e: MessageEvent) => {
  if (mode !== 'mcp' || e.source !== window.parent) return;
  const msg = e.data as RpcMessage | null;
  if (!msg || msg.jsonrpc !== '2.0') return;
  if (msg.method === undefined && msg.id !== undefined && pending.has(msg.id)) {
    const p = must(pending.get(msg.id), 'the pending call ' + msg.id);
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(msg.error.message || 'host error'));
    else p.resolve(msg.result);
    return;
  }
  if (msg.method === 'ui/notifications/tool-result') {
    resultHandlers.forEach((fn) => {
      try {
        fn(unwrap(msg.params));
      } catch (err) {
        showError(err);
      }
    });
    return;
  }
  if (msg.method === 'ui/notifications/tool-input') {
    const args = (msg.params && msg.params.arguments) || {};
    inputHandlers.forEach((fn) => {
      try {
        fn(args);
      } catch (err) {
        showError(err);
      }
    });
    return;
  }
  // Requests we do not implement (e.g. ui/resource-teardown) get an empty result, never silence.
  if (msg.method && msg.id !== undefined) post({ jsonrpc: '2.0', id: msg.id, result: {} });
});

/** The result of the tool call the host shows this card for (ui/notifications/tool-result). */
export function onToolResult(fn: (result: any) => void): void {
  resultHandlers.push(fn);
}

/** The arguments of the tool call the host shows this card for (ui/notifications/tool-input). */
export function onToolInput(fn: (args: Record<string, any>) => void): void {
  inputHandlers.push(fn);
}

export function callTool(name: string, args?: Record<string, unknown>): Promise<any> {
  return rpc('tools/call', { name, arguments: args || {} }).then(unwrap);
}

/** What the host said at ui/initialize (hostContext), once the handshake is done. */
export let hostContext: Record<string, unknown> = {};

/** Settles when the card may call: the host handshake in MCP mode, at once in browser mode. */
export const ready: Promise<unknown> =
  mode === 'mcp'
    ? rpc('ui/initialize', {
        protocolVersion: MCP_APPS_PROTOCOL_VERSION,
        appInfo: { name: `vitalis-${document.documentElement.getAttribute('data-card')}`, version: '1.0.0' },
        appCapabilities: {},
      }).then((r) => {
        post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
        if (window.ResizeObserver) {
          new ResizeObserver(() => {
            post({
              jsonrpc: '2.0',
              method: 'ui/notifications/size-changed',
              params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight },
            });
          }).observe(document.documentElement);
        }
        hostContext = (r && r.hostContext) || {};
        return r;
      })
    : Promise.resolve({});
