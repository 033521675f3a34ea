/**
 * The login, consent and error pages of the authorization endpoint: plain accessible HTML (labels,
 * landmarks, an alert region for errors), no scripts, no external assets. Every interpolated value
 * is escaped. A per-response nonce admits the one inline stylesheet under a strict CSP.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { must } from '@vitalis/runtime';
import { SCOPES, type Scope } from '@vitalis/schemas';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => must(ESCAPES[c], `the escape of ${c}`));

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
main { width: min(26rem, 92vw); padding: 2rem; border: 1px solid GrayText; border-radius: 12px; }
h1 { font-size: 1.35rem; margin: 0 0 1rem; }
p { line-height: 1.5; }
label { display: block; margin: 1rem 0 0.3rem; font-weight: 600; }
input[type=text], input[type=password] { width: 100%; box-sizing: border-box; padding: 0.6rem; font-size: 1rem; border: 1px solid GrayText; border-radius: 6px; }
input:focus-visible, button:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
button { margin-top: 1.25rem; padding: 0.65rem 1.2rem; font-size: 1rem; border-radius: 6px; border: 1px solid GrayText; cursor: pointer; }
button.primary { background: #0b5cad; color: #fff; border-color: #0b5cad; }
.actions { display: flex; gap: 0.75rem; flex-wrap: wrap; }
.error { padding: 0.75rem; border: 2px solid #b00020; border-radius: 6px; }
.unverified { padding: 0.75rem; border: 2px dashed #a15c00; border-radius: 6px; }
ul.scopes { padding-left: 1.2rem; } ul.scopes li { margin: 0.4rem 0; } code { font-size: 0.9em; }
.muted { color: GrayText; font-size: 0.9rem; }
`;

export interface PageOptions {
  title: string;
  body: string;
  status?: number;
  /** Origins a form on this page may lead to after a redirect (CSP form-action). */
  formTargets?: string[];
}

export function sendPage(reply: FastifyReply, { title, body, status = 200, formTargets = [] }: PageOptions): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Vitalis</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
const errorBox = (message?: string) => (message ? `<div class="error" role="alert" id="form-error">${escapeHtml(message)}</div>` : '');

export interface FormContext {
  action: string;
  interaction: string;
  csrfToken: string;
  clientName: string;
  /** Set for a client nobody vouched for (it registered itself): the host it sends the user back to. */
  unverifiedRedirectHost?: string;
}

/** The warning on the login and consent pages of a self-registered client: its name is its own claim. */
function unverifiedNotice(f: FormContext): string {
  if (!f.unverifiedRedirectHost) return '';
  return `<div class="unverified" role="note" id="unverified"><strong>This app registered itself; Vitalis has not verified it.</strong>
Its name is what it calls itself, and it sends you back to <strong>${escapeHtml(f.unverifiedRedirectHost)}</strong>. Continue only if you know and trust it.</div>`;
}

export function loginPage(f: FormContext, opts: { error?: string; username?: string } = {}): string {
  const described = opts.error ? ' aria-describedby="form-error"' : '';
  return `<h1>Sign in to Vitalis</h1>
<p><strong>${escapeHtml(f.clientName)}</strong> wants to access Vitalis on your behalf. Sign in to continue.</p>
${unverifiedNotice(f)}
${errorBox(opts.error)}
<form method="post" action="${escapeHtml(f.action)}">
${hidden('interaction', f.interaction)}
${hidden('csrf_token', f.csrfToken)}
${hidden('step', 'login')}
<label for="username">Username</label>
<input type="text" id="username" name="username" autocomplete="username" required autofocus value="${escapeHtml(opts.username ?? '')}"${described}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required${described}>
<button type="submit" class="primary">Sign in</button>
</form>`;
}

export function consentPage(f: FormContext, opts: { displayName: string; scopes: Scope[]; redirectHost: string }): string {
  const items = opts.scopes.map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPES[s])}</li>`).join('\n');
  return `<h1>Allow ${escapeHtml(f.clientName)} access?</h1>
<p>Signed in as <strong>${escapeHtml(opts.displayName)}</strong>.</p>
${unverifiedNotice(f)}
<p id="scopes-intro"><strong>${escapeHtml(f.clientName)}</strong> is asking for permission to:</p>
<ul class="scopes" aria-labelledby="scopes-intro">
${items}
</ul>
<p class="muted">You will be returned to <strong>${escapeHtml(opts.redirectHost)}</strong>. Permissions are limited to what your role allows.</p>
<form method="post" action="${escapeHtml(f.action)}">
${hidden('interaction', f.interaction)}
${hidden('csrf_token', f.csrfToken)}
${hidden('step', 'consent')}
<div class="actions">
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`;
}

export function errorPage(title: string, message: string): string {
  return `<h1>${escapeHtml(title)}</h1>
<div class="error" role="alert">${escapeHtml(message)}</div>
<p class="muted">Return to the application and start again. Nothing was shared.</p>`;
}
