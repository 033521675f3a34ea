/**
 * GET /ui and GET /ui/{name} over real HTTP: public HTML, the same bytes MCP hosts get, a strict
 * CSP whose hashes admit exactly the card's inline script and style, 404 problem for an unknown
 * card, and the routes in the OpenAPI document under the `ui` tag.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_CARDS } from '../../../apps/gateway/src/ui/cards';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

const hashOf = (html: string, tag: string) => {
  const m = html.match(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`));
  return `'sha256-${createHash('sha256').update(m![1]!, 'utf8').digest('base64')}'`;
};

describe('GET /ui/{name}', () => {
  it.each(UI_CARDS.map((c) => [c.name, c] as const))('serves %s without a token, with a hash-based CSP', async (name, card) => {
    const res = await fetch(`${gw.url}/ui/${name}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).toBe(card.html()); // the same document as ui://vitalis/<name>
    const csp = res.headers.get('content-security-policy')!;
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual([hashOf(html, 'script')]);
    expect(directives['style-src']).toEqual([hashOf(html, 'style')]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'self'"]);
    expect(csp).not.toContain('unsafe');
  });

  it('answers 404 with a problem body for an unknown card', async () => {
    const res = await fetch(`${gw.url}/ui/no-such-card`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 404, title: 'Not Found' });
  });
});

describe('GET /ui', () => {
  it('links every card and its ui:// URI', async () => {
    const res = await fetch(`${gw.url}/ui`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    for (const c of UI_CARDS) {
      expect(html).toContain(`href="/ui/${c.name}"`);
      expect(html).toContain(`ui://vitalis/${c.name}`);
    }
  });

  it('documents both routes in the OpenAPI document under the ui tag', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags: string[]; summary: string }>>;
      tags: { name: string }[];
    };
    expect(doc.paths['/ui']!.get!.tags).toEqual(['ui']);
    expect(doc.paths['/ui/{name}']!.get!.summary).toBeTruthy();
    expect(doc.tags.map((t) => t.name)).toContain('ui');
  });
});
