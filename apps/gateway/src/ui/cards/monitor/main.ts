/**
 * vitals-telemetry-monitor (browser code; markup and data in ../../monitor.ts). ECG sweep from a
 * jitter buffer, SpO2 and blood-pressure trends (drawn by ./charts.ts), numerics coloured by the NEWS2 score of the value
 * (./tile-alarm.ts on the injected table), each with its age and a stale mark, the NEWS2 total with
 * its band, the data-freshness badge apart from the connection state (./freshness.ts on the
 * injected thresholds; redrawn every second), and the alarm panel (./alarm-panel.ts): the
 * patient's active alarms and critical results read at open and again on every alarm event of the
 * stream, each with its Acknowledge action for a signed-in clinician.
 * Browser mode: GET /api/v1/vitals/latest, then the live SSE stream. MCP mode: get_latest_vitals,
 * then get_vitals_history every second from a little before the newest time it read (hosts do not
 * forward resource subscriptions to views); the alarm panel polls. Every source goes through one
 * ledger (./ledger.ts), which applies each observation once, whatever order it comes in.
 */
import { must } from '../shared/must';
import { V } from '../shared/runtime';
import { startDelayBanner } from '../shared/delay-banner';
startDelayBanner(); // "Data delayed" banner while the vitals pipeline is late (docs/ui.md)
import { clockSeconds } from '../shared/time';
import type { MonitorData, TileAlarm } from './data';
import { dataFreshness, news2Line, oldestOf, valueAge, type DataState } from './freshness';
import { alarmOf, news2Score, news2Total } from './tile-alarm';
import { startAlarmPanel, type AlarmPanel } from './alarm-panel';
import { drawTrend, fitCanvas, trendPush, type Point } from './charts';
import { ObservationLedger, forgetBeforeMs } from './ledger';
import { startHistoryPoll, type HistoryPoll } from './history-poll';

/** Injected by the card build (../../build.ts) as a JSON literal: the card's only data. */
declare const DATA: MonitorData;

interface Observation {
  patient_id?: string;
  device_id: string;
  seq: number;
  effective_at: string;
  code: string;
  value?: number;
  waveform?: { origin?: number; period_ms?: number; samples: number[] };
}

const C = DATA.code;
const SYS = C.systolic,
  DIA = C.diastolic,
  SPO2 = C.spo2,
  TEMP = C.temperature,
  ECG = C.ecgLeadII;
const ALARM_TEXT: Record<TileAlarm, string> = { none: '', warn: 'Warning', crit: 'Alarm' };
const latest: Record<string, { value: number; at: string }> = {};
/** The newest value time per code, ECG included: what the freshness badge judges. */
const seen: Record<string, string> = {};

/** A tile of the card's markup, and a part of a tile (the markup is the card's own: they are there). */
const tileOf = (code: string) => must(document.querySelector('.tile[data-code="' + code + '"]'), 'the tile of ' + code);
const partOf = (tile: Element, sel: string) => must(tile.querySelector(sel), 'the ' + sel + ' of a tile');

function setTile(tileCode: string, text: string, alarm: TileAlarm, label: string): void {
  const tile = tileOf(tileCode);
  partOf(tile, '.value').textContent = text;
  tile.setAttribute('data-alarm', alarm);
  partOf(tile, '.state').textContent = ALARM_TEXT[alarm] + (alarm !== 'none' && label ? ': ' + label : '');
}
function fmt(code: string, v: number): string {
  return code === TEMP ? v.toFixed(1) : String(Math.round(v));
}

/** A numeric value, once (the ledger): a point of its trend in time order, and its tile's value when it is the newest. */
function onNumeric(o: Observation & { value: number }): void {
  const trend = o.code === SYS ? bpSys : o.code === DIA ? bpDia : o.code === SPO2 ? spo2 : null;
  if (trend) {
    trendPush(trend, o);
    drawTrends();
  }
  const prev = latest[o.code];
  // an older value (stored after a newer one) is a point of the trend, never the tile's value
  if (prev && Date.parse(prev.at) >= Date.parse(o.effective_at)) return;
  latest[o.code] = { value: o.value, at: o.effective_at };
  if (o.code === SYS || o.code === DIA) {
    const s = latest[SYS],
      d = latest[DIA];
    setTile(
      'bp',
      (s ? Math.round(s.value) : '--') + '/' + (d ? Math.round(d.value) : '--'),
      s ? alarmOf(DATA, SYS, s.value) : 'none',
      s ? 'systolic, NEWS2 ' + news2Score(DATA, SYS, s.value) : '',
    );
  } else {
    const a = alarmOf(DATA, o.code, o.value);
    setTile(o.code, fmt(o.code, o.value), a, 'NEWS2 ' + news2Score(DATA, o.code, o.value));
  }
  renderFreshness();
}

// ---- ages, stale marks, the badge, the NEWS2 total (every second: an age grows without new data) ----
function markAge(tileCode: string, text: string, stale: boolean): void {
  const tile = tileOf(tileCode);
  tile.setAttribute('data-stale', String(stale));
  partOf(tile, '.age').textContent = text ? text + ' ago' + (stale ? ' · stale' : '') : '';
}
let saidState: DataState | null = null;
function renderFreshness(): void {
  const now = Date.now();
  for (const [code, v] of Object.entries(latest)) {
    if (code === SYS || code === DIA) continue;
    const a = valueAge(DATA, code, v.at, now);
    markAge(code, a.age, a.stale);
  }
  // blood pressure: the older of its two values, stale when either is
  const bp = [SYS, DIA].flatMap((c) => {
    const v = latest[c];
    return v ? [{ code: c, at: v.at }] : [];
  });
  if (bp.length) {
    const ages = bp.map((b) => valueAge(DATA, b.code, b.at, now));
    const oldest = must(oldestOf(bp.map((b) => b.at)), 'the older blood pressure time');
    markAge(
      'bp',
      valueAge(DATA, SYS, oldest, now).age,
      ages.some((a) => a.stale),
    );
  }
  const f = dataFreshness(DATA, seen, now);
  const badge = V.$('#fresh');
  badge.textContent = f.text;
  badge.setAttribute('data-state', f.state);
  // said once per change of state, not every second
  if (f.state !== saidState) {
    saidState = f.state;
    V.$('#fresh-said').textContent = f.state === 'live' ? 'Live data' : f.state === 'waiting' ? '' : f.text;
  }
  if (f.newestAt) V.$('#updated').textContent = 'Last value ' + clockSeconds(f.newestAt, now);
  const values: Record<string, number> = {};
  for (const [code, v] of Object.entries(latest)) values[code] = v.value;
  const total = news2Total(DATA, values);
  const panel = V.$('#news2');
  if (!total) return;
  const line = news2Line(DATA, total, seen, now);
  V.$('#news2-text').textContent = line.text;
  V.$('#news2-detail').textContent = line.detail;
  panel.setAttribute('data-risk', line.risk);
  panel.setAttribute('data-stale', String(line.stale.length > 0));
}
setInterval(renderFreshness, 1000);

// ---- ECG sweep ----
const ecg = V.$<HTMLCanvasElement>('#ecg'),
  ectx = must(ecg.getContext('2d'), "the ECG canvas's 2D context");
const queue: number[] = []; // pending samples in mV
let periodMs = 4;
const sweepSeconds = 5,
  mvRange = 4;
let x = 0,
  lastY: number | null = null,
  carry = 0,
  lastFrame = 0,
  drawn = 0,
  started = false;
/** The time of the newest chunk queued: the sweep runs forward only. */
let newestChunkAt = -Infinity;
function ecgGrid(): void {
  ectx.fillStyle = '#0b0f14';
  ectx.fillRect(0, 0, ecg.width, ecg.height);
  x = 0;
  lastY = null;
}
// A lead that stops sending (electrode off, device gone) must not leave a frozen trace that
// looks current: after 3 s without a chunk the caption says so.
let lastChunkAt = 0,
  signal = 'waiting';
function setSignal(state: string, text: string): void {
  if (state === signal) return;
  signal = state;
  const el = V.$('#ecg-signal');
  el.setAttribute('data-state', state);
  el.textContent = text;
}
/** An ECG chunk, once (the ledger): queued for the sweep unless a newer chunk is already queued. */
function onEcg(o: Observation): void {
  const at = Date.parse(o.effective_at);
  if (at <= newestChunkAt) return;
  newestChunkAt = at;
  lastChunkAt = performance.now();
  setSignal('ok', 'Signal');
  const w = must(o.waveform, 'the waveform of an ECG observation');
  periodMs = w.period_ms || 4;
  for (const s of w.samples) queue.push((w.origin || 0) + s);
  // Bound the latency: never more than 2 s behind the stream.
  const max = Math.round(2000 / periodMs);
  if (queue.length > max) queue.splice(0, queue.length - max);
}
function frame(now: number): void {
  if (fitCanvas(ecg)) ecgGrid();
  if (!lastFrame) lastFrame = now;
  const elapsed = Math.min(now - lastFrame, 250);
  lastFrame = now;
  // Start after a 300 ms jitter buffer so chunk arrivals do not stutter the sweep.
  if (!started && queue.length * periodMs >= 300) started = true;
  if (started) {
    carry += elapsed / periodMs;
    let n = Math.floor(carry);
    carry -= n;
    if (n > queue.length) {
      n = queue.length;
      carry = 0;
    }
    if (n > 0) drawSamples(queue.splice(0, n));
    if (!queue.length) started = false;
  }
  if (lastChunkAt && !queue.length && now - lastChunkAt > 3000) setSignal('lost', 'No ECG signal');
  requestAnimationFrame(frame);
}
function drawSamples(samples: number[]): void {
  const W = ecg.width,
    H = ecg.height;
  const pxPerSample = W / ((sweepSeconds * 1000) / periodMs);
  const dpr = window.devicePixelRatio || 1;
  ectx.lineWidth = 2 * dpr;
  ectx.strokeStyle = '#4ade80';
  ectx.lineJoin = 'round';
  for (const sample of samples) {
    let y = H / 2 - (sample / mvRange) * H;
    y = Math.max(1, Math.min(H - 1, y));
    let nx = x + pxPerSample;
    if (nx >= W) {
      x = 0;
      nx = pxPerSample;
      lastY = null;
    }
    // The erase bar ahead of the trace: the sweep look of a bedside monitor.
    ectx.fillStyle = '#0b0f14';
    const ex = Math.ceil(nx) + 1; // whole pixels: a fractional edge would leave faint stripes
    ectx.fillRect(ex, 0, Math.min(Math.ceil(14 * dpr), W - ex), H);
    if (lastY !== null) {
      ectx.beginPath();
      ectx.moveTo(x, lastY);
      ectx.lineTo(nx, y);
      ectx.stroke();
    }
    x = nx;
    lastY = y;
  }
  drawn += samples.length;
  ecg.setAttribute('data-drawn', String(drawn));
}
requestAnimationFrame(frame);

// ---- trends ----
const spo2: Point[] = [],
  bpSys: Point[] = [],
  bpDia: Point[] = [];
function drawTrends(): void {
  drawTrend(V.$<HTMLCanvasElement>('#spo2-trend'), [{ points: spo2, colour: '#22d3ee' }], 80, 100, [85, 90, 95, 100]);
  drawTrend(
    V.$<HTMLCanvasElement>('#bp-trend'),
    [
      { points: bpSys, colour: '#f87171' },
      { points: bpDia, colour: '#fca5a5' },
    ],
    30,
    210,
    [60, 90, 120, 150, 180],
  );
  const s = spo2[spo2.length - 1];
  V.$('#spo2-trend').setAttribute('aria-label', 'SpO2 trend, ' + spo2.length + ' points' + (s ? ', latest ' + s.v + ' %' : ''));
  const b = bpSys[bpSys.length - 1];
  V.$('#bp-trend').setAttribute(
    'aria-label',
    'Blood pressure trend, ' + bpSys.length + ' systolic points' + (b ? ', latest systolic ' + b.v + ' mmHg' : ''),
  );
}
window.addEventListener('resize', () => drawTrends());
drawTrends();

const ledger = new ObservationLedger();
let newestAt: string | null = null;
let poll: HistoryPoll | null = null; // MCP mode
function onObservation(o: Observation): void {
  if (!ledger.admit(o)) return; // seen before: the latest values, a tool result, a poll's overlap
  if (!newestAt || Date.parse(o.effective_at) > Date.parse(newestAt)) newestAt = o.effective_at;
  const had = seen[o.code];
  if (!had || Date.parse(o.effective_at) > Date.parse(had)) seen[o.code] = o.effective_at;
  if (o.code === ECG) {
    onEcg(o);
    renderFreshness();
  } else if (typeof o.value === 'number') onNumeric(o as Observation & { value: number });
}
function observationsOf(body: any): Observation[] {
  if (!body) return [];
  if (Array.isArray(body)) return body;
  return body.data || body.observations || body.latest || [];
}

function start(patient: string): void {
  V.$('#patient-label').textContent = 'Patient ' + patient;
  // what is active for the patient now (not only what arrives while the card is open), and acknowledge
  const panel: AlarmPanel = startAlarmPanel(patient, DATA);
  // The name is a courtesy: a monitor token may hold read:vitals only (then no refused request).
  if (V.mayUse(['read:patients', 'write:patients'])) {
    V.op('get_patient', { patient_id: patient }, { path: '/api/v1/patients/' + encodeURIComponent(patient) }).then(
      (p) => {
        // REST: { patient: FHIR Patient (name[0].given/family) }; MCP tool: { patient: { name: 'Given Family' } }
        const r = p && p.patient;
        const n =
          r && (typeof r.name === 'string' ? r.name : r.name && r.name[0] && (r.name[0].given || []).join(' ') + ' ' + r.name[0].family);
        if (n) V.$('#patient-label').textContent = n.trim() + ' · ' + patient;
      },
      () => {
        /* demographics are optional here: the token may hold read:vitals only */
      },
    );
  }
  V.op('get_latest_vitals', { patient_id: patient }, { path: '/api/v1/vitals/latest?patient=' + encodeURIComponent(patient) }).then(
    (body) => {
      observationsOf(body).forEach(onObservation);
    },
    V.showError,
  );
  if (V.mode === 'mcp') {
    // Hosts do not forward resource subscriptions to a view: get_vitals_history every second (raw
    // rows, ECG chunks included; ./history-poll.ts), so the sweep and the trends stay complete.
    // the connection only: whether data is fresh is the badge's (#fresh)
    V.setStatus('Polling', 'connected');
    poll = startHistoryPoll(patient, V.callTool, observationsOf, onObservation, V.showError);
    return;
  }
  V.stream(
    '/api/v1/vitals/stream?patient=' + encodeURIComponent(patient),
    (event, data) => {
      if (event === 'observation') onObservation(data);
      else if (event === 'alert' || event === 'alarm' || event === 'critical-result') panel.onStreamEvent(event, data);
      else if (event === 'closed' && data && (data.reason === 'revoked' || data.reason === 'expired'))
        V.showError(new Error('Session ended (' + data.reason + '): sign in again.'));
    },
    (state, err) => {
      // the connection only: "Live" is the badge's word, and only for fresh data (#fresh)
      if (state === 'live') {
        V.setStatus('Connected', 'connected');
        V.showError(null);
        // notices are not replayed: what changed while the stream was down is read again
        panel.onStreamEvent('connected', null);
      } else if (state === 'error') {
        V.setStatus('Disconnected', 'error');
        V.showError(err);
      } else V.setStatus(state === 'connecting' ? 'Connecting…' : 'Reconnecting…', '');
    },
  );
}

// What no later read can give again is forgotten (a card stays open for hours).
setInterval(() => {
  if (newestAt === null) return;
  ledger.forgetBefore(forgetBeforeMs(Date.parse(newestAt), poll ? poll.nextFromMs() : null));
}, 10_000);

let current: string | null = null;
function watch(patient: string | undefined): void {
  if (!patient || patient === current) return;
  if (current) return; // one patient per card instance
  current = patient;
  V.$('#pick').hidden = true;
  start(patient);
}
// Inside an MCP host the patient comes with the tool call the card is shown for.
V.onToolInput((args) => watch(args.patient_id));
V.onToolResult((r) => {
  if (r && r.patient_id) watch(r.patient_id);
  observationsOf(r).forEach(onObservation);
});
const patient = V.params.patient;
if (patient) watch(patient);
else {
  const form = V.$<HTMLFormElement>('#pick');
  form.hidden = false;
  V.setStatus('Idle', '');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    watch(V.$<HTMLInputElement>('#patient-input').value.trim());
  });
}
