/**
 * An active bedside alarm as the triage board lists it, for both faces of the board: REST
 * (`GET /api/v1/triage`, the named component) and MCP (`get_triage_board`, the fields unnamed).
 */
import { z } from 'zod';
import { ALARM_PRIORITIES } from '@vitalis/clinical';
import { ALARM_STATES } from '@vitalis/records';
import type { BoardAlarm } from '../alarms/service';

/** An active alarm on the board (MCP's output schemas use the fields unnamed, REST the named component). */
export const boardAlarmFields = z.object({
  alarm_id: z.string(),
  rule: z.string().describe('The condition (its label: the alarm table, docs/alarms.md)'),
  priority: z.enum(ALARM_PRIORITIES),
  state: z.enum(ALARM_STATES),
  raised_at: z.string(),
  escalated_to: z.string().nullable(),
});
export const boardAlarmOut = boardAlarmFields.meta({ id: 'BoardAlarm', description: 'An active bedside alarm on the triage board' });
export const boardAlarmJson = (a: BoardAlarm) => ({
  alarm_id: a.alarmId,
  rule: a.rule,
  priority: a.priority,
  state: a.state,
  raised_at: a.raisedAt,
  escalated_to: a.escalatedTo,
});
