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
 *
 * This module wires the panel together and keeps its timers; the parts are ./alarm-lists.ts (the
 * lists and their readers), ./alarm-rows.ts (rows and status lines), ./alarm-announce.ts (the
 * arrivals said) and ./alarm-acknowledge.ts (the Acknowledge actions).
 */
import { V } from '../shared/runtime';
import { signedInUser } from '../shared/signed-in';
import type { ResultTables } from '../shared/critical-result';
import { acknowledgeAlarm, acknowledgeCritical, type AckContext } from './alarm-acknowledge';
import { announcer, type Announce } from './alarm-announce';
import { criticalShown, expectNotice, panelReaders, panelState, type PanelState, type Readers } from './alarm-lists';
import { alarmRow, criticalRow, setStatusLine, statusText, tickers, type RowContext } from './alarm-rows';

export interface AlarmPanel {
  /** An event of the live stream (`alert`, `alarm`, `critical-result`, …): re-read what it is about. */
  onStreamEvent(event: string, data: any): void;
}

/** Draws the panel: the status lines and arrivals every time, the rows only when the data changed (a re-read must not steal focus). */
function renderer(s: PanelState, rows: RowContext, announce: Announce): () => void {
  let lastSignature = '';
  return () => {
    const crit = criticalShown(s);
    const activeAlarms = s.alarms.items.length;
    const openCritical = crit.filter((c) => c.state !== 'acknowledged').length;
    setStatusLine('#no-alerts', statusText(s.alarms, 'alarms', 'No active alarms.', activeAlarms));
    setStatusLine('#critical-status', statusText(s.critical, 'critical results', 'No open critical results.', openCritical));
    announce(crit);
    const signature = JSON.stringify([s.alarms.items, crit]);
    if (signature === lastSignature) return;
    lastSignature = signature;
    const active = document.activeElement as HTMLElement | null;
    const focusKey = active && active.getAttribute && active.getAttribute('data-focus');
    rows.tickers.clear();
    const list = V.$('#alerts');
    list.textContent = '';
    s.alarms.items.forEach((a) => list.append(alarmRow(rows, a)));
    const clist = V.$('#critical-list');
    clist.textContent = '';
    crit.forEach((c) => clist.append(criticalRow(rows, c)));
    V.$('#alarm-panel').setAttribute('data-count', String(activeAlarms + openCritical));
    const again = focusKey && document.querySelector<HTMLElement>('#alarm-panel [data-focus="' + focusKey + '"]');
    if (again) again.focus();
    else if (s.focusNextAck) {
      s.focusNextAck = false;
      (document.querySelector<HTMLElement>('#alarm-panel button.ack:not(:disabled)') || V.$('#alerts-h')).focus();
    }
  };
}

/** The first reads, then: in MCP mode (no stream reaches a card) a poll; else a read every 30 s; and a read when the card is shown again. */
function startReading({ readAlarms, readCritical }: Readers): void {
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
}

export function startAlarmPanel(patient: string, tables: ResultTables): AlarmPanel {
  const s = panelState(patient, tables);
  const signedIn = signedInUser() !== false;
  const ticks = tickers();
  // the rows' actions and the readers need the drawing, and it needs them: each is reached through `ack` once all exist
  const ack = {} as AckContext;
  const rows: RowContext = {
    tables,
    tickers: ticks,
    canAckAlarm: V.mayUse(['read:vitals']) && signedIn,
    canAckCritical: V.mayUse(['write:diagnostics']) && signedIn,
    acknowledgeAlarm: (a, b) => acknowledgeAlarm(ack, a, b),
    acknowledgeCritical: (c, b) => acknowledgeCritical(ack, c, b),
  };
  const render = renderer(s, rows, announcer(s));
  const readers = panelReaders(s, render);
  Object.assign(ack, { s, render, ...readers });
  setInterval(ticks.tick, 1000);
  startReading(readers);
  return {
    onStreamEvent(event, data) {
      if (event === 'alert' || event === 'alarm') readers.readAlarms();
      else if (event === 'critical-result') {
        expectNotice(s, data);
        readers.readCritical();
      } else if (event === 'connected' || event === 'reconnected') {
        // a notice is not replayed after a reconnect: read the state again
        readers.readAlarms();
        readers.readCritical();
      }
    },
  };
}
