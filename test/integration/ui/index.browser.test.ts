/**
 * GET /ui and each card opened from it in headless Chromium WITHOUT a token: the index links every
 * card; a card says how to open it (with #token=…) instead of sending requests that would be
 * refused, logs nothing, and stays legible (WCAG contrast).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { UI_CARDS } from '../../../apps/gateway/src/ui/cards';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { contrastIssues, eventually, launchBrowser, openPage, screenshot, type TestPage } from '../../helpers/browser';

let gw: RunningGateway;
let browser: Browser;
let tp: TestPage;

beforeAll(async () => {
  gw = await startGateway();
  browser = await launchBrowser();
  tp = await openPage(browser);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gw?.close();
});

describe('/ui in a browser', () => {
  it('lists the four cards with working links', async () => {
    expect((await tp.page.goto(`${gw.url}/ui`, { waitUntil: 'load' }))?.status()).toBe(200);
    expect(await tp.page.title()).toBe('Vitalis UI cards');
    const links = await tp.page.locator('ul.cards a').allInnerTexts();
    expect(links).toEqual(UI_CARDS.map((c) => c.title));
    expect(await contrastIssues(tp.page)).toEqual([]);
    await screenshot(tp.page, 'ui-index');
    expect(tp.errors).toEqual([]);
  });

  it.each(UI_CARDS.map((c) => [c.name, c.title] as const))(
    '%s without a token says how to open it, and sends no refused request',
    async (name, title) => {
      const apiCalls: string[] = [];
      const onRequest = (r: { url: () => string }) => {
        const path = new URL(r.url()).pathname;
        if (path.startsWith('/api/') && !path.startsWith('/api/v1/catalog')) apiCalls.push(path);
      };
      tp.page.on('request', onRequest);
      try {
        await tp.page.goto(`${gw.url}/ui`, { waitUntil: 'load' });
        await tp.page.getByRole('link', { name: title }).click();
        await tp.page.waitForURL(`${gw.url}/ui/${name}`);
        if (name === 'patient-search-card') {
          await tp.page.getByLabel('Name').fill('Smith');
          await tp.page.keyboard.press('Enter');
        }
        if (name === 'vitals-telemetry-monitor') {
          await tp.page.getByLabel('Patient id').fill('pat-0001');
          await tp.page.keyboard.press('Enter');
        }
        await eventually(
          () => tp.page.locator('#error').innerText(),
          (t) => t.includes('#token=ACCESS_TOKEN'),
          'the sign-in hint',
        );
        expect(await tp.page.locator('#error').innerText()).toContain(`/ui/${name}#token=ACCESS_TOKEN`);
        expect(apiCalls).toEqual([]);
        expect(await contrastIssues(tp.page)).toEqual([]);
        expect(tp.errors).toEqual([]);
      } finally {
        tp.page.off('request', onRequest);
      }
    },
  );
});
