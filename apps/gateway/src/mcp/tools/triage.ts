/** Triage tools: get_triage_board, set_triage_level (triage/service.ts). */
import { z } from 'zod';
import { resourceId, nonBlankText } from '@vitalis/schemas';
import { setTriageLevel, triageBoard } from '../../triage/service';
import { boardAlarmFields, boardAlarmJson } from '../../triage/board-alarm';
import { defineTool, UI } from './types';
import { criticalMcp, criticalShape } from './diagnostics';
import { latestOut, latestVitalShape, news2Out, news2Shape, triageEntryShape, triageOut } from './shapes';

const boardEntryShape = triageEntryShape.extend({
  name: z.string().nullable(),
  latest_vitals: z.array(latestVitalShape).optional(),
  news2: news2Shape.optional(),
  alerts: z.array(z.string()).describe('The alarm conditions present now, by rule (with read:vitals)'),
  alarms: z
    .array(boardAlarmFields)
    .optional()
    .describe(
      'The active bedside alarms (raised, acknowledged, latched), highest priority first (doctors, nurses); detail and acknowledgement: list_alarms, acknowledge_alarm',
    ),
  critical_results: z.array(criticalShape).optional().describe('Unacknowledged critical diagnostic results (with read:diagnostics)'),
  acknowledged_critical_results: z
    .array(criticalShape)
    .optional()
    .describe('Critical results acknowledged in the last 12 h (with read:diagnostics), newest first: who and when'),
});

export const triageBoardTool = defineTool({
  name: 'get_triage_board',
  title: 'ED triage board',
  description:
    'Patients in the emergency department, most urgent first (ESI 1 to 5, then arrival). With read:vitals each entry carries the latest vitals (each with its effective_at), NEWS2 and active vitals alerts; with read:diagnostics its unacknowledged critical results and those acknowledged in the last 12 h (who, when). Needs read:patients.',
  scopes: ['read:patients'],
  input: z.object({}),
  output: z.object({ count: z.number().int(), entries: z.array(boardEntryShape) }),
  annotations: { title: 'ED triage board', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  ui: UI.triage,
  async run({ deps, caller }) {
    const board = await triageBoard(deps.pool, caller);
    const entries = board.map((b) => ({
      patient_id: b.patientId,
      version: b.version,
      esi: b.esi,
      complaint: b.complaint,
      arrived_at: b.arrivedAt,
      updated_at: b.updatedAt,
      name: b.name,
      alerts: b.alerts,
      ...(b.news2 ? { latest_vitals: (b.latestVitals ?? []).map(latestOut), news2: news2Out(b.news2) } : {}),
      ...(b.alarms ? { alarms: b.alarms.map(boardAlarmJson) } : {}),
      ...(b.criticalResults ? { critical_results: b.criticalResults.map(criticalMcp) } : {}),
      ...(b.acknowledgedCriticalResults ? { acknowledged_critical_results: b.acknowledgedCriticalResults.map(criticalMcp) } : {}),
    }));
    const byLevel = [1, 2, 3, 4, 5].map((l) => `ESI ${l}: ${entries.filter((e) => e.esi === l).length}`).join(', ');
    return { data: { count: entries.length, entries }, text: `${entries.length} patient(s) on the board (${byLevel}).` };
  },
});

export const setTriageLevelTool = defineTool({
  name: 'set_triage_level',
  title: 'Set the ESI triage level',
  description:
    'Sets or changes the Emergency Severity Index (1 resuscitation ... 5 non-urgent) of a patient on the ED board. Optional expected_version (from the board) refuses the change if someone changed the entry meanwhile. Needs write:triage.',
  scopes: ['write:triage'],
  input: z.object({
    patient_id: resourceId,
    esi: z.number().int().min(1).max(5).describe('Emergency Severity Index 1-5'),
    reason: nonBlankText(500).optional(),
    expected_version: z.number().int().min(1).optional().describe('The entry version you read (optimistic concurrency)'),
  }),
  output: z.object({ entry: triageEntryShape }),
  annotations: {
    title: 'Set the ESI triage level',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  ui: UI.triage,
  async run({ deps, caller }, a) {
    const t = await setTriageLevel(deps.pool, caller, a.patient_id, a.expected_version, a.esi as 1 | 2 | 3 | 4 | 5, a.reason);
    return { data: { entry: triageOut(t) }, text: `${t.patientId} is now ESI ${t.esi} (version ${t.version}).` };
  },
});
