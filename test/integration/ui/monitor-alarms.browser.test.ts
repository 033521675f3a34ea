/**
 * The vitals monitor's alarm panel in headless Chromium (issue 31, item 4), against a real gateway
 * fed by a real ingest (Kafka → ingest → live stage: the alarm conditions raise the alarms, Redis →
 * the SSE stream) and the diagnostics REST API (a critical potassium):
 *
 *  (a) the issue's patient (HR 137, SpO2 85 %, BP 87/50, RR 27), its alarms raised BEFORE the card
 *      opens, and an open potassium of 6.8 mmol/L: at open the panel lists every one, highest
 *      priority first, the priority in words, label, message, raised time (24-hour) and age, and
 *      the critical result as a clinician reads it → test/artifacts/ui-monitor-alarms-at-open.png;
 *  (b) the demo doctor, signed in (authorization code: a token that names the user), acknowledges
 *      an alarm with the mouse and the potassium with the keyboard: the rows say "Acknowledged by
 *      Dr. Demo Doctor at HH:MM", the server recorded that user → ui-monitor-alarm-acknowledged.png;
 *      an alarm acknowledged meanwhile by the nurse is refused (409) and said plainly;
 *  (c) an app acting for itself (client credentials) sees the rows and no Acknowledge button;
 *  (d) the device-disconnect technical alarm, raised while the card is open (the watchdog's raise
 *      and its live notice), shows as technical, apart from the physiological ones, and its
 *      escalation "Escalated to charge nurse at HH:MM"; a new alert of the ingest (low priority)
 *      appears live; "No active alarms" only once the server said so → ui-monitor-alarm-technical.png;
 *  (e) before the first answer "Loading alarms…", a failed read is said, never "No active alarms";
 *  (f) inside an MCP Apps host (a test host page forwarding the card's tools/call to the real MCP
 *      server with the signed-in doctor's token): the alarms from list_alarms, the critical result
 *      from list_critical_results (the patient is not on the ED board), both acknowledged through acknowledge_alarm and
 *      acknowledge_critical_result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Route } from 'playwright-core';
import { ANY, append, readStream } from '@vitalis/eventstore';
import { alertStream, publishAlarmNotice } from '@vitalis/live';
import { ALARM_EVENTS, decideAlarm, foldAlarms } from '@vitalis/records';
import { DEFAULT_ALARM_SETTINGS } from '@vitalis/clinical';
import { disconnectRaise } from '../../../apps/projector/src/device-watchdog';
import { startRig, type LiveRig } from '../live/support';
import { contrastIssues, eventually, launchBrowser, openPage, screenshot, type TestPage } from '../../helpers/browser';
import { shownClock, SHOWN_CLOCK } from '../../helpers/shown-clock';
import { openInMcpHost } from '../../helpers/mcp-host';
import { api as diagnostics, orderBody, quantityObs, reportBody, roleHeaders, userSession } from '../diagnostics/support';
import { api, openCard, registerPatient, runProjections, tokenFor, uid, vital } from './support';

let rig: LiveRig;
let projector: { stop: () => Promise<void> };
let browser: Browser;
let writer: string;
let doctor: { token: string; headers: Record<string, string>; clientId: string };
let reader: string;

/** The issue's patient: HR 137, SpO2 85 %, BP 87/50, RR 27, temperature normal. */
const ISSUE_VALUES = { '8867-4': 137, '59408-5': 85, '8480-6': 87, '8462-4': 50, '9279-1': 27, '8310-5': 37.0 };
/** What the ingest raises for them (the default alarm table): four high, one medium. */
const ISSUE_RULES = ['hr-high', 'news2-high', 'rr-high', 'spo2-low', 'sys-low'];

interface AlarmJson {
  alarm_id: string;
  rule: string;
  label: string;
  priority: string;
  kind: string;
  state: string;
  raised_at: string;
  due_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: { user: string; name: string | null; client_id: string } | null;
}

beforeAll(async () => {
  rig = await startRig('ui-monitor-alarms');
  projector = runProjections(rig.pool);
  writer = await tokenFor(rig.gw, ['write:patients']);
  reader = await tokenFor(rig.gw, ['read:vitals']);
  doctor = await userSession(rig.gw, 'doctor', ['read:patients', 'read:vitals', 'read:diagnostics', 'write:diagnostics']);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await projector?.stop();
  await rig?.close();
});

const alarmsOf = async (p: string) =>
  (await api<{ count: number; alarms: AlarmJson[] }>(rig.gw, reader, 'GET', `/api/v1/alarms?patient=${p}`)).body.alarms;

/** Values held for `heldMs` of device time (two readings each), through Kafka and the real ingest, which raises the alarm conditions. */
async function produceHeld(p: string, values: Record<string, number>, heldMs = 12_000): Promise<void> {
  const device = `mon-${uid()}`;
  const t = Date.now();
  let seq = 0;
  await rig.send(
    p,
    [t - heldMs, t].flatMap((at) => Object.entries(values).map(([code, v], i) => vital(p, device, seq++, new Date(at + i), code, v))),
  );
}

/** An order and a preliminary report with a critical potassium, through the diagnostics REST API; waits for the critical-results list (a projection). */
async function criticalPotassium(p: string): Promise<{ reportId: string }> {
  const call = diagnostics(rig.gw);
  const orderer = await roleHeaders(rig.gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
  const lab = await roleHeaders(rig.gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
  const order = await call('POST', '/orders', orderer, orderBody(p, '51990-0'));
  expect(order.status).toBe(201);
  const report = await call('POST', '/reports', lab, reportBody(order.body.id, 'preliminary', [quantityObs('2823-3', 6.8, 'mmol/L')]));
  expect(report.status).toBe(201);
  await eventually(
    async () => (await call('GET', `/critical-results?patient=${p}`, orderer)).body.critical_results.length,
    (n: number) => n === 1,
    'the critical result listed',
  );
  return { reportId: report.body.id };
}

const panel = (tp: TestPage) => tp.page.locator('#alarm-panel');
const row = (tp: TestPage, rule: string) => tp.page.locator(`#alerts li[data-rule="${rule}"]`);

describe('the monitor shows what is active for the patient the moment it opens, and a signed-in clinician acknowledges from it', () => {
  let patient: string;
  let reportId: string;
  let tp: TestPage;

  it('(a) lists the alarms raised before it opened and the open critical potassium, highest priority first', async () => {
    patient = await registerPatient(rig.gw, writer, 'Ivy', `Alarms${uid()}`);
    await produceHeld(patient, ISSUE_VALUES);
    const raised = await eventually(
      () => alarmsOf(patient),
      (a) => ISSUE_RULES.every((r) => a.some((x) => x.rule === r)),
      "the ingest raising the issue's alarms",
    );
    ({ reportId } = await criticalPotassium(patient));

    tp = await openPage(browser, { width: 1280, height: 1000 });
    expect(await openCard(tp.page, rig.gw, 'vitals-telemetry-monitor', { token: doctor.token, patient })).toBe(200);
    await eventually(
      () => tp.page.locator('#alerts li').count(),
      (n) => n === raised.length,
      'the alarms at open',
    );
    const critical = tp.page.locator(`#critical-list li[data-report="${reportId}"]`);
    await eventually(
      () => critical.count(),
      (n) => n === 1,
      'the critical result at open',
    );

    // one row per alarm, in the server's order: highest priority first
    expect(await tp.page.locator('#alerts li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-alarm')))).toEqual(
      raised.map((a) => a.alarm_id),
    );
    const priorities = await tp.page.locator('#alerts li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-priority')));
    expect(priorities).toEqual(
      [...priorities].sort((x, y) => ['high', 'medium', 'low'].indexOf(x!) - ['high', 'medium', 'low'].indexOf(y!)),
    );
    expect(priorities).toContain('high');
    expect(priorities).toContain('medium');
    // in words, not colour only; label, message, raised time (24-hour) and age, state
    const spo2 = row(tp, 'spo2-low');
    const server = raised.find((a) => a.rule === 'spo2-low')!;
    expect(await spo2.locator('.prio').innerText()).toBe('High');
    expect(await spo2.locator('.al-label').innerText()).toBe('SpO2 low');
    expect(await spo2.locator('.al-msg').innerText()).toContain('85');
    expect(await spo2.locator('.al-time').innerText()).toMatch(new RegExp(`^Raised ${shownClock(server.raised_at)} · \\d+ (s|min) ago$`));
    expect(await spo2.locator('.al-state').innerText()).toBe(
      `Not acknowledged · escalates ${shownClock(server.due_at!)} if not acknowledged`,
    );
    expect(await row(tp, 'rr-high').locator('.prio').innerText()).toBe('Medium');
    expect(await row(tp, 'rr-high').locator('.al-label').innerText()).toBe('Respiratory rate high');
    const text = await panel(tp).innerText();
    for (const words of [
      'Heart rate high',
      'Systolic pressure low',
      'NEWS2 high',
      'Potassium 6.8 mmol/L (critical > 6.0)',
      'critical high',
      'Preliminary report',
    ])
      expect(text).toContain(words);
    expect(text).not.toContain('No active alarms');
    expect(text).not.toMatch(/\b(AM|PM)\b/);
    expect(await critical.locator('.al-state').innerText()).toMatch(
      new RegExp(`^Raised ${SHOWN_CLOCK} · escalates ${SHOWN_CLOCK} if not acknowledged$`),
    );
    // the high rows are red, the medium amber: colour as well as words
    expect(await spo2.locator('.prio').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(179, 38, 30)');
    expect(
      await row(tp, 'rr-high')
        .locator('.prio')
        .evaluate((e) => getComputedStyle(e).backgroundColor),
    ).toBe('rgb(255, 217, 102)');
    // the signed-in doctor may acknowledge each alarm and the critical result
    expect(await tp.page.locator('#alarm-panel button.ack').count()).toBe(raised.length + 1);
    // the tiles are the issue's red ones
    await eventually(
      () => tp.page.locator('#v-bp').innerText(),
      (t) => t === '87/50',
      'the stored values',
    );
    await screenshot(tp.page, 'ui-monitor-alarms-at-open');
    expect(await contrastIssues(tp.page)).toEqual([]);
    expect(tp.errors).toEqual([]);
  });

  it('(b) the signed-in doctor acknowledges an alarm (mouse) and the potassium (keyboard): "Acknowledged by Dr. Demo Doctor at HH:MM"', async () => {
    const spo2 = row(tp, 'spo2-low');
    await spo2.getByRole('button', { name: 'Acknowledge High priority alarm: SpO2 low' }).click();
    await eventually(
      () => spo2.getAttribute('data-state'),
      (s) => s === 'acknowledged',
      'the alarm acknowledged',
    );
    const after = (await alarmsOf(patient)).find((a) => a.rule === 'spo2-low')!;
    expect(after.acknowledged_by).toEqual({ user: 'usr-demo-doctor', name: 'Dr. Demo Doctor', client_id: doctor.clientId });
    expect(await spo2.locator('.al-state').innerText()).toBe(`Acknowledged by Dr. Demo Doctor at ${shownClock(after.acknowledged_at!)}`);
    expect(await spo2.locator('button.ack').count()).toBe(0);
    // focus went on to the next Acknowledge button, not to the top of the page
    await eventually(
      () => tp.page.evaluate(() => document.activeElement?.className ?? ''),
      (c) => c === 'ack',
      'focus on the next Acknowledge button',
    );

    // the critical result, by keyboard
    const critical = tp.page.locator(`#critical-list li[data-report="${reportId}"]`);
    await critical.getByRole('button', { name: /^Acknowledge critical result: Potassium 6\.8 mmol\/L/ }).focus();
    await tp.page.keyboard.press('Enter');
    await eventually(
      () => critical.getAttribute('data-state'),
      (s) => s === 'acknowledged',
      'the potassium acknowledged',
    );
    const history = (await diagnostics(rig.gw)('GET', `/critical-results?patient=${patient}&state=acknowledged`, doctor.headers)).body
      .critical_results;
    expect(history).toEqual([
      expect.objectContaining({ report_id: reportId, acknowledged_by: 'usr-demo-doctor', acknowledged_by_name: 'Dr. Demo Doctor' }),
    ]);
    expect(await critical.locator('.al-state').innerText()).toMatch(
      new RegExp(
        `^Acknowledged by Dr\\. Demo Doctor at ${shownClock(history[0].acknowledged_at)} · raised ${shownClock(history[0].raised_at)}$`,
      ),
    );
    expect(await critical.locator('button.ack').count()).toBe(0);
    // one row for it, whatever the projection behind the list says meanwhile
    expect(await tp.page.locator('#critical-list li').count()).toBe(1);
    expect(await tp.page.locator('#critical-status').innerText()).toBe('No open critical results.');
    expect(await tp.page.locator('#alarm-said').innerText()).toContain('Critical result acknowledged: Potassium 6.8 mmol/L');
    await screenshot(tp.page, 'ui-monitor-alarm-acknowledged');
    expect(await tp.page.locator('#critical-list li').count()).toBe(1);
    expect(await contrastIssues(tp.page)).toEqual([]);
    expect(tp.errors).toEqual([]);
  });

  it('(b) an alarm acknowledged meanwhile by the nurse: the click is refused (409) and the panel says who acknowledged it', async () => {
    // a second card whose live stream is cut, so it still shows the alarm as raised when the nurse acknowledges it
    const stale = await openPage(browser);
    try {
      await stale.page.route('**/api/v1/vitals/stream**', (r: Route) => r.abort());
      await openCard(stale.page, rig.gw, 'vitals-telemetry-monitor', { token: doctor.token, patient });
      const hr = row(stale, 'hr-high');
      await eventually(
        () => hr.getAttribute('data-state'),
        (s) => s === 'raised',
        'the heart-rate alarm raised',
      );
      const nurse = await userSession(rig.gw, 'nurse', ['read:vitals']);
      const id = (await hr.getAttribute('data-alarm'))!;
      const ack = await api<AlarmJson>(rig.gw, nurse.token, 'POST', `/api/v1/alarms/${id}/acknowledge`, {});
      expect(ack.status).toBe(200);
      await hr.getByRole('button', { name: 'Acknowledge High priority alarm: Heart rate high' }).click();
      const said = await eventually(
        () => stale.page.locator('#alarm-msg').innerText(),
        (t) => t !== '',
        'the refusal in the panel',
      );
      expect(said).toBe(
        `Not acknowledged: Heart rate high was already acknowledged by Demo Nurse at ${shownClock(ack.body.acknowledged_at!)}.`,
      );
      expect(await stale.page.locator('#alarm-msg').getAttribute('role')).toBe('alert');
      // and the row is read again: the nurse's acknowledgement
      await eventually(
        () => hr.locator('.al-state').innerText(),
        (t) => t === `Acknowledged by Demo Nurse at ${shownClock(ack.body.acknowledged_at!)}`,
        'the row read again',
      );
      // the only errors: the cut stream and the refused request, as the browser reports them
      expect(stale.errors.filter((e) => !/net::ERR_FAILED|status of 409/.test(e))).toEqual([]);
    } finally {
      await stale.context.close();
    }
  });

  it('(c) an app acting for itself (client credentials) sees every row and no Acknowledge button', async () => {
    const app = await openPage(browser);
    try {
      const token = await tokenFor(rig.gw, ['read:vitals', 'read:patients', 'read:diagnostics', 'write:diagnostics']);
      await openCard(app.page, rig.gw, 'vitals-telemetry-monitor', { token, patient });
      const n = (await alarmsOf(patient)).length;
      await eventually(
        () => app.page.locator('#alerts li').count(),
        (c) => c === n,
        'the alarms',
      );
      await eventually(
        () => app.page.locator(`#critical-list li[data-report="${reportId}"]`).count(),
        (c) => c === 1,
        'the critical result',
      );
      // the latched/raised ones still need a person; none is offered to an app
      expect(await app.page.locator('#alerts li[data-state=raised]').count()).toBeGreaterThan(0);
      expect(await app.page.locator('#alarm-panel button.ack').count()).toBe(0);
      expect(app.errors).toEqual([]);
    } finally {
      await app.context.close();
    }
  });

  it('(d) "No active alarms" once the server says so; an alert of the ingest and the device-disconnect technical alarm appear live, the technical one as such', async () => {
    const other = await openPage(browser, { width: 1280, height: 1000 });
    try {
      const p = await registerPatient(rig.gw, writer, 'Theo', `Disconnect${uid()}`);
      await openCard(other.page, rig.gw, 'vitals-telemetry-monitor', { token: doctor.token, patient: p });
      await eventually(
        () => other.page.locator('#no-alerts').innerText(),
        (t) => t === 'No active alarms.',
        "the server's empty answer",
      );
      expect(await other.page.locator('#no-alerts').getAttribute('data-state')).toBe('none');
      await eventually(
        () => other.page.locator('#critical-status').innerText(),
        (t) => t === 'No open critical results.',
        'no critical result',
      );
      await eventually(
        () => other.page.locator('#conn').getAttribute('data-state'),
        (s) => s === 'connected',
        'the stream open',
      );

      // a fever (low priority) through the ingest: its alert event on the stream makes the card read the list again
      // (a raise the fresh subscription missed is cleared and raised again: a new alert event)
      const fever = other.page.locator('#alerts li[data-rule="temp-high"]');
      const feverDevice = `mon-${uid()}`;
      let seq = 0;
      for (let i = 0; i < 6 && (await fever.count()) === 0; i++) {
        const t = Date.now();
        await rig.send(p, [
          ...(i > 0 ? [vital(p, feverDevice, seq++, new Date(t), '8310-5', 37.0)] : []),
          vital(p, feverDevice, seq++, new Date(t + 1), '8310-5', 39.5),
        ]);
        await eventually(
          () => fever.count(),
          (n) => n === 1,
          'the fever alarm, live',
          5_000,
        ).catch(() => undefined);
      }
      expect(await fever.count()).toBe(1);
      expect(await fever.locator('.prio').innerText()).toBe('Low');
      expect(await fever.locator('.prio').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(165, 243, 252)');
      expect(await other.page.locator('#no-alerts').isHidden()).toBe(true);

      // the watchdog's raise for a silent monitor (its own data and event, appended to the patient's
      // alert stream) and its live notice: the card reads the list again
      // (silent for 4 min, confirmed 30 s after its last reading: due for escalation already)
      const device = `mon-silent-${uid()}`;
      const lastAt = new Date(Date.now() - 240_000);
      const data = disconnectRaise(
        DEFAULT_ALARM_SETTINGS,
        { patientId: p, deviceId: device, lastAt, lastStoredAt: lastAt },
        new Date(lastAt.getTime() + 30_000),
      );
      await append(
        rig.pool,
        alertStream(p),
        ANY,
        [{ eventId: data.alert_id, type: ALARM_EVENTS.raised, data: data as unknown as Record<string, unknown> }],
        { actor: 'vitalis-projector', scope: 'system' },
      );
      expect(await publishAlarmNotice(rig.redis, p, ALARM_EVENTS.raised, data as unknown as Record<string, unknown>)).toBe(true);
      const technical = other.page.locator('#alerts li[data-rule="device-disconnected"]');
      await eventually(
        () => technical.count(),
        (n) => n === 1,
        'the technical alarm, live',
      );
      expect(await technical.getAttribute('data-kind')).toBe('technical');
      expect(await technical.locator('.kind').innerText()).toBe('Technical');
      expect(await technical.locator('.prio').innerText()).toBe('Medium');
      expect(await technical.locator('.al-label').innerText()).toBe('No data from the monitor');
      expect(await technical.locator('.al-msg').innerText()).toBe(
        `No data from monitor ${device} since ${shownClock(lastAt.toISOString())}`,
      );
      expect(await technical.locator('.al-time').innerText()).toMatch(
        new RegExp(`^Last data ${shownClock(lastAt.toISOString())} · [45] min ago$`),
      );
      // its escalation is due (the escalator has not run): overdue, in words
      expect(await technical.locator('.al-state').innerText()).toBe(`Not acknowledged · escalation due since ${shownClock(data.due_at!)}`);
      // a physiological alarm says no "Technical"
      expect(await fever.locator('.kind').count()).toBe(0);
      // medium before low
      expect(await other.page.locator('#alerts li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-rule')))).toEqual([
        'device-disconnected',
        'temp-high',
      ]);
      expect(await other.page.locator('#alarm-said').innerText()).toContain('Medium priority alarm: No data from the monitor.');

      // not acknowledged in time: escalated as the projector's escalator does it (the decider on the
      // folded stream, appended at its version, the live notice), for this one alarm only
      const folded = foldAlarms(await readStream(rig.pool, alertStream(p)));
      const decision = decideAlarm(
        { type: 'escalate', to: DEFAULT_ALARM_SETTINGS.escalateTo, now: new Date().toISOString() },
        folded.alarms.get(data.alert_id),
      );
      if (!decision.ok) throw new Error(`not escalated: ${decision.error.kind}`);
      await append(
        rig.pool,
        alertStream(p),
        folded.version,
        decision.events.map((e) => ({ type: e.type, data: e.data as unknown as Record<string, unknown> })),
        { actor: 'vitalis-projector', scope: 'system' },
      );
      await publishAlarmNotice(rig.redis, p, ALARM_EVENTS.escalated, decision.events[0]!.data as unknown as Record<string, unknown>);
      const escalatedAt = (decision.events[0]!.data as { at: string }).at;
      await eventually(
        () =>
          technical
            .locator('.al-more')
            .innerText()
            .catch(() => ''),
        (t) => t !== '',
        'the escalation, live',
      );
      expect(await technical.locator('.al-more').innerText()).toBe(`Escalated to charge nurse at ${shownClock(escalatedAt)}`);
      expect(await technical.locator('.escalated').innerText()).toBe('Escalated');
      expect(await technical.getAttribute('data-escalated')).toBe('true');
      await screenshot(other.page, 'ui-monitor-alarm-technical');
      expect(await contrastIssues(other.page)).toEqual([]);
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('(e) says "Loading alarms…" before the first answer and a failed read as such, never "No active alarms"', async () => {
    const other = await openPage(browser);
    try {
      const p = await registerPatient(rig.gw, writer, 'Lea', `Loading${uid()}`);
      // the first read is held (the card has no answer yet); every later one fails like the first
      let held: Route | null = null;
      const alarmsList = (url: URL) => url.pathname === '/api/v1/alarms';
      const unavailable = {
        status: 503,
        contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'The database is not answering.' }),
      };
      await other.page.route(alarmsList, async (r: Route) => {
        if (held) await r.fulfill(unavailable);
        else held = r;
      });
      await openCard(other.page, rig.gw, 'vitals-telemetry-monitor', { token: doctor.token, patient: p });
      await eventually(
        async () => held !== null,
        (h) => h,
        'the alarms request',
      );
      expect(await other.page.locator('#no-alerts').innerText()).toBe('Loading alarms…');
      expect(await other.page.locator('#no-alerts').getAttribute('data-state')).toBe('loading');
      // the server fails: said, not "No active alarms"
      await held!.fulfill(unavailable);
      const failed = await eventually(
        () => other.page.locator('#no-alerts').innerText(),
        (t) => t !== 'Loading alarms…',
        'the failure said',
      );
      expect(failed).toBe('The alarms could not be read (The database is not answering.). Retrying…');
      expect(await other.page.locator('#no-alerts').getAttribute('data-state')).toBe('failed');
      expect(await other.page.locator('#alarm-panel').innerText()).not.toContain('No active alarms');
      await other.page.unroute(alarmsList);
      // the retry reaches the real server, which says there is none
      await eventually(
        () => other.page.locator('#no-alerts').innerText(),
        (t) => t === 'No active alarms.',
        'the retry answered',
      );
      expect(other.errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('(f) inside an MCP host: list_alarms and list_critical_results at open (a patient not on the ED board), acknowledged through acknowledge_alarm and acknowledge_critical_result', async () => {
    const p = await registerPatient(rig.gw, writer, 'Mia', `McpAlarms${uid()}`);
    await produceHeld(p, { '59408-5': 85 });
    await eventually(
      () => alarmsOf(p),
      (a) => a.some((x) => x.rule === 'spo2-low'),
      'the SpO2 alarm raised',
    );
    const { reportId: report } = await criticalPotassium(p);
    const mcp = new Client({ name: 'vitalis-test-host', version: '1.0.0' }, { capabilities: {} });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${rig.gw.url}/.well-known/mcp`), { requestInit: { headers: doctor.headers } }),
    );
    const calls: string[] = [];
    const { tp: host, frame } = await openInMcpHost(
      browser,
      rig.gw.url,
      'vitals-telemetry-monitor',
      async (name, args) => {
        calls.push(name);
        return mcp.callTool({ name, arguments: args });
      },
      { viewport: { width: 1280, height: 1000 }, frameHeight: 960 },
    );
    try {
      await host.page.evaluate(`window.pushToolInput(${JSON.stringify({ patient_id: p })})`);
      const spo2 = frame.locator('#alerts li[data-rule="spo2-low"]');
      await eventually(
        () => spo2.count(),
        (n) => n === 1,
        'the alarm via list_alarms',
      );
      const critical = frame.locator(`#critical-list li[data-report="${report}"]`);
      await eventually(
        () => critical.count(),
        (n) => n === 1,
        'the critical result via list_critical_results',
      );
      expect(await critical.locator('.al-label').innerText()).toBe('Potassium 6.8 mmol/L (critical > 6.0)');
      expect(calls).toEqual(expect.arrayContaining(['list_alarms', 'list_critical_results']));
      expect(calls).not.toContain('get_triage_board');

      await spo2.getByRole('button', { name: 'Acknowledge High priority alarm: SpO2 low' }).click();
      await eventually(
        () => spo2.getAttribute('data-state'),
        (s) => s === 'acknowledged',
        'acknowledged via acknowledge_alarm',
      );
      const acked = (await alarmsOf(p)).find((a) => a.rule === 'spo2-low')!;
      expect(acked.acknowledged_by).toMatchObject({ user: 'usr-demo-doctor', name: 'Dr. Demo Doctor' });
      expect(await spo2.locator('.al-state').innerText()).toBe(`Acknowledged by Dr. Demo Doctor at ${shownClock(acked.acknowledged_at!)}`);
      await critical.getByRole('button', { name: /^Acknowledge critical result: Potassium/ }).click();
      await eventually(
        () => critical.getAttribute('data-state'),
        (s) => s === 'acknowledged',
        'acknowledged via acknowledge_critical_result',
      );
      expect(await critical.locator('.al-state').innerText()).toMatch(
        new RegExp(`^Acknowledged by Dr\\. Demo Doctor at ${SHOWN_CLOCK} · raised ${SHOWN_CLOCK}$`),
      );
      expect(calls).toEqual(expect.arrayContaining(['acknowledge_alarm', 'acknowledge_critical_result']));
      await screenshot(host.page, 'ui-mcp-monitor-alarms');
      expect(host.errors).toEqual([]);
    } finally {
      await host.context.close();
      await mcp.close();
    }
  });

  afterAll(async () => {
    await tp?.context.close();
  });
});
