/**
 * The triage board's critical results (read:diagnostics): the panel of unacknowledged results with
 * their Acknowledge buttons (write:diagnostics, a signed-in clinician only: the server records who),
 * the panel of those acknowledged in the last 12 h, and the words the board's rows use for them.
 */
import { V } from '../shared/runtime';
import { clock } from '../shared/time';
import { signedInUser } from '../shared/signed-in';
import {
  criticalWhat,
  interpretationText as interpretationWords,
  REPORT_STATUS,
  resultText as resultWords,
  type CriticalValue,
} from '../shared/critical-result';
import type { TriageData } from './data';
import { nameOf, type Critical, type Entry } from './entry';

/** Injected by the card build (../../build.ts, `triageScriptData()`). */
declare const DATA: TriageData;

/** "Potassium 6.8 mmol/L (critical > 6.0)"; a finding in words: "ECG impression: <text>" (the words of every card, on this card's tables). */
export const resultText = (r: CriticalValue) => resultWords(DATA, r);
export const interpretationText = (r: CriticalValue) => interpretationWords(DATA, r);
export const whatOf = (c: Critical) => criticalWhat(DATA, c);

const canAcknowledge = V.mayUse(['write:diagnostics']) && signedInUser() !== false;
/** After an acknowledgement the next button (or the history) gets the focus once the board is re-read. */
let focusAfterAck: string | null = null;

function resultLines(c: Critical): HTMLElement[] {
  return (c.results || []).map((r) =>
    V.el('div', { class: 'ci-result' }, [
      V.el('span', { class: 'ci-what', text: resultText(r) }),
      r.interpretation ? V.el('span', { class: 'ci-interp', 'data-interpretation': r.interpretation, text: interpretationText(r) }) : null,
    ]),
  );
}

function criticalItem(e: Entry, c: Critical, refresh: () => void): HTMLLIElement {
  const status = c.report_status ? REPORT_STATUS[c.report_status] || c.report_status + ' report' : null;
  const meta = [nameOf(e), e.patient_id, status].filter(Boolean).join(' · ');
  const times = V.el('div', { class: 'ci-times' }, [
    'Raised ',
    V.el('time', { datetime: c.raised_at, class: 'raised', text: clock(c.raised_at) }),
    c.state === 'escalated' && c.escalated_at
      ? V.el('span', {}, [' · escalated ', V.el('time', { datetime: c.escalated_at, class: 'escalated', text: clock(c.escalated_at) })])
      : V.el('span', {}, [
          ' · escalates ',
          V.el('time', { datetime: c.due_at, class: 'due', text: clock(c.due_at) }),
          ' if not acknowledged',
        ]),
  ]);
  const li = V.el(
    'li',
    {
      class: 'critical-item',
      'data-report': c.report_id,
      'data-critical': c.critical_id,
      'data-state': c.state,
      'data-patient': e.patient_id,
    },
    [
      V.el('div', { class: 'ci-head' }, [
        V.el('div', { class: 'ci-results' }, resultLines(c)),
        c.state === 'escalated' ? V.el('span', { class: 'ci-escalated', text: 'Escalated' }) : null,
      ]),
      V.el('div', { class: 'ci-meta', text: meta }),
      times,
    ],
  );
  if (canAcknowledge) {
    const b = V.el('button', {
      type: 'button',
      class: 'ack',
      'data-report': c.report_id,
      'aria-label': 'Acknowledge ' + whatOf(c) + ' for ' + nameOf(e),
      text: 'Acknowledge',
    });
    b.addEventListener('click', () => acknowledge(e, c, b, li, refresh));
    li.append(V.el('div', { class: 'ci-actions' }, [b]));
  }
  return li;
}

function ackedItem(e: Entry, c: Critical): HTMLLIElement {
  const who = c.acknowledged_by_name || c.acknowledged_by || 'unknown';
  return V.el('li', { class: 'acked-item', 'data-report': c.report_id, 'data-critical': c.critical_id, 'data-patient': e.patient_id }, [
    V.el('div', { class: 'ci-results' }, resultLines(c)),
    V.el('div', {
      class: 'ci-meta',
      text: [nameOf(e), e.patient_id, c.report_status ? REPORT_STATUS[c.report_status] || c.report_status : null]
        .filter(Boolean)
        .join(' · '),
    }),
    V.el('div', { class: 'ci-ack' }, [
      'Acknowledged by ',
      V.el('span', { class: 'who', text: who }),
      ' at ',
      V.el('time', { datetime: c.acknowledged_at || '', class: 'when', text: c.acknowledged_at ? clock(c.acknowledged_at) : '–' }),
      ' · raised ',
      V.el('time', { datetime: c.raised_at, text: clock(c.raised_at) }),
    ]),
    c.note ? V.el('div', { class: 'ci-note', text: 'Note: ' + c.note }) : null,
  ]);
}

/**
 * The critical results panels: the unacknowledged results (escalated first, then oldest first) with
 * an Acknowledge button for a signed-in clinician, and those acknowledged in the last 12 h; hidden
 * without read:diagnostics. `refresh` re-reads the board after an acknowledgement.
 */
export function renderCritical(entries: Entry[], refresh: () => void): void {
  const withDiagnostics = entries.some((e) => e.critical_results !== undefined);
  V.$('#critical-panel').hidden = !withDiagnostics;
  V.$('#acked-panel').hidden = !withDiagnostics;
  const list = V.$('#critical-list');
  list.textContent = '';
  const waiting: Array<[Entry, Critical]> = [];
  const done: Array<[Entry, Critical]> = [];
  entries.forEach((e) => {
    (e.critical_results || []).forEach((c) => waiting.push([e, c]));
    (e.acknowledged_critical_results || []).forEach((c) => done.push([e, c]));
  });
  // escalated first, then oldest first: what has waited longest is on top
  waiting.sort((a, b) =>
    a[1].state === b[1].state ? Date.parse(a[1].raised_at) - Date.parse(b[1].raised_at) : a[1].state === 'escalated' ? -1 : 1,
  );
  waiting.forEach(([e, c]) => list.append(criticalItem(e, c, refresh)));
  V.$('#critical-none').hidden = waiting.length > 0;
  const acked = V.$('#acked-list');
  acked.textContent = '';
  done.sort((a, b) => Date.parse(b[1].acknowledged_at || '') - Date.parse(a[1].acknowledged_at || ''));
  done.forEach(([e, c]) => acked.append(ackedItem(e, c)));
  V.$('#acked-none').hidden = done.length > 0;
}

function acknowledge(e: Entry, c: Critical, button: HTMLButtonElement, li: HTMLElement, refresh: () => void): void {
  button.disabled = true;
  const old = li.querySelector('.error');
  if (old) old.remove();
  V.op(
    'acknowledge_critical_result',
    { report_id: c.report_id },
    { method: 'POST', path: '/api/v1/diagnostics/reports/' + encodeURIComponent(c.report_id) + '/acknowledge', body: {} },
  ).then(
    () => {
      V.$('#announce').textContent = 'Critical result acknowledged for ' + nameOf(e) + ': ' + whatOf(c) + '.';
      focusAfterAck = c.report_id;
      refresh();
    },
    (err) => {
      button.disabled = false;
      li.append(
        V.el('div', {
          class: 'error',
          role: 'alert',
          text:
            err && err.status === 409
              ? 'Already acknowledged or changed meanwhile; the board is being refreshed.'
              : (err && err.message) || String(err),
        }),
      );
      refresh();
    },
  );
}

/** Once the acknowledged result has left the list: the focus to the next Acknowledge button, or to the history. */
export function focusAfterAcknowledgement(): void {
  if (focusAfterAck && !document.querySelector('#critical-list [data-report="' + focusAfterAck + '"]')) {
    focusAfterAck = null;
    const next = document.querySelector<HTMLElement>('#critical-list .ack') || V.$('#acked-h');
    next.focus();
  }
}
