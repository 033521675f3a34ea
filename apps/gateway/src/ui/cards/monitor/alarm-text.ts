/**
 * The monitor's alarm panel in words (pure functions of the server's alarm record and `now`, no
 * DOM: test/unit/ui/monitor-alarm-text.test.ts imports them directly). An alarm is never colour
 * only: its priority is a word ("High", "Medium", "Low"), its kind is said ("Technical" for the
 * equipment's own, e.g. the monitor that stopped sending), and its state is a sentence with who and
 * when ("Acknowledged by Demo Nurse at 14:05", "Latched — condition ended 14:03, acknowledge to
 * clear", "Escalated to charge nurse at 14:04"). Every time is 24-hour (../shared/time.ts).
 */
import { age, clock } from '../shared/time';
import { acknowledgerOf, type CriticalResult } from '../shared/critical-result';

/** One alarm as REST (`GET /api/v1/alarms`) and the MCP tool `list_alarms` give it (`Alarm`). */
export interface AlarmRecord {
  alarm_id: string;
  patient_id?: string;
  rule: string;
  label: string;
  kind: 'physiological' | 'technical';
  priority: 'high' | 'medium' | 'low';
  latching: boolean;
  state: 'raised' | 'acknowledged' | 'latched' | 'resolved';
  message: string;
  value: number;
  device_id: string;
  raised_at: string;
  /** Since when the condition is present this time (raised_at, or its latest return while latched). */
  condition_since?: string;
  /** How many times the condition came back while the alarm was latched. */
  recurrences?: number;
  due_at: string | null;
  condition_ended_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: { user: string; name: string | null; client_id: string } | null;
  note: string | null;
  escalated_at: string | null;
  escalated_to: string | null;
  resolved_at: string | null;
}

/** IEC 60601-1-8 priority in words. */
export const PRIORITY_WORD: Readonly<Record<AlarmRecord['priority'], string>> = { high: 'High', medium: 'Medium', low: 'Low' };
const RANK: Readonly<Record<string, number>> = { high: 0, medium: 1, low: 2 };

/** Whether a person still has to acknowledge it (raised, or latched after its condition ended). */
export const needsAcknowledgement = (a: AlarmRecord): boolean => a.state === 'raised' || a.state === 'latched';

/** Highest priority first, then the newest raise (the server's order, kept whatever the transport). */
export function byPriority(a: AlarmRecord, b: AlarmRecord): number {
  return (
    (RANK[a.priority] ?? 3) - (RANK[b.priority] ?? 3) ||
    Date.parse(b.raised_at) - Date.parse(a.raised_at) ||
    (a.alarm_id < b.alarm_id ? -1 : a.alarm_id > b.alarm_id ? 1 : 0)
  );
}

/** When the condition began this time: its latest return while latched, or the raise (older rows have no condition_since). */
export const conditionSince = (a: Pick<AlarmRecord, 'condition_since' | 'raised_at'>): string => a.condition_since || a.raised_at;

/**
 * What the alarm is about. A technical alarm of the disconnect kind says since when nothing came
 * ("No data from monitor mon-7 since 14:02", its raise time being the device's last reading, in
 * the browser's clock); a physiological one the server's message ("SpO2 85 % (below 92 % for 10 s)").
 */
export function alarmDetail(a: AlarmRecord, now: number = Date.now()): string {
  if (a.kind === 'technical' && a.rule === 'device-disconnected')
    return 'No data from monitor ' + a.device_id + ' since ' + clock(conditionSince(a), now);
  return a.message;
}

/** "Raised 14:03 · 3 min ago" (a technical disconnect: "Last data 14:02 · 3 min ago", since its latest silence). */
export function raisedLine(a: AlarmRecord, now: number = Date.now()): string {
  if (a.kind === 'technical' && a.rule === 'device-disconnected') {
    const since = conditionSince(a);
    return 'Last data ' + clock(since, now) + ' · ' + age(since, now) + ' ago';
  }
  return 'Raised ' + clock(a.raised_at, now) + ' · ' + age(a.raised_at, now) + ' ago';
}

/** When an unacknowledged alarm or result escalates; past its time (the escalator not there yet), that it is overdue. */
const dueText = (due: string, now: number) =>
  Date.parse(due) > now ? ' · escalates ' + clock(due, now) + ' if not acknowledged' : ' · escalation due since ' + clock(due, now);

/** Who acknowledged it: the display name, else the user id. */
export const acknowledgerOfAlarm = (a: AlarmRecord): string =>
  a.acknowledged_by ? a.acknowledged_by.name || a.acknowledged_by.user : 'unknown';

/**
 * The alarm's state in sentences, most important first: acknowledged (who, when), latched (the
 * condition ended, still to acknowledge), not yet acknowledged (with when it escalates), then the
 * recurrences of a latched alarm (one alarm, however often its condition came back), the escalation
 * if there was one, and the acknowledging clinician's note. The state lines are drawn
 * when the list is read (again on every change of it), the raise's age every second.
 */
export function alarmStateLines(a: AlarmRecord, now: number = Date.now()): string[] {
  const lines: string[] = [];
  if (a.acknowledged_at && (a.state === 'acknowledged' || a.state === 'resolved')) {
    lines.push('Acknowledged by ' + acknowledgerOfAlarm(a) + ' at ' + (a.acknowledged_at ? clock(a.acknowledged_at, now) : '—'));
  } else if (a.state === 'latched') {
    lines.push('Latched — condition ended ' + (a.condition_ended_at ? clock(a.condition_ended_at, now) : '—') + ', acknowledge to clear');
  } else if (a.state === 'raised') {
    lines.push('Not acknowledged' + (a.due_at && !a.escalated_at ? dueText(a.due_at, now) : ''));
  }
  if (a.recurrences)
    lines.push(
      'Came back ' +
        (a.recurrences === 1 ? 'once' : a.recurrences + ' times') +
        ' before acknowledgement, last at ' +
        clock(conditionSince(a), now),
    );
  if (a.escalated_at) lines.push('Escalated to ' + (a.escalated_to || 'the next recipient') + ' at ' + clock(a.escalated_at, now));
  if (a.note) lines.push('Note: ' + a.note);
  return lines;
}

/** The critical results in the panel's order: escalated first, then open, oldest first; then the acknowledged ones, newest first. */
export function criticalOrder(a: CriticalResult, b: CriticalResult): number {
  const rank = (c: CriticalResult) => (c.state === 'escalated' ? 0 : c.state === 'open' ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (a.state === 'acknowledged') return Date.parse(b.acknowledged_at || '') - Date.parse(a.acknowledged_at || '');
  return Date.parse(a.raised_at) - Date.parse(b.raised_at);
}

/** A critical result's times: "Raised 14:03 · escalates 14:18 if not acknowledged" (past it: "· escalation due since 14:18"), or "· escalated 14:18", or who acknowledged it and when. */
export function criticalStateLine(c: CriticalResult, now: number = Date.now()): string {
  if (c.state === 'acknowledged')
    return (
      'Acknowledged by ' +
      acknowledgerOf(c) +
      ' at ' +
      (c.acknowledged_at ? clock(c.acknowledged_at, now) : '—') +
      ' · raised ' +
      clock(c.raised_at, now)
    );
  return (
    'Raised ' +
    clock(c.raised_at, now) +
    (c.state === 'escalated' && c.escalated_at ? ' · escalated ' + clock(c.escalated_at, now) : dueText(c.due_at, now))
  );
}
