/**
 * Bedside alarm tools (issue 31): list_alarms, acknowledge_alarm. The same service as REST and
 * FHIR (alarms/service.ts), so the same access policy (`Alarm`: doctors and nurses read; only a
 * signed-in one acknowledges, never a session of an app acting for itself), audit and decider, and
 * the same body as GET /api/v1/alarms/{id}.
 */
import { z } from 'zod';
import { nonBlankText, resourceId } from '@vitalis/schemas';
import { acknowledgeAlarm, alarmsDepsOf, listAlarms } from '../../alarms/service';
import { alarmJson, alarmOut, STATE_FILTERS, statesOf } from '../../alarms/json';
import { defineTool } from './types';

const when = (t: string | null) => t ?? '-';

export const listAlarmsTool = defineTool({
  name: 'list_alarms',
  title: 'Bedside alarms of a patient',
  description:
    "A patient's bedside alarms (IEC 60601-1-8 priority high/medium/low, IHE ACM state raised/acknowledged/latched/resolved), highest priority first. " +
    'state: active (default: raised, acknowledged, latched: what a clinician must still see), one state, or all (the last 24 h). Needs read:vitals and the doctor or nurse role.',
  scopes: ['read:vitals'],
  input: z.object({
    patient_id: resourceId,
    state: z.enum(STATE_FILTERS).default('active').describe('active (default), raised, acknowledged, latched, resolved or all'),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  output: z.object({ count: z.number().int(), alarms: z.array(alarmOut) }),
  annotations: {
    title: 'Bedside alarms of a patient',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ deps, caller }, a) {
    const d = alarmsDepsOf(deps);
    const alarms = (await listAlarms(d, caller, { patientId: a.patient_id, states: statesOf(a.state), limit: a.limit }, 'mcp')).map((x) =>
      alarmJson(d.settings, x),
    );
    const lines = alarms.map(
      (x) =>
        `${x.priority.toUpperCase()} ${x.label} (${x.state}, raised ${x.raised_at}${x.acknowledged_by ? `, acknowledged by ${x.acknowledged_by.name ?? x.acknowledged_by.user}` : ''}): ${x.message} [${x.alarm_id}]`,
    );
    return {
      data: { count: alarms.length, alarms },
      text: alarms.length
        ? `${alarms.length} alarm(s) of ${a.patient_id}:\n${lines.join('\n')}`
        : `No ${a.state} alarms for ${a.patient_id}.`,
    };
  },
});

export const acknowledgeAlarmTool = defineTool({
  name: 'acknowledge_alarm',
  title: 'Acknowledge a bedside alarm',
  description:
    'Records that the signed-in clinician has seen a raised or latched alarm (who, when and the app, audited): it stops escalating, and a latched alarm whose condition ended is resolved. ' +
    'Only a token that names a user (a doctor or nurse who signed in) may; an app acting for itself is refused. Already acknowledged or resolved: an error naming who and when. Needs read:vitals.',
  scopes: ['read:vitals'],
  input: z.object({ alarm_id: resourceId, note: nonBlankText(2_000).optional().describe('What was done') }),
  output: z.object({ alarm: alarmOut }),
  annotations: {
    title: 'Acknowledge a bedside alarm',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run({ deps, caller }, a) {
    const d = alarmsDepsOf(deps);
    const alarm = alarmJson(d.settings, await acknowledgeAlarm(d, caller, a.alarm_id, a.note, 'mcp'));
    const by = alarm.acknowledged_by;
    return {
      data: { alarm },
      text: `Alarm ${alarm.alarm_id} (${alarm.label}, ${alarm.priority}) acknowledged by ${by ? (by.name ?? by.user) : '-'} at ${when(alarm.acknowledged_at)}; now ${alarm.state}.`,
    };
  },
});
