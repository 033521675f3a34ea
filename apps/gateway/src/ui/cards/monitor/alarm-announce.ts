/**
 * The alarm panel's arrivals, said once in its assertive region (#alarm-said; the list is not a live
 * region: its ages change every second): at open, what is active; later, each new alarm or critical
 * result. It remembers what it has said per list, from the first answer of that list on.
 */
import { V } from '../shared/runtime';
import { criticalWhat, type CriticalResult } from '../shared/critical-result';
import { alarmDetail, PRIORITY_WORD } from './alarm-text';
import type { PanelState } from './alarm-lists';

/** Says what arrived since the last call (`crit`: the critical results as shown). */
export type Announce = (crit: CriticalResult[]) => void;

export function announcer(s: PanelState): Announce {
  let seenAlarms: Set<string> | null = null;
  let seenCritical: Set<string> | null = null;
  const alarmsSaid = (): string[] => {
    const said: string[] = [];
    if (seenAlarms === null) {
      const counts = (['high', 'medium', 'low'] as const)
        .map((p) => [p, s.alarms.items.filter((a) => a.priority === p).length] as const)
        .filter(([, n]) => n > 0);
      if (counts.length) said.push('Active alarms: ' + counts.map(([p, n]) => n + ' ' + PRIORITY_WORD[p].toLowerCase()).join(', ') + '.');
    } else {
      const seen = seenAlarms;
      s.alarms.items
        .filter((a) => !seen.has(a.alarm_id))
        .forEach((a) => said.push(PRIORITY_WORD[a.priority] + ' priority alarm: ' + a.label + '. ' + alarmDetail(a) + '.'));
    }
    seenAlarms = new Set(s.alarms.items.map((a) => a.alarm_id));
    return said;
  };
  const criticalSaid = (crit: CriticalResult[]): string[] => {
    const said: string[] = [];
    const open = crit.filter((c) => c.state !== 'acknowledged');
    if (seenCritical === null) {
      if (open.length) said.push('Open critical results: ' + open.map((c) => criticalWhat(s.tables, c)).join('; ') + '.');
    } else {
      const seen = seenCritical;
      open.filter((c) => !seen.has(c.critical_id)).forEach((c) => said.push('Critical result: ' + criticalWhat(s.tables, c) + '.'));
    }
    seenCritical = new Set(open.map((c) => c.critical_id));
    return said;
  };
  return (crit) => {
    if (s.alarms.state !== 'ok' && s.critical.state !== 'ok') return;
    const said = [...(s.alarms.state === 'ok' ? alarmsSaid() : []), ...(s.critical.state === 'ok' ? criticalSaid(crit) : [])];
    if (said.length) V.$('#alarm-said').textContent = said.join(' ');
  };
}
