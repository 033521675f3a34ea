/**
 * The page frame every card shares. A card is ONE self-contained HTML document: it must work as an
 * MCP Apps resource (rendered by the host in a sandboxed iframe, no network of its own) and at
 * `GET /ui/<name>` under a CSP that admits only its own inline script and style, by hash.
 * The browser code and styles are real files under ./cards (see ./README.md), bundled by ./build.ts.
 */
import { bundleScript, bundleStyle, cspHash } from './build';

export { MCP_APPS_PROTOCOL_VERSION } from './cards/shared/protocol';

export interface CardPage {
  name: string;
  title: string;
  /** The folder of the card's browser sources under ./cards: `main.ts` and `style.css`. */
  sources: string;
  /** The card's <body> markup (landmarks, headings, labelled controls). */
  body: string;
  /** What the card's script receives as `DATA` (JSON), if anything. */
  data?: unknown;
}

/** A card's document and the CSP hashes of its one inline script and one inline style. */
export interface BuiltCard {
  html: string;
  scriptHash: string;
  styleHash: string;
}

/** One self-contained HTML document: exactly one <style> and one <script>, hashed from the bytes inlined. */
export function renderCard(c: CardPage): BuiltCard {
  const script = bundleScript(`./${c.sources}/main.ts`, c.data);
  const style = bundleStyle(`./${c.sources}/style.css`);
  if (script.includes('</script') || style.includes('</style')) throw new Error(`card ${c.name}: inline code must not close its element`);
  const html = `<!doctype html>
<html lang="en" data-card="${c.name}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${c.title} · Vitalis</title>
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
${c.body}
<script>${script}</script>
</body>
</html>
`;
  return { html, scriptHash: cspHash(script), styleHash: cspHash(style) };
}
