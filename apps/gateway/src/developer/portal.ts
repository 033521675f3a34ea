/**
 * GET /developers: the developer portal. One static-looking HTML page, generated per request from
 * the same sources as the OpenAPI document: the release and migration notes, and the
 * `#deprecation` list built from the route metadata (no hand-kept list). Accessible (landmarks,
 * a skip link, one h1, labelled sections, contrast-safe colours), no scripts, no external assets;
 * a strict CSP admits only the inline stylesheet by its nonce.
 */
import { must } from '@vitalis/runtime';
import { randomBytes } from 'node:crypto';
import { escapeHtml as esc } from '../auth/pages';
import { MIGRATIONS, RELEASES } from './release-notes';
import type { CatalogRoute } from './route-meta';

const STYLE = `
:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a; background: #fff; }
body { margin: 0; line-height: 1.55; }
a { color: #0b4f94; } a:focus-visible { outline: 3px solid #0b4f94; outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .5rem; }
header, main, footer { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem; }
header { border-bottom: 1px solid #c8c8c8; } footer { border-top: 1px solid #c8c8c8; color: #444; font-size: .9rem; }
h1 { font-size: 1.7rem; margin: .5rem 0; } h2 { font-size: 1.3rem; margin-top: 2rem; } h3 { font-size: 1.05rem; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f3f4f6; border: 1px solid #d0d4da; border-radius: 6px; padding: .75rem; overflow-x: auto; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .92em; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid #d0d4da; vertical-align: top; }
th { background: #f3f4f6; }
.badge { display: inline-block; padding: 0 .4rem; border: 1px solid #8a4b00; color: #6b3a00; border-radius: 4px; font-size: .85rem; }
`;

/** Escaped text with `code` spans (the notes are written in Markdown-ish prose). */
const inline = (text: string) => esc(text).replace(/`([^`]+)`/g, '<code>$1</code>');

export interface PortalInput {
  baseUrl: string;
  version: string;
  deprecated: CatalogRoute[];
}

function deprecationSection(baseUrl: string, routes: CatalogRoute[]): string {
  if (routes.length === 0) return '<p>No endpoint is deprecated.</p>';
  const rows = routes
    .map((r) => {
      const d = must(r.deprecation, `the deprecation of ${r.method} ${r.path}, a deprecated route`);
      return `<tr data-endpoint="${esc(`${r.method} ${r.path}`)}">
  <td><code>${esc(r.method)} ${esc(r.path)}</code> <span class="badge">deprecated</span></td>
  <td><time datetime="${esc(d.since)}">${esc(d.since.slice(0, 10))}</time></td>
  <td><time datetime="${esc(d.sunset)}">${esc(new Date(d.sunset).toUTCString())}</time></td>
  <td><code>${esc(d.replacement)}</code><br>${inline(d.migration)}</td>
</tr>`;
    })
    .join('\n');
  return `<p>Deprecated endpoints keep working until their sunset. Their responses carry
<code>Deprecation</code> (RFC 9745), <code>Sunset</code> (RFC 8594) and
<code>Link: &lt;${esc(baseUrl)}/developers#deprecation&gt;; rel="deprecation"</code> plus a
<code>rel="successor-version"</code> link to the replacement; the OpenAPI document marks them <code>deprecated: true</code>.</p>
<table>
<caption class="skip">Deprecated endpoints with their sunset dates</caption>
<thead><tr><th scope="col">Endpoint</th><th scope="col">Deprecated since</th><th scope="col">Sunset</th><th scope="col">Replacement and migration</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`;
}

export function renderPortal({ baseUrl, version, deprecated }: PortalInput, nonce: string): string {
  const b = esc(baseUrl);
  const releases = RELEASES.map(
    (r) => `<h3>${esc(r.version)} <small>(<time datetime="${esc(r.date)}">${esc(r.date)}</time>)</small></h3>
<ul>${r.notes.map((n) => `<li>${inline(n)}</li>`).join('')}</ul>`,
  ).join('\n');
  const migrations = MIGRATIONS.map(
    (m) => `<h3>${esc(m.title)}</h3>
<ol>${m.steps.map((s) => `<li>${inline(s)}</li>`).join('')}</ol>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vitalis developers</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<h1>Vitalis developers</h1>
<p>Healthcare telemetry API v1 (version ${esc(version)}): OAuth 2, REST under <code>/api/v1</code>, MCP.</p>
<nav aria-label="Documentation">
<ul>
<li><a href="#quick-start">Quick start</a></li>
<li><a href="${b}/openapi.json">OpenAPI 3.1 (openapi.json)</a></li>
<li><a href="${b}/auth.md">Authentication walkthrough (auth.md)</a></li>
<li><a href="${b}/.well-known/oauth-protected-resource">Protected resource metadata</a></li>
<li><a href="${b}/.well-known/oauth-authorization-server">Authorization server metadata</a></li>
<li><a href="${b}/.well-known/mcp">MCP endpoint</a></li>
<li><a href="#release-notes">Release notes</a></li>
<li><a href="#migration-notes">Migration notes</a></li>
<li><a href="#deprecation">Deprecations</a></li>
</ul>
</nav>
</header>
<main id="main">
<section id="quick-start" aria-labelledby="quick-start-title">
<h2 id="quick-start-title">Quick start</h2>
<p>Get a sandbox token (read-only demo scopes, no registration), then call the API with it:</p>
<pre><code>TOKEN=$(curl -fsS -X POST ${b}/api/v1/sandbox | jq -r .access_token)
curl -fsS ${b}/agent/identity -H "Authorization: Bearer $TOKEN"
curl -fsS "${b}/api/v1/vitals/latest?patient=pat-1" -H "Authorization: Bearer $TOKEN"</code></pre>
<p>For your own client (registration, client credentials, token exchange, revocation, authorization code with PKCE) follow
<a href="${b}/auth.md">the authentication walkthrough</a>. Every operation, its parameters, bodies, scopes and errors are in
<a href="${b}/openapi.json">the OpenAPI document</a>. Errors are RFC 9457 problem details (<code>application/problem+json</code>,
branch on <code>type</code>); every response carries <code>x-request-id</code>.</p>
</section>
<section id="release-notes" aria-labelledby="release-notes-title">
<h2 id="release-notes-title">Release notes</h2>
${releases}
</section>
<section id="migration-notes" aria-labelledby="migration-notes-title">
<h2 id="migration-notes-title">Migration notes</h2>
${migrations}
</section>
<section id="deprecation" aria-labelledby="deprecation-title">
<h2 id="deprecation-title">Deprecations and sunsets</h2>
${deprecationSection(baseUrl, deprecated)}
</section>
</main>
<footer><p>Versioning: semantic versioning with RFC 8594 sunsets; v1 is selected by the <code>/api/v1</code> prefix. Deprecated endpoints stay supported until their sunset date.</p></footer>
</body>
</html>
`;
}

export function portalNonce(): string {
  return randomBytes(16).toString('base64');
}

export function portalCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    // data: only for the empty favicon (no request, no 404)
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
