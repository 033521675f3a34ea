/**
 * The figures of the alarm series (@vitalis/metrics alarms.ts), read at scrape time from the alarm
 * read model: alarms raised in the last hour by priority (rm_alarms_raised_idx) and the
 * device-disconnected alarms not resolved (rm_alarms_active_idx); the beds are the watchdog's.
 */
import { must } from '@vitalis/runtime';
import type { AlarmFigures } from '@vitalis/metrics';
import type { Queryable } from '@vitalis/db';
import { DISCONNECT_RULE } from './device-watchdog';

const FIGURES_SQL = `
  SELECT (SELECT coalesce(jsonb_object_agg(priority, n), '{}'::jsonb)
            FROM (SELECT priority, count(*)::int AS n FROM rm_alarms WHERE raised_at > now() - interval '1 hour' GROUP BY priority) raised) AS raised,
         (SELECT count(*)::int FROM rm_alarms WHERE rule = $1 AND state IN ('raised', 'acknowledged', 'latched')) AS disconnect_active`;

export async function readAlarmFigures(db: Queryable, beds: number | null): Promise<AlarmFigures> {
  const { rows } = await db.query<{ raised: Record<string, number>; disconnect_active: number }>(FIGURES_SQL, [DISCONNECT_RULE]);
  const figures = must(rows[0], 'the one row of the alarm figures query');
  return { raisedLastHour: figures.raised, beds, disconnectActive: figures.disconnect_active };
}
