/** GET /ui: the list of cards, with how to open them (style: cards/index/style.css; no script). */
import { bundleStyle } from './build';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderIndex(cards: ReadonlyArray<{ name: string; title: string; description: string }>): string {
  const items = cards
    .map(
      (c) =>
        `<li><a href="/ui/${esc(c.name)}">${esc(c.title)}</a> <code>ui://vitalis/${esc(c.name)}</code><p>${esc(c.description)}</p></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Vitalis UI cards</title><link rel="icon" href="data:,">
<style>${bundleStyle('./index/style.css')}</style>
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
