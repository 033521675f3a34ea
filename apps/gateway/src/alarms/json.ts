/**
 * Alarms as REST v1 and MCP show them: the snake_case JSON of one alarm (`alarmJson`) and its
 * named schemas (Alarm, AlarmList, AlarmAcknowledgement), and the `state` filter. The REST routes
 * (routes.ts) and the MCP tools (mcp/tools/alarms.ts) answer through these.
 */
import { z } from 'zod';
import { ALARM_PRIORITIES, type AlarmSettings } from '@vitalis/clinical';
import { ALARM_STATES, type Alarm, type AlarmState } from '@vitalis/records';
import { nonBlankText } from '@vitalis/schemas';
import { labelOf } from './service';

const EXAMPLE_ALARM = {
  alarm_id: '3f0c6a52-8d1e-5b7a-9c3e-2a4b6c8d0e1f',
  patient_id: 'pat-0001',
  rule: 'spo2-low',
  label: 'SpO2 low',
  kind: 'physiological',
  priority: 'high',
  latching: true,
  state: 'acknowledged',
  message: 'SpO2 85 % (below 92 % for 10 s)',
  value: 85,
  device_id: 'mon-0001',
  raised_at: '2026-11-25T08:00:10.000Z',
  condition_since: '2026-11-25T08:00:10.000Z',
  recurrences: 0,
  due_at: '2026-11-25T08:01:10.000Z',
  condition_ended_at: null,
  acknowledged_at: '2026-11-25T08:00:40.120Z',
  acknowledged_by: { user: 'usr-demo-nurse', name: 'Demo Nurse', client_id: 'cli_0a1b2c3d4e5f' },
  note: 'repositioned the probe',
  escalated_at: null,
  escalated_to: null,
  resolved_at: null,
};

/** One alarm as every REST and MCP answer shows it. */
export const alarmOut = z
  .strictObject({
    alarm_id: z.string().describe("The alarm id (the raise event's alert_id)"),
    patient_id: z.string(),
    rule: z
      .string()
      .describe('The condition (@vitalis/clinical alarm table: spo2-low, hr-high, sys-low, news2-high, device-disconnected, …)'),
    label: z.string().describe("The condition's name for people"),
    kind: z.enum(['physiological', 'technical']).describe('IEC 60601-1-8: about the patient, or about the equipment or data path'),
    priority: z.enum(ALARM_PRIORITIES).describe('IEC 60601-1-8 priority'),
    latching: z.boolean().describe('Stays shown after its condition ends until a clinician acknowledges it'),
    state: z
      .enum(ALARM_STATES)
      .describe(
        'raised (condition present, not acknowledged), acknowledged (condition present), latched (condition ended, not acknowledged, latching), resolved',
      ),
    message: z.string(),
    value: z.number().describe('The value that confirmed the condition'),
    device_id: z.string().describe('The device whose data raised it'),
    raised_at: z.string().describe('The effective time of the observation that confirmed the condition (after its onset delay)'),
    condition_since: z
      .string()
      .describe('Since when the condition is present this time: raised_at, or the latest time it came back while the alarm was latched'),
    recurrences: z
      .number()
      .int()
      .min(0)
      .describe(
        'How many times the condition came back while the alarm was latched (one alarm until acknowledged, not one per recurrence)',
      ),
    due_at: z.string().nullable().describe('When it escalates if nobody acknowledges it (null: never)'),
    condition_ended_at: z.string().nullable(),
    acknowledged_at: z.string().nullable(),
    acknowledged_by: z
      .strictObject({
        user: z.string().describe("The signed-in user (the token's subject)"),
        name: z.string().nullable().describe('Their display name, when the user store had one'),
        client_id: z.string().describe('The app they acknowledged with'),
      })
      .nullable(),
    note: z.string().nullable().describe('What the acknowledging clinician wrote'),
    escalated_at: z.string().nullable(),
    escalated_to: z.string().nullable().describe('The recipient it escalated to (IHE ACM: the next in the chain)'),
    resolved_at: z.string().nullable(),
  })
  .meta({
    id: 'Alarm',
    description: 'A bedside alarm with its lifecycle (IEC 60601-1-8 priorities, IHE PCD ACM states)',
    example: EXAMPLE_ALARM,
  });

export type AlarmJson = z.infer<typeof alarmOut>;

export const alarmListOut = z.strictObject({ count: z.number().int(), alarms: z.array(alarmOut) }).meta({
  id: 'AlarmList',
  description: 'Alarms, highest priority first, then the newest raise first',
  example: { count: 1, alarms: [EXAMPLE_ALARM] },
});

export const alarmAcknowledgement = z
  .strictObject({ note: nonBlankText(2_000).optional().describe('What was done (kept with the acknowledgement)') })
  .nullish()
  .meta({ id: 'AlarmAcknowledgement', description: 'Optional: a note', example: { note: 'repositioned the probe; SpO2 recovering' } });

/** One alarm as REST and MCP answer it (snake_case; the rule's label from the site's alarm settings). */
export function alarmJson(settings: AlarmSettings, a: Alarm): AlarmJson {
  return {
    alarm_id: a.id,
    patient_id: a.patientId,
    rule: a.rule,
    label: labelOf(settings, a.rule),
    kind: a.kind,
    priority: a.priority,
    latching: a.latching,
    state: a.state,
    message: a.message,
    value: a.value,
    device_id: a.deviceId,
    raised_at: a.raisedAt,
    condition_since: a.conditionSince,
    recurrences: a.recurrences,
    due_at: a.dueAt,
    condition_ended_at: a.conditionEndedAt,
    acknowledged_at: a.acknowledgedAt,
    acknowledged_by: a.acknowledgedBy
      ? { user: a.acknowledgedBy.user, name: a.acknowledgedBy.name ?? null, client_id: a.acknowledgedBy.client_id }
      : null,
    note: a.note,
    escalated_at: a.escalatedAt,
    escalated_to: a.escalatedTo,
    resolved_at: a.resolvedAt,
  };
}

/** `state`: active (raised, acknowledged, latched), one state, or all. */
export const STATE_FILTERS = ['active', ...ALARM_STATES, 'all'] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];
export const statesOf = (f: StateFilter | undefined): AlarmState[] | undefined =>
  f === undefined || f === 'active' ? undefined : f === 'all' ? [...ALARM_STATES] : [f];
