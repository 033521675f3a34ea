/**
 * emergency-triage-board (browser code; markup in ../../triage.ts). Re-reads the board every 3 s,
 * re-renders only on a change (a poll never steals focus; the ages tick in place every second),
 * announces arrivals, ESI changes and new critical results politely, lets write:triage holders
 * re-triage in a modal dialog guarded by the version read with the board (If-Match /
 * expected_version), and lets a signed-in clinician acknowledge a critical result (the server
 * records who; an app acting for itself is refused, so the button is not offered to one).
 * Every value carries its age and a stale mark past its code's threshold (DATA.staleAfter);
 * every time is 24-hour (../shared/time.ts).
 */
import { V } from '../shared/runtime';
import { startDelayBanner } from '../shared/delay-banner';
startDelayBanner(); // "Data delayed" banner while the vitals pipeline is late (docs/ui.md)

import { age, clock, clockSeconds, isStale } from '../shared/time';
import type { TriageData, VitalColumn } from './data';
import { nameOf, type BoardAlarm, type Entry, type LatestVital } from './entry';
import { focusAfterAcknowledgement, interpretationText, renderCritical, whatOf } from './critical-panel';
import { retriageButton, wireRetriage } from './retriage';

/** Injected by the card build (../../build.ts, `triageScriptData()`). */
declare const DATA: TriageData;

const LABEL: Record<number, string> = { 1: 'Resuscitation', 2: 'Emergent', 3: 'Urgent', 4: 'Less urgent', 5: 'Non-urgent' };
const RISK: Record<string, string> = { high: 'High', medium: 'Medium', 'low-medium': 'Low–medium', low: 'Low' };
const VITALS = DATA.vitalColumns;
/** The screen unit per board column ("%" for spo2, "°C" for temp), from the vitals' definitions, once. */
const UNIT_OF_COLUMN: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(VITALS).map(([code, column]) => [column, DATA.units[code] || '']),
);
const NEWS2_CODES = DATA.news2Codes;
const PRIORITY: Record<string, string> = { high: 'High', medium: 'Medium', low: 'Low' };
const STATE: Record<string, string> = { raised: '', acknowledged: ' · acknowledged', latched: ' · latched', resolved: ' · resolved' };
const ruleLabel = (rule: string) => DATA.alarmLabels[rule] || rule;
/** An alarm tag: the priority in words (never colour only), the condition, and what has happened to it. */
const alarmTag = (a: BoardAlarm) =>
  V.el('span', {
    class: 'alert-tag priority-' + a.priority,
    'data-rule': a.rule,
    'data-state': a.state,
    'data-alarm': a.alarm_id,
    text: PRIORITY[a.priority] + ': ' + ruleLabel(a.rule) + (STATE[a.state] || '') + (a.escalated_to ? ' · escalated' : ''),
    title: 'raised ' + clock(a.raised_at),
  });
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

// ---- values with their age ----

/** An element showing how old its inputs are; re-read every second (`tickAges`), never re-rendered for it. */
interface Aged {
  el: HTMLElement;
  cell: HTMLElement | null;
  inputs: Array<[code: string, at: string]>;
  prefix: string;
}
let aged: Aged[] = [];

/** The oldest input's time, and whether any input is past its code's threshold. */
function freshnessOf(inputs: Array<[string, string]>, now: number): { oldest: string; stale: boolean } {
  const oldest = inputs.map(([, at]) => at).reduce((o, at) => (Date.parse(at) < Date.parse(o) ? at : o));
  return { oldest, stale: inputs.some(([code, at]) => isStale(code, at, DATA.staleAfter, now)) };
}
function paintAge(a: Aged, now: number): void {
  const f = freshnessOf(a.inputs, now);
  a.el.textContent = a.prefix + age(f.oldest, now) + ' ago' + (f.stale ? ' · stale' : '');
  a.el.setAttribute('data-stale', String(f.stale));
  if (a.cell) a.cell.setAttribute('data-stale', String(f.stale));
}
function tickAges(): void {
  const now = Date.now();
  aged.forEach((a) => paintAge(a, now));
}
function ageLine(inputs: Array<[string, string]>, cell: HTMLElement | null, prefix = ''): HTMLElement {
  const el = V.el('span', { class: 'age' });
  const a: Aged = { el, cell, inputs, prefix };
  aged.push(a);
  paintAge(a, Date.now());
  return el;
}

type Latest = Partial<Record<VitalColumn, LatestVital>>;
function vitalsOf(e: Entry): Latest {
  const v: Latest = {};
  (e.latest_vitals || []).forEach((x) => {
    const column = VITALS[x.code];
    if (column) v[column] = x;
  });
  return v;
}
/** A vitals cell: the value, and under it its age ("12 s ago"; "16 min ago · stale" past the code's threshold). */
function vitalCell(cls: string, text: string | undefined, inputs: LatestVital[]): HTMLTableCellElement {
  if (text === undefined || !inputs.length) return V.el('td', { class: 'num ' + cls, text: '–' });
  const td = V.el('td', { class: 'num ' + cls }, [V.el('span', { class: 'v', text: text })]);
  td.append(
    ageLine(
      inputs.map((x) => [x.code, x.effective_at]),
      td,
    ),
  );
  return td;
}

function cell(text: string | number | undefined, cls?: string): HTMLTableCellElement {
  return V.el('td', { class: cls, text: text === undefined ? '–' : String(text) });
}

/** The patient's NEWS2, or null with no vitals yet (an all-missing NEWS2 of 0 would read as "well"). */
const news2Of = (e: Entry) => (e.news2 && (e.latest_vitals || []).length ? e.news2 : null);

/** The NEWS2 cell: the score and its risk in words, as of its oldest input and how old that is; a dash with no vitals yet. */
function news2Cell(e: Entry): HTMLTableCellElement {
  const latest = e.latest_vitals || [];
  const n2 = news2Of(e);
  const n2inputs = latest.filter((x) => NEWS2_CODES.indexOf(x.code) >= 0);
  const n2cell = V.el('td', { class: 'news2-cell' });
  if (n2) {
    n2cell.append(
      V.el(
        'span',
        { class: 'news2', 'data-risk': n2.risk, 'aria-label': 'NEWS2 ' + n2.score + ', ' + (RISK[n2.risk] || n2.risk) + ' risk' },
        [document.createTextNode(String(n2.score)), V.el('span', { class: 'risk', text: RISK[n2.risk] || n2.risk })],
      ),
    );
    if (n2inputs.length) {
      const oldest = freshnessOf(
        n2inputs.map((x) => [x.code, x.effective_at]),
        Date.now(),
      ).oldest;
      n2cell.append(V.el('div', { class: 'as-of' }, ['as of ', V.el('time', { datetime: oldest, text: clock(oldest) })]));
      n2cell.append(
        ageLine(
          n2inputs.map((x) => [x.code, x.effective_at]),
          n2cell,
          'oldest input ',
        ),
      );
    }
  } else n2cell.append(V.el('span', { class: 'muted', text: '–', title: 'No vitals yet' }));
  return n2cell;
}

/**
 * The alarms and critical results cell: the alarms with their lifecycle when the token may read them
 * (else the conditions present now), then the unacknowledged critical results; a critical result new
 * or changed since the last board (`old`: the patient's entry then) is said in `news`.
 */
function alertsCell(e: Entry, old: Entry | null | undefined, news: string[]): HTMLTableCellElement {
  // Unacknowledged critical diagnostic results (with read:diagnostics): tagged in the row; the panel above has the detail.
  const critical = (e.critical_results || []).map((c) => {
    const what = whatOf(c);
    if (previous && (!old || !(old.critical_results || []).some((o) => o.critical_id === c.critical_id && o.state === c.state))) {
      news.push(
        'Critical result' +
          (c.state === 'escalated' ? ', escalated' : '') +
          ' for ' +
          nameOf(e) +
          ': ' +
          what +
          ', ' +
          (c.results || []).map(interpretationText).join(', '),
      );
    }
    return V.el('span', {
      class: 'critical-tag',
      'data-report': c.report_id,
      'data-state': c.state,
      text: 'Critical: ' + (c.results || []).map((r) => r.name || r.code).join(', ') + (c.state === 'escalated' ? ' · escalated' : ''),
    });
  });
  // the alarms with their lifecycle when the token may read them; else the conditions present now
  const tags = e.alarms
    ? e.alarms.map(alarmTag)
    : (e.alerts || []).map((a: string) => V.el('span', { class: 'alert-tag', 'data-rule': a, text: ruleLabel(a) }));
  return V.el('td', {}, tags.concat(critical));
}

/** One patient's row (`old`: its entry on the last board, to mark a change). */
function entryRow(e: Entry, old: Entry | null | undefined, news: string[]): HTMLTableRowElement {
  const v = vitalsOf(e);
  const n2 = news2Of(e);
  const bp = [v.sys, v.dia].filter((x): x is LatestVital => x !== undefined);
  return V.el(
    'tr',
    {
      'data-patient': e.patient_id,
      'data-esi': e.esi,
      'data-news2': n2 ? n2.score : null,
      class: previous && (!old || old.esi !== e.esi || old.version !== e.version) ? 'changed' : null,
    },
    [
      V.el('td', { class: 'esi' }, [
        V.el('span', { class: 'badge esi-' + e.esi }, [
          V.el('span', { class: 'n', text: String(e.esi) }),
          V.el('span', { class: 'l', text: LABEL[e.esi] || '' }),
        ]),
      ]),
      V.el('td', {}, [
        V.el('div', { class: 'name', text: e.name || 'Unknown patient' }),
        V.el('div', { class: 'pid', text: e.patient_id }),
        retriageButton(e),
      ]),
      cell(e.complaint),
      V.el('td', { class: 'num' }, [
        V.el('time', { datetime: e.arrived_at, class: 'arrived', text: clock(e.arrived_at) }),
        V.el('div', { class: 'pid', text: 'waiting ' + waited(e.arrived_at) }),
      ]),
      news2Cell(e),
      vitalCell('hr', v.hr && String(Math.round(v.hr.value)), v.hr ? [v.hr] : []),
      vitalCell('spo2', v.spo2 && Math.round(v.spo2.value) + ' ' + UNIT_OF_COLUMN.spo2, v.spo2 ? [v.spo2] : []),
      // systolic first, then diastolic: "120/80"
      vitalCell('bp', v.sys && Math.round(v.sys.value) + '/' + (v.dia === undefined ? '–' : Math.round(v.dia.value)), bp),
      vitalCell('rr', v.rr && String(Math.round(v.rr.value)), v.rr ? [v.rr] : []),
      vitalCell('temp', v.temp && v.temp.value.toFixed(1) + ' ' + UNIT_OF_COLUMN.temp, v.temp ? [v.temp] : []),
      alertsCell(e, old, news),
    ],
  );
}

let lastJson: string | null = null;
function render(entries: Entry[]): void {
  // Re-render only on a change (or a new minute of waiting time): a poll must not steal focus.
  const json = JSON.stringify(entries) + Math.floor(Date.now() / 60000);
  const stamp = 'Updated ' + clockSeconds(new Date().toISOString()) + '.';
  if (json === lastJson) {
    tickAges();
    V.$('#updated').textContent = stamp;
    return;
  }
  lastJson = json;
  aged = [];
  const active = document.activeElement;
  const focused = active && active.closest && active.closest('#rows tr[data-patient]');
  const focusedId = focused ? focused.getAttribute('data-patient') : null;
  entries = entries
    .slice()
    .sort((a, b) => a.esi - b.esi || Date.parse(a.arrived_at) - Date.parse(b.arrived_at) || (a.patient_id < b.patient_id ? -1 : 1));
  const tbody = V.$('#rows');
  tbody.textContent = '';
  const counts: Record<number, number> = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  const news: string[] = [];
  const now = new Map<string, Entry>();
  entries.forEach((e) => {
    counts[e.esi] = (counts[e.esi] || 0) + 1;
    now.set(e.patient_id, e);
    const old = previous && previous.get(e.patient_id);
    if (previous && !old) news.push(nameOf(e) + ' arrived, ESI ' + e.esi);
    else if (old && old.esi !== e.esi) news.push(nameOf(e) + ' is now ESI ' + e.esi);
    tbody.append(entryRow(e, old, news));
  });
  if (!entries.length) tbody.append(V.el('tr', {}, [V.el('td', { colspan: 11, class: 'empty', text: 'No patients in the department.' })]));
  renderCritical(entries, refresh);
  const summary = V.$('#summary');
  summary.textContent = '';
  [1, 2, 3, 4, 5].forEach((l) => {
    summary.append(V.el('li', { class: 'esi-' + l, 'data-esi': l, text: 'ESI ' + l + ' · ' + LABEL[l] + ': ' + counts[l] }));
  });
  V.$('#count').textContent = entries.length + (entries.length === 1 ? ' patient' : ' patients');
  V.$('#updated').textContent = stamp;
  if (news.length) V.$('#announce').textContent = news.slice(0, 5).join('. ');
  setTimeout(() => {
    Array.from(document.querySelectorAll('tr.changed')).forEach((r) => r.classList.remove('changed'));
  }, 1500);
  previous = now;
  const back = focusedId && document.querySelector<HTMLElement>('#rows tr[data-patient="' + focusedId + '"] .retriage');
  if (back) back.focus();
  focusAfterAcknowledgement();
}
setInterval(tickAges, 1000);
wireRetriage(refresh);

let failures = 0;
function refresh(): Promise<void> {
  return V.op('get_triage_board', {}, { path: '/api/v1/triage' }).then(
    (body) => {
      failures = 0;
      V.showError(null);
      V.setStatus('Live', 'live');
      render(entriesOf(body));
    },
    (err) => {
      failures++;
      V.setStatus(failures > 1 ? 'Disconnected' : 'Retrying…', 'error');
      V.showError(err);
      if (err && (err.status === 401 || err.status === 403)) throw err;
    },
  );
}
let timer: ReturnType<typeof setTimeout> | null = null;
function loop(): void {
  refresh().then(
    () => {
      timer = setTimeout(loop, 3000);
    },
    () => {
      /* auth failure: stop polling */
    },
  );
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
