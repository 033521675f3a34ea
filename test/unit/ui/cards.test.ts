/**
 * The UI_CARDS contract (imported by the MCP server) and the cards' self-containment: every card
 * is one HTML document with exactly one inline <script> and <style>, no external reference of
 * any kind (MCP hosts render it with no network of its own; the CSP admits nothing external),
 * the landmarks a screen reader needs, and it calls only tools the MCP server serves.
 */
import { describe, expect, it } from 'vitest';
import { UI_CARDS, UI_CARD_MIME_TYPE, uiCardUri } from '../../../apps/gateway/src/ui/cards';
import { cardCsp, inlineHashes } from '../../../apps/gateway/src/ui/routes';

const TOOLS = [
  'search_patients',
  'get_patient',
  'register_patient',
  'find_available_slots',
  'book_appointment',
  'cancel_appointment',
  'get_vitals_history',
  'get_latest_vitals',
  'get_triage_board',
  'set_triage_level',
  'whoami',
  'get_pipeline_status',
  'acknowledge_critical_result',
  'list_critical_results',
  'list_alarms',
  'acknowledge_alarm',
];

describe('UI_CARDS', () => {
  it('lists the four cards by name, each with a title, a description and its ui:// URI', () => {
    expect(UI_CARDS.map((c) => c.name)).toEqual([
      'appointment-booking-form',
      'vitals-telemetry-monitor',
      'emergency-triage-board',
      'patient-search-card',
    ]);
    for (const c of UI_CARDS) {
      expect(c.title.length).toBeGreaterThan(3);
      expect(c.description.length).toBeGreaterThan(20);
      expect(uiCardUri(c.name)).toBe(`ui://vitalis/${c.name}`);
    }
    expect(UI_CARD_MIME_TYPE).toBe('text/html;profile=mcp-app');
  });

  it.each(UI_CARDS.map((c) => [c.name, c] as const))('%s is one self-contained, accessible document', (name, card) => {
    const html = card.html();
    expect(html).toBe(card.html()); // deterministic: its CSP hashes are stable
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<html lang="en"');
    expect(html).toContain(`data-card="${name}"`);
    expect(html.match(/<script[\s>]/g)).toHaveLength(1);
    expect(html.match(/<style[\s>]/g)).toHaveLength(1);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html.match(/<main[\s>]/g)).toHaveLength(1);
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    // nothing external: no http(s)/protocol-relative reference, no @import, only data: urls
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import/);
    expect([...html.matchAll(/url\(([^)]*)\)/g)].every((m) => m[1]!.trim().replace(/^["']/, '').startsWith('data:'))).toBe(true);
    expect(html).not.toMatch(/<(?:iframe|object|embed|link rel="stylesheet")/i);
    // no inline event handlers or style attributes (the CSP would block them)
    expect(html).not.toMatch(/\son[a-z]+\s*=\s*["']/i);
    expect(html).not.toMatch(/\sstyle\s*=\s*["']/i);
    // every tool it calls is one the MCP server serves
    const called = [...html.matchAll(/(?:V\.op|V\.callTool)\(["']([a-z_]+)["']/g)].map((m) => m[1]!);
    expect(called.length).toBeGreaterThan(0);
    for (const tool of called) expect(TOOLS).toContain(tool);
  });
});

describe('cardCsp', () => {
  it('admits exactly the inline script and style by hash, nothing external', () => {
    const html = '<html><head><style>a{}</style></head><body><script>1</script></body></html>';
    const { scripts, styles } = inlineHashes(html);
    // sha256("1") and sha256("a{}"), base64
    expect(scripts).toEqual(["'sha256-a4ayc/80/OGda4BO/1o/V0etpOqiLx1JwB5S3beHW0s='"]);
    expect(styles).toHaveLength(1);
    const csp = cardCsp(html);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src ${scripts[0]}`);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('http');
  });
});
