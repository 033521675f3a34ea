/**
 * The UI cards at plain URLs, for browsers and tests (MCP hosts read them as ui://vitalis/<name>):
 *  GET /ui          index of the cards (public HTML)
 *  GET /ui/{name}   one card (public HTML: it holds no data; it calls the API with the bearer
 *                   token the opener puts in the URL fragment, which never reaches a server)
 * Strict CSP: nothing external; the card's one inline <script> and <style> are admitted by their
 * SHA-256 hashes (the same bytes are served as the MCP resource, so no per-response nonce is
 * baked in); connect-src 'self' for the REST/SSE calls.
 */
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { must } from '@vitalis/runtime';
import { notFound } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import { cspHash } from './build';
import { UI_CARDS, uiCards } from './cards';
import { renderIndex } from './index-page';

export interface InlineHashes {
  scripts: string[];
  styles: string[];
}

/** Hashes of every inline <script> and <style> element's text, read back from a document. */
export function inlineHashes(html: string): InlineHashes {
  const grab = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => cspHash(must(m[1], `the text of a <${tag}> element`)));
  return { scripts: grab('script'), styles: grab('style') };
}

/** The CSP of a document whose inline code has these hashes. */
export function cspOf({ scripts, styles }: InlineHashes): string {
  return [
    "default-src 'none'",
    `script-src ${scripts.join(' ') || "'none'"}`,
    `style-src ${styles.join(' ') || "'none'"}`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The CSP of any document, from the inline code it holds. */
export function cardCsp(html: string): string {
  return cspOf(inlineHashes(html));
}

interface Rendered {
  html: string;
  csp: string;
}

export function uiRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Cards are static: build (bundle, hash) them once per process, here at start-up, so a
    // broken card source fails the boot rather than a request. The monitor's data carries the
    // site's alarm settings (config.alarms).
    const cards = uiCards(deps.config.alarms);
    const rendered = new Map<string, Rendered>();
    for (const card of cards) {
      const { html, scriptHash, styleHash } = card.built();
      rendered.set(card.name, { html, csp: cspOf({ scripts: [scriptHash], styles: [styleHash] }) });
    }
    const indexHtml = renderIndex(cards);
    const index: Rendered = { html: indexHtml, csp: cardCsp(indexHtml) };
    const send = (reply: FastifyReply, r: Rendered) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', r.csp)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .send(r.html);

    app.get(
      '/ui',
      {
        schema: {
          tags: ['ui'],
          summary: 'Index of the interactive UI cards (HTML)',
          produces: ['text/html'],
          response: { 200: z.string().describe('The index page') },
        },
      },
      async (_req, reply) => {
        return send(reply, index);
      },
    );

    app.get(
      '/ui/:name',
      {
        schema: {
          tags: ['ui'],
          summary: 'One interactive UI card (self-contained HTML; open with #token=…&patient=…)',
          description: `The card also served to MCP hosts as ui://vitalis/<name> (text/html;profile=mcp-app). Cards: ${UI_CARDS.map((c) => c.name).join(', ')}. Public: the page holds no data; it calls the API of this origin with the bearer token given in the URL fragment (never sent to a server) and removes the fragment from the address bar.`,
          params: z.object({
            name: z
              .string()
              .max(64)
              .describe(`One of ${UI_CARDS.map((c) => c.name).join(', ')}`),
          }),
          produces: ['text/html'],
          response: { 200: z.string().describe('The card') },
        },
      },
      async (req, reply) => {
        const card = rendered.get(req.params.name);
        if (!card) throw notFound(`No UI card named "${req.params.name}"; see /ui.`);
        return send(reply, card);
      },
    );
  };
}
