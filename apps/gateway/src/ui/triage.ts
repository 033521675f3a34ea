/**
 * emergency-triage-board: the ED board. Patients sorted by ESI (1 resuscitation … 5 non-urgent)
 * then arrival, each with the chief complaint, waiting time, NEWS2 (colour by RCP risk band),
 * latest vitals, active vitals alerts and unacknowledged critical diagnostic results (with
 * read:diagnostics; shown until a clinician acknowledges them, escalated ones marked). Live: the board is re-read every 3 s (GET
 * /api/v1/triage or the get_triage_board tool); changes are announced politely (new arrivals,
 * ESI changes, new alerts), the board itself is not a live region (it would flood a screen reader).
 * Holders of write:triage re-triage from the board (a modal dialog; PUT …/esi with If-Match, or
 * set_triage_level with expected_version), so a change made meanwhile by someone else is refused.
 */
import { VITAL_CODE } from '@vitalis/schemas';
import { renderCard } from './shared';
import { scriptData } from './vitals';

/** The board's vitals columns per code. */
const VITAL_COLUMNS = {
  [VITAL_CODE.heartRate]: 'hr',
  [VITAL_CODE.spo2]: 'spo2',
  [VITAL_CODE.systolic]: 'sys',
  [VITAL_CODE.diastolic]: 'dia',
  [VITAL_CODE.respiratoryRate]: 'rr',
  [VITAL_CODE.temperature]: 'temp',
};

/** ESI colours, the convention of ED boards; text colours keep ≥ 4.5:1 contrast. */
const STYLE = `
.summary{display:flex;gap:8px;flex-wrap:wrap;margin:0 0 12px;padding:0;list-style:none}
.summary li{border-radius:6px;padding:4px 10px;font-weight:650;font-size:.9rem}
.esi-1{background:#b3261e;color:#fff}
.esi-2{background:#c2410c;color:#fff}
.esi-3{background:#ffd23f;color:#2b2100}
.esi-4{background:#1f7a3a;color:#fff}
.esi-5{background:#1d4ed8;color:#fff}
.board tbody tr{border-left:6px solid transparent}
.board tbody tr[data-esi="1"]{border-left-color:#b3261e}
.board tbody tr[data-esi="2"]{border-left-color:#c2410c}
.board tbody tr[data-esi="3"]{border-left-color:#e0b000}
.board tbody tr[data-esi="4"]{border-left-color:#1f7a3a}
.board tbody tr[data-esi="5"]{border-left-color:#1d4ed8}
.board td.esi{width:150px}
.badge{display:inline-flex;align-items:center;gap:6px;border-radius:6px;padding:3px 8px;font-weight:700;white-space:nowrap}
.badge .n{font-size:1.15rem}
.badge .l{font-size:.75rem;font-weight:600}
.name{font-weight:650}
.pid{color:var(--muted);font-size:.8rem}
.num{font-variant-numeric:tabular-nums;white-space:nowrap}
.news2{display:inline-block;min-width:2.4em;text-align:center;border-radius:6px;padding:2px 6px;font-weight:700;border:1px solid var(--line)}
.news2[data-risk=high]{background:#b3261e;color:#fff;border-color:#b3261e}
.news2[data-risk=medium]{background:#c2410c;color:#fff;border-color:#c2410c}
.news2[data-risk=low-medium]{background:#ffd23f;color:#2b2100;border-color:#e0b000}
.news2 .risk{display:block;font-size:.7rem;font-weight:600}
.alert-tag{display:inline-block;background:#fdecea;color:#7a1410;border:1px solid #b3261e;border-radius:4px;padding:1px 6px;font-size:.8rem;margin:0 4px 4px 0}
.critical-tag{display:inline-block;background:#b3261e;color:#fff;border:1px solid #7a1410;border-radius:4px;padding:1px 6px;font-size:.8rem;font-weight:700;margin:0 4px 4px 0}
.critical-tag[data-state=escalated]{outline:3px solid #ffd23f}
.board tbody tr.changed td{background:#fff7d6}
@media (prefers-reduced-motion:no-preference){.board tbody tr.changed td{transition:background 2s}}
.empty{padding:24px;text-align:center;color:var(--muted)}
.table-wrap{overflow-x:auto}
caption{text-align:left;font-weight:650;padding:0 0 6px}
.retriage{margin-top:4px;min-height:28px;padding:2px 8px;font-size:.8rem}
dialog{border:1px solid var(--line);border-radius:10px;padding:16px 18px;max-width:420px;width:90vw;color:var(--ink)}
dialog::backdrop{background:rgba(27,36,48,.45)}
dialog h2{margin:0 0 10px;font-size:1.1rem}
.levels{display:grid;gap:6px;margin:0 0 10px;border:0;padding:0}
.levels legend{font-weight:600;font-size:.9rem;margin-bottom:6px;padding:0}
.levels label{display:flex;align-items:center;gap:8px;font-weight:600;margin:0;border-radius:6px;padding:4px 8px}
.levels input{min-height:auto}
dialog textarea{width:100%}
dialog .actions{display:flex;gap:8px;justify-content:flex-end;margin-top:12px}
`;

const BODY = `
<div class="card">
<header class="card-header">
  <h1>Emergency department · triage board</h1>
  <span class="sub" id="count">–</span>
  <span class="spacer"></span>
  <span class="pill" id="conn" role="status">Connecting…</span>
</header>
<main id="main">
  <div id="error" class="error" role="alert"></div>
  <ul class="summary" id="summary" aria-label="Patients per ESI level"></ul>
  <div class="panel table-wrap">
    <table class="board" aria-describedby="sort-note">
      <caption>Patients in the department</caption>
      <thead><tr>
        <th scope="col">ESI</th><th scope="col">Patient</th><th scope="col">Chief complaint</th><th scope="col">Arrived</th>
        <th scope="col">NEWS2</th><th scope="col">HR</th><th scope="col">SpO₂</th><th scope="col">BP</th><th scope="col">RR</th><th scope="col">Temp</th><th scope="col">Alerts</th>
      </tr></thead>
      <tbody id="rows"><tr><td colspan="11" class="empty">Loading…</td></tr></tbody>
    </table>
  </div>
  <p class="footer"><span id="sort-note">Sorted by ESI level, then arrival time.</span> <span id="updated"></span></p>
  <div class="sr-only" id="announce" aria-live="polite"></div>
  <dialog id="retriage" aria-labelledby="retriage-h">
    <form id="retriage-form" method="dialog">
      <h2 id="retriage-h">Re-triage</h2>
      <fieldset class="levels"><legend>Emergency Severity Index</legend>
        <label class="esi-1"><input type="radio" name="esi" value="1" required> 1 · Resuscitation</label>
        <label class="esi-2"><input type="radio" name="esi" value="2"> 2 · Emergent</label>
        <label class="esi-3"><input type="radio" name="esi" value="3"> 3 · Urgent</label>
        <label class="esi-4"><input type="radio" name="esi" value="4"> 4 · Less urgent</label>
        <label class="esi-5"><input type="radio" name="esi" value="5"> 5 · Non-urgent</label>
      </fieldset>
      <label for="retriage-reason">Reason <span class="muted">(optional)</span></label>
      <textarea id="retriage-reason" name="reason" rows="2" maxlength="500"></textarea>
      <div id="retriage-error" class="error" role="alert"></div>
      <div class="actions"><button type="button" class="secondary" id="retriage-cancel">Cancel</button><button type="submit" id="retriage-save">Save ESI level</button></div>
    </form>
  </dialog>
</main>
</div>
`;

const SCRIPT = String.raw`
(function () {
  'use strict';
  var V = window.Vitalis;
  var LABEL = { 1: 'Resuscitation', 2: 'Emergent', 3: 'Urgent', 4: 'Less urgent', 5: 'Non-urgent' };
  var RISK = { high: 'High', medium: 'Medium', 'low-medium': 'Low–medium', low: 'Low' };
  var VITALS = ${scriptData(VITAL_COLUMNS)};
  var RULES = { 'hr-high': 'HR > 130', 'spo2-low': 'SpO₂ < 90 %', 'news2-high': 'NEWS2 ≥ 7' };
  var previous = null;

  function entriesOf(body) {
    if (!body) return [];
    if (Array.isArray(body)) return body;
    return body.entries || body.board || [];
  }
  function waited(iso) {
    var min = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
    return min < 60 ? min + ' min' : Math.floor(min / 60) + ' h ' + (min % 60) + ' min';
  }
  function vitalsOf(e) {
    var v = {};
    (e.latest_vitals || []).forEach(function (x) { if (VITALS[x.code]) v[VITALS[x.code]] = x.value; });
    return v;
  }
  function cell(text, cls) { return V.el('td', { class: cls, text: text === undefined ? '–' : String(text) }); }

  var lastJson = null;
  function render(entries) {
    // Re-render only on a change (or a new minute of waiting time): a poll must not steal focus.
    var json = JSON.stringify(entries) + Math.floor(Date.now() / 60000);
    if (json === lastJson) { V.$('#updated').textContent = 'Updated ' + new Date().toLocaleTimeString() + '.'; return; }
    lastJson = json;
    var focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#rows tr[data-patient]');
    var focusedId = focused ? focused.getAttribute('data-patient') : null;
    entries = entries.slice().sort(function (a, b) {
      return a.esi - b.esi || Date.parse(a.arrived_at) - Date.parse(b.arrived_at) || (a.patient_id < b.patient_id ? -1 : 1);
    });
    var tbody = V.$('#rows');
    tbody.textContent = '';
    var counts = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
    var news = [];
    var now = new Map();
    entries.forEach(function (e) {
      counts[e.esi] = (counts[e.esi] || 0) + 1;
      now.set(e.patient_id, e);
      var old = previous && previous.get(e.patient_id);
      if (previous && !old) news.push((e.name || e.patient_id) + ' arrived, ESI ' + e.esi);
      else if (old && old.esi !== e.esi) news.push((e.name || e.patient_id) + ' is now ESI ' + e.esi);
      var v = vitalsOf(e);
      // No vitals yet: no score (an all-missing NEWS2 of 0 would read as "well").
      var n2 = e.news2 && (e.latest_vitals || []).length ? e.news2 : null;
      var n2cell = V.el('td', {}, n2
        ? [V.el('span', { class: 'news2', 'data-risk': n2.risk, 'aria-label': 'NEWS2 ' + n2.score + ', ' + (RISK[n2.risk] || n2.risk) + ' risk' }, [
            document.createTextNode(String(n2.score)), V.el('span', { class: 'risk', text: RISK[n2.risk] || n2.risk })])]
        : [V.el('span', { class: 'muted', text: '–', title: 'No vitals yet' })]);
      var critical = (e.critical_results || []).map(function (c) {
        var what = (c.results || []).map(function (r) {
          return String(r.display || r.code).split(' [')[0] + ' ' + (r.value !== undefined ? r.value + ' ' + (r.unit || '') : (r.text || '')) + ' (' + r.interpretation + ')';
        }).join(', ');
        if (previous && (!old || !(old.critical_results || []).some(function (o) { return o.critical_id === c.critical_id && o.state === c.state; }))) {
          news.push('Critical result' + (c.state === 'escalated' ? ', escalated' : '') + ' for ' + (e.name || e.patient_id) + ': ' + what);
        }
        return V.el('span', { class: 'critical-tag', 'data-report': c.report_id, 'data-state': c.state, text: 'Critical: ' + what + (c.state === 'escalated' ? ' · escalated' : '') });
      });
      var alerts = V.el('td', {}, (e.alerts || []).map(function (a) { return V.el('span', { class: 'alert-tag', 'data-rule': a, text: RULES[a] || a }); }).concat(critical));
      var tr = V.el('tr', { 'data-patient': e.patient_id, 'data-esi': e.esi, 'data-news2': n2 ? n2.score : null, class: previous && (!old || old.esi !== e.esi || old.version !== e.version) ? 'changed' : null }, [
        V.el('td', { class: 'esi' }, [V.el('span', { class: 'badge esi-' + e.esi }, [V.el('span', { class: 'n', text: String(e.esi) }), V.el('span', { class: 'l', text: LABEL[e.esi] || '' })])]),
        V.el('td', {}, [V.el('div', { class: 'name', text: e.name || 'Unknown patient' }), V.el('div', { class: 'pid', text: e.patient_id }), retriageButton(e)]),
        cell(e.complaint),
        V.el('td', { class: 'num' }, [V.el('time', { datetime: e.arrived_at, text: V.fmtTime(e.arrived_at) }), V.el('div', { class: 'pid', text: 'waiting ' + waited(e.arrived_at) })]),
        n2cell,
        cell(v.hr === undefined ? undefined : Math.round(v.hr), 'num hr'),
        cell(v.spo2 === undefined ? undefined : Math.round(v.spo2) + ' %', 'num spo2'),
        cell(v.sys === undefined ? undefined : Math.round(v.sys) + '/' + (v.dia === undefined ? '–' : Math.round(v.dia)), 'num bp'),
        cell(v.rr === undefined ? undefined : Math.round(v.rr), 'num rr'),
        cell(v.temp === undefined ? undefined : v.temp.toFixed(1) + ' °C', 'num temp'),
        alerts,
      ]);
      tbody.append(tr);
    });
    if (!entries.length) tbody.append(V.el('tr', {}, [V.el('td', { colspan: 11, class: 'empty', text: 'No patients in the department.' })]));
    var summary = V.$('#summary');
    summary.textContent = '';
    [1, 2, 3, 4, 5].forEach(function (l) {
      summary.append(V.el('li', { class: 'esi-' + l, 'data-esi': l, text: 'ESI ' + l + ' · ' + LABEL[l] + ': ' + counts[l] }));
    });
    V.$('#count').textContent = entries.length + (entries.length === 1 ? ' patient' : ' patients');
    V.$('#updated').textContent = 'Updated ' + new Date().toLocaleTimeString() + '.';
    if (news.length) V.$('#announce').textContent = news.slice(0, 5).join('. ');
    setTimeout(function () { Array.from(document.querySelectorAll('tr.changed')).forEach(function (r) { r.classList.remove('changed'); }); }, 1500);
    previous = now;
    var back = focusedId && document.querySelector('#rows tr[data-patient="' + focusedId + '"] .retriage');
    if (back) back.focus();
  }

  // ---- re-triage (set_triage_level / PUT /api/v1/triage/{id}/esi), for write:triage holders ----
  var canRetriage = V.mayUse(['write:triage']);
  var editing = null;
  function retriageButton(e) {
    if (!canRetriage) return null;
    var b = V.el('button', { type: 'button', class: 'secondary retriage', 'aria-label': 'Re-triage ' + (e.name || e.patient_id), text: 'Re-triage' });
    b.addEventListener('click', function () { openRetriage(e, b); });
    return b;
  }
  function openRetriage(e, opener) {
    editing = { entry: e, opener: opener };
    V.$('#retriage-h').textContent = 'Re-triage ' + (e.name || e.patient_id);
    var current = document.querySelector('#retriage input[value="' + e.esi + '"]');
    if (current) current.checked = true;
    V.$('#retriage-reason').value = '';
    V.$('#retriage-error').textContent = '';
    V.$('#retriage-save').disabled = false;
    V.$('#retriage').showModal();
    if (current) current.focus();
  }
  function closeRetriage() {
    V.$('#retriage').close();
    var id = editing && editing.entry.patient_id;
    editing = null;
    var again = id && document.querySelector('#rows tr[data-patient="' + id + '"] .retriage');
    if (again) again.focus();
  }
  V.$('#retriage-cancel').addEventListener('click', closeRetriage);
  V.$('#retriage').addEventListener('cancel', function (ev) { ev.preventDefault(); closeRetriage(); });
  V.$('#retriage-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    if (!editing) return;
    var e = editing.entry;
    var esi = Number(document.querySelector('#retriage input[name=esi]:checked').value);
    var reason = V.$('#retriage-reason').value.trim();
    var args = { patient_id: e.patient_id, esi: esi, expected_version: e.version };
    var body = { esi: esi };
    if (reason) { args.reason = reason; body.reason = reason; }
    V.$('#retriage-save').disabled = true;
    // The version read with the board guards the change: someone else's change meanwhile is refused.
    V.op('set_triage_level', args, { method: 'PUT', path: '/api/v1/triage/' + encodeURIComponent(e.patient_id) + '/esi', body: body, headers: { 'if-match': '"' + e.version + '"' } }).then(function () {
      V.$('#announce').textContent = (e.name || e.patient_id) + ' set to ESI ' + esi + '.';
      closeRetriage();
      refresh();
    }, function (err) {
      V.$('#retriage-save').disabled = false;
      V.$('#retriage-error').textContent = err.status === 412 || err.status === 409
        ? 'Someone changed this patient’s triage meanwhile. Close, check the refreshed board, and try again.'
        : (err.message || String(err));
      refresh();
    });
  });

  var failures = 0;
  function refresh() {
    return V.op('get_triage_board', {}, { path: '/api/v1/triage' }).then(function (body) {
      failures = 0;
      V.showError(null);
      V.setStatus('Live', 'live');
      render(entriesOf(body));
    }, function (err) {
      failures++;
      V.setStatus(failures > 1 ? 'Disconnected' : 'Retrying…', 'error');
      V.showError(err);
      if (err && (err.status === 401 || err.status === 403)) throw err;
    });
  }
  var timer = null;
  function loop() {
    refresh().then(function () { timer = setTimeout(loop, 3000); }, function () { /* auth failure: stop polling */ });
  }
  V.onToolResult(function (r) { if (r && (r.entries || Array.isArray(r))) render(entriesOf(r)); });
  loop();
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible' && timer) { clearTimeout(timer); loop(); }
  });
})();
`;

export function triageHtml(): string {
  return renderCard({ name: 'emergency-triage-board', title: 'Emergency triage board', style: STYLE, body: BODY, script: SCRIPT });
}
