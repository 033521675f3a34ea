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
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));`);
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
