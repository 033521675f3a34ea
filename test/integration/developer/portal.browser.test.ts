/**
 * GET /developers in a real headless Chromium: the page renders under its strict CSP (the
 * stylesheet applies, nothing is blocked), has the landmarks and headings a screen reader needs,
 * links to the published documents (which resolve), and its #deprecation section lists the
 * deprecated endpoint with its sunset date. A screenshot goes to test/artifacts/ (git-ignored).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = 'test/artifacts';

let gw: RunningGateway;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
let status: number | undefined;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  gw = await startGateway();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  const response = await page.goto(`${gw.url}/developers#deprecation`, { waitUntil: 'load' });
  status = response?.status();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gw?.close();
});

describe('/developers in a browser', () => {
  it('renders under a strict CSP with no console errors, and the stylesheet applies', async () => {
    expect(status).toBe(200);
    expect(await page.title()).toBe('Vitalis developers');
    expect(consoleErrors).toEqual([]); // a CSP violation would be reported here
    const font = await page.evaluate<string>('getComputedStyle(document.documentElement).fontFamily');
    expect(font).toContain('system-ui');
  });

  it('has landmarks, one h1 and labelled sections', async () => {
    expect(await page.locator('header').count()).toBe(1);
    expect(await page.locator('main#main').count()).toBe(1);
    expect(await page.locator('nav[aria-label]').count()).toBe(1);
    expect(await page.locator('h1').count()).toBe(1);
    const sections = await page.locator('main section').evaluateAll((els) => els.map((e) => (e as unknown as { id: string }).id));
    expect(sections).toEqual(['quick-start', 'release-notes', 'migration-notes', 'deprecation']);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
  });

  it('links to the published documents, and they resolve', async () => {
    const hrefs = await page.locator('nav a').evaluateAll((els) => els.map((e) => (e as unknown as { href: string }).href));
    for (const path of ['/openapi.json', '/auth.md', '/.well-known/oauth-protected-resource', '/.well-known/mcp']) {
      expect(hrefs).toContain(`${gw.url}${path}`);
    }
    for (const path of ['/openapi.json', '/auth.md', '/.well-known/oauth-protected-resource']) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status, path).toBe(200);
      await res.body?.cancel();
    }
  });

  it('lists the deprecated endpoint with its sunset date in #deprecation', async () => {
    const section = page.locator('section#deprecation');
    await expect(section.isVisible()).resolves.toBe(true);
    const row = section.locator('tr[data-endpoint="GET /api/v1/patients/{id}/vitals/latest"]');
    expect(await row.count()).toBe(1);
    const text = await row.innerText();
    expect(text).toContain('Fri, 31 Dec 2027 23:59:59 GMT');
    expect(text).toContain('/api/v1/vitals/latest');
    expect(await row.locator('time').nth(1).getAttribute('datetime')).toBe('2027-12-31T23:59:59Z');
    // the successor is not listed
    expect(await section.locator('tr[data-endpoint="GET /api/v1/vitals/latest"]').count()).toBe(0);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: `${ARTIFACTS}/developers.png`, fullPage: true });
    expect(existsSync(`${ARTIFACTS}/developers.png`)).toBe(true);
  });
});
