/**
 * patient-search-card in headless Chromium against a real gateway: patients registered and their
 * allergies recorded through the REST write paths, the search read model projected by a running
 * projector loop. The card finds the patient by name, shows demographics and identifiers, and
 * the allergies (high criticality first, with the allergy banner); a reception token gets
 * demographics only and is told so. A search with one match opens that patient at once, and its
 * latest vitals are shown systolic before diastolic ("BP 132/84 mmHg"), each with its age, a value
 * past its code's threshold marked stale.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { contrastIssues, eventually, launchBrowser, openPage, screenshot, type TestPage } from '../../helpers/browser';
import { shownClock } from '../../helpers/shown-clock';
import { api, openCard, registerPatient, runProjections, tokenFor, uid } from './support';

let gw: RunningGateway;
let projector: { stop: () => Promise<void> };
let browser: Browser;
let tp: TestPage;
let clinician: string;
let ada: string;
let byron: string;
const family = `Lovelace${uid()}`;
const MRN = `MRN-${uid()}`;

beforeAll(async () => {
  gw = await startGateway();
  projector = runProjections(gw.deps.pool);
  const writer = await tokenFor(gw, ['write:patients', 'read:patients']);
  ada = await registerPatient(gw, writer, 'Ada', family, {
    birthDate: '1985-12-10',
    identifier: [{ system: 'urn:oid:1.2.36.146.595.217.0.1', value: MRN }],
    telecom: [{ system: 'phone', value: '+44 20 7946 0001' }],
  });
  byron = await registerPatient(gw, writer, 'Byron', family, { gender: 'male' });
  for (const allergy of [
    { code: { text: 'Latex' }, criticality: 'low', reaction: [{ description: 'Contact dermatitis' }] },
    { code: { text: 'Penicillin' }, criticality: 'high', reaction: [{ description: 'Anaphylaxis' }] },
  ]) {
    const r = await api(gw, writer, 'POST', `/api/v1/patients/${ada}/allergies`, allergy);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
  }
  clinician = await tokenFor(gw, ['read:patients']);
  // searchable once projected
  await eventually(
    async () => ((await api(gw, clinician, 'GET', `/api/v1/patients?name=${family}`)).body.entry ?? []).length,
    (n: number) => n === 2,
    'the projected patients',
  );
  browser = await launchBrowser();
  tp = await openPage(browser);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await projector?.stop();
  await gw?.close();
});

describe('patient-search-card in a browser', () => {
  it('finds the registered patients by name', async () => {
    expect(await openCard(tp.page, gw, 'patient-search-card', { token: clinician })).toBe(200);
    expect(tp.page.url()).not.toContain('token');
    expect(await tp.page.locator('form[role=search]').count()).toBe(1);
    await tp.page.getByLabel('Name').fill(family);
    await tp.page.keyboard.press('Enter');
    await eventually(
      () => tp.page.locator('#results button').count(),
      (n) => n === 2,
      'two results',
    );
    expect(await tp.page.locator('#result-count').innerText()).toBe('2 patients found.');
    const first = await tp.page.locator(`#results button[data-patient="${ada}"]`).innerText();
    expect(first).toContain(`Ada ${family}`);
    expect(first).toContain('10 Dec 1985');
    expect(first).toContain('Female');
  });

  it('opens the record: demographics, identifiers and the allergies, high criticality first', async () => {
    await tp.page.locator(`#results button[data-patient="${ada}"]`).click();
    await eventually(
      () => tp.page.locator('#record').getAttribute('data-patient'),
      (p) => p === ada,
      'the record',
    );
    expect(await tp.page.locator('#record-h').innerText()).toBe(`Ada ${family}`);
    expect(await tp.page.locator(`#results button[data-patient="${ada}"]`).getAttribute('aria-current')).toBe('true');
    const demo = await tp.page.locator('dl.demo').innerText();
    expect(demo).toContain(MRN);
    expect(demo).toContain('+44 20 7946 0001');
    expect(demo).toMatch(/10 Dec 1985 \(\d+ y\)/);
    const banner = tp.page.locator('#allergy-banner');
    expect(await banner.innerText()).toBe('Allergy alert: Penicillin');
    expect(await banner.getAttribute('role')).toBe('alert');
    const allergies = await tp.page.locator('#allergies li').allInnerTexts();
    expect(allergies).toHaveLength(2);
    expect(allergies[0]).toContain('Penicillin');
    expect(allergies[0]).toContain('High criticality');
    expect(allergies[0]).toContain('Reaction: Anaphylaxis');
    expect(allergies[1]).toContain('Latex');
    await screenshot(tp.page, 'ui-patient-search-card');
    // on a phone-width screen (a ward handheld) the layout stacks and nothing overflows sideways
    await tp.page.setViewportSize({ width: 390, height: 844 });
    expect(await tp.page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(tp.page, 'ui-patient-search-card-narrow');
    await tp.page.setViewportSize({ width: 1280, height: 900 });
    // every visible text, including the alarm/ESI/allergy colours now on screen, is legible (WCAG AA)
    expect(await contrastIssues(tp.page)).toEqual([]);
    expect(tp.errors).toEqual([]);
  });

  it('says "no known allergies" for a patient without any, not nothing', async () => {
    await tp.page.locator(`#results button[data-patient="${byron}"]`).click();
    await eventually(
      () => tp.page.locator('#record').getAttribute('data-patient'),
      (p) => p === byron,
      'the second record',
    );
    expect(await tp.page.locator('#allergy-banner').innerText()).toBe('No known allergies recorded.');
    expect(tp.errors).toEqual([]);
  });

  it('opens a single match at once; shows the latest vitals in order, BP systolic/diastolic, each with its age and a stale mark', async () => {
    const family2 = `Vitals${uid()}`;
    const vera = await registerPatient(gw, await tokenFor(gw, ['write:patients']), 'Vera', family2);
    const now = Date.now();
    const values: [code: string, value: number, unit: string, secondsAgo: number][] = [
      ['8867-4', 88, '/min', 5],
      ['59408-5', 97, '%', 5],
      ['8462-4', 84, 'mm[Hg]', 180],
      ['8480-6', 132, 'mm[Hg]', 180],
      ['9279-1', 16, '/min', 5],
      ['8310-5', 37.1, 'Cel', 40 * 60],
    ];
    let seq = 0;
    for (const [code, value, unit, ago] of values) {
      await gw.deps.pool.query(
        `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id) VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $3, vitals_series_assign($1, $4))`,
        [vera, `dev-${vera}`, ++seq, code, new Date(now - ago * 1000), value, unit],
      );
    }
    const reader = await tokenFor(gw, ['read:patients', 'read:vitals']);
    await eventually(
      async () => ((await api(gw, reader, 'GET', `/api/v1/patients?name=${family2}`)).body.entry ?? []).length,
      (n: number) => n === 1,
      'the projected patient',
    );
    const page = await openPage(browser);
    try {
      await openCard(page.page, gw, 'patient-search-card', { token: reader, q: family2 });
      // one match: the record opens without a click
      await eventually(
        () => page.page.locator('#record').getAttribute('data-patient'),
        (p) => p === vera,
        'the single match opened',
      );
      expect(await page.page.locator('#result-count').innerText()).toBe('1 patient found.');
      expect(await page.page.locator('#record-h').innerText()).toBe(`Vera ${family2}`);
      const items = page.page.locator('#vitals li');
      expect(await items.evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { code: string } }).dataset.code))).toEqual([
        '8867-4',
        '59408-5',
        'bp',
        '9279-1',
        '8310-5',
        'news2',
      ]);
      const bp = page.page.locator('#vitals li[data-code="bp"]');
      // systolic first, then diastolic, as one value
      expect(await bp.locator('.v').innerText()).toBe('BP 132/84 mmHg');
      expect(await bp.locator('.age').innerText()).toMatch(/^\s*· \d+ min ago$/);
      expect(await bp.getAttribute('data-stale')).toBe('false');
      expect(await page.page.locator('#vitals li[data-code="8867-4"] .v').innerText()).toBe('HR 88 /min');
      expect(await page.page.locator('#vitals li[data-code="8867-4"] .age').innerText()).toMatch(/^\s*· \d+ (s|min) ago( · stale)?$/);
      // a temperature 40 minutes old is past its 30-minute threshold: stale, in words
      const temp = page.page.locator('#vitals li[data-code="8310-5"]');
      expect(await temp.locator('.v').innerText()).toBe('Temp 37.1 °C');
      expect(await temp.locator('.age').innerText()).toMatch(/^\s*· 4\d min ago · stale$/);
      expect(await temp.getAttribute('data-stale')).toBe('true');
      // NEWS2 with the time of its oldest input (the temperature), 24-hour
      const oldest = shownClock(new Date(now - 40 * 60_000).toISOString());
      expect(await page.page.locator('#vitals li[data-code="news2"] .v').innerText()).toMatch(
        new RegExp(`^NEWS2 \\d+ \\([a-z-]+\\), as of ${oldest}$`),
      );
      expect(await page.page.locator('#vitals li[data-code="news2"] .age').innerText()).toMatch(/^\s*· 4\d min ago · stale$/);
      await page.page.locator('#record').screenshot({ path: 'test/artifacts/ui-patient-search-vitals.png' });
      expect(await contrastIssues(page.page)).toEqual([]);
      expect(page.errors).toEqual([]);
    } finally {
      await page.context.close();
    }
  });

  it('shows a reception token demographics only, and says so', async () => {
    const reception = await tokenFor(gw, ['write:patients']);
    const other = await openPage(browser);
    try {
      await openCard(other.page, gw, 'patient-search-card', { token: reception, q: family });
      await eventually(
        () => other.page.locator('#results button').count(),
        (n) => n === 2,
        'the results for reception',
      );
      await other.page.locator(`#results button[data-patient="${ada}"]`).click();
      await eventually(
        () => other.page.locator('#record').getAttribute('data-patient'),
        (p) => p === ada,
        'the record for reception',
      );
      expect(await other.page.locator('#allergy-banner').innerText()).toContain('not shown with your access');
      expect(await other.page.locator('#allergies').count()).toBe(0);
      expect(await other.page.locator('#record').innerText()).not.toContain('Penicillin');
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
});
