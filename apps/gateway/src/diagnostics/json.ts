/**
 * Critical results as REST v1, the triage board and MCP show them: the JSON of one critical result
 * (`criticalJson`) and its named schemas (CriticalResult, CriticalResultValue). The diagnostics
 * routes (routes.ts), the triage board (triage/routes.ts) and the MCP tools answer through these.
 */
import { z } from 'zod';
import { resultValueOut } from './fhir';
import type { CriticalResultView } from './service';

/** A critical result's value: the report's result, its clinical name, and the critical limit it crossed. */
export const criticalValueOut = resultValueOut
  .extend({
    name: z.string().describe('The clinical name ("Potassium"); `display` is the LOINC long name'),
    crossed: z
      .object({ side: z.enum(['low', 'high']), limit: z.number() })
      .nullable()
      .describe('The critical limit the value crossed (below low, above high); null for a finding in words (AA)'),
  })
  .meta({ id: 'CriticalResultValue' });

/** One critical result, the same on the acknowledgement, the list, the history and the triage board (REST and MCP). */
export const criticalOut = z
  .object({
    critical_id: z.string(),
    report_id: z.string(),
    patient_id: z.string(),
    code: z.string().describe("The report's test (LOINC)"),
    report_status: z.string().describe("The report's current status: preliminary, final, amended, corrected, …"),
    state: z.enum(['open', 'escalated', 'acknowledged']),
    results: z.array(criticalValueOut),
    raised_at: z.string(),
    due_at: z.string().describe('When it escalates if nobody acknowledges it'),
    escalated_at: z.string().nullable(),
    acknowledged_at: z.string().nullable(),
    acknowledged_by: z.string().nullable().describe('The signed-in user who acknowledged it (user id; never an app)'),
    acknowledged_by_name: z.string().nullable().describe("That user's display name, when the user store has one"),
    acknowledged_with: z.string().nullable().describe('The app (OAuth client id) the user acknowledged with'),
    note: z.string().nullable(),
  })
  .meta({ id: 'CriticalResult' });

export const criticalJson = (c: CriticalResultView): z.infer<typeof criticalOut> => ({
  critical_id: c.criticalId,
  report_id: c.reportId,
  patient_id: c.patientId,
  code: c.code,
  report_status: c.reportStatus,
  state: c.state,
  results: c.results,
  raised_at: c.raisedAt,
  due_at: c.dueAt,
  escalated_at: c.escalatedAt,
  acknowledged_at: c.acknowledgedAt,
  acknowledged_by: c.acknowledgedBy,
  acknowledged_by_name: c.acknowledgedByName,
  acknowledged_with: c.acknowledgedWith,
  note: c.note,
});
