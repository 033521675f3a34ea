/**
 * The alarm panel's Acknowledge actions (./alarm-panel.ts): the click posts (REST or the MCP tool),
 * then the list is read again. A success is said in the assertive region and focus moves to the
 * next Acknowledge button; a refusal (403) or a conflict (409: acknowledged meanwhile by someone
 * else, or resolved) is said in the panel in words, a conflict with who got there first once the
 * list has been read again.
 */
import { V } from '../shared/runtime';
import { ApiError } from '../shared/access';
import { clock } from '../shared/time';
import { acknowledgerOf, criticalWhat, type CriticalResult } from '../shared/critical-result';
import { acknowledgerOfAlarm, type AlarmRecord } from './alarm-text';
import { criticalShown, messageOf, statusOf, type PanelState, type Readers } from './alarm-lists';

/** What an acknowledgement changes: the panel's state, its drawing, its readers. */
export interface AckContext extends Readers {
  s: PanelState;
  render(): void;
}

/** The panel's message line (#alarm-msg), hidden when empty. */
function say(text: string): void {
  const box = V.$('#alarm-msg');
  box.textContent = text;
  box.hidden = text === '';
}

/** A 409's body for an alarm: who acknowledged it first and when, or since when it is resolved. */
type AlarmConflict = { acknowledged_by?: { name?: string | null; user?: string }; acknowledged_at?: string; resolved_at?: string } | null;

/** Why an alarm was not acknowledged, in words (the 409's body when it says; else the server's words and, for a conflict, who was first). */
function alarmRefused(ctx: AckContext, a: AlarmRecord, err: unknown): void {
  const p = err instanceof ApiError ? (err.problem as AlarmConflict) : null;
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
        const now = ctx.s.alarms.items.find((x) => x.alarm_id === a.alarm_id);
        return now && now.acknowledged_at
          ? a.label + ' was already acknowledged by ' + acknowledgerOfAlarm(now) + ' at ' + clock(now.acknowledged_at) + '.'
          : null;
      },
      ctx.s.afterAlarms,
    );
}

export function acknowledgeAlarm(ctx: AckContext, a: AlarmRecord, button: HTMLButtonElement): void {
  const { s } = ctx;
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
        s.alarms.items =
          after.state === 'resolved'
            ? s.alarms.items.filter((x) => x.alarm_id !== a.alarm_id)
            : s.alarms.items.map((x) => (x.alarm_id === a.alarm_id ? after : x));
      }
      V.$('#alarm-said').textContent =
        'Acknowledged: ' + a.label + (after && after.acknowledged_at ? ' at ' + clock(after.acknowledged_at) : '') + '.';
      s.focusNextAck = true;
      ctx.render();
      ctx.readAlarms();
    },
    (err) => {
      button.disabled = false;
      alarmRefused(ctx, a, err);
      ctx.readAlarms();
    },
  );
}

export function acknowledgeCritical(ctx: AckContext, c: CriticalResult, button: HTMLButtonElement): void {
  const { s } = ctx;
  button.disabled = true;
  say('');
  const what = criticalWhat(s.tables, c);
  V.op(
    'acknowledge_critical_result',
    { report_id: c.report_id },
    { method: 'POST', path: '/api/v1/diagnostics/reports/' + encodeURIComponent(c.report_id) + '/acknowledge', body: {} },
  ).then(
    (body) => {
      const after: CriticalResult | null = body && (body.critical || (body.critical_id ? body : null));
      if (after && after.critical_id === c.critical_id && after.state === 'acknowledged') s.acknowledged.set(after.critical_id, after);
      V.$('#alarm-said').textContent = 'Critical result acknowledged: ' + what + '.';
      s.focusNextAck = true;
      ctx.render();
      ctx.readCritical();
    },
    (err) => {
      button.disabled = false;
      refusal(
        err,
        () => {
          const now = criticalShown(s).find((x) => x.critical_id === c.critical_id);
          return now && now.state === 'acknowledged'
            ? what +
                ' was already acknowledged by ' +
                acknowledgerOf(now) +
                (now.acknowledged_at ? ' at ' + clock(now.acknowledged_at) : '') +
                '.'
            : null;
        },
        s.afterCritical,
      );
      ctx.readCritical();
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
