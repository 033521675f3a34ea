/**
 * The emergency-triage-board card in headless Chromium and critical results (issue 21 acceptance,
 * issue 31 items 1 and 4): a patient on the board gets a critical potassium (preliminary report).
 * The card, opened by the demo doctor signed in (authorization code: a token that names the user),
 * shows it in its critical-results panel as a clinician reads it: the clinical name, value, unit
 * and the limit crossed ("Potassium 6.8 mmol/L (critical > 6.0)"), "critical high" in words, the
 * report status, raised and due times on a 24-hour clock; marks it escalated once the escalator
 * has run; the doctor acknowledges it by clicking the button, and it moves to the "Acknowledged"
 * history with the doctor's name and the time (screenshots before and after). A doctor-role app
 * acting for itself (client credentials) is offered no button (the server would refuse it: a
 * person must acknowledge); a reader without read:diagnostics sees no critical result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { Browser, Locator, Page } from 'playwright-core';
import { ARTIFACTS, contrastIssues, eventually, launchBrowser, openPage, type TestPage } from '../../helpers/browser';
import { shownClock, SHOWN_CLOCK } from '../../helpers/shown-clock';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { escalateDueCriticalResults } from '../../../apps/projector/src/diagnostics-escalation';
import { openCard, runProjections, tokenFor } from '../ui/support';
import { api, json, newPatient, orderBody, quantityObs, reportBody, roleHeaders, userSession } from './support';

let gw: RunningGateway;
let projector: { stop: () => Promise<void> };
let browser: Browser;
let tp: TestPage;
let patient: string;
const ESCALATION_SECONDS = 8;

/**
 * The screen as the doctor sees it with `target` in the middle of it (the shared test board holds
 * other tests' patients too: a full-page shot of all of them would not show this one).
 */
async function screenWith(page: Page, target: Locator, name: string): Promise<void> {
  await target.evaluate((e) => (e as unknown as { scrollIntoView(o: { block: string }): void }).scrollIntoView({ block: 'center' }));
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png` });
}

beforeAll(async () => {
  // Long enough that the card shows the result open before it is due, even on a loaded machine.
  gw = await startGateway({ DIAGNOSTICS_ESCALATION_SECONDS: String(ESCALATION_SECONDS) });
  projector = runProjections(gw.deps.pool);
  patient = await newPatient(gw);
  const nurse = await roleHeaders(gw, 'nurse', ['read:patients', 'write:triage']);
  const admit = await fetch(`${gw.url}/api/v1/triage`, {
    method: 'POST',
    headers: { ...nurse, ...json },
    body: JSON.stringify({ patient_id: patient, esi: 2, complaint: 'Weakness, on an ACE inhibitor' }),
  });
  expect(admit.status).toBe(201);
  browser = await launchBrowser();
  tp = await openPage(browser, { width: 1400, height: 1000 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (patient)
    await fetch(`${gw.url}/api/v1/triage/${patient}/discharge`, {
      method: 'POST',
      headers: await roleHeaders(gw, 'nurse', ['write:triage']),
    }).catch(() => undefined);
  await projector?.stop();
  await gw?.close();
});

describe('the triage board card and critical results', () => {
  it('shows a critical result as a clinician reads it, marks its escalation, and a signed-in doctor acknowledges it from the card: it moves to the history with who and when', async () => {
    const call = api(gw);
    const orderer = await roleHeaders(gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
    const lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
    const doctor = await userSession(gw, 'doctor', ['read:patients', 'read:vitals', 'read:diagnostics', 'write:diagnostics']);
    expect(await openCard(tp.page, gw, 'emergency-triage-board', { token: doctor.token })).toBe(200);
    const row = tp.page.locator(`#rows tr[data-patient="${patient}"]`);
    await eventually(
      () => row.count(),
      (n) => n === 1,
      'the patient on the board',
    );
    // the arrival time is a 24-hour clock
    expect(await row.locator('time.arrived').innerText()).toMatch(new RegExp(`^${SHOWN_CLOCK}$`));

    const order = (await call('POST', '/orders', orderer, orderBody(patient, '51990-0'))).body;
    const report = (await call('POST', '/reports', lab, reportBody(order.id, 'preliminary', [quantityObs('2823-3', 6.8, 'mmol/L')]))).body;
    const item = tp.page.locator(`#critical-list .critical-item[data-report="${report.id}"]`);
    await eventually(
      () => item.count(),
      (n) => n === 1,
      'the critical result in the panel',
    );
    expect(await item.getAttribute('data-state')).toBe('open');
    const waiting = (await call('GET', `/critical-results?patient=${patient}`, orderer)).body.critical_results[0];
    const text = await item.innerText();
    expect(text).toContain('Potassium 6.8 mmol/L (critical > 6.0)');
    expect(text).toContain('critical high');
    expect(text).not.toMatch(/\bHH\b/);
    expect(text).toContain('Preliminary report');
    expect(text).not.toMatch(/\b(AM|PM)\b/i);
    expect(await item.locator('time.raised').innerText()).toBe(shownClock(waiting.raised_at));
    expect(await item.locator('time.due').innerText()).toBe(shownClock(waiting.due_at));
    expect(await item.locator('time.raised').innerText()).toMatch(new RegExp(`^${SHOWN_CLOCK}$`));
    // tagged in the patient's row too, and announced
    expect(await row.locator(`.critical-tag[data-report="${report.id}"]`).innerText()).toBe('Critical: Potassium');
    await eventually(
      () => tp.page.locator('#announce').innerText(),
      (t) => t.includes('Critical result') && t.includes('Potassium 6.8 mmol/L'),
      'the announcement',
    );
    const button = item.getByRole('button', { name: /^Acknowledge Potassium 6\.8 mmol\/L \(critical > 6\.0\) for / });
    expect(await button.isVisible()).toBe(true);
    await screenWith(tp.page, item, 'ui-triage-critical-before-ack');
    expect(await contrastIssues(tp.page)).toEqual([]);

    await new Promise((r) => setTimeout(r, ESCALATION_SECONDS * 1000 + 100));
    // Another test file's escalator may hold the lock or escalate this result first: run until the board shows it.
    await eventually(
      async () => {
        await escalateDueCriticalResults(gw.deps.pool, gw.deps.redis);
        return item.getAttribute('data-state');
      },
      (s) => s === 'escalated',
      'the escalation on the board',
    );
    expect(await item.locator('.ci-escalated').innerText()).toBe('Escalated');
    expect(await item.locator('time.escalated').innerText()).toMatch(new RegExp(`^${SHOWN_CLOCK}$`));

    // a doctor-role app acting for itself is offered no button (a person must acknowledge)
    const app = await openPage(browser, { width: 1400, height: 900 });
    try {
      expect(
        await openCard(app.page, gw, 'emergency-triage-board', {
          token: await tokenFor(gw, ['read:patients', 'read:diagnostics', 'write:diagnostics']),
        }),
      ).toBe(200);
      await eventually(
        () => app.page.locator(`#critical-list .critical-item[data-report="${report.id}"]`).count(),
        (n) => n === 1,
        "the result on the app's board",
      );
      expect(await app.page.locator('#critical-list .ack').count()).toBe(0);
    } finally {
      await app.context.close();
    }

    // the signed-in doctor acknowledges it with the button
    await item.getByRole('button', { name: /^Acknowledge Potassium/ }).click();
    const acked = tp.page.locator(`#acked-list .acked-item[data-report="${report.id}"]`);
    await eventually(
      () => acked.count(),
      (n) => n === 1,
      'the result in the acknowledged history',
    );
    await eventually(
      () => item.count(),
      (n) => n === 0,
      'the result gone from the waiting list',
    );
    expect(await row.locator('.critical-tag').count()).toBe(0);
    const history = (await call('GET', `/critical-results?patient=${patient}&state=acknowledged`, orderer)).body.critical_results;
    expect(history).toEqual([
      expect.objectContaining({
        report_id: report.id,
        acknowledged_by: 'usr-demo-doctor',
        acknowledged_by_name: 'Dr. Demo Doctor',
        acknowledged_with: doctor.clientId,
      }),
    ]);
    const line = await acked.innerText();
    expect(line).toContain('Potassium 6.8 mmol/L (critical > 6.0)');
    expect(line).toContain(`Acknowledged by Dr. Demo Doctor at ${shownClock(history[0].acknowledged_at)}`);
    expect(await acked.locator('time.when').innerText()).toMatch(new RegExp(`^${SHOWN_CLOCK}$`));
    await eventually(
      () => tp.page.locator('#announce').innerText(),
      (t) => t.includes('Critical result acknowledged'),
      'the acknowledgement announced',
    );
    await screenWith(tp.page, acked, 'ui-triage-critical-after-ack');
    expect(await contrastIssues(tp.page)).toEqual([]);
    expect(tp.errors).toEqual([]);

    // a board reader without read:diagnostics never sees one
    const other = await openPage(browser, { width: 1400, height: 900 });
    try {
      const report2 = (
        await call(
          'POST',
          '/reports',
          lab,
          reportBody((await call('POST', '/orders', orderer, orderBody(patient, '2524-7'))).body.id, 'final', [
            quantityObs('2524-7', 6, 'mmol/L'),
          ]),
        )
      ).body;
      expect(await openCard(other.page, gw, 'emergency-triage-board', { token: await tokenFor(gw, ['read:patients']) })).toBe(200);
      await eventually(
        () => other.page.locator(`#rows tr[data-patient="${patient}"]`).count(),
        (n) => n === 1,
        'the patient on the plain board',
      );
      await eventually(
        () => tp.page.locator(`#critical-list .critical-item[data-report="${report2.id}"]`).count(),
        (n) => n === 1,
        'the second critical result on the first board',
      );
      expect(await tp.page.locator(`#critical-list .critical-item[data-report="${report2.id}"]`).innerText()).toContain(
        'Lactate 6 mmol/L (critical > 4)',
      );
      expect(await other.page.locator('.critical-tag').count()).toBe(0);
      expect(await other.page.locator('#critical-panel').isVisible()).toBe(false);
      expect(await other.page.locator('#acked-panel').isVisible()).toBe(false);
    } finally {
      await other.context.close();
    }
  });
});
