/**
 * vitals-telemetry-monitor: a bedside-monitor view of one patient. ECG lead II (250 Hz chunks:
 * origin, period_ms, samples) drawn as a sweep with requestAnimationFrame from a small jitter
 * buffer, SpO2 and blood-pressure trend graphs, HR/SpO2/BP/RR/Temp numerics coloured by the NEWS2
 * score of the value, each with its age and a stale mark, the aggregate NEWS2 with its band, a
 * data-freshness badge ("Live" only while fresh data arrives) apart from the connection state,
 * and the alarm panel: the patient's active alarms and critical results from the moment it opens
 * (priority in words and colour, state with who and when), re-read on every alarm event of the
 * stream, with an Acknowledge action for a signed-in clinician (cards/monitor/alarm-panel.ts).
 * The card holds no number of its own: its script receives the NEWS2 band and risk tables of
 * @vitalis/clinical and the site's stale thresholds (config.alarms, VITALIS_ALARMS) as JSON data
 * (`monitorScriptData`) and scores and judges each value on them (cards/monitor/tile-alarm.ts,
 * cards/monitor/freshness.ts), so the bedside colours and the total cannot drift from the score
 * the server computes (test/unit/ui/monitor-alarms.test.ts, monitor-news2.test.ts).
 * Browser mode: latest values from GET /api/v1/vitals/latest, then the live SSE stream; alarms
 * from GET /api/v1/alarms?patient=, critical results from GET /api/v1/diagnostics/critical-results.
 * MCP mode: get_latest_vitals once, then get_vitals_history for everything newer, every second
 * (hosts do not forward resource subscriptions to views); list_alarms every 3 s, the critical
 * results from get_triage_board every 6 s.
 * Here: the markup and the data; the browser code and style are cards/monitor/ (main.ts, style.css).
 */
import {
  DEFAULT_ALARM_SETTINGS,
  INTERPRETATION_DISPLAY,
  news2ZeroBand,
  NEWS2_RISK,
  NEWS2_SCALE_BY_VITAL_CODE,
  type AlarmSettings,
  type News2Score,
} from '@vitalis/clinical';
import { VITAL_CODE, type NumericVitalCode } from '@vitalis/schemas';
import type { MonitorData, TileAlarm } from './cards/monitor/data';
import { renderCard, type BuiltCard } from './shared';
import { ANALYTE_UNIT_TEXT, VITAL_LABELS } from './vitals';

export type { TileAlarm };

/**
 * Tile colour per NEWS2 parameter score. In NEWS2 a single parameter scoring 3 (a "red score") is on
 * its own a trigger for an urgent review by a clinician, whatever the aggregate: the critical colour
 * ("Alarm"). 1 and 2 are abnormal and count toward the aggregate but do not trigger alone: the
 * warning colour ("Warning"). 0 is the parameter's normal band: no colour.
 */
export const TILE_ALARM_BY_NEWS2_SCORE: Readonly<Record<News2Score, TileAlarm>> = { 0: 'none', 1: 'warn', 2: 'warn', 3: 'crit' };

/** Screen label per numeric code (the NEWS2 line names its stale inputs with them). */
const LABELS = Object.fromEntries(Object.entries(VITAL_LABELS).map(([code, { label }]) => [code, label]));

/**
 * What the card's script reads (serialised into the document): codes by name, NEWS2 scale per
 * code, alarm per score, the NEWS2 risk table, and from the site's alarm settings the stale
 * threshold per code and the device-disconnect delay (after which the badge says "No data since"),
 * and for the alarm panel's critical results the interpretation words and the screen units.
 */
export function monitorScriptData(alarms: AlarmSettings = DEFAULT_ALARM_SETTINGS) {
  return {
    code: VITAL_CODE,
    scales: NEWS2_SCALE_BY_VITAL_CODE,
    alarmByScore: TILE_ALARM_BY_NEWS2_SCORE,
    risk: NEWS2_RISK,
    staleAfter: alarms.staleAfterSeconds,
    noDataAfter: alarms.conditions['device-disconnected'].onsetDelaySeconds,
    labels: LABELS,
    interpretation: INTERPRETATION_DISPLAY,
    unitText: ANALYTE_UNIT_TEXT,
  } as const satisfies MonitorData;
}

/** The data with the default alarm settings (a site without VITALIS_ALARMS). */
export const MONITOR_SCRIPT_DATA = monitorScriptData();

/** The tile's trace colour class (cards/monitor/style.css), per code: the stylesheet holds no vital code. */
const TILE_CLASS: Partial<Record<NumericVitalCode, string>> = {
  [VITAL_CODE.heartRate]: 'hr',
  [VITAL_CODE.spo2]: 'spo2',
  [VITAL_CODE.respiratoryRate]: 'rr',
  [VITAL_CODE.temperature]: 'temp',
};

/** A tile's caption: the value's normal range, i.e. its NEWS2 0-point band (e.g. "51–90", "≥ 96"). */
function normalCaption(code: NumericVitalCode): string {
  const scale = NEWS2_SCALE_BY_VITAL_CODE[code];
  if (!scale) return '';
  const { low, high } = news2ZeroBand(scale);
  const f = (n: number) => n.toFixed(scale.decimals);
  if (low === null) return high === null ? '' : `≤ ${f(high)}`;
  return high === null ? `≥ ${f(low)}` : `${f(low)}–${f(high)}`;
}

function numericTile(code: NumericVitalCode): string {
  const { label, unit } = VITAL_LABELS[code];
  return `<div class="tile ${TILE_CLASS[code] ?? ''}" data-code="${code}" data-alarm="none" data-stale="false"><h2>${label} <span class="lim">${normalCaption(code)}</span></h2><div><span class="value" id="v-${code}">--</span><span class="unit">${unit}</span></div><div class="age" id="age-${code}"></div><div class="state"></div></div>`;
}

const C = VITAL_CODE;

const BODY = `
<div class="card">
<header class="card-header">
  <h1>Vitals telemetry monitor</h1>
  <span class="sub" id="patient-label">No patient selected</span>
  <span class="spacer"></span>
  <span class="pill fresh" id="fresh" data-state="waiting">Waiting for data</span>
  <span class="pill" id="conn" role="status" aria-live="polite" title="Connection to the server">Connecting…</span>
  <span class="sr-only" id="fresh-said" role="status" aria-live="polite"></span>
</header>
<main id="main">
  <form class="pick" id="pick" hidden>
    <div><label for="patient-input">Patient id</label><input id="patient-input" name="patient" required pattern="[A-Za-z0-9.\\-]{1,64}" autocomplete="off"></div>
    <button type="submit">Monitor</button>
  </form>
  <div id="error" class="error" role="alert"></div>
  <div class="monitor-grid">
    <section class="screen" aria-label="Waveform and trends">
      <figure>
        <figcaption><span class="ecg-cap">ECG II</span><span class="hint">25 mm/s · 10 mm/mV · 250 Hz</span><span class="signal" id="ecg-signal" role="status" data-state="waiting">Waiting for ECG</span></figcaption>
        <canvas id="ecg" role="img" aria-label="ECG lead II, live sweep" data-drawn="0"></canvas>
      </figure>
      <figure class="trend">
        <figcaption><span class="spo2-cap">SpO₂ trend</span><span class="hint">%</span></figcaption>
        <canvas id="spo2-trend" role="img" aria-label="SpO2 trend" data-points="0"></canvas>
      </figure>
      <figure class="trend">
        <figcaption><span class="bp-cap">Blood pressure trend</span><span class="hint">mmHg, systolic / diastolic</span></figcaption>
        <canvas id="bp-trend" role="img" aria-label="Blood pressure trend" data-points="0"></canvas>
      </figure>
    </section>
    <section class="numerics" aria-label="Current values">
      ${numericTile(C.heartRate)}
      ${numericTile(C.spo2)}
      <div class="tile wide bp" data-code="bp" data-alarm="none" data-stale="false"><h2>NIBP <span class="lim">sys ${normalCaption(C.systolic)}</span></h2><div><span class="value" id="v-bp">--/--</span><span class="unit">${VITAL_LABELS[C.systolic].unit}</span></div><div class="age" id="age-bp"></div><div class="state"></div></div>
      ${numericTile(C.respiratoryRate)}
      ${numericTile(C.temperature)}
      <section class="news2 wide" id="news2" data-risk="none" data-stale="false" aria-labelledby="news2-h">
        <h2 id="news2-h">NEWS2 total</h2>
        <div class="news2-text" id="news2-text">NEWS2 --</div>
        <div class="news2-detail" id="news2-detail">No values yet</div>
        <p class="news2-note">Monitor parameters only: consciousness (ACVPU) and air/oxygen are not measured here, so the total is a lower bound.</p>
      </section>
    </section>
  </div>
  <section class="alarms" id="alarm-panel" aria-labelledby="alerts-h">
    <h2 id="alerts-h" tabindex="-1">Alarms</h2>
    <p class="alarm-msg" id="alarm-msg" role="alert" hidden></p>
    <p class="list-status" id="no-alerts" data-state="loading">Loading alarms…</p>
    <ul class="alarm-list" id="alerts" aria-label="Active alarms, highest priority first"></ul>
    <h3 id="critical-h">Critical results</h3>
    <p class="list-status" id="critical-status" data-state="loading">Loading critical results…</p>
    <ul class="alarm-list" id="critical-list" aria-labelledby="critical-h"></ul>
    <div class="sr-only" id="alarm-said" aria-live="assertive"></div>
  </section>
  <p class="footer" id="updated">Waiting for data…</p>
</main>
</div>
`;

/** The card's document, with the site's alarm settings (config.alarms) in its data. */
export function monitorCard(alarms: AlarmSettings = DEFAULT_ALARM_SETTINGS): BuiltCard {
  return renderCard({
    name: 'vitals-telemetry-monitor',
    title: 'Vitals telemetry monitor',
    sources: 'monitor',
    body: BODY,
    data: monitorScriptData(alarms),
  });
}

export const monitorHtml = (alarms?: AlarmSettings): string => monitorCard(alarms).html;
