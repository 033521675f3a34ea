/** GET /ui: the list of cards, with how to open them. */
import { BASE_STYLE } from './shared';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderIndex(cards: ReadonlyArray<{ name: string; title: string; description: string }>): string {
  const items = cards
    .map((c) => `<li><a href="/ui/${esc(c.name)}">${esc(c.title)}</a> <code>ui://vitalis/${esc(c.name)}</code><p>${esc(c.description)}</p></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Vitalis UI cards</title><link rel="icon" href="data:,">
<style>${BASE_STYLE}
ul.cards{list-style:none;padding:0;display:grid;gap:10px}
ul.cards li{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 14px}
ul.cards a{font-weight:650;color:var(--accent);font-size:1.05rem}
ul.cards p{margin:4px 0 0;color:var(--muted)}
code{font-size:.85rem;color:var(--muted)}</style>
</head>
<body><div class="card">
<header class="card-header"><h1>Vitalis UI cards</h1></header>
<main id="main">
<p>Each card is one self-contained page. Open it with a bearer token in the URL fragment (never sent to the server), e.g.
<code>/ui/vitals-telemetry-monitor#token=ACCESS_TOKEN&amp;patient=pat-0001</code>. MCP hosts render the same cards as <code>ui://vitalis/&lt;name&gt;</code>.</p>
<ul class="cards">
${items}
</ul>
</main></div></body></html>
`;
}
