/**
 * emergency-triage-board in headless Chromium against a real gateway: patients registered and
 * admitted through the REST write paths (projected by a running projector loop), vitals produced
 * through Kafka → ingest + live stage. Asserts the board a charge nurse sees: ESI order then
 * arrival, ESI colours, NEWS2 from the produced vitals, the HR alert, and live updates (a new
 * arrival and an ESI change appear without a reload). Every value carries its age and a value
 * past its code's threshold is marked stale in words (a patient whose heart rate is 20 minutes
 * old); NEWS2 carries the time of its oldest input; every time is a 24-hour clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { news2FromLatestVitals } from '@vitalis/clinical';
import { startRig, type LiveRig } from '../live/support';
import { contrastIssues, eventually, inPage, launchBrowser, openPage, screenshot, type TestPage } from '../../helpers/browser';
import { shownClock, SHOWN_CLOCK } from '../../helpers/shown-clock';
import { api, openCard, registerPatient, runProjections, tokenFor, uid, vital } from './support';

let rig: LiveRig;
let projector: { stop: () => Promise<void> };
let browser: Browser;
let tp: TestPage;
let writer: string;
let reader: string;
/** A patient whose monitor stopped 20 minutes ago (heart rate), with a temperature taken 2 minutes ago: not one of `ids`. */
let quiet = '';
let quietHrAt: Date;
const ids: Record<'a' | 'b' | 'c' | 'd', string> = { a: '', b: '', c: '', d: '' };
const tag = uid();
const SICK = { '8867-4': 135, '59408-5': 88, '9279-1': 26, '8480-6': 88, '8462-4': 50, '8310-5': 39.4 };
const WELL = { '8867-4': 80, '59408-5': 97, '9279-1': 16, '8480-6': 125, '8462-4': 80, '8310-5': 37.0 };

async function admit(patient: string, esi: number, complaint: string): Promise<void> {
  const r = await api(rig.gw, writer, 'POST', '/api/v1/triage', { patient_id: patient, esi, complaint });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
}

/**
 * The values a moment ago, each code's value also 8 s earlier (device time): an alarm condition
 * must hold for its onset delay (heart rate high: 5 s, docs/alarms.md) before it is raised.
 */
async function produce(patient: string, values: Record<string, number>): Promise<void> {
  const device = `ed-${uid()}`;
  const entries = Object.entries(values);
  await rig.send(patient, [
    ...entries.map(([code, v], i) => vital(patient, device, i + 1, new Date(Date.now() - 9000 + i), code, v)),
    ...entries.map(([code, v], i) => vital(patient, device, entries.length + i + 1, new Date(Date.now() - 1000 + i), code, v)),
  ]);
}

/** My patients' rows, top to bottom: [patient id, esi]. */
const myRows = () =>
  inPage<[string, string][]>(
    tp.page,
    `Array.from(document.querySelectorAll('#rows tr[data-patient]')).map((r) => [r.dataset.patient, r.dataset.esi]).filter(([p]) => ${JSON.stringify(Object.values(ids))}.includes(p))`,
  );

beforeAll(async () => {
  rig = await startRig('ui-triage');
  projector = runProjections(rig.pool);
  writer = await tokenFor(rig.gw, ['write:patients', 'write:triage']);
  reader = await tokenFor(rig.gw, ['read:patients', 'read:vitals']);
  ids.a = await registerPatient(rig.gw, writer, 'Alan', `Triage${tag}A`);
  ids.b = await registerPatient(rig.gw, writer, 'Beatrice', `Triage${tag}B`);
  ids.c = await registerPatient(rig.gw, writer, 'Carl', `Triage${tag}C`);
  ids.d = await registerPatient(rig.gw, writer, 'Dora', `Triage${tag}D`);
  await admit(ids.a, 3, 'Sprained ankle after a fall');
  await admit(ids.b, 1, 'Shortness of breath, chest pain');
  await admit(ids.c, 2, 'Abdominal pain');
  await produce(ids.b, SICK);
  await produce(ids.c, WELL);
  quiet = await registerPatient(rig.gw, writer, 'Quentin', `Triage${tag}Q`);
  await admit(quiet, 5, 'Repeat prescription');
  const device = `ed-${uid()}`;
  quietHrAt = new Date(Date.now() - 20 * 60_000);
  await rig.send(quiet, [
    vital(quiet, device, 1, quietHrAt, '8867-4', 72),
    vital(quiet, device, 2, new Date(Date.now() - 2 * 60_000), '8310-5', 36.8),
  ]);
  browser = await launchBrowser();
  tp = await openPage(browser, { width: 1400, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  // leave the shared board as we found it
  for (const p of [...Object.values(ids), quiet])
    if (p) await api(rig.gw, writer, 'POST', `/api/v1/triage/${p}/discharge`).catch(() => undefined);
  await projector?.stop();
  await rig?.close();
});

describe('emergency-triage-board in a browser', () => {
  it('lists the admitted patients by ESI then arrival, with ESI colours', async () => {
    expect(await openCard(tp.page, rig.gw, 'emergency-triage-board', { token: reader })).toBe(200);
    expect(tp.page.url()).not.toContain('token');
    const rows = await eventually(myRows, (r) => r.length === 3, 'the three admitted patients');
    expect(rows).toEqual([
      [ids.b, '1'],
      [ids.c, '2'],
      [ids.a, '3'],
    ]);
    expect(await tp.page.locator('#conn').getAttribute('data-state')).toBe('live');
    const row = tp.page.locator(`#rows tr[data-patient="${ids.b}"]`);
    expect(await row.innerText()).toContain(`Beatrice Triage${tag}B`);
    expect(await row.innerText()).toContain('Shortness of breath, chest pain');
    expect(await row.locator('.badge').innerText()).toMatch(/1\s*Resuscitation/);
    const colours = await inPage<string[]>(
      tp.page,
      `[${JSON.stringify(ids.b)}, ${JSON.stringify(ids.c)}, ${JSON.stringify(ids.a)}].map((p) => getComputedStyle(document.querySelector('#rows tr[data-patient="' + p + '"] .badge')).backgroundColor)`,
    );
    expect(colours).toEqual(['rgb(179, 38, 30)', 'rgb(194, 65, 12)', 'rgb(255, 210, 63)']);
    // table semantics for screen readers
    expect(await tp.page.locator('table caption').count()).toBe(1);
    expect(await tp.page.locator('thead th[scope=col]').count()).toBe(11);
  });

  it('shows NEWS2 and the latest vitals produced through Kafka, and the raised HR alert', async () => {
    const expected = news2FromLatestVitals(SICK);
    expect(expected.risk).toBe('high');
    const row = tp.page.locator(`#rows tr[data-patient="${ids.b}"]`);
    await eventually(
      () => row.getAttribute('data-news2'),
      (s) => s === String(expected.score),
      `NEWS2 ${expected.score} for the sick patient`,
    );
    expect(await row.locator('.news2').getAttribute('data-risk')).toBe('high');
    expect(await row.locator('.news2').innerText()).toContain('High');
    expect(await row.locator('td.hr .v').innerText()).toBe('135');
    expect(await row.locator('td.spo2 .v').innerText()).toBe('88 %');
    // systolic first, then diastolic
    expect(await row.locator('td.bp .v').innerText()).toBe('88/50');
    expect(await row.locator('td.temp .v').innerText()).toBe('39.4 °C');
    // each value with its age (produced a moment ago; past a few seconds a monitor value is stale, and says so)
    for (const column of ['hr', 'spo2', 'bp', 'rr', 'temp'])
      expect(await row.locator(`td.${column} .age`).innerText()).toMatch(/^\d+ (s|min) ago( · stale)?$/);
    // NEWS2 with the time of its oldest input, on a 24-hour clock
    expect(await row.locator('.as-of').innerText()).toMatch(new RegExp(`^as of ${SHOWN_CLOCK}$`));
    // the active alarms with their priority in words and the condition's label from the alarm table
    await eventually(
      () => row.locator('.alert-tag[data-rule="hr-high"]').count(),
      (n) => n === 1,
      'the heart-rate alarm on the board',
    );
    expect(await row.locator('.alert-tag[data-rule="hr-high"]').innerText()).toBe('High: Heart rate high');
    expect(await row.locator('.alert-tag[data-rule="hr-high"]').getAttribute('class')).toContain('priority-high');
    await eventually(
      () => row.locator('.alert-tag[data-rule="temp-high"]').count(),
      (n) => n === 1,
      'the fever alarm on the board',
    );
    expect(await row.locator('.alert-tag[data-rule="temp-high"]').innerText()).toBe('Low: Temperature high');
    // highest priority first
    const priorities = await row.locator('.alert-tag').evaluateAll((tags) => tags.map((t) => t.className.replace(/.*priority-/, '')));
    expect(priorities).toEqual([...priorities].sort((a, b) => ['high', 'medium', 'low'].indexOf(a) - ['high', 'medium', 'low'].indexOf(b)));
    // a patient without vitals has no NEWS2 (not a reassuring 0)
    expect(await tp.page.locator(`#rows tr[data-patient="${ids.a}"]`).getAttribute('data-news2')).toBeNull();
    const well = news2FromLatestVitals(WELL);
    const wellRow = tp.page.locator(`#rows tr[data-patient="${ids.c}"]`);
    await eventually(
      () => wellRow.getAttribute('data-news2'),
      (s) => s === String(well.score),
      `NEWS2 ${well.score} for the well patient`,
    );
    expect(await wellRow.locator('.news2').getAttribute('data-risk')).toBe(well.risk);
  });

  it('marks a value past its freshness threshold stale, in words, and keeps a fresh one plain; NEWS2 says how old its oldest input is', async () => {
    const row = tp.page.locator(`#rows tr[data-patient="${quiet}"]`);
    await eventually(
      () => row.locator('td.hr .v').count(),
      (n) => n === 1,
      "the quiet patient's values",
    );
    // heart rate 20 minutes old: far past its 10 s threshold
    expect(await row.locator('td.hr .v').innerText()).toBe('72');
    expect(await row.locator('td.hr .age').innerText()).toMatch(/^2\d min ago · stale$/);
    expect(await row.locator('td.hr').getAttribute('data-stale')).toBe('true');
    // temperature 2 minutes old: within its 30 min threshold
    expect(await row.locator('td.temp .v').innerText()).toBe('36.8 °C');
    expect(await row.locator('td.temp .age').innerText()).toMatch(/^\d+ min ago$/);
    expect(await row.locator('td.temp').getAttribute('data-stale')).toBe('false');
    // NEWS2 is as old as its oldest input, and stale with it
    expect(await row.locator('.as-of').innerText()).toBe(`as of ${shownClock(quietHrAt.toISOString())}`);
    expect(await row.locator('.news2-cell > .age').innerText()).toMatch(/^oldest input 2\d min ago · stale$/);
    // 24-hour times, never AM/PM
    expect(await row.locator('time.arrived').innerText()).toMatch(new RegExp(`^${SHOWN_CLOCK}$`));
    expect(await tp.page.locator('#updated').innerText()).toMatch(/^Updated \d{2}:\d{2}:\d{2}\.$/);
    expect(await tp.page.locator('#rows').innerText()).not.toMatch(/\b(AM|PM)\b/i);
    await row.screenshot({ path: 'test/artifacts/ui-triage-stale-values.png' });
  });

  it('updates live: a new arrival and an ESI change reorder the board without a reload', async () => {
    await admit(ids.d, 2, 'Laceration, left forearm');
    await eventually(myRows, (r) => r.length === 4, 'the new arrival');
    expect(await myRows()).toEqual([
      [ids.b, '1'],
      [ids.c, '2'],
      [ids.d, '2'],
      [ids.a, '3'],
    ]);
    await eventually(
      () => tp.page.locator('#announce').innerText(),
      (t) => t.includes('Dora') && t.includes('arrived'),
      'the arrival announcement',
    );

    const r = await api(rig.gw, writer, 'PUT', `/api/v1/triage/${ids.a}/esi`, { esi: 1, reason: 'Syncope in the waiting room' });
    expect(r.status).toBe(200);
    // ESI 1 now, and arrived before Beatrice: first on the board
    await eventually(myRows, (rows) => rows[0]?.[0] === ids.a, 'the re-triaged patient on top');
    expect(await myRows()).toEqual([
      [ids.a, '1'],
      [ids.b, '1'],
      [ids.c, '2'],
      [ids.d, '2'],
    ]);
    await screenshot(tp.page, 'ui-emergency-triage-board');
    // every visible text, including the alarm/ESI/allergy colours now on screen, is legible (WCAG AA)
    expect(await contrastIssues(tp.page)).toEqual([]);
    expect(tp.errors).toEqual([]);
  });

  it('lets a nurse re-triage from the board (keyboard, If-Match), and refuses a stale change plainly', async () => {
    // the reader's board has no re-triage controls (the token cannot write:triage)
    expect(await tp.page.locator('.retriage').count()).toBe(0);
    const nurse = await openPage(browser, { width: 1400, height: 900 });
    try {
      await openCard(nurse.page, rig.gw, 'emergency-triage-board', {
        token: await tokenFor(rig.gw, ['read:patients', 'read:vitals', 'write:triage']),
      });
      const row = nurse.page.locator(`#rows tr[data-patient="${ids.c}"]`);
      await eventually(
        () => row.count(),
        (n) => n === 1,
        'Carl on the nurse board',
      );
      // a poll does not steal the keyboard focus
      const button = row.getByRole('button', { name: `Re-triage Carl Triage${tag}C` });
      await button.focus();
      const stamp = await nurse.page.locator('#updated').innerText();
      await eventually(
        () => nurse.page.locator('#updated').innerText(),
        (t) => t !== stamp,
        'the next poll',
      );
      expect(await nurse.page.evaluate<string | null>(`document.activeElement.getAttribute('aria-label')`)).toBe(
        `Re-triage Carl Triage${tag}C`,
      );
      await nurse.page.keyboard.press('Enter');
      const dialog = nurse.page.locator('#retriage');
      expect(await dialog.isVisible()).toBe(true);
      await screenshot(nurse.page, 'ui-emergency-triage-board-retriage');
      expect(await contrastIssues(nurse.page)).toEqual([]);
      // the current level is preselected and focused; arrows move it
      expect(await nurse.page.locator('#retriage input[name=esi]:checked').getAttribute('value')).toBe('2');
      await nurse.page.keyboard.press('ArrowDown');
      expect(await nurse.page.locator('#retriage input[name=esi]:checked').getAttribute('value')).toBe('3');
      await nurse.page.locator('#retriage-reason').fill('Pain settled after analgesia');
      await nurse.page.locator('#retriage-save').click();
      await eventually(
        () => row.getAttribute('data-esi'),
        (e) => e === '3',
        'Carl at ESI 3',
      );
      expect(await dialog.isVisible()).toBe(false);
      const read = await api<{ entries: { patient_id: string; esi: number }[] }>(rig.gw, reader, 'GET', '/api/v1/triage');
      expect(read.body.entries.find((e) => e.patient_id === ids.c)?.esi).toBe(3);

      // stale: the dialog is opened on the version read, someone changes the entry, then Save
      await row.getByRole('button', { name: `Re-triage Carl Triage${tag}C` }).click();
      expect((await api(rig.gw, writer, 'PUT', `/api/v1/triage/${ids.c}/esi`, { esi: 4 })).status).toBe(200);
      await nurse.page.locator('#retriage input[value="2"]').check();
      await nurse.page.locator('#retriage-save').click();
      await eventually(
        () => nurse.page.locator('#retriage-error').innerText(),
        (t) => t.includes('changed this patient'),
        'the stale-change message',
      );
      await nurse.page.locator('#retriage-cancel').click();
      await eventually(
        () => row.getAttribute('data-esi'),
        (e) => e === '4',
        'the other change on the board',
      );
      // the browser reports the refused request itself (412); nothing else may be logged
      expect(nurse.errors.filter((e) => !/Failed to load resource.*412/.test(e))).toEqual([]);
    } finally {
      await nurse.context.close();
    }
  });
});
