/**
 * emergency-triage-board (browser code; markup in ../../triage.ts). Re-reads the board every 3 s,
 * re-renders only on a change (a poll never steals focus), announces arrivals and ESI changes
 * politely, and lets write:triage holders re-triage in a modal dialog guarded by the version read
 * with the board (If-Match / expected_version).
 */
import { V } from '../shared/runtime';
import { startDelayBanner } from '../shared/delay-banner'; startDelayBanner(); // "Data delayed" banner while the vitals pipeline is late (docs/ui.md)

/** Injected by the card build (../../build.ts): the board's vitals column per vital code. */
declare const DATA: { readonly vitalColumns: Readonly<Record<string, 'hr' | 'spo2' | 'sys' | 'dia' | 'rr' | 'temp'>> };

interface Entry {
  patient_id: string;
  name?: string;
  esi: number;
  version: number;
  complaint?: string;
  arrived_at: string;
  news2?: { score: number; risk: string } | null;
  latest_vitals?: Array<{ code: string; value: number }>;
  alerts?: string[];
  /** Unacknowledged critical diagnostic results (read:diagnostics). */
  critical_results?: CriticalOnBoard[];
}
interface CriticalOnBoard {
  critical_id: string;
  report_id: string;
  state: 'open' | 'escalated';
  results?: Array<{ code: string; display?: string; value?: number; unit?: string; text?: string; interpretation: string }>;
}

const LABEL: Record<number, string> = { 1: 'Resuscitation', 2: 'Emergent', 3: 'Urgent', 4: 'Less urgent', 5: 'Non-urgent' };
const RISK: Record<string, string> = { high: 'High', medium: 'Medium', 'low-medium': 'Low–medium', low: 'Low' };
const VITALS = DATA.vitalColumns;
const RULES: Record<string, string> = { 'hr-high': 'HR > 130', 'spo2-low': 'SpO₂ < 90 %', 'news2-high': 'NEWS2 ≥ 7' };
let previous: Map<string, Entry> | null = null;

function entriesOf(body: any): Entry[] {
  if (!body) return [];
  if (Array.isArray(body)) return body;
  return body.entries || body.board || [];
}
function waited(iso: string): string {
  const min = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60000));
  return min < 60 ? min + ' min' : Math.floor(min / 60) + ' h ' + (min % 60) + ' min';
}
function vitalsOf(e: Entry): Partial<Record<'hr' | 'spo2' | 'sys' | 'dia' | 'rr' | 'temp', number>> {
  const v: Partial<Record<'hr' | 'spo2' | 'sys' | 'dia' | 'rr' | 'temp', number>> = {};
  (e.latest_vitals || []).forEach((x) => {
    const column = VITALS[x.code];
    if (column) v[column] = x.value;
  });
  return v;
}
function cell(text: string | number | undefined, cls?: string): HTMLTableCellElement {
  return V.el('td', { class: cls, text: text === undefined ? '–' : String(text) });
}

let lastJson: string | null = null;
function render(entries: Entry[]): void {
  // Re-render only on a change (or a new minute of waiting time): a poll must not steal focus.
  const json = JSON.stringify(entries) + Math.floor(Date.now() / 60000);
  if (json === lastJson) {
    V.$('#updated').textContent = 'Updated ' + new Date().toLocaleTimeString() + '.';
    return;
  }
  lastJson = json;
  const active = document.activeElement;
  const focused = active && active.closest && active.closest('#rows tr[data-patient]');
  const focusedId = focused ? focused.getAttribute('data-patient') : null;
  entries = entries.slice().sort((a, b) => a.esi - b.esi || Date.parse(a.arrived_at) - Date.parse(b.arrived_at) || (a.patient_id < b.patient_id ? -1 : 1));
  const tbody = V.$('#rows');
  tbody.textContent = '';
  const counts: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  const news: string[] = [];
  const now = new Map<string, Entry>();
  entries.forEach((e) => {
    counts[e.esi] = (counts[e.esi] || 0) + 1;
    now.set(e.patient_id, e);
    const old = previous && previous.get(e.patient_id);
    if (previous && !old) news.push((e.name || e.patient_id) + ' arrived, ESI ' + e.esi);
    else if (old && old.esi !== e.esi) news.push((e.name || e.patient_id) + ' is now ESI ' + e.esi);
    const v = vitalsOf(e);
    // No vitals yet: no score (an all-missing NEWS2 of 0 would read as "well").
    const n2 = e.news2 && (e.latest_vitals || []).length ? e.news2 : null;
    const n2cell = V.el('td', {}, n2
      ? [V.el('span', { class: 'news2', 'data-risk': n2.risk, 'aria-label': 'NEWS2 ' + n2.score + ', ' + (RISK[n2.risk] || n2.risk) + ' risk' }, [
        document.createTextNode(String(n2.score)), V.el('span', { class: 'risk', text: RISK[n2.risk] || n2.risk })])]
      : [V.el('span', { class: 'muted', text: '–', title: 'No vitals yet' })]);
    // Unacknowledged critical diagnostic results (with read:diagnostics): shown until acknowledged, escalated ones marked.
    const critical = (e.critical_results || []).map((c) => {
      const what = (c.results || []).map((r) => String(r.display || r.code).split(' [')[0] + ' ' + (r.value !== undefined ? r.value + ' ' + (r.unit || '') : r.text || '') + ' (' + r.interpretation + ')').join(', ');
      if (previous && (!old || !(old.critical_results || []).some((o) => o.critical_id === c.critical_id && o.state === c.state))) {
        news.push('Critical result' + (c.state === 'escalated' ? ', escalated' : '') + ' for ' + (e.name || e.patient_id) + ': ' + what);
      }
      return V.el('span', { class: 'critical-tag', 'data-report': c.report_id, 'data-state': c.state, text: 'Critical: ' + what + (c.state === 'escalated' ? ' · escalated' : '') });
    });
    const alerts = V.el('td', {}, (e.alerts || []).map((a: string) => V.el('span', { class: 'alert-tag', 'data-rule': a, text: RULES[a] || a })).concat(critical));
    const tr = V.el('tr', { 'data-patient': e.patient_id, 'data-esi': e.esi, 'data-news2': n2 ? n2.score : null, class: previous && (!old || old.esi !== e.esi || old.version !== e.version) ? 'changed' : null }, [
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
  const summary = V.$('#summary');
  summary.textContent = '';
  [1, 2, 3, 4, 5].forEach((l) => {
    summary.append(V.el('li', { class: 'esi-' + l, 'data-esi': l, text: 'ESI ' + l + ' · ' + LABEL[l] + ': ' + counts[l] }));
  });
  V.$('#count').textContent = entries.length + (entries.length === 1 ? ' patient' : ' patients');
  V.$('#updated').textContent = 'Updated ' + new Date().toLocaleTimeString() + '.';
  if (news.length) V.$('#announce').textContent = news.slice(0, 5).join('. ');
  setTimeout(() => {
    Array.from(document.querySelectorAll('tr.changed')).forEach((r) => r.classList.remove('changed'));
  }, 1500);
  previous = now;
  const back = focusedId && document.querySelector<HTMLElement>('#rows tr[data-patient="' + focusedId + '"] .retriage');
  if (back) back.focus();
}

// ---- re-triage (set_triage_level / PUT /api/v1/triage/{id}/esi), for write:triage holders ----
const canRetriage = V.mayUse(['write:triage']);
let editing: { entry: Entry; opener: HTMLElement } | null = null;
function retriageButton(e: Entry): HTMLButtonElement | null {
  if (!canRetriage) return null;
  const b = V.el('button', { type: 'button', class: 'secondary retriage', 'aria-label': 'Re-triage ' + (e.name || e.patient_id), text: 'Re-triage' });
  b.addEventListener('click', () => openRetriage(e, b));
  return b;
}
function openRetriage(e: Entry, opener: HTMLElement): void {
  editing = { entry: e, opener: opener };
  V.$('#retriage-h').textContent = 'Re-triage ' + (e.name || e.patient_id);
  const current = document.querySelector<HTMLInputElement>('#retriage input[value="' + e.esi + '"]');
  if (current) current.checked = true;
  V.$<HTMLTextAreaElement>('#retriage-reason').value = '';
  V.$('#retriage-error').textContent = '';
  V.$<HTMLButtonElement>('#retriage-save').disabled = false;
  V.$<HTMLDialogElement>('#retriage').showModal();
  if (current) current.focus();
}
function closeRetriage(): void {
  V.$<HTMLDialogElement>('#retriage').close();
  const id = editing && editing.entry.patient_id;
  editing = null;
  const again = id && document.querySelector<HTMLElement>('#rows tr[data-patient="' + id + '"] .retriage');
  if (again) again.focus();
}
V.$('#retriage-cancel').addEventListener('click', closeRetriage);
V.$('#retriage').addEventListener('cancel', (ev) => {
  ev.preventDefault();
  closeRetriage();
});
V.$('#retriage-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  if (!editing) return;
  const e = editing.entry;
  const esi = Number(document.querySelector<HTMLInputElement>('#retriage input[name=esi]:checked')!.value);
  const reason = V.$<HTMLTextAreaElement>('#retriage-reason').value.trim();
  const args: Record<string, unknown> = { patient_id: e.patient_id, esi: esi, expected_version: e.version };
  const body: Record<string, unknown> = { esi: esi };
  if (reason) {
    args.reason = reason;
    body.reason = reason;
  }
  V.$<HTMLButtonElement>('#retriage-save').disabled = true;
  // The version read with the board guards the change: someone else's change meanwhile is refused.
  V.op('set_triage_level', args, { method: 'PUT', path: '/api/v1/triage/' + encodeURIComponent(e.patient_id) + '/esi', body: body, headers: { 'if-match': '"' + e.version + '"' } }).then(() => {
    V.$('#announce').textContent = (e.name || e.patient_id) + ' set to ESI ' + esi + '.';
    closeRetriage();
    refresh();
  }, (err) => {
    V.$<HTMLButtonElement>('#retriage-save').disabled = false;
    V.$('#retriage-error').textContent = err.status === 412 || err.status === 409
      ? 'Someone changed this patient’s triage meanwhile. Close, check the refreshed board, and try again.'
      : err.message || String(err);
    refresh();
  });
});

let failures = 0;
function refresh(): Promise<void> {
  return V.op('get_triage_board', {}, { path: '/api/v1/triage' }).then((body) => {
    failures = 0;
    V.showError(null);
    V.setStatus('Live', 'live');
    render(entriesOf(body));
  }, (err) => {
    failures++;
    V.setStatus(failures > 1 ? 'Disconnected' : 'Retrying…', 'error');
    V.showError(err);
    if (err && (err.status === 401 || err.status === 403)) throw err;
  });
}
let timer: ReturnType<typeof setTimeout> | null = null;
function loop(): void {
  refresh().then(() => {
    timer = setTimeout(loop, 3000);
  }, () => {
    /* auth failure: stop polling */
  });
}
V.onToolResult((r) => {
  if (r && (r.entries || Array.isArray(r))) render(entriesOf(r));
});
loop();
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible' && timer) {
    clearTimeout(timer);
    loop();
  }
});
