/**
 * The emergency-triage-board card in headless Chromium shows an unacknowledged critical result
 * (issue 21 acceptance): a patient on the board gets a critical troponin, the card (token with
 * read:patients + read:diagnostics) marks the row and announces it, marks it escalated once the
 * escalator has run, and drops it after a doctor acknowledges it. A reader without
 * read:diagnostics sees no critical result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { eventually, launchBrowser, openPage, screenshot, type TestPage } from '../../helpers/browser';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { escalateDueCriticalResults } from '../../../apps/projector/src/diagnostics-escalation';
import { openCard, runProjections, tokenFor } from '../ui/support';
import { api, json, newPatient, orderBody, quantityObs, reportBody, roleHeaders } from './support';

let gw: RunningGateway;
let projector: { stop: () => Promise<void> };
let browser: Browser;
let tp: TestPage;
let patient: string;
const ESCALATION_SECONDS = 8;

beforeAll(async () => {
  // Long enough that the card shows the result open before it is due, even on a loaded machine.
  gw = await startGateway({ DIAGNOSTICS_ESCALATION_SECONDS: String(ESCALATION_SECONDS) });
  projector = runProjections(gw.deps.pool);
  patient = await newPatient(gw);
  const nurse = await roleHeaders(gw, 'nurse', ['read:patients', 'write:triage']);
  const admit = await fetch(`${gw.url}/api/v1/triage`, { method: 'POST', headers: { ...nurse, ...json }, body: JSON.stringify({ patient_id: patient, esi: 2, complaint: 'Chest pain' }) });
  expect(admit.status).toBe(201);
  browser = await launchBrowser();
  tp = await openPage(browser, { width: 1400, height: 900 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (patient) await fetch(`${gw.url}/api/v1/triage/${patient}/discharge`, { method: 'POST', headers: await roleHeaders(gw, 'nurse', ['write:triage']) }).catch(() => undefined);
  await projector?.stop();
  await gw?.close();
});

describe('the triage board card and critical results', () => {
  it('shows an unacknowledged critical result, marks its escalation, and drops it once acknowledged', async () => {
    const call = api(gw);
    const doctor = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
    const lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
    expect(await openCard(tp.page, gw, 'emergency-triage-board', { token: await tokenFor(gw, ['read:patients', 'read:diagnostics']) })).toBe(200);
    const row = tp.page.locator(`#rows tr[data-patient="${patient}"]`);
    await eventually(() => row.count(), (n) => n === 1, 'the patient on the board');

    const order = (await call('POST', '/orders', doctor, orderBody(patient, '10839-9'))).body;
    const report = (await call('POST', '/reports', lab, reportBody(order.id, 'final', [quantityObs('10839-9', 1.8, 'ng/mL')]))).body;
    const tag = row.locator(`.critical-tag[data-report="${report.id}"]`);
    await eventually(() => tag.count(), (n) => n === 1, 'the critical result on the board');
    expect(await tag.getAttribute('data-state')).toBe('open');
    expect(await tag.innerText()).toContain('Troponin I.cardiac 1.8 ng/mL (HH)');
    await eventually(() => tp.page.locator('#announce').innerText(), (t) => t.includes('Critical result'), 'the announcement');
    await screenshot(tp.page, 'triage-critical-result');

    await new Promise((r) => setTimeout(r, ESCALATION_SECONDS * 1000 + 100));
    // Another test file's escalator may hold the lock or escalate this result first: run until the board shows it.
    await eventually(async () => {
      await escalateDueCriticalResults(gw.deps.pool, gw.deps.redis);
      return tag.getAttribute('data-state');
    }, (s) => s === 'escalated', 'the escalation on the board');
    expect(await tag.innerText()).toContain('escalated');

    expect((await call('POST', `/reports/${report.id}/acknowledge`, doctor, {})).status).toBe(200);
    await eventually(() => tag.count(), (n) => n === 0, 'the acknowledged result gone from the board');

    // a board reader without read:diagnostics never sees one
    const other = await openPage(browser, { width: 1400, height: 900 });
    try {
      const report2 = (await call('POST', '/reports', lab, reportBody((await call('POST', '/orders', doctor, orderBody(patient, '2524-7'))).body.id, 'final', [quantityObs('2524-7', 6, 'mmol/L')]))).body;
      expect(await openCard(other.page, gw, 'emergency-triage-board', { token: await tokenFor(gw, ['read:patients']) })).toBe(200);
      await eventually(() => other.page.locator(`#rows tr[data-patient="${patient}"]`).count(), (n) => n === 1, 'the patient on the plain board');
      await eventually(() => row.locator(`.critical-tag[data-report="${report2.id}"]`).count(), (n) => n === 1, 'the second critical result on the first board');
      expect(await other.page.locator('.critical-tag').count()).toBe(0);
    } finally {
      await other.page.close();
    }
  });
});
