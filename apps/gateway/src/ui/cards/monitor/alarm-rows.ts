/**
 * The alarm panel's rows and status lines (./alarm-panel.ts): one list item per alarm and per
 * critical result, with its priority in words, what it is about, its state in sentences and, for a
 * clinician who may, an Acknowledge button; the lines under each list that say it is loading, empty,
 * refused or failed. The ages and the first state line tick in place every second (`Tickers`).
 */
import { V } from '../shared/runtime';
import { clockSeconds } from '../shared/time';
import {
  criticalWhat,
  interpretationText,
  reportStatusText,
  resultText,
  type CriticalResult,
  type ResultTables,
} from '../shared/critical-result';
import {
  alarmDetail,
  alarmStateLines,
  criticalStateLine,
  needsAcknowledgement,
  PRIORITY_WORD,
  raisedLine,
  type AlarmRecord,
} from './alarm-text';
import type { List } from './alarm-lists';

/** The texts that tick in place every second: registered while the rows are drawn, forgotten when they are drawn again. */
export interface Tickers {
  /** A div whose text is `text(now)`, redrawn every tick. */
  ticking(cls: string, text: (now: number) => string): HTMLElement;
  /** Forgets every registered text (the rows are about to be drawn again). */
  clear(): void;
  /** Redraws every registered text. */
  tick(): void;
}

export function tickers(): Tickers {
  let all: Array<{ el: HTMLElement; text: (now: number) => string }> = [];
  return {
    ticking(cls, text) {
      const el = V.el('div', { class: cls, text: text(Date.now()) });
      all.push({ el, text });
      return el;
    },
    clear() {
      all = [];
    },
    tick() {
      const now = Date.now();
      all.forEach((t) => (t.el.textContent = t.text(now)));
    },
  };
}

/** What the rows need besides their record: the tables, the tickers, and the Acknowledge actions when the sign-in may use them. */
export interface RowContext {
  tables: ResultTables;
  tickers: Tickers;
  canAckAlarm: boolean;
  canAckCritical: boolean;
  acknowledgeAlarm(a: AlarmRecord, button: HTMLButtonElement): void;
  acknowledgeCritical(c: CriticalResult, button: HTMLButtonElement): void;
}

/** An Acknowledge button in its actions div, calling `onClick` with itself. */
function ackButton(focus: string, label: string, onClick: (b: HTMLButtonElement) => void): HTMLElement {
  const b = V.el('button', { type: 'button', class: 'ack', 'data-focus': focus, 'aria-label': label, text: 'Acknowledge' });
  b.addEventListener('click', () => onClick(b));
  return V.el('div', { class: 'al-actions' }, [b]);
}

export function alarmRow(ctx: RowContext, a: AlarmRecord): HTMLLIElement {
  const technical = a.kind === 'technical';
  const li = V.el(
    'li',
    {
      class: 'alarm',
      'data-alarm': a.alarm_id,
      'data-rule': a.rule,
      'data-priority': a.priority,
      'data-kind': a.kind,
      'data-state': a.state,
      'data-escalated': a.escalated_at ? 'true' : null,
    },
    [
      V.el('div', { class: 'al-head' }, [
        V.el('span', { class: 'prio', 'data-priority': a.priority, text: PRIORITY_WORD[a.priority] || a.priority }),
        technical ? V.el('span', { class: 'kind', text: 'Technical' }) : null,
        V.el('span', { class: 'al-label', text: a.label }),
        a.escalated_at ? V.el('span', { class: 'escalated', text: 'Escalated' }) : null,
      ]),
      V.el('div', { class: 'al-msg', text: alarmDetail(a) }),
    ],
  );
  li.append(ctx.tickers.ticking('al-time', (now) => raisedLine(a, now)));
  // the state (its first line re-drawn every second: "escalates 14:04" becomes "escalation due since 14:04"), then the escalation and the note
  li.append(ctx.tickers.ticking('al-state', (now) => alarmStateLines(a, now)[0] || ''));
  alarmStateLines(a)
    .slice(1)
    .forEach((line) => li.append(V.el('div', { class: 'al-more', text: line })));
  if (ctx.canAckAlarm && needsAcknowledgement(a)) {
    const label = 'Acknowledge ' + (PRIORITY_WORD[a.priority] || a.priority) + ' priority alarm: ' + a.label;
    li.append(ackButton('alarm:' + a.alarm_id, label, (b) => ctx.acknowledgeAlarm(a, b)));
  }
  return li;
}

export function criticalRow(ctx: RowContext, c: CriticalResult): HTMLLIElement {
  const { tables } = ctx;
  const li = V.el('li', { class: 'critical', 'data-critical': c.critical_id, 'data-report': c.report_id, 'data-state': c.state }, [
    V.el('div', { class: 'al-head' }, [
      V.el('span', { class: 'prio', 'data-priority': 'critical', text: 'Critical result' }),
      V.el('span', { class: 'al-label', text: criticalWhat(tables, c) }),
      c.state === 'escalated' ? V.el('span', { class: 'escalated', text: 'Escalated' }) : null,
    ]),
    V.el('div', {
      class: 'al-msg',
      text: [
        (c.results || [])
          .map((r) => interpretationText(tables, r))
          .filter(Boolean)
          .join(', '),
        reportStatusText(c.report_status),
      ]
        .filter(Boolean)
        .join(' · '),
    }),
  ]);
  li.append(ctx.tickers.ticking('al-state', (now) => criticalStateLine(c, now)));
  if (c.note) li.append(V.el('div', { class: 'al-more', text: 'Note: ' + c.note }));
  if (ctx.canAckCritical && c.state !== 'acknowledged') {
    const label = 'Acknowledge critical result: ' + (c.results || []).map((r) => resultText(tables, r)).join('; ');
    li.append(ackButton('critical:' + c.critical_id, label, (b) => ctx.acknowledgeCritical(c, b)));
  }
  return li;
}

/** The line under a list: loading, refused, failed (with when the list shown was read), none, or nothing to say. */
export function statusText<T>(l: List<T>, what: string, none: string, active: number): { text: string; state: string } {
  if (l.state === 'loading') return { text: 'Loading ' + what + '…', state: 'loading' };
  if (l.state === 'refused') return { text: l.error, state: 'refused' };
  if (l.state === 'failed') {
    return l.readAt
      ? {
          text: 'Could not read the ' + what + ' again (' + l.error + '); shown as read at ' + clockSeconds(l.readAt) + '. Retrying…',
          state: 'failed',
        }
      : { text: 'The ' + what + ' could not be read (' + l.error + '). Retrying…', state: 'failed' };
  }
  return active === 0 ? { text: none, state: 'none' } : { text: '', state: 'ok' };
}

export function setStatusLine(id: string, s: { text: string; state: string }): void {
  const el = V.$(id);
  el.textContent = s.text;
  el.setAttribute('data-state', s.state);
  el.hidden = s.text === '';
}
