/**
 * The UI cards at plain URLs, for browsers and tests (MCP hosts read them as ui://vitalis/<name>):
 *  GET /ui          index of the cards (public HTML)
 *  GET /ui/{name}   one card (public HTML: it holds no data; it calls the API with the bearer
 *                   token the opener puts in the URL fragment, which never reaches a server)
 * Strict CSP: nothing external; the card's one inline <script> and <style> are admitted by their
 * SHA-256 hashes (the same bytes are served as the MCP resource, so no per-response nonce is
 * baked in); connect-src 'self' for the REST/SSE calls.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import { UI_CARDS, type UiCard } from './cards';
import { renderIndex } from './index-page';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Hashes of every inline <script> and <style> element's text. */
export function inlineHashes(html: string): { scripts: string[]; styles: string[] } {
  const grab = (tag: string) => [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => sha256(m[1]!));
  return { scripts: grab('script'), styles: grab('style') };
}

export function cardCsp(html: string): string {
  const { scripts, styles } = inlineHashes(html);
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

interface Rendered { html: string; csp: string }

export function uiRoutes(_deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // Cards are static: render and hash once per process.
    const cache = new Map<string, Rendered>();
    const rendered = (card: UiCard): Rendered => {
      let r = cache.get(card.name);
      if (!r) {
        const html = card.html();
        r = { html, csp: cardCsp(html) };
        cache.set(card.name, r);
      }
      return r;
    };
    const send = (reply: FastifyReply, r: Rendered) =>
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', r.csp)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .header('cache-control', 'no-cache')
        .send(r.html);

    app.get('/ui', {
      schema: {
        tags: ['ui'],
        summary: 'Index of the interactive UI cards (HTML)',
        produces: ['text/html'],
        response: { 200: z.string().describe('The index page') },
      },
    }, async (_req, reply) => {
      const html = renderIndex(UI_CARDS);
      return send(reply, { html, csp: cardCsp(html) });
    });

    app.get('/ui/:name', {
      schema: {
        tags: ['ui'],
        summary: 'One interactive UI card (self-contained HTML; open with #token=…&patient=…)',
        description: `The card also served to MCP hosts as ui://vitalis/<name> (text/html;profile=mcp-app). Cards: ${UI_CARDS.map((c) => c.name).join(', ')}. Public: the page holds no data; it calls the API of this origin with the bearer token given in the URL fragment (never sent to a server) and removes the fragment from the address bar.`,
        params: z.object({ name: z.string().max(64).describe(`One of ${UI_CARDS.map((c) => c.name).join(', ')}`) }),
        produces: ['text/html'],
        response: { 200: z.string().describe('The card') },
      },
    }, async (req, reply) => {
      const card = UI_CARDS.find((c) => c.name === req.params.name);
      if (!card) throw notFound(`No UI card named "${req.params.name}"; see /ui.`);
      return send(reply, rendered(card));
    });
  };
}
