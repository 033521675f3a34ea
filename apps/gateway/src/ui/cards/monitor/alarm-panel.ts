/**
 * The monitor's alarm panel (issue 31, item 4): what is active for the patient, from the moment the
 * card opens, and an Acknowledge action for a signed-in clinician.
 *
 * - At open it reads the patient's active alarms (REST `GET /api/v1/alarms?patient=`, MCP
 *   `list_alarms`: raised, acknowledged, latched) and its critical results (REST
 *   `GET /api/v1/diagnostics/critical-results?patient=&state=open,escalated,acknowledged&since=`,
 *   MCP `list_critical_results`: the open ones and those acknowledged in the last 12 h). Until the first answer the panel says "Loading alarms…"; "No
 *   active alarms" only when the server said so; a refused or failed read is said as such.
 * - Live: an alert event of the stream (the ingest's raise or clear), an `alarm` notice
 *   (acknowledged, escalated, the watchdog's disconnect) or a `critical-result` notice makes it
 *   read the list again (at most once a second). The critical results are read from a projection
 *   one tick behind the notice: until the list shows what a notice said, it is read again (a few
 *   times, a second apart). A notice is not replayed after a reconnect: the lists are read again
 *   when the stream is back, and every 30 s whatever happens. In MCP mode (no stream reaches a
 *   card) it polls: list_alarms every 3 s, list_critical_results every 6 s.
 * - Acknowledge: a button per alarm still to acknowledge (raised, latched) and per open critical
 *   result, offered only to a token that holds the route's scope (read:vitals; write:diagnostics)
 *   and names a user (../shared/signed-in.ts; the server decides anyway). The click posts, then
 *   reads again; a refusal (403) or a conflict (409: acknowledged meanwhile by someone else) is said
 *   in the panel in words. Focus moves to the next Acknowledge button (or the panel's heading).
 *
 * Rows are re-rendered only when the data changed (a re-read never steals focus); the ages tick in
 * place every second; arrivals are announced in an assertive region of their own (the list is not a
 * live region: its ages change every second).
 */
import { V } from '../shared/runtime';
import { ApiError } from '../shared/access';
import { signedInUser } from '../shared/signed-in';
import { clock, clockSeconds } from '../shared/time';
import {
  acknowledgerOf,
  criticalWhat,
  interpretationText,
  reportStatusText,
  resultText,
  type CriticalResult,
  type ResultTables,
} from '../shared/critical-result';
import {
  acknowledgerOfAlarm,
  alarmDetail,
  alarmStateLines,
  byPriority,
  criticalOrder,
  criticalStateLine,
  needsAcknowledgement,
  PRIORITY_WORD,
  raisedLine,
  type AlarmRecord,
} from './alarm-text';

/** How a list stands: not answered yet, answered, refused (scope, role), or failed (network, server). */
type ListState = 'loading' | 'ok' | 'refused' | 'failed';
interface List<T> {
  state: ListState;
  items: T[];
  /** The refusal's or failure's words. */
  error: string;
  /** When the list shown was read. */
  readAt: string | null;
}

/** One debounced reader: at most one read a second, one at a time, a trailing read when asked meanwhile. */
function reader(run: () => Promise<void>, minGapMs = 1000): (delayMs?: number) => void {
  let busy = false,
    again = false,
    lastStart = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const go = (): void => {
    timer = null;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    lastStart = Date.now();
    run().finally(() => {
      busy = false;
      if (again) {
        again = false;
        schedule();
      }
    });
  };
  function schedule(delayMs = 0): void {
    if (timer) return;
    timer = setTimeout(go, Math.max(delayMs, lastStart + minGapMs - Date.now(), 0));
  }
  return schedule;
}

const statusOf = (err: unknown): number => (err instanceof ApiError ? err.status : 0);
const messageOf = (err: unknown): string => (err instanceof Error && err.message) || String(err);
/** A refusal (not retried): 401/403 over REST; in MCP mode the tool's error names the scope or role. */
const isRefusal = (err: unknown): boolean =>
  statusOf(err) === 401 ||
  statusOf(err) === 403 ||
  (V.mode === 'mcp' && /scope|forbidden|not allowed|role|insufficient/i.test(messageOf(err)));

export interface AlarmPanel {
  /** An event of the live stream (`alert`, `alarm`, `critical-result`, …): re-read what it is about. */
  onStreamEvent(event: string, data: any): void;
}

export function startAlarmPanel(patient: string, tables: ResultTables): AlarmPanel {
  const alarms: List<AlarmRecord> = { state: 'loading', items: [], error: '', readAt: null };
  const critical: List<CriticalResult> = { state: 'loading', items: [], error: '', readAt: null };
  /** Acknowledgements this card made or was told of: final, so a re-read of a projection not there yet cannot undo them. */
  const acknowledged = new Map<string, CriticalResult>();
  /** What critical-result notices said (critical id → the state the list must show), read again until it does. */
  const expected = new Map<string, { state: CriticalResult['state'] | 'present'; tries: number }>();
  const canAckAlarm = V.mayUse(['read:vitals']) && signedInUser() !== false;
  const canAckCritical = V.mayUse(['write:diagnostics']) && signedInUser() !== false;
  let focusNextAck = false;
  /** What waits for the next answer of a list (the words of a conflict: who acknowledged first). */
  const afterAlarms: Array<() => void> = [];
  const afterCritical: Array<() => void> = [];
  let seenAlarms: Set<string> | null = null;
  let seenCritical: Set<string> | null = null;
  const enc = encodeURIComponent(patient);

  // ---- reading ----

  const readAlarms = reader(async () => {
    if (!V.mayUse(['read:vitals'])) {
      Object.assign(alarms, { state: 'refused', items: [], error: 'Alarms are not shown: this sign-in cannot read vitals (read:vitals).' });
      render();
      return;
    }
    try {
      const body = await V.op('list_alarms', { patient_id: patient }, { path: '/api/v1/alarms?patient=' + enc });
      const items: AlarmRecord[] = (body && Array.isArray(body.alarms) ? body.alarms : []).filter(
        (a: AlarmRecord) => a && a.state !== 'resolved',
      );
      Object.assign(alarms, { state: 'ok', items: items.sort(byPriority), error: '', readAt: new Date().toISOString() });
    } catch (err) {
      const refused = isRefusal(err);
      Object.assign(alarms, { state: refused ? 'refused' : 'failed', error: messageOf(err) });
      if (!refused) readAlarms(5000);
    }
    render();
    afterAlarms.splice(0).forEach((fn) => fn());
  });

  /** The patient's critical results (waiting, and acknowledged in the last 12 h): REST and MCP list them alike. */
  async function fetchCritical(): Promise<CriticalResult[]> {
    const since = new Date(Date.now() - 12 * 3_600_000).toISOString();
    const body = await V.op(
      'list_critical_results',
      { patient_id: patient, states: ['open', 'escalated', 'acknowledged'], since },
      {
        path:
          '/api/v1/diagnostics/critical-results?patient=' + enc + '&state=open,escalated,acknowledged&since=' + encodeURIComponent(since),
      },
    );
    return body && Array.isArray(body.critical_results) ? body.critical_results : [];
  }

  const readCritical = reader(async () => {
    if (!V.mayUse(['read:diagnostics'])) {
      Object.assign(critical, {
        state: 'refused',
        items: [],
        error: 'Critical results are not shown: this sign-in cannot read diagnostic results (read:diagnostics).',
      });
      render();
      return;
    }
    try {
      const items = await fetchCritical();
      Object.assign(critical, { state: 'ok', items, error: '', readAt: new Date().toISOString() });
    } catch (err) {
      const refused = isRefusal(err);
      Object.assign(critical, { state: refused ? 'refused' : 'failed', error: messageOf(err) });
      if (!refused) readCritical(5000);
    }
    render();
    afterCritical.splice(0).forEach((fn) => fn());
    // a notice the projection does not show yet: read again, a second apart, a few times
    for (const [id, e] of expected) {
      if (shown(id, e.state) || ++e.tries > 8) expected.delete(id);
    }
    if (expected.size) readCritical(1000);
  });

  /**
   * The critical results as shown, one per critical id, the furthest state winning (acknowledged is
   * final, escalated follows open): the list mixes the waiting ones, read from a projection that may
   * be a tick behind, with the acknowledged history, folded from the reports' streams, so for a
   * moment one result can be in both; and an acknowledgement made here is known before either.
   */
  function criticalShown(): CriticalResult[] {
    const rank = (c: CriticalResult) => (c.state === 'acknowledged' ? 2 : c.state === 'escalated' ? 1 : 0);
    const byId = new Map<string, CriticalResult>();
    for (const c of [...critical.items, ...acknowledged.values()]) {
      const had = byId.get(c.critical_id);
      if (!had || rank(c) > rank(had)) byId.set(c.critical_id, c);
    }
    return [...byId.values()].sort(criticalOrder);
  }
  /** Whether the list read shows what a notice said (a result may be listed twice for a moment: any of them will do). */
  function shown(id: string, state: CriticalResult['state'] | 'present'): boolean {
    return critical.items.some(
      (c) => c.critical_id === id && (state === 'present' || (state === 'escalated' ? c.state !== 'open' : c.state === state)),
    );
  }

  // ---- rendering ----

  interface Ticker {
    el: HTMLElement;
    text: (now: number) => string;
  }
  let tickers: Ticker[] = [];
  const tick = (): void => {
    const now = Date.now();
    tickers.forEach((t) => (t.el.textContent = t.text(now)));
  };
  setInterval(tick, 1000);
  function ticking(cls: string, text: (now: number) => string): HTMLElement {
    const el = V.el('div', { class: cls, text: text(Date.now()) });
    tickers.push({ el, text });
    return el;
  }

  function alarmRow(a: AlarmRecord): HTMLLIElement {
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
    li.append(ticking('al-time', (now) => raisedLine(a, now)));
    // the state (its first line re-drawn every second: "escalates 14:04" becomes "escalation due since 14:04"), then the escalation and the note
    li.append(ticking('al-state', (now) => alarmStateLines(a, now)[0] || ''));
    alarmStateLines(a)
      .slice(1)
      .forEach((line) => li.append(V.el('div', { class: 'al-more', text: line })));
    if (canAckAlarm && needsAcknowledgement(a)) {
      const b = V.el('button', {
        type: 'button',
        class: 'ack',
        'data-focus': 'alarm:' + a.alarm_id,
        'aria-label': 'Acknowledge ' + (PRIORITY_WORD[a.priority] || a.priority) + ' priority alarm: ' + a.label,
        text: 'Acknowledge',
      });
      b.addEventListener('click', () => acknowledgeAlarm(a, b));
      li.append(V.el('div', { class: 'al-actions' }, [b]));
    }
    return li;
  }

  function criticalRow(c: CriticalResult): HTMLLIElement {
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
    li.append(ticking('al-state', (now) => criticalStateLine(c, now)));
    if (c.note) li.append(V.el('div', { class: 'al-more', text: 'Note: ' + c.note }));
    if (canAckCritical && c.state !== 'acknowledged') {
      const b = V.el('button', {
        type: 'button',
        class: 'ack',
        'data-focus': 'critical:' + c.critical_id,
        'aria-label': 'Acknowledge critical result: ' + (c.results || []).map((r) => resultText(tables, r)).join('; '),
        text: 'Acknowledge',
      });
      b.addEventListener('click', () => acknowledgeCritical(c, b));
      li.append(V.el('div', { class: 'al-actions' }, [b]));
    }
    return li;
  }

  function statusText<T>(l: List<T>, what: string, none: string, active: number): { text: string; state: string } {
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
  function setStatusLine(id: string, s: { text: string; state: string }): void {
    const el = V.$(id);
    el.textContent = s.text;
    el.setAttribute('data-state', s.state);
    el.hidden = s.text === '';
  }

  let lastSignature = '';
  function render(): void {
    const crit = criticalShown();
    const activeAlarms = alarms.items.length;
    const openCritical = crit.filter((c) => c.state !== 'acknowledged').length;
    setStatusLine('#no-alerts', statusText(alarms, 'alarms', 'No active alarms.', activeAlarms));
    setStatusLine('#critical-status', statusText(critical, 'critical results', 'No open critical results.', openCritical));
    announce(crit);
    // re-render the rows only on a change: a re-read must not steal focus
    const signature = JSON.stringify([alarms.items, crit]);
    if (signature === lastSignature) return;
    lastSignature = signature;
    const active = document.activeElement as HTMLElement | null;
    const focusKey = active && active.getAttribute && active.getAttribute('data-focus');
    tickers = [];
    const list = V.$('#alerts');
    list.textContent = '';
    alarms.items.forEach((a) => list.append(alarmRow(a)));
    const clist = V.$('#critical-list');
    clist.textContent = '';
    crit.forEach((c) => clist.append(criticalRow(c)));
    V.$('#alarm-panel').setAttribute('data-count', String(activeAlarms + openCritical));
    const again = focusKey && document.querySelector<HTMLElement>('#alarm-panel [data-focus="' + focusKey + '"]');
    if (again) again.focus();
    else if (focusNextAck) {
      focusNextAck = false;
      (document.querySelector<HTMLElement>('#alarm-panel button.ack:not(:disabled)') || V.$('#alerts-h')).focus();
    }
  }

  /** Arrivals, said once (assertive): at open, what is active; later, each new alarm or critical result. */
  function announce(crit: CriticalResult[]): void {
    if (alarms.state !== 'ok' && critical.state !== 'ok') return;
    const said: string[] = [];
    if (alarms.state === 'ok') {
      if (seenAlarms === null) {
        const counts = (['high', 'medium', 'low'] as const)
          .map((p) => [p, alarms.items.filter((a) => a.priority === p).length] as const)
          .filter(([, n]) => n > 0);
        if (counts.length) said.push('Active alarms: ' + counts.map(([p, n]) => n + ' ' + PRIORITY_WORD[p].toLowerCase()).join(', ') + '.');
      } else {
        alarms.items
          .filter((a) => !seenAlarms!.has(a.alarm_id))
          .forEach((a) => said.push(PRIORITY_WORD[a.priority] + ' priority alarm: ' + a.label + '. ' + alarmDetail(a) + '.'));
      }
      seenAlarms = new Set(alarms.items.map((a) => a.alarm_id));
    }
    if (critical.state === 'ok') {
      const open = crit.filter((c) => c.state !== 'acknowledged');
      if (seenCritical === null) {
        if (open.length) said.push('Open critical results: ' + open.map((c) => criticalWhat(tables, c)).join('; ') + '.');
      } else {
        open
          .filter((c) => !seenCritical!.has(c.critical_id))
          .forEach((c) => said.push('Critical result: ' + criticalWhat(tables, c) + '.'));
      }
      seenCritical = new Set(open.map((c) => c.critical_id));
    }
    if (said.length) V.$('#alarm-said').textContent = said.join(' ');
  }

  // ---- acknowledging ----

  function say(text: string): void {
    const box = V.$('#alarm-msg');
    box.textContent = text;
    box.hidden = text === '';
  }

  function acknowledgeAlarm(a: AlarmRecord, button: HTMLButtonElement): void {
    button.disabled = true;
    say('');
    V.op(
      'acknowledge_alarm',
      { alarm_id: a.alarm_id },
      { method: 'POST', path: '/api/v1/alarms/' + encodeURIComponent(a.alarm_id) + '/acknowledge', body: {} },
    ).then(
      (body) => {
        const after: AlarmRecord | null = body && (body.alarm || (body.alarm_id ? body : null));
        if (after && after.alarm_id === a.alarm_id) {
          alarms.items =
            after.state === 'resolved'
              ? alarms.items.filter((x) => x.alarm_id !== a.alarm_id)
              : alarms.items.map((x) => (x.alarm_id === a.alarm_id ? after : x));
        }
        V.$('#alarm-said').textContent =
          'Acknowledged: ' + a.label + (after && after.acknowledged_at ? ' at ' + clock(after.acknowledged_at) : '') + '.';
        focusNextAck = true;
        render();
        readAlarms();
      },
      (err) => {
        button.disabled = false;
        const p =
          err instanceof ApiError
            ? (err.problem as {
                acknowledged_by?: { name?: string | null; user?: string };
                acknowledged_at?: string;
                resolved_at?: string;
              } | null)
            : null;
        if (p && p.acknowledged_by && p.acknowledged_at)
          say(
            'Not acknowledged: ' +
              a.label +
              ' was already acknowledged by ' +
              (p.acknowledged_by.name || p.acknowledged_by.user) +
              ' at ' +
              clock(p.acknowledged_at) +
              '.',
          );
        else if (p && p.resolved_at)
          say('Not acknowledged: ' + a.label + ' is resolved since ' + clock(p.resolved_at) + '; there is nothing to acknowledge.');
        else
          refusal(
            err,
            () => {
              const now = alarms.items.find((x) => x.alarm_id === a.alarm_id);
              return now && now.acknowledged_at
                ? a.label + ' was already acknowledged by ' + acknowledgerOfAlarm(now) + ' at ' + clock(now.acknowledged_at) + '.'
                : null;
            },
            afterAlarms,
          );
        readAlarms();
      },
    );
  }

  function acknowledgeCritical(c: CriticalResult, button: HTMLButtonElement): void {
    button.disabled = true;
    say('');
    const what = criticalWhat(tables, c);
    V.op(
      'acknowledge_critical_result',
      { report_id: c.report_id },
      { method: 'POST', path: '/api/v1/diagnostics/reports/' + encodeURIComponent(c.report_id) + '/acknowledge', body: {} },
    ).then(
      (body) => {
        const after: CriticalResult | null = body && (body.critical || (body.critical_id ? body : null));
        if (after && after.critical_id === c.critical_id && after.state === 'acknowledged') acknowledged.set(after.critical_id, after);
        V.$('#alarm-said').textContent = 'Critical result acknowledged: ' + what + '.';
        focusNextAck = true;
        render();
        readCritical();
      },
      (err) => {
        button.disabled = false;
        refusal(
          err,
          () => {
            const now = criticalShown().find((x) => x.critical_id === c.critical_id);
            return now && now.state === 'acknowledged'
              ? what +
                  ' was already acknowledged by ' +
                  acknowledgerOf(now) +
                  (now.acknowledged_at ? ' at ' + clock(now.acknowledged_at) : '') +
                  '.'
              : null;
          },
          afterCritical,
        );
        readCritical();
      },
    );
  }

  /**
   * A refused acknowledgement in words: the server's reason (403: a person must acknowledge; the
   * role), and for a conflict (409; in MCP mode the tool's error) who got there first, once the
   * list has been read again (`whoFirst` on the fresh list).
   */
  function refusal(err: unknown, whoFirst: () => string | null, after: Array<() => void>): void {
    const status = statusOf(err);
    const text = messageOf(err);
    say('Not acknowledged: ' + text);
    if (status === 409 || (status === 0 && /already|resolved|nothing to acknowledge|cannot become/i.test(text))) {
      after.push(() => {
        const first = whoFirst();
        if (first) say('Not acknowledged: ' + first);
      });
    }
  }

  // ---- live ----

  readAlarms();
  readCritical();
  if (V.mode === 'mcp') {
    // no stream reaches a card inside a host: poll (the vitals are polled every second already)
    setInterval(() => readAlarms(), 3000);
    setInterval(() => readCritical(), 6000);
  } else {
    // a notice lost on the way (it is not replayed) is made good within half a minute
    setInterval(() => {
      readAlarms();
      readCritical();
    }, 30_000);
  }
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') {
      readAlarms();
      readCritical();
    }
  });

  return {
    onStreamEvent(event, data) {
      if (event === 'alert' || event === 'alarm') readAlarms();
      else if (event === 'critical-result') {
        const id = data && typeof data.critical_id === 'string' ? data.critical_id : null;
        const name = data && data.event;
        if (id)
          expected.set(id, {
            state: name === 'CriticalResultAcknowledged' ? 'acknowledged' : name === 'CriticalResultEscalated' ? 'escalated' : 'present',
            tries: 0,
          });
        readCritical();
      } else if (event === 'connected' || event === 'reconnected') {
        // a notice is not replayed after a reconnect: read the state again
        readAlarms();
        readCritical();
      }
    },
  };
}
