/**
 * The cards' build step (apps/gateway/src/ui/build.ts): each card document is bundled from real
 * TypeScript and CSS files under apps/gateway/src/ui/cards, and its CSP hashes are computed from
 * the very bytes inlined. Pinned here: the hashes the build reports are those of the document's
 * one inline script and style (recomputed independently), the same sources give the same bytes,
 * the cards read SSE with the TypeScript client's reader (not a copy of their own), and no server
 * module of the UI holds browser code or a stylesheet in a string any more.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { bookingCard } from '../../../apps/gateway/src/ui/booking';
import { CARDS_DIR } from '../../../apps/gateway/src/ui/build';
import { UI_CARDS } from '../../../apps/gateway/src/ui/cards';
import { monitorCard } from '../../../apps/gateway/src/ui/monitor';
import { searchCard } from '../../../apps/gateway/src/ui/search';
import { triageCard } from '../../../apps/gateway/src/ui/triage';

const UI_DIR = join(CARDS_DIR, '..');

/** The text of every `<tag>…</tag>` element of a document. */
const bodies = (html: string, tag: string) => [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!);
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('base64')}'`;

describe('card build', () => {
  it.each(UI_CARDS.map((c) => [c.name, c] as const))('%s: the CSP hashes are those of the inline script and style bytes', (_name, card) => {
    const { html, scriptHash, styleHash } = card.built();
    const scripts = bodies(html, 'script');
    const styles = bodies(html, 'style');
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    expect(scriptHash).toBe(sha256(scripts[0]!));
    expect(styleHash).toBe(sha256(styles[0]!));
    expect(card.html()).toBe(html);
  });

  it('builds the same bytes from the same sources (stable hashes across processes)', () => {
    for (const build of [bookingCard, monitorCard, triageCard, searchCard]) expect(build()).toEqual(build());
  });

  it.each(UI_CARDS.map((c) => [c.name, c] as const))("%s: bundles its sources and reads SSE with the client's reader", (name, card) => {
    const script = bodies(card.html(), 'script')[0]!;
    const folder = {
      'appointment-booking-form': 'booking',
      'vitals-telemetry-monitor': 'monitor',
      'emergency-triage-board': 'triage',
      'patient-search-card': 'search',
    }[name];
    // esbuild names each bundled file (relative to apps/gateway/src/ui/cards) in a comment
    expect(script).toContain(`\n// ${folder}/main.ts\n`);
    expect(script).toContain('\n// shared/runtime.ts\n');
    expect(script).toContain('\n// ../../../../../libs/client-ts/src/sse.ts\n');
    expect(script).toContain('async function* sseMessages(');
    // no hand-written event-stream framing of its own
    expect(script).not.toMatch(/indexOf\(["']\\n\\n["']\)/);
  });

  it('the TypeScript client reads its stream with the same module', () => {
    const client = readFileSync(join(UI_DIR, '../../../../libs/client-ts/src/stream.ts'), 'utf8');
    expect(client).toMatch(/import \{[^}]*\bsseMessages\b[^}]*\} from '\.\/sse'/);
    expect(client).not.toContain("from 'eventsource-parser'");
    const cardStream = readFileSync(join(CARDS_DIR, 'shared/stream.ts'), 'utf8');
    expect(cardStream).toMatch(/import \{ sseMessages \} from '@vitalis\/client\/sse'/);
  });

  it("keeps each card's browser code and style in real files: main.ts and style.css", () => {
    for (const folder of ['booking', 'monitor', 'triage', 'search']) {
      const files = readdirSync(join(CARDS_DIR, folder));
      expect(files).toContain('main.ts');
      expect(files).toContain('style.css');
    }
  });
});

describe('no browser code in strings', () => {
  const serverModules = readdirSync(UI_DIR).filter((f) => f.endsWith('.ts'));

  /**
   * Every string and template literal of a module, interpolations replaced by NUL (so `<script>${x}</script>`
   * reads as `<script>\0</script>`).
   */
  function literalTexts(file: string): string[] {
    const source = ts.createSourceFile(file, readFileSync(join(UI_DIR, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const out: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node.text);
      else if (ts.isTemplateExpression(node)) out.push([node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('\0'));
      node.forEachChild(visit);
    };
    visit(source);
    return out;
  }

  it('scans the UI server modules (sanity)', () => {
    expect(serverModules).toEqual(
      expect.arrayContaining(['monitor.ts', 'triage.ts', 'booking.ts', 'search.ts', 'shared.ts', 'index-page.ts']),
    );
  });

  // build.ts is left out of the literal scan: it writes the one wrapper line around the bundle (`(function () {`, `var DATA = `).
  const SCANNED = [
    'monitor.ts',
    'triage.ts',
    'booking.ts',
    'search.ts',
    'shared.ts',
    'index-page.ts',
    'cards.ts',
    'routes.ts',
    'vitals.ts',
  ];

  it('scans every UI server module but the build step', () => {
    expect([...SCANNED, 'build.ts'].sort()).toEqual(serverModules.sort());
  });

  it.each(SCANNED)('%s: every <script> and <style> body is an inserted bundle, never code', (file) => {
    for (const text of literalTexts(file)) {
      for (const tag of ['script', 'style']) {
        for (const m of text.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))) expect(m[1], `${file}: <${tag}> body`).toBe('\0');
      }
    }
  });

  it.each(SCANNED)('%s: no string literal holds a script or a style rule', (file) => {
    const suspicious = literalTexts(file).filter(
      (t) =>
        /\bfunction\s*\(|=>|addEventListener|document\.|querySelector|\bvar\s+\w+\s*=/.test(t) || // script
        /[.#\w\]-]\s*\{[^{}]*[\w-]+\s*:[^{}]*\}/.test(t), // a CSS rule: selector { property: value }
    );
    expect(suspicious, file).toEqual([]);
  });
});
