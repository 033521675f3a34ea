/**
 * Headless Chromium (Debian `chromium`, driven by playwright-core) for the UI tests: one browser
 * per test file, pages that collect console errors, page errors and CSP violations (a test fails
 * on any), and screenshots to test/artifacts/ (git-ignored; kept by CI as artifacts).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = 'test/artifacts';

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** console.error messages, uncaught exceptions and CSP violations, in order. */
  errors: string[];
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run infra/bin/chromium (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/** A fresh context (own storage) in UTC, en-GB, with error collection wired before any navigation. */
export async function openPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<TestPage> {
  const context = await browser.newContext({ viewport, timezoneId: 'UTC', locale: 'en-GB' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  // CSP violations surface as console errors too; this catches them even if the console is quiet.
  // (a string: the test project has no DOM typings)
  await page.addInitScript(
    `document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));`,
  );
  return { page, context, errors };
}

/** Evaluates a browser-side expression (a string: the test project has no DOM typings). */
export async function inPage<T>(page: Page, expression: string): Promise<T> {
  return page.evaluate<T>(expression);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = `${ARTIFACTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Polls `probe` in the test process until it holds (the page updates live; never a fixed sleep). */
export async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (ok(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

export interface ContrastIssue {
  text: string;
  ratio: number;
  colour: string;
  background: string;
}

/**
 * WCAG 2 contrast of every visible text in the page (or frame) against the background it is
 * painted on (the nearest ancestor with an opaque background colour, alpha-composited), below
 * `min` (4.5:1 for normal text). Text in form controls and canvases is not inspected.
 */
export async function contrastIssues(page: Page, min = 4.5): Promise<ContrastIssue[]> {
  return page.evaluate<ContrastIssue[]>(`(() => {
    const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return [0, 0, 0, 0]; const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
    const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
    const over = (top, under) => { const a = top[3]; return [top[0] * a + under[0] * (1 - a), top[1] * a + under[1] * (1 - a), top[2] * a + under[2] * (1 - a), 1]; };
    const background = (el) => {
      const layers = [];
      for (let e = el; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
      let bg = [255, 255, 255, 1];
      for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
      return bg;
    };
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.trim();
      const el = n.parentElement;
      if (!text || !el || el.closest('canvas,script,style,select,option,textarea,input,.sr-only')) continue;
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden' || el.closest('[hidden]')) continue;
      const bg = background(el);
      const fg = over(parse(cs.color), bg);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      const ratio = (a + 0.05) / (b + 0.05);
      if (ratio < ${min}) out.push({ text: text.slice(0, 40), ratio: Math.round(ratio * 100) / 100, colour: cs.color, background: 'rgb(' + bg.slice(0, 3).map(Math.round).join(', ') + ')' });
    }
    return out;
  })()`);
}
