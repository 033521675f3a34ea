/**
 * vitals-telemetry-monitor in headless Chromium against a real gateway, fed through Kafka → a
 * real ingest worker + live stage → Redis → the gateway's SSE stream → the card. Asserts what the
 * nurse sees: the numerics show the produced values with the right alarm colours, the ECG canvas
 * has a trace, the trends have points, a server alert appears in the alarm panel (its at-open list,
 * acknowledgement and technical alarms: monitor-alarms.browser.test.ts); every value says
 * its age, a stale value is greyed and says "stale", the badge says "Live" only while fresh data
 * arrives (an open connection is not enough: a stalled patient says "No data since HH:MM"), and the
 * NEWS2 total with its band is the server's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startRig, type LiveRig } from '../live/support';
import { startProxy } from '../clients/support';
import { contrastIssues, eventually, inPage, launchBrowser, openPage, screenshot, type TestPage } from '../../helpers/browser';
import { shownClock, SHOWN_CLOCK } from '../../helpers/shown-clock';
import { api, ecgChunk, openCard, registerPatient, tokenFor, uid, vital } from './support';

let rig: LiveRig;
let browser: Browser;
let tp: TestPage;
let token: string;
let writer: string;
let patient: string;
const numericDevice = `mon-${uid()}`;
const ecgDevice = `ecg-${uid()}`;
let seq = 0;
let ecgSeq = 0;

/** A site's override (VITALIS_ALARMS) of a threshold no assertion below depends on: it must reach the served card. */
const SITE_ALARMS = { stale_after_s: { '8462-4': 901 } };

beforeAll(async () => {
  rig = await startRig('ui-monitor', { VITALIS_ALARMS: JSON.stringify(SITE_ALARMS) });
  writer = await tokenFor(rig.gw, ['write:patients']);
  patient = await registerPatient(rig.gw, writer, 'Grace', `Monitor${uid()}`);
  token = await tokenFor(rig.gw, ['read:vitals', 'read:patients']);
  browser = await launchBrowser();
  tp = await openPage(browser);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rig?.close();
});

const tileText = (code: string) => tp.page.locator(`.tile[data-code="${code}"] .value`).innerText();
const tileAlarm = (code: string) => tp.page.locator(`.tile[data-code="${code}"]`).getAttribute('data-alarm');
/** The issue's patient: HR 137, SpO2 85 %, BP 87/50, RR 27, temperature normal (NEWS2 12, four red parameters). */
const ISSUE_VALUES = { '8867-4': 137, '59408-5': 85, '8480-6': 87, '8462-4': 50, '9279-1': 27, '8310-5': 37.0 };

/**
 * Produces `values` (code → value) through Kafka until the tiles show them. A fresh SSE
 * subscription starts at the patient's latest stored position, fixed shortly after the stream
 * opens: a value produced in that instant may precede it, so a batch the card missed is produced
 * again (new seqs, same values) rather than waiting on a sleep.
 */
/** Produces `values` (code → value) taken at `at` for `p` and waits until the append log holds them (GET /api/v1/vitals/latest). */
async function store(p: string, values: Record<string, number>, at: number): Promise<Array<{ code: string; effective_at: string }>> {
  const device = `mon-${uid()}`;
  await rig.send(
    p,
    Object.entries(values).map(([code, v], i) => vital(p, device, i, new Date(at + i), code, v)),
  );
  const latest = await eventually(
    () =>
      api<{ count: number; data: Array<{ code: string; effective_at: string }> }>(
        rig.gw,
        token,
        'GET',
        `/api/v1/vitals/latest?patient=${p}`,
      ),
    (r) => r.status === 200 && r.body.count === Object.keys(values).length,
    'the values stored',
  );
  return latest.body.data;
}

async function produceUntilShown(values: Record<string, number>, shown: () => Promise<boolean>, heldForMs = 0): Promise<void> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const at = Date.now();
    // held: each value also `heldForMs` earlier (device time), for an alarm condition's onset delay
    const times = heldForMs ? [at - heldForMs, at] : [at];
    await rig.send(
      patient,
      times.flatMap((t) => Object.entries(values).map(([code, v], i) => vital(patient, numericDevice, seq++, new Date(t + i), code, v))),
    );
    try {
      await eventually(shown, (ok) => ok, 'the tiles to show the produced values', 5_000);
      return;
    } catch {
      /* produce again */
    }
  }
  throw new Error(`the monitor never showed ${JSON.stringify(values)}`);
}

describe('vitals-telemetry-monitor in a browser', () => {
  it('opens under its CSP, drops the token from the address bar and goes live', async () => {
    expect(await openCard(tp.page, rig.gw, 'vitals-telemetry-monitor', { token, patient })).toBe(200);
    expect(tp.page.url()).not.toContain('token');
    expect(tp.page.url()).toBe(`${rig.gw.url}/ui/vitals-telemetry-monitor`);
    await eventually(
      () => tp.page.locator('#conn').getAttribute('data-state'),
      (s) => s === 'connected',
      'the stream to be open',
    );
    expect(await tp.page.locator('#conn').innerText()).toBe('Connected');
    // an open stream is not live data: no value has arrived
    expect(await tp.page.locator('#fresh').innerText()).toBe('Waiting for data');
    expect(await tp.page.locator('#fresh').getAttribute('data-state')).toBe('waiting');
    // the patient's name comes from the registered record
    await eventually(
      () => tp.page.locator('#patient-label').innerText(),
      (t) => t.includes('Grace Monitor'),
      'the patient name',
    );
    expect(await tp.page.locator('main').count()).toBe(1);
    expect(await tp.page.locator('h1').count()).toBe(1);
    // arrivals of alarms are said in an assertive region of their own (the list's ages tick every second)
    expect(await tp.page.locator('[aria-live=assertive]#alarm-said').count()).toBe(1);
    // the site's thresholds (VITALIS_ALARMS) are in the served card's data
    const html = await (await fetch(`${rig.gw.url}/ui/vitals-telemetry-monitor`)).text();
    const data = JSON.parse(/\n {2}var DATA = (.*);\n/.exec(html)![1]!);
    expect(data.staleAfter['8462-4']).toBe(901);
    expect(data.staleAfter['8867-4']).toBe(10);
  });

  it('shows the produced numerics with alarm colours from the thresholds', async () => {
    await produceUntilShown(
      { '8867-4': 72, '59408-5': 88, '8480-6': 118, '8462-4': 76, '9279-1': 18, '8310-5': 37.2 },
      async () =>
        (await tileText('8310-5')) === '37.2' &&
        (await tileText('bp')) === '118/76' &&
        (await tileText('59408-5')) === '88' &&
        (await tileText('8867-4')) === '72',
    );
    expect(await tileText('9279-1')).toBe('18');
    // fresh data arrived: Live, every value's age in seconds, none stale
    await eventually(
      () => tp.page.locator('#fresh').innerText(),
      (t) => t === 'Live',
      'the Live badge',
    );
    expect(await tp.page.locator('#fresh').getAttribute('data-state')).toBe('live');
    for (const code of ['8867-4', '59408-5', 'bp', '9279-1', '8310-5'])
      expect(await tp.page.locator(`.tile[data-code="${code}"] .age`).innerText()).toMatch(/^\d{1,2} s ago$/);
    // (blood pressure and temperature are current for 15 and 30 min: not stale whatever this machine's pace)
    for (const code of ['bp', '8310-5'])
      expect(await tp.page.locator(`.tile[data-code="${code}"]`).getAttribute('data-stale')).toBe('false');
    await screenshot(tp.page, 'ui-monitor-live');
    expect(await tileAlarm('8867-4')).toBe('none');
    expect(await tileAlarm('59408-5')).toBe('crit'); // 88 % is below the critical SpO2 limit
    expect(await tileAlarm('bp')).toBe('none');
    expect(await tileAlarm('8310-5')).toBe('none');
    // an alarm is also said in words, not only in colour
    expect(await tp.page.locator('.tile[data-code="59408-5"] .state').innerText()).toMatch(/alarm/i);
    const bg = await inPage<string>(tp.page, `getComputedStyle(document.querySelector('.tile[data-code="59408-5"]')).backgroundColor`);
    expect(bg).toBe('rgb(179, 38, 30)');
  });

  it('draws the ECG sweep at 250 Hz from the produced chunks, and the SpO2 / BP trends', async () => {
    const start = Date.now() - 3_000;
    for (let attempt = 0; attempt < 6; attempt++) {
      const chunks = Array.from({ length: 3 }, () => ecgChunk(patient, ecgDevice, ecgSeq, new Date(start + ecgSeq++ * 1000)));
      await rig.send(patient, chunks);
      const drawn = await eventually(
        () => tp.page.locator('#ecg').getAttribute('data-drawn'),
        (d) => Number(d) >= 500,
        'ECG samples drawn',
        6_000,
      ).catch(() => '0');
      if (Number(drawn) >= 500) break;
    }
    expect(Number(await tp.page.locator('#ecg').getAttribute('data-drawn'))).toBeGreaterThanOrEqual(500);
    // non-blank pixels of the trace colour in the waveform area
    const trace = await inPage<{ green: number; rows: number; height: number }>(
      tp.page,
      `(() => {
      const c = document.querySelector('#ecg');
      const { data, width } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      let green = 0;
      const rows = new Set();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 1] > 150 && data[i] < 150) { green++; rows.add(Math.floor(i / 4 / width)); }
      }
      return { green, rows: rows.size, height: c.height };
    })()`,
    );
    expect(trace.green).toBeGreaterThan(500);
    // the QRS spikes: the trace spans a good part of the height, not a flat line
    expect(trace.rows).toBeGreaterThan(trace.height / 4);
    // and when the lead stops sending, the frozen trace is not passed off as current
    expect(await tp.page.locator('#ecg-signal').getAttribute('data-state')).toMatch(/ok|lost/);
    await eventually(
      () => tp.page.locator('#ecg-signal').innerText(),
      (t) => t === 'No ECG signal',
      'the lost-signal notice',
    );

    await produceUntilShown(
      { '59408-5': 93, '8480-6': 132, '8462-4': 84 },
      async () => (await tileText('bp')) === '132/84' && (await tileText('59408-5')) === '93',
    );
    expect(await tileAlarm('59408-5')).toBe('warn');
    expect(Number(await tp.page.locator('#spo2-trend').getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    expect(Number(await tp.page.locator('#bp-trend').getAttribute('data-points'))).toBeGreaterThanOrEqual(4);
    expect(await tp.page.locator('#spo2-trend').getAttribute('aria-label')).toContain('latest 93 %');
  });

  it('colours by the NEWS2 score in the browser too: SpO2 91 critical, HR 100 warning, systolic 200 normal', async () => {
    await produceUntilShown(
      { '59408-5': 91, '8867-4': 100, '8480-6': 200, '8462-4': 80 },
      async () => (await tileText('59408-5')) === '91' && (await tileText('8867-4')) === '100' && (await tileText('bp')) === '200/80',
    );
    expect(await tileAlarm('59408-5')).toBe('crit');
    expect(await tp.page.locator('.tile[data-code="59408-5"] .state').innerText()).toMatch(/NEWS2 3/);
    expect(await tileAlarm('8867-4')).toBe('warn');
    expect(await tp.page.locator('.tile[data-code="8867-4"] .state').innerText()).toMatch(/NEWS2 1/);
    expect(await tileAlarm('bp')).toBe('none');
  });

  it('raises the server alert for a heart rate above 130: the alarm panel reads the list again and shows it', async () => {
    // held for 6 s of device time: past the heart-rate condition's onset delay (docs/alarms.md)
    await produceUntilShown({ '8867-4': 142 }, async () => (await tileText('8867-4')) === '142', 6_000);
    expect(await tileAlarm('8867-4')).toBe('crit');
    const alert = tp.page.locator('#alerts li[data-state=raised]').first();
    await eventually(
      () => alert.count(),
      (n) => n > 0,
      'the raised alert',
    );
    expect(await alert.getAttribute('data-rule')).toBeTruthy();
    expect(await tp.page.locator('#no-alerts').isHidden()).toBe(true);
    await screenshot(tp.page, 'ui-vitals-telemetry-monitor');
    // every visible text, including the alarm/ESI/allergy colours now on screen, is legible (WCAG AA)
    expect(await contrastIssues(tp.page)).toEqual([]);
    expect(tp.errors).toEqual([]);
  });

  it('resumes after a dropped connection with Last-Event-ID: the values produced meanwhile all arrive', async () => {
    // A second card behind a TCP proxy whose connections we can cut, as on a flaky ward network.
    const proxy = await startProxy(rig.gw.url);
    const other = await openPage(browser);
    try {
      const p2 = await registerPatient(rig.gw, await tokenFor(rig.gw, ['write:patients']), 'Hal', `Reconnect${uid()}`);
      await other.page.goto(`${proxy.url}/ui/vitals-telemetry-monitor#${new URLSearchParams({ token, patient: p2 })}`, {
        waitUntil: 'load',
      });
      await eventually(
        () => other.page.locator('#conn').getAttribute('data-state'),
        (s) => s === 'connected',
        'the stream to be open',
      );
      const device = `mon-${uid()}`;
      let n = 0;
      // the first value proves the stream; produce again until the (fresh) subscription has it
      for (let attempt = 0; attempt < 6; attempt++) {
        await rig.send(p2, [vital(p2, device, n++, new Date(), '59408-5', 97)]);
        const ok = await eventually(
          () => other.page.locator('#v-59408-5').innerText(),
          (t) => t === '97',
          'SpO2 97',
          5_000,
        ).then(
          () => true,
          () => false,
        );
        if (ok) break;
      }
      const before = Number(await other.page.locator('#spo2-trend').getAttribute('data-points'));

      expect(proxy.dropAll()).toBeGreaterThan(0);
      // (the server's `retry: 2000` keeps the card in this state long enough to see it)
      await eventually(
        () => other.page.locator('#conn').innerText(),
        (s) => s === 'Reconnecting…',
        'the card noticing the drop',
      );
      // produced while the card is disconnected: a fresh subscription would start after them
      const t = Date.now();
      await rig.send(
        p2,
        [96, 95, 94].map((v, i) => vital(p2, device, n++, new Date(t + i), '59408-5', v)),
      );
      await eventually(
        () => other.page.locator('#v-59408-5').innerText(),
        (x) => x === '94',
        'the last value after the reconnect',
      );
      expect(await other.page.locator('#conn').getAttribute('data-state')).toBe('connected');
      expect(Number(await other.page.locator('#spo2-trend').getAttribute('data-points'))).toBe(before + 3); // all three, none twice
      // the browser reports the cut stream itself; nothing else may be logged
      expect(other.errors.filter((e) => !e.includes('net::ERR_INCOMPLETE_CHUNKED_ENCODING'))).toEqual([]);
    } finally {
      await other.context.close();
      await proxy.close();
    }
  });

  it('works with a read:vitals-only token: no name lookup, so no refused request', async () => {
    const other = await openPage(browser);
    try {
      const requests: string[] = [];
      other.page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      await openCard(other.page, rig.gw, 'vitals-telemetry-monitor', { token: await tokenFor(rig.gw, ['read:vitals']), patient });
      await eventually(
        () => other.page.locator('#v-8867-4').innerText(),
        (t) => t === '142',
        'the latest heart rate from GET /api/v1/vitals/latest',
      );
      // the REST read and the stream's opening are independent: the stream may open just after
      await eventually(
        () => other.page.locator('#conn').getAttribute('data-state'),
        (s) => s === 'connected',
        'the live stream open',
      );
      expect(await other.page.locator('#patient-label').innerText()).toBe(`Patient ${patient}`);
      expect(requests).not.toContain(`/api/v1/patients/${patient}`);
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('says plainly when the token is refused, and does not retry a refusal', async () => {
    const other = await openPage(browser);
    try {
      const noVitals = await tokenFor(rig.gw, ['read:patients']);
      const streams: string[] = [];
      other.page.on('request', (r) => {
        if (r.url().includes('/api/v1/vitals/stream')) streams.push(r.url());
      });
      await openCard(other.page, rig.gw, 'vitals-telemetry-monitor', { token: noVitals, patient });
      await eventually(
        () => other.page.locator('#conn').getAttribute('data-state'),
        (s) => s === 'error',
        'the refused state',
      );
      expect(streams).toHaveLength(1); // a 403 is final: no reconnect loop
      expect(await other.page.locator('#conn').innerText()).toBe('Disconnected');
      expect(await other.page.locator('#error').innerText()).toMatch(/read:vitals/);
      // the only errors are the browser's own reports of the refused requests
      expect(other.errors.filter((e) => !/Failed to load resource.*403/.test(e))).toEqual([]);
    } finally {
      await other.context.close();
    }
  });
  it("shows the NEWS2 total and band of the issue's patient, the server's own (HR 137, SpO2 85, BP 87/50, RR 27, temperature normal)", async () => {
    const other = await openPage(browser);
    try {
      const p = await registerPatient(rig.gw, writer, 'Ivy', `News${uid()}`);
      await store(p, ISSUE_VALUES, Date.now());
      await openCard(other.page, rig.gw, 'vitals-telemetry-monitor', { token, patient: p });
      const text = await eventually(
        () => other.page.locator('#news2-text').innerText(),
        (t) => t.startsWith('NEWS2 12'),
        'the NEWS2 total',
      );
      expect(text).toMatch(/^NEWS2 12 · high · from values up to \d{1,2} s old$/);
      // the server's NEWS2 on the same stored values (the patient record's, and the MCP tool's source)
      const record = await api<{ news2: { score: number; risk: string } }>(rig.gw, token, 'GET', `/api/v1/patients/${p}`);
      expect(record.status).toBe(200);
      expect(record.body.news2).toMatchObject({ score: 12, risk: 'high' });
      expect(await other.page.locator('#news2').getAttribute('data-risk')).toBe('high');
      expect(await other.page.locator('#news2-detail').innerText()).toMatch(new RegExp(`^oldest input ${SHOWN_CLOCK}$`));
      expect(await other.page.locator('#news2-h').innerText()).toBe('NEWS2 total');
      for (const code of ['8867-4', '59408-5', 'bp', '9279-1'])
        expect(await other.page.locator(`.tile[data-code="${code}"]`).getAttribute('data-alarm')).toBe('crit');
      expect(await other.page.locator('#fresh').innerText()).toBe('Live');
      await screenshot(other.page, 'ui-monitor-news2');
      expect(await contrastIssues(other.page)).toEqual([]);
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('a patient whose values are 16 minutes old: every tile says its age and "stale", the badge says "No data since HH:MM", never "Live"', async () => {
    const other = await openPage(browser);
    try {
      const p = await registerPatient(rig.gw, writer, 'Stan', `Stale${uid()}`);
      const at = Date.now() - (16 * 60 + 10) * 1_000;
      const stored = await store(p, ISSUE_VALUES, at);
      // every surface carries each value's time: REST (the card's source), FHIR, the patient record
      const produced = Object.keys(ISSUE_VALUES).map((code, i) => ({ code, effective_at: new Date(at + i).toISOString() }));
      const instants = (times: string[]) => times.map((t) => Date.parse(t)).sort();
      expect(instants(stored.map((o) => o.effective_at))).toEqual(instants(produced.map((o) => o.effective_at)));
      const fhir = await fetch(`${rig.gw.url}/api/v1/vitals/latest?patient=${p}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/fhir+json' },
      }).then((r) => r.json() as Promise<{ entry: Array<{ resource: { effectiveDateTime: string } }> }>);
      expect(instants(fhir.entry.map((e) => e.resource.effectiveDateTime))).toEqual(instants(produced.map((o) => o.effective_at)));
      const record = await api<{ latest_vitals: Array<{ effective_at: string }> }>(rig.gw, token, 'GET', `/api/v1/patients/${p}`);
      expect(instants(record.body.latest_vitals.map((v) => v.effective_at))).toEqual(instants(produced.map((o) => o.effective_at)));

      await openCard(other.page, rig.gw, 'vitals-telemetry-monitor', { token, patient: p });
      await eventually(
        () => other.page.locator('#v-bp').innerText(),
        (t) => t === '87/50',
        'the stored values',
      );
      // the connection is open, and yet the data is not live: that is the point
      await eventually(
        () => other.page.locator('#conn').innerText(),
        (t) => t === 'Connected',
        'the stream open',
      );
      const newest = produced
        .map((o) => o.effective_at)
        .sort()
        .at(-1)!;
      const badge = other.page.locator('#fresh');
      await eventually(
        () => badge.innerText(),
        (t) => t === `No data since ${shownClock(newest)}`,
        'the no-data badge',
      );
      expect(await badge.getAttribute('data-state')).toBe('nodata');
      expect(await badge.innerText()).not.toContain('Live');
      // heart rate, SpO2, blood pressure, respiratory rate: past their thresholds (10 s, 10 s, 15 min, 10 s)
      for (const code of ['8867-4', '59408-5', 'bp', '9279-1']) {
        const tile = other.page.locator(`.tile[data-code="${code}"]`);
        expect(await tile.getAttribute('data-stale')).toBe('true');
        expect(await tile.locator('.age').innerText()).toMatch(/^1[67] min ago · stale$/);
        // greyed, and still said as an alarm in words
        expect(
          await inPage<string>(other.page, `getComputedStyle(document.querySelector('.tile[data-code="${code}"] .value')).color`),
        ).toBe('rgb(159, 176, 192)');
        expect(await tile.locator('.state').innerText()).toMatch(/alarm/i);
      }
      // temperature is current for 30 min: its age, not stale
      expect(await other.page.locator('.tile[data-code="8310-5"]').getAttribute('data-stale')).toBe('false');
      expect(await other.page.locator('.tile[data-code="8310-5"] .age').innerText()).toMatch(/^1[67] min ago$/);
      // the NEWS2 total says how old its inputs are and which are stale
      expect(await other.page.locator('#news2-text').innerText()).toMatch(/^NEWS2 12 · high · from values up to 1[67] min old$/);
      expect(await other.page.locator('#news2-detail').innerText()).toBe(
        `oldest input ${shownClock(new Date(at).toISOString())} · stale: HR, SpO₂, Sys, RR`,
      );
      expect(await other.page.locator('#news2').getAttribute('data-stale')).toBe('true');
      expect(await other.page.locator('#fresh-said').textContent()).toBe(`No data since ${shownClock(newest)}`);
      await screenshot(other.page, 'ui-monitor-stale');
      expect(await contrastIssues(other.page)).toEqual([]);
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('an ingest stall: the stream stays open, the badge leaves "Live" for "Stale", then "No data since HH:MM"', async () => {
    const other = await openPage(browser);
    try {
      const p = await registerPatient(rig.gw, writer, 'Otto', `Stall${uid()}`);
      await openCard(other.page, rig.gw, 'vitals-telemetry-monitor', { token, patient: p });
      await eventually(
        () => other.page.locator('#conn').getAttribute('data-state'),
        (s) => s === 'connected',
        'the stream open',
      );
      // one heart rate through the live stream (produced again if the fresh subscription missed it)
      const device = `mon-${uid()}`;
      const produced: string[] = [];
      for (let n = 0; n < 6 && (await other.page.locator('#fresh').innerText()) !== 'Live'; n++) {
        produced.push(new Date().toISOString());
        await rig.send(p, [vital(p, device, n, new Date(produced.at(-1)!), '8867-4', 76)]);
        await eventually(
          () => other.page.locator('#fresh').innerText(),
          (t) => t === 'Live',
          'Live',
          5_000,
        ).catch(() => undefined);
      }
      expect(await other.page.locator('#fresh').innerText()).toBe('Live');
      expect(await other.page.locator('#age-8867-4').innerText()).toMatch(/^\d{1,2} s ago$/);
      // nothing more arrives; the connection is untouched
      const stale = await eventually(
        () => other.page.locator('#fresh').innerText(),
        (t) => t.startsWith('Stale'),
        'the stale badge',
        45_000,
      );
      expect(stale).toMatch(/^Stale · last data \d{1,2} s ago$/);
      expect(await other.page.locator('#conn').innerText()).toBe('Connected');
      expect(await other.page.locator('#age-8867-4').innerText()).toMatch(/^\d{1,2} s ago · stale$/);
      const shown = await other.page.locator('#v-8867-4').innerText();
      expect(shown).toBe('76');
      const seen = await eventually(
        () => other.page.locator('#fresh').innerText(),
        (t) => t.startsWith('No data'),
        'the no-data badge',
        45_000,
      );
      // since the newest value the card holds: one of those produced
      expect(produced.map((t) => `No data since ${shownClock(t)}`)).toContain(seen);
      expect(await other.page.locator('#conn').innerText()).toBe('Connected');
      expect(other.errors).toEqual([]);
    } finally {
      await other.context.close();
    }
  }, 120_000);
});
