/**
 * A test MCP Apps host for the UI cards' browser tests: a page on the gateway's origin (the card's
 * `frame-ancestors 'self'` admits it) renders one card in an iframe and answers the card's
 * postMessage JSON-RPC as a real host does: `ui/initialize`, then every `tools/call` forwarded to
 * `callTool` (the tests pass the official SDK Client connected to the real MCP server), and
 * `ui/notifications/tool-input` / `tool-result` pushed to the card on request
 * (`window.pushToolInput(args)`, `window.pushToolResult(result)`). `window.fromCard` lists what the
 * card sent, in order.
 */
import type { Browser, FrameLocator } from 'playwright-core';
import { expect } from 'vitest';
import { eventually, openPage, type TestPage } from './browser';

/** The host page: one iframe with the card, and the host side of the MCP Apps protocol. */
export const mcpHostHtml = (card: string, o: { fragment?: string; height?: number } = {}) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test MCP host</title></head>
<body>
<iframe id="card" title="${card}" src="/ui/${card}${o.fragment ? `#${o.fragment}` : ''}" width="1240" height="${o.height ?? 860}"></iframe>
<script>
window.fromCard = [];
const frame = document.getElementById('card');
const send = (m) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, m), '*');
window.addEventListener('message', async (e) => {
  if (e.source !== frame.contentWindow) return;
  const m = e.data;
  window.fromCard.push(m.method || 'response');
  if (m.method === 'ui/initialize') {
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, hostInfo: { name: 'vitalis-test-host', version: '1.0.0' }, hostCapabilities: { serverTools: {} }, hostContext: { theme: 'light', displayMode: 'inline' } } });
  } else if (m.method === 'tools/call') {
    try { send({ id: m.id, result: await window.mcpCallTool(m.params.name, m.params.arguments) }); }
    catch (err) { send({ id: m.id, error: { code: -32603, message: String(err && err.message || err) } }); }
  } else if (m.method && m.id !== undefined) {
    send({ id: m.id, error: { code: -32601, message: 'not supported by the test host' } });
  }
});
window.pushToolInput = (args) => send({ method: 'ui/notifications/tool-input', params: { arguments: args } });
window.pushToolResult = (result) => send({ method: 'ui/notifications/tool-result', params: result });
</script>
</body></html>`;

export interface HostedCard {
  tp: TestPage;
  frame: FrameLocator;
}

/**
 * Opens `card` in the test host on `gatewayUrl`'s origin, its tools/call answered by `callTool`;
 * returns once the handshake is done (`ui/initialize` answered, then the card said it is initialized).
 */
export async function openInMcpHost(
  browser: Browser,
  gatewayUrl: string,
  card: string,
  callTool: (name: string, args: Record<string, unknown>) => Promise<unknown>,
  o: { fragment?: string; viewport?: { width: number; height: number }; frameHeight?: number } = {},
): Promise<HostedCard> {
  const tp = await openPage(browser, o.viewport ?? { width: 1280, height: 900 });
  const url = `${gatewayUrl}/__test-mcp-host/${card}`;
  const html = mcpHostHtml(card, { ...(o.fragment ? { fragment: o.fragment } : {}), ...(o.frameHeight ? { height: o.frameHeight } : {}) });
  await tp.page.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  await tp.page.exposeFunction('mcpCallTool', callTool);
  await tp.page.goto(url, { waitUntil: 'load' });
  await eventually(
    () => tp.page.evaluate<string[]>('window.fromCard'),
    (m) => m.includes('ui/notifications/initialized'),
    `${card}: ui/notifications/initialized`,
  );
  expect((await tp.page.evaluate<string[]>('window.fromCard'))[0]).toBe('ui/initialize');
  return { tp, frame: tp.page.frameLocator('#card') };
}
