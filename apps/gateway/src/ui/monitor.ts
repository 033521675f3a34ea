/**
 * vitals-telemetry-monitor: a bedside-monitor view of one patient. ECG lead II (250 Hz chunks:
 * origin, period_ms, samples) drawn as a sweep with requestAnimationFrame from a small jitter
 * buffer, SpO2 and blood-pressure trend graphs, HR/SpO2/BP/RR/Temp numerics coloured by the NEWS2
 * score of the value, and the server's alerts in an assertive live region.
 * The tile colours hold no number of their own: the card's script receives the NEWS2 band table of
 * @vitalis/clinical as JSON data (`MONITOR_SCRIPT_DATA`) and scores each value on it
 * (`TILE_ALARM_SCRIPT`), so the bedside colours cannot drift from the score the server computes
 * (test/unit/ui/monitor-alarms.test.ts pins every band edge).
 * Browser mode: latest values from GET /api/v1/vitals/latest, then the live SSE stream.
 * MCP mode: get_latest_vitals once, then get_vitals_history for everything newer, every second
 * (hosts do not forward resource subscriptions to views).
 */
import { news2ZeroBand, NEWS2_SCALE_BY_VITAL_CODE, type News2Score } from '@vitalis/clinical';
import { VITAL_CODE, type NumericVitalCode } from '@vitalis/schemas';
import { renderCard } from './shared';
import { scriptData, VITAL_LABELS } from './vitals';

export type TileAlarm = 'none' | 'warn' | 'crit';

/**
 * Tile colour per NEWS2 parameter score. In NEWS2 a single parameter scoring 3 (a "red score") is on
 * its own a trigger for an urgent review by a clinician, whatever the aggregate: the critical colour
 * ("Alarm"). 1 and 2 are abnormal and count toward the aggregate but do not trigger alone: the
 * warning colour ("Warning"). 0 is the parameter's normal band: no colour.
 */
export const TILE_ALARM_BY_NEWS2_SCORE: Readonly<Record<News2Score, TileAlarm>> = { 0: 'none', 1: 'warn', 2: 'warn', 3: 'crit' };

/** What the card's script reads (serialised into the document): codes by name, NEWS2 scale per code, alarm per score. */
export const MONITOR_SCRIPT_DATA = {
  code: VITAL_CODE,
  scales: NEWS2_SCALE_BY_VITAL_CODE,
  alarmByScore: TILE_ALARM_BY_NEWS2_SCORE,
} as const;

/**
 * Browser JS, part of the card's script (and evaluated as is by the unit test): a value's NEWS2
 * score on the injected scale, as `news2BandScore` computes it (rounded to the charted decimals,
 * first band whose inclusive upper bound holds it), and the tile alarm of that score.
 */
export const TILE_ALARM_SCRIPT = String.raw`
  function news2Score(code, v) {
    var scale = DATA.scales[code];
    if (!scale) return null;
    var f = Math.pow(10, scale.decimals), charted = Math.round(v * f) / f;
    for (var i = 0; i < scale.bands.length; i++) {
      var band = scale.bands[i];
      if (band[0] === null || charted <= band[0]) return band[1];
    }
    return null;
  }
  function alarmOf(code, v) {
    var score = news2Score(code, v);
    return score === null ? 'none' : DATA.alarmByScore[score];
  }
`;

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
  return `<div class="tile" data-code="${code}" data-alarm="none"><h2>${label} <span class="lim">${normalCaption(code)}</span></h2><div><span class="value" id="v-${code}">--</span><span class="unit">${unit}</span></div><div class="state"></div></div>`;
}

const C = VITAL_CODE;

const STYLE = `
.monitor-grid{display:grid;grid-template-columns:minmax(0,1fr) 300px;gap:12px}
@media (max-width:800px){.monitor-grid{grid-template-columns:1fr}}
.screen{background:#0b0f14;border-radius:8px;padding:8px 10px;color:#e6edf3}
figure{margin:0 0 8px}
figcaption{font-size:.85rem;font-weight:600;display:flex;gap:8px;color:#c9d4df}
figcaption .hint{font-weight:400;color:#9fb0c0}
.signal{margin-left:auto;font-weight:600;color:#9fb0c0}
.signal[data-state=lost]{color:#0b0f14;background:var(--warn-bg);border-radius:4px;padding:0 6px}
.signal[data-state=ok]{color:#4ade80}
canvas{display:block;width:100%;background:#0b0f14}
#ecg{height:180px}
.trend canvas{height:110px}
.ecg-cap{color:#4ade80}.spo2-cap{color:#22d3ee}.bp-cap{color:#f87171}
.numerics{display:grid;grid-template-columns:1fr 1fr;gap:8px;align-content:start}
.tile{background:#0b0f14;border:2px solid #24303c;border-radius:8px;padding:6px 10px;color:#e6edf3;min-height:92px}
.tile.wide{grid-column:span 2}
.tile h2{margin:0;font-size:.85rem;font-weight:650;display:flex;justify-content:space-between}
.tile h2 .lim{font-weight:400;color:#9fb0c0;font-size:.75rem}
.tile .value{font-size:2.4rem;font-weight:700;font-variant-numeric:tabular-nums;line-height:1.1}
.tile .unit{font-size:.8rem;color:#9fb0c0;margin-left:4px}
.tile[data-code="${C.heartRate}"] .value{color:#4ade80}
.tile[data-code="${C.spo2}"] .value{color:#22d3ee}
.tile[data-code="bp"] .value{color:#fca5a5}
.tile[data-code="${C.respiratoryRate}"] .value{color:#fde047}
.tile[data-code="${C.temperature}"] .value{color:#e6edf3}
.tile[data-alarm=warn]{background:var(--warn-bg);border-color:#b7791f}
.tile[data-alarm=warn] .value,.tile[data-alarm=warn] h2,.tile[data-alarm=warn] .unit,.tile[data-alarm=warn] .lim,.tile[data-alarm=warn] .state{color:var(--warn-ink)}
.tile[data-alarm=crit]{background:var(--crit);border-color:#fff}
.tile[data-alarm=crit] .value,.tile[data-alarm=crit] h2,.tile[data-alarm=crit] .unit,.tile[data-alarm=crit] .lim,.tile[data-alarm=crit] .state{color:#fff}
.tile .state{font-size:.75rem;font-weight:700;text-transform:uppercase;min-height:1em}
@media (prefers-reduced-motion:no-preference){.tile[data-alarm=crit]{animation:pulse 1s ease-in-out infinite alternate}}
@keyframes pulse{from{box-shadow:0 0 0 0 rgba(179,38,30,.7)}to{box-shadow:0 0 0 6px rgba(179,38,30,0)}}
.alarms{margin-top:12px}
.alarms h2{font-size:1rem;margin:0 0 6px}
#alerts{list-style:none;margin:0;padding:0;display:grid;gap:6px}
#alerts li{border-radius:6px;padding:6px 10px;border:1px solid var(--line);background:#fff}
#alerts li[data-severity=high]{background:var(--crit);color:#fff;border-color:var(--crit)}
#alerts li[data-severity=medium]{background:var(--warn-bg);color:var(--warn-ink)}
#alerts li[data-state=cleared]{background:#fff;color:var(--muted);border-style:dashed}
.pick{display:flex;gap:8px;align-items:end;margin-bottom:12px}
.pick[hidden]{display:none}
`;

const BODY = `
<div class="card">
<header class="card-header">
  <h1>Vitals telemetry monitor</h1>
  <span class="sub" id="patient-label">No patient selected</span>
  <span class="spacer"></span>
  <span class="pill" id="conn" role="status" aria-live="polite">Connecting…</span>
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
      <div class="tile wide" data-code="bp" data-alarm="none"><h2>NIBP <span class="lim">sys ${normalCaption(C.systolic)}</span></h2><div><span class="value" id="v-bp">--/--</span><span class="unit">${VITAL_LABELS[C.systolic].unit}</span></div><div class="state"></div></div>
      ${numericTile(C.respiratoryRate)}
      ${numericTile(C.temperature)}
    </section>
  </div>
  <section class="alarms" aria-labelledby="alerts-h">
    <h2 id="alerts-h">Alarms</h2>
    <p class="muted" id="no-alerts">No active alarms.</p>
    <ul id="alerts" aria-live="assertive" aria-relevant="additions text"></ul>
  </section>
  <p class="footer" id="updated">Waiting for data…</p>
</main>
</div>
`;

const SCRIPT = String.raw`
(function () {
  'use strict';
  var V = window.Vitalis;
  var DATA = ${scriptData(MONITOR_SCRIPT_DATA)};
  var C = DATA.code;
  var SYS = C.systolic, DIA = C.diastolic, SPO2 = C.spo2, TEMP = C.temperature, ECG = C.ecgLeadII;
${TILE_ALARM_SCRIPT}  var ALARM_TEXT = { none: '', warn: 'Warning', crit: 'Alarm' };
  var latest = {};

  function setTile(tileCode, text, alarm, label) {
    var tile = document.querySelector('.tile[data-code="' + tileCode + '"]');
    var value = tile.querySelector('.value');
    value.textContent = text;
    tile.setAttribute('data-alarm', alarm);
    tile.querySelector('.state').textContent = ALARM_TEXT[alarm] + (alarm !== 'none' && label ? ': ' + label : '');
  }
  function fmt(code, v) { return code === TEMP ? v.toFixed(1) : String(Math.round(v)); }
  function worse(a, b) { var r = { none: 0, warn: 1, crit: 2 }; return r[a] >= r[b] ? a : b; }

  function onNumeric(o) {
    var prev = latest[o.code];
    // An older value never overwrites a newer one; the same one again (a poll) is not a new point.
    if (prev && Date.parse(prev.at) >= Date.parse(o.effective_at)) return;
    latest[o.code] = { value: o.value, at: o.effective_at };
    if (o.code === SYS || o.code === DIA) {
      var s = latest[SYS], d = latest[DIA];
      setTile('bp', (s ? Math.round(s.value) : '--') + '/' + (d ? Math.round(d.value) : '--'), s ? alarmOf(SYS, s.value) : 'none', s ? 'systolic, NEWS2 ' + news2Score(SYS, s.value) : '');
      trendPush(o.code === SYS ? bpSys : bpDia, o);
      drawTrends();
    } else {
      var a = alarmOf(o.code, o.value);
      setTile(o.code, fmt(o.code, o.value), a, 'NEWS2 ' + news2Score(o.code, o.value));
      if (o.code === SPO2) { trendPush(spo2, o); drawTrends(); }
    }
    V.$('#updated').textContent = 'Last value ' + new Date(o.effective_at).toLocaleTimeString();
  }

  // ---- ECG sweep ----
  var ecg = V.$('#ecg'), ectx = ecg.getContext('2d');
  var queue = [];             // pending samples in mV
  var periodMs = 4, sweepSeconds = 5, mvRange = 4;
  var x = 0, lastY = null, carry = 0, lastFrame = 0, drawn = 0, started = false;
  var lastEcgSeq = -1;
  function fitCanvas(c) {
    var dpr = window.devicePixelRatio || 1;
    var w = Math.max(1, Math.round(c.clientWidth * dpr)), h = Math.max(1, Math.round(c.clientHeight * dpr));
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; return true; }
    return false;
  }
  function ecgGrid() {
    ectx.fillStyle = '#0b0f14';
    ectx.fillRect(0, 0, ecg.width, ecg.height);
    x = 0; lastY = null;
  }
  // A lead that stops sending (electrode off, device gone) must not leave a frozen trace that
  // looks current: after 3 s without a chunk the caption says so.
  var lastChunkAt = 0, signal = 'waiting';
  function setSignal(state, text) {
    if (state === signal) return;
    signal = state;
    var el = V.$('#ecg-signal');
    el.setAttribute('data-state', state);
    el.textContent = text;
  }
  function onEcg(o) {
    if (o.device_id + ':' + o.seq === lastEcgSeq) return;
    lastEcgSeq = o.device_id + ':' + o.seq;
    lastChunkAt = performance.now();
    setSignal('ok', 'Signal');
    var w = o.waveform;
    periodMs = w.period_ms || 4;
    for (var i = 0; i < w.samples.length; i++) queue.push((w.origin || 0) + w.samples[i]);
    // Bound the latency: never more than 2 s behind the stream.
    var max = Math.round(2000 / periodMs);
    if (queue.length > max) queue.splice(0, queue.length - max);
  }
  function frame(now) {
    if (fitCanvas(ecg)) ecgGrid();
    if (!lastFrame) lastFrame = now;
    var elapsed = Math.min(now - lastFrame, 250);
    lastFrame = now;
    // Start after a 300 ms jitter buffer so chunk arrivals do not stutter the sweep.
    if (!started && queue.length * periodMs >= 300) started = true;
    if (started) {
      carry += elapsed / periodMs;
      var n = Math.floor(carry);
      carry -= n;
      if (n > queue.length) { n = queue.length; carry = 0; }
      if (n > 0) drawSamples(queue.splice(0, n));
      if (!queue.length) started = false;
    }
    if (lastChunkAt && !queue.length && now - lastChunkAt > 3000) setSignal('lost', 'No ECG signal');
    requestAnimationFrame(frame);
  }
  function drawSamples(samples) {
    var W = ecg.width, H = ecg.height;
    var pxPerSample = W / (sweepSeconds * 1000 / periodMs);
    var dpr = window.devicePixelRatio || 1;
    ectx.lineWidth = 2 * dpr;
    ectx.strokeStyle = '#4ade80';
    ectx.lineJoin = 'round';
    for (var i = 0; i < samples.length; i++) {
      var y = H / 2 - (samples[i] / mvRange) * H;
      y = Math.max(1, Math.min(H - 1, y));
      var nx = x + pxPerSample;
      if (nx >= W) { x = 0; nx = pxPerSample; lastY = null; }
      // The erase bar ahead of the trace: the sweep look of a bedside monitor.
      ectx.fillStyle = '#0b0f14';
      var ex = Math.ceil(nx) + 1; // whole pixels: a fractional edge would leave faint stripes
      ectx.fillRect(ex, 0, Math.min(Math.ceil(14 * dpr), W - ex), H);
      if (lastY !== null) {
        ectx.beginPath();
        ectx.moveTo(x, lastY);
        ectx.lineTo(nx, y);
        ectx.stroke();
      }
      x = nx; lastY = y;
    }
    drawn += samples.length;
    ecg.setAttribute('data-drawn', String(drawn));
  }
  requestAnimationFrame(frame);

  // ---- trends ----
  var spo2 = [], bpSys = [], bpDia = [];
  function trendPush(arr, o) {
    arr.push({ t: Date.parse(o.effective_at), v: o.value });
    arr.sort(function (a, b) { return a.t - b.t; });
    if (arr.length > 720) arr.splice(0, arr.length - 720);
  }
  function drawTrend(canvas, series, lo, hi, gridAt) {
    fitCanvas(canvas);
    var c = canvas.getContext('2d'), W = canvas.width, H = canvas.height, dpr = window.devicePixelRatio || 1;
    c.fillStyle = '#0b0f14'; c.fillRect(0, 0, W, H);
    var all = [];
    series.forEach(function (s) { all = all.concat(s.points); });
    var left = 34 * dpr;
    c.font = (11 * dpr) + 'px system-ui, sans-serif';
    c.fillStyle = '#9fb0c0'; c.strokeStyle = '#24303c'; c.lineWidth = 1;
    gridAt.forEach(function (g) {
      var y = H - ((g - lo) / (hi - lo)) * H;
      c.beginPath(); c.moveTo(left, y); c.lineTo(W, y); c.stroke();
      c.fillText(String(g), 2 * dpr, Math.min(H - 2, Math.max(10 * dpr, y + 4 * dpr)));
    });
    if (!all.length) return;
    var tMax = Math.max.apply(null, all.map(function (p) { return p.t; }));
    var tMin = Math.min(tMax - 60000, Math.min.apply(null, all.map(function (p) { return p.t; })));
    var span = Math.max(1, tMax - tMin);
    // time axis: the window's start and end (HH:MM:SS), bottom corners
    c.fillStyle = '#9fb0c0';
    var t0 = new Date(tMin).toLocaleTimeString(), t1 = new Date(tMax).toLocaleTimeString();
    c.fillText(t0, left + 4 * dpr, H - 3 * dpr);
    c.fillText(t1, W - c.measureText(t1).width - 4 * dpr, H - 3 * dpr);
    series.forEach(function (s) {
      c.strokeStyle = s.colour; c.fillStyle = s.colour; c.lineWidth = 2 * dpr;
      c.beginPath();
      s.points.forEach(function (p, i) {
        var px = left + 4 * dpr + ((p.t - tMin) / span) * (W - left - 10 * dpr);
        var py = H - ((Math.max(lo, Math.min(hi, p.v)) - lo) / (hi - lo)) * H;
        if (i === 0) c.moveTo(px, py); else c.lineTo(px, py);
      });
      c.stroke();
      s.points.forEach(function (p) {
        var px = left + 4 * dpr + ((p.t - tMin) / span) * (W - left - 10 * dpr);
        var py = H - ((Math.max(lo, Math.min(hi, p.v)) - lo) / (hi - lo)) * H;
        c.beginPath(); c.arc(px, py, 2.5 * dpr, 0, Math.PI * 2); c.fill();
      });
    });
    canvas.setAttribute('data-points', String(all.length));
  }
  function drawTrends() {
    drawTrend(V.$('#spo2-trend'), [{ points: spo2, colour: '#22d3ee' }], 80, 100, [85, 90, 95, 100]);
    drawTrend(V.$('#bp-trend'), [{ points: bpSys, colour: '#f87171' }, { points: bpDia, colour: '#fca5a5' }], 30, 210, [60, 90, 120, 150, 180]);
    var s = spo2[spo2.length - 1];
    V.$('#spo2-trend').setAttribute('aria-label', 'SpO2 trend, ' + spo2.length + ' points' + (s ? ', latest ' + s.v + ' %' : ''));
    var b = bpSys[bpSys.length - 1];
    V.$('#bp-trend').setAttribute('aria-label', 'Blood pressure trend, ' + bpSys.length + ' systolic points' + (b ? ', latest systolic ' + b.v + ' mmHg' : ''));
  }
  window.addEventListener('resize', function () { drawTrends(); });
  drawTrends();

  // ---- alerts ----
  var alerts = new Map();
  function onAlert(a) {
    alerts.set(a.rule, a);
    var list = V.$('#alerts');
    list.textContent = '';
    var active = 0;
    Array.from(alerts.values()).forEach(function (al) {
      if (al.state !== 'cleared') active++;
      list.append(V.el('li', { 'data-rule': al.rule, 'data-severity': al.severity, 'data-state': al.state,
        text: (al.state === 'cleared' ? 'Cleared: ' : '') + (al.message || al.rule) }));
    });
    V.$('#no-alerts').hidden = active > 0;
  }

  var newestAt = null;
  function onObservation(o) {
    if (!newestAt || Date.parse(o.effective_at) > Date.parse(newestAt)) newestAt = o.effective_at;
    if (o.code === ECG) onEcg(o);
    else if (typeof o.value === 'number') onNumeric(o);
  }
  function observationsOf(body) {
    if (!body) return [];
    if (Array.isArray(body)) return body;
    return body.data || body.observations || body.latest || [];
  }

  function start(patient) {
    V.$('#patient-label').textContent = 'Patient ' + patient;
    // The name is a courtesy: a monitor token may hold read:vitals only (then no refused request).
    if (V.mayUse(['read:patients', 'write:patients'])) V.op('get_patient', { patient_id: patient }, { path: '/api/v1/patients/' + encodeURIComponent(patient) }).then(function (p) {
      // REST: { patient: FHIR Patient (name[0].given/family) }; MCP tool: { patient: { name: 'Given Family' } }
      var r = p && p.patient;
      var n = r && (typeof r.name === 'string' ? r.name : r.name && r.name[0] && ((r.name[0].given || []).join(' ') + ' ' + r.name[0].family));
      if (n) V.$('#patient-label').textContent = n.trim() + ' · ' + patient;
    }, function () { /* demographics are optional here: the token may hold read:vitals only */ });
    V.op('get_latest_vitals', { patient_id: patient }, { path: '/api/v1/vitals/latest?patient=' + encodeURIComponent(patient) }).then(function (body) {
      observationsOf(body).forEach(onObservation);
    }, V.showError);
    if (V.mode === 'mcp') {
      // Hosts do not forward resource subscriptions to a view: read everything newer than the
      // newest observation seen, every second, with get_vitals_history (raw rows, ECG chunks
      // included), so the sweep and the trends stay complete.
      V.setStatus('Live (polling)', 'live');
      var busy = false;
      setInterval(function () {
        if (busy) return;
        busy = true;
        var from = newestAt ? new Date(Date.parse(newestAt) + 1).toISOString() : new Date(Date.now() - 10000).toISOString();
        var to = new Date(Date.now() + 60000).toISOString(); // device clocks may run a little ahead
        V.callTool('get_vitals_history', { patient_id: patient, from: from, to: to, limit: 500 }).then(function (b) {
          busy = false;
          V.showError(null);
          observationsOf(b).forEach(onObservation);
        }, function (err) { busy = false; V.showError(err); });
      }, 1000);
      return;
    }
    V.stream('/api/v1/vitals/stream?patient=' + encodeURIComponent(patient), function (event, data) {
      if (event === 'observation') onObservation(data);
      else if (event === 'alert') onAlert(data);
      else if (event === 'closed' && data && (data.reason === 'revoked' || data.reason === 'expired')) V.showError(new Error('Session ended (' + data.reason + '): sign in again.'));
    }, function (state, err) {
      if (state === 'live') { V.setStatus('Live', 'live'); V.showError(null); }
      else if (state === 'error') { V.setStatus('Disconnected', 'error'); V.showError(err); }
      else V.setStatus(state === 'connecting' ? 'Connecting…' : 'Reconnecting…', '');
    });
  }

  var current = null;
  function watch(patient) {
    if (!patient || patient === current) return;
    if (current) return; // one patient per card instance
    current = patient;
    V.$('#pick').hidden = true;
    start(patient);
  }
  // Inside an MCP host the patient comes with the tool call the card is shown for.
  V.onToolInput(function (args) { watch(args.patient_id); });
  V.onToolResult(function (r) {
    if (r && r.patient_id) watch(r.patient_id);
    observationsOf(r).forEach(onObservation);
  });
  var patient = V.params.patient;
  if (patient) watch(patient);
  else {
    var form = V.$('#pick');
    form.hidden = false;
    V.setStatus('Idle', '');
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      watch(V.$('#patient-input').value.trim());
    });
  }
})();
`;

export function monitorHtml(): string {
  return renderCard({ name: 'vitals-telemetry-monitor', title: 'Vitals telemetry monitor', style: STYLE, body: BODY, script: SCRIPT });
}
