/**
 * What every card shares: the page frame, the base stylesheet and the client runtime (the data
 * adapter). Everything is a string inlined into the card's single HTML document: a card must
 * work as an MCP Apps resource (rendered by the host in a sandboxed iframe, no network of its
 * own) and at `GET /ui/<name>` under a CSP that admits only its own inline script and style.
 *
 * The runtime exposes `window.Vitalis` (V):
 *  - V.mode: 'mcp' when embedded in a host without a token in the URL fragment (talks
 *    postMessage JSON-RPC: ui/initialize, tools/call), else 'rest' (same-origin REST + SSE with
 *    the bearer token from `#token=…`; the fragment is removed from the address bar at once).
 *  - V.op(tool, args, restRequest): ONE call site per operation; the mode picks the transport.
 *  - V.mayUse(scopes): whether the token (if readable) holds one of them, to skip doomed calls.
 *  - V.stream(path, onEvent): fetch-based SSE reader (EventSource cannot send Authorization),
 *    reconnecting with Last-Event-ID.
 *  - V.onToolResult(fn) / V.onToolInput(fn): what the host pushes about the tool call the card is
 *    shown for (`ui/notifications/tool-result`, `ui/notifications/tool-input`).
 */

/** The MCP Apps protocol version the cards speak (ext-apps LATEST_PROTOCOL_VERSION). */
export const MCP_APPS_PROTOCOL_VERSION = '2026-01-26';

/**
 * Light clinical palette. Text colours are chosen for ≥ 4.5:1 on their background (WCAG AA):
 * --ink #1b2430 on #fff 15.6:1, --muted #4a5565 on #fff 7.4:1, white on --crit #b3261e 6.5:1,
 * #3d2a00 on --warn-bg #ffd966 11:1, white on --ok #1f7a3a 5.4:1.
 */
export const BASE_STYLE = `
:root{--ink:#1b2430;--muted:#4a5565;--line:#d5dbe3;--bg:#f4f6f9;--panel:#fff;--accent:#0b5cad;--crit:#b3261e;--warn-bg:#ffd966;--warn-ink:#3d2a00;--ok:#1f7a3a;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;font-size:15px;line-height:1.4;color:var(--ink);background:var(--bg)}
*{box-sizing:border-box}
body{margin:0}
.card{max-width:1200px;margin:0 auto;padding:12px 16px 16px}
.card-header{display:flex;align-items:center;gap:12px;flex-wrap:wrap;border-bottom:2px solid var(--line);padding-bottom:8px;margin-bottom:12px}
.card-header h1{font-size:1.25rem;margin:0;font-weight:650}
.card-header .sub{color:var(--muted);font-size:.9rem}
.spacer{flex:1}
.pill{display:inline-block;border-radius:999px;padding:2px 10px;font-size:.8rem;font-weight:600;border:1px solid var(--line);background:var(--panel);color:var(--muted)}
.pill[data-state=live]{background:var(--ok);border-color:var(--ok);color:#fff}
.pill[data-state=error]{background:var(--crit);border-color:var(--crit);color:#fff}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:12px}
.muted{color:var(--muted)}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
button,input,select,textarea{font:inherit;color:inherit}
label{font-weight:600;font-size:.9rem;display:block;margin-bottom:4px}
input,select,textarea{border:1px solid #8792a2;border-radius:6px;padding:6px 8px;background:#fff;min-height:36px}
button{border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:6px;padding:6px 14px;min-height:36px;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:var(--accent)}
button:disabled{background:#c9d0d9;border-color:#c9d0d9;color:#3c4450;cursor:not-allowed}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.error{background:#fdecea;border:1px solid var(--crit);color:#7a1410;border-radius:6px;padding:8px 12px;margin:8px 0}
.error:empty{display:none}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.footer{margin-top:12px;color:var(--muted);font-size:.8rem}
`;

/** The client runtime (see the module comment). ES2020, no modules, no template literals. */
export const RUNTIME_SCRIPT = String.raw`
(function () {
  'use strict';
  var V = (window.Vitalis = {});
  var frag = new URLSearchParams(location.hash.slice(1));
  var token = frag.get('token');
  V.params = {};
  frag.forEach(function (v, k) { if (k !== 'token') V.params[k] = v; });
  // The token must not linger in the address bar, history or a screenshot.
  if (location.hash) {
    try { history.replaceState(null, '', location.pathname + location.search); } catch (e) { /* sandboxed, opaque origin */ }
  }
  V.mode = window.parent !== window && !token ? 'mcp' : 'rest';
  // The token's scope claim (a JWT): only to skip calls that would be refused. The server
  // decides access; null = unknown (opaque token, or MCP mode), so the card just tries.
  V.scopes = null;
  try {
    var claims = token && JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
    if (claims && typeof claims.scope === 'string') V.scopes = claims.scope.split(' ');
  } catch (e) { V.scopes = null; }
  V.mayUse = function (anyOf) {
    return V.scopes === null || anyOf.some(function (s) { return V.scopes.indexOf(s) >= 0; });
  };

  V.el = function (tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') e.textContent = v;
      else if (k === 'class') e.className = v;
      else e.setAttribute(k, v === true ? '' : String(v));
    });
    (children || []).forEach(function (c) { if (c !== null && c !== undefined) e.append(c); });
    return e;
  };
  V.$ = function (sel) { return document.querySelector(sel); };
  V.setStatus = function (text, state) {
    var s = V.$('#conn');
    if (!s) return;
    s.textContent = text;
    s.setAttribute('data-state', state || '');
  };
  V.showError = function (err) {
    var box = V.$('#error');
    if (box) box.textContent = err ? (err.message || String(err)) : '';
  };

  // ---- REST (mode 'rest') ----
  V.rest = function (method, path, body, extraHeaders) {
    var headers = Object.assign({ accept: 'application/json' }, extraHeaders || {});
    if (token) headers.authorization = 'Bearer ' + token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) }).then(function (res) {
      return res.text().then(function (text) {
        var json = null;
        try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
        if (!res.ok) {
          var err = new Error((json && (json.detail || json.title)) || ('HTTP ' + res.status));
          err.status = res.status;
          err.problem = json;
          throw err;
        }
        return json;
      });
    });
  };

  // ---- MCP Apps host bridge (mode 'mcp') ----
  var nextId = 1;
  var pending = new Map();
  var resultHandlers = [];
  var inputHandlers = [];
  function post(msg) { window.parent.postMessage(msg, '*'); }
  function rpc(method, params) {
    var id = nextId++;
    return new Promise(function (resolve, reject) {
      pending.set(id, { resolve: resolve, reject: reject });
      post({ jsonrpc: '2.0', id: id, method: method, params: params || {} });
    });
  }
  window.addEventListener('message', function (e) {
    if (V.mode !== 'mcp' || e.source !== window.parent) return;
    var msg = e.data;
    if (!msg || msg.jsonrpc !== '2.0') return;
    if (msg.method === undefined && pending.has(msg.id)) {
      var p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message || 'host error'));
      else p.resolve(msg.result);
      return;
    }
    if (msg.method === 'ui/notifications/tool-result') {
      resultHandlers.forEach(function (fn) { try { fn(V.unwrap(msg.params)); } catch (err) { V.showError(err); } });
      return;
    }
    if (msg.method === 'ui/notifications/tool-input') {
      var args = (msg.params && msg.params.arguments) || {};
      inputHandlers.forEach(function (fn) { try { fn(args); } catch (err) { V.showError(err); } });
      return;
    }
    // Requests we do not implement (e.g. ui/resource-teardown) get an empty result, never silence.
    if (msg.method && msg.id !== undefined) post({ jsonrpc: '2.0', id: msg.id, result: {} });
  });
  V.onToolResult = function (fn) { resultHandlers.push(fn); };
  /** The arguments of the tool call the host shows this card for (ui/notifications/tool-input). */
  V.onToolInput = function (fn) { inputHandlers.push(fn); };
  V.unwrap = function (result) {
    if (!result) return null;
    if (result.isError) {
      var t = (result.content || []).map(function (c) { return c.text || ''; }).join(' ');
      throw new Error(t || 'tool failed');
    }
    if (result.structuredContent !== undefined) return result.structuredContent;
    var text = (result.content || []).filter(function (c) { return c.type === 'text'; }).map(function (c) { return c.text; }).join('');
    try { return JSON.parse(text); } catch (e) { return { text: text }; }
  };
  V.callTool = function (name, args) {
    return rpc('tools/call', { name: name, arguments: args || {} }).then(V.unwrap);
  };
  V.ready = V.mode === 'mcp'
    ? rpc('ui/initialize', {
        protocolVersion: '__PROTOCOL__',
        appInfo: { name: 'vitalis-' + document.documentElement.getAttribute('data-card'), version: '1.0.0' },
        appCapabilities: {},
      }).then(function (r) {
        post({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} });
        if (window.ResizeObserver) {
          new ResizeObserver(function () {
            post({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight } });
          }).observe(document.documentElement);
        }
        V.hostContext = (r && r.hostContext) || {};
        return r;
      })
    : Promise.resolve({});

  /** Opened in a browser without a token: say how to open it instead of sending doomed requests. */
  function noToken() {
    var err = new Error('No access token: open this card as ' + location.pathname + '#token=ACCESS_TOKEN (see /auth.md for how to get one).');
    err.status = 401;
    return err;
  }
  V.hasToken = !!token;

  /** One operation, two transports: the MCP tool (embedded) or the REST request (browser). */
  V.op = function (tool, args, rest) {
    return V.ready.then(function () {
      if (V.mode === 'mcp') return V.callTool(tool, args);
      if (!token) throw noToken();
      return V.rest(rest.method || 'GET', rest.path, rest.body, rest.headers);
    });
  };

  // ---- SSE over fetch, resumable ----
  V.stream = function (path, onEvent, onState) {
    var lastId = null, stopped = false, ctrl = null, retryMs = 2000;
    function parse(block) {
      var ev = { event: 'message', data: '' , id: null };
      var data = [];
      block.split('\n').forEach(function (line) {
        if (!line || line.charAt(0) === ':') return;
        var i = line.indexOf(':');
        var field = i < 0 ? line : line.slice(0, i);
        var value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'data') data.push(value);
        else if (field === 'event') ev.event = value;
        else if (field === 'id') ev.id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) retryMs = Number(value);
      });
      if (!data.length) return null;
      ev.data = data.join('\n');
      return ev;
    }
    function connect() {
      if (stopped) return;
      if (!token) { if (onState) onState('error', noToken()); return; }
      ctrl = new AbortController();
      var headers = { accept: 'text/event-stream' };
      if (token) headers.authorization = 'Bearer ' + token;
      if (lastId) headers['last-event-id'] = lastId;
      if (onState) onState('connecting');
      fetch(path, { headers: headers, signal: ctrl.signal }).then(function (res) {
        if (!res.ok || !res.body) {
          return res.json().catch(function () { return null; }).then(function (p) {
            var err = new Error((p && (p.detail || p.title)) || ('stream refused: HTTP ' + res.status));
            err.status = res.status;
            throw err;
          });
        }
        if (onState) onState('live');
        var reader = res.body.getReader();
        var decoder = new TextDecoder();
        var buf = '';
        function pump() {
          return reader.read().then(function (r) {
            if (r.done) return;
            buf += decoder.decode(r.value, { stream: true }).replace(/\r\n?/g, '\n');
            var at;
            while ((at = buf.indexOf('\n\n')) >= 0) {
              var ev = parse(buf.slice(0, at));
              buf = buf.slice(at + 2);
              if (!ev) continue;
              if (ev.id) lastId = ev.id;
              var data;
              try { data = JSON.parse(ev.data); } catch (e) { data = ev.data; }
              if (ev.event === 'lagged' && data && data.last_id) lastId = data.last_id;
              onEvent(ev.event, data, ev.id);
            }
            return pump();
          });
        }
        return pump();
      }).then(function () { retry(null); }, function (err) { retry(err); });
    }
    function retry(err) {
      if (stopped) return;
      // 401/403 will not heal by retrying.
      if (err && (err.status === 401 || err.status === 403 || err.status === 400)) { if (onState) onState('error', err); return; }
      if (onState) onState('reconnecting', err);
      setTimeout(connect, retryMs);
    }
    connect();
    return { close: function () { stopped = true; if (ctrl) ctrl.abort(); } };
  };

  V.fmtTime = function (iso) {
    var d = new Date(iso);
    return isNaN(d) ? '' : d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  };
  V.fmtDate = function (iso) {
    var d = new Date(iso);
    return isNaN(d) ? '' : d.toLocaleDateString([], { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' });
  };
})();
`.replace('__PROTOCOL__', MCP_APPS_PROTOCOL_VERSION);

export interface CardPage {
  name: string;
  title: string;
  /** Card-specific CSS appended to BASE_STYLE. */
  style: string;
  /** The card's <body> markup (landmarks, headings, labelled controls). */
  body: string;
  /** Card-specific script, run after the runtime. */
  script: string;
}

/** One self-contained HTML document: exactly one <style> and one <script> (the CSP hashes them). */
export function renderCard(c: CardPage): string {
  const script = `${RUNTIME_SCRIPT}\n${c.script}`;
  if (script.includes('</script') || c.style.includes('</style')) throw new Error(`card ${c.name}: inline code must not close its element`);
  return `<!doctype html>
<html lang="en" data-card="${c.name}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${c.title} · Vitalis</title>
<link rel="icon" href="data:,">
<style>${BASE_STYLE}${c.style}</style>
</head>
<body>
${c.body}
<script>${script}</script>
</body>
</html>
`;
}
