/**
 * Diagnostics tools (issue 21): order_diagnostic_test, list_pending_orders, get_diagnostic_report,
 * list_critical_results, acknowledge_critical_result. The same service as REST (diagnostics/service.ts), so the same
 * access rules (role and scope), audit and decider; the same scopes as the equivalent routes.
 */
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import { instant, resourceId, nonBlankText } from '@vitalis/schemas';
import { ORDERABLE_CODES, ORDERABLE_TESTS, type OrderableCode } from '@vitalis/clinical';
import { SERVICE_REQUEST_PRIORITIES, type DiagnosticReportState } from '@vitalis/records';
import {
  acknowledgeCriticalResult,
  createOrder,
  criticalViewOf,
  CRITICAL_STATES,
  getReport,
  listCriticalResults,
  listOrders,
  type CriticalResultView,
} from '../../diagnostics/service';
import { diagnosticsDeps } from '../../diagnostics/deps';
import { criticalJson } from '../../diagnostics/json';
import { toFhirDiagnosticReport, toFhirServiceRequest } from '../../diagnostics/fhir';
import { defineTool } from './types';
import { reachesAll } from '../../access/policy';

const fhir = (type: string) => z.looseObject({ resourceType: z.literal(type), id: z.string(), status: z.string() });
const serviceRequest = fhir('ServiceRequest').describe('FHIR R4 ServiceRequest');
/** The REST shape of a critical result (diagnostics/routes.ts `criticalOut`), its results as plain records. */
export const criticalShape = z.object({
  critical_id: z.string(),
  report_id: z.string(),
  patient_id: z.string(),
  code: z.string(),
  report_status: z.string(),
  state: z.enum(['open', 'escalated', 'acknowledged']),
  results: z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      'Each: code, name (clinical name), display (LOINC), value, unit, interpretation, referenceRange, crossed (the critical limit crossed)',
    ),
  raised_at: z.string(),
  due_at: z.string(),
  escalated_at: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.string().nullable().describe('The signed-in user who acknowledged it'),
  acknowledged_by_name: z.string().nullable(),
  acknowledged_with: z.string().nullable().describe('The app (client id) used'),
  note: z.string().nullable(),
});
export const criticalMcp = (c: CriticalResultView): z.infer<typeof criticalShape> => {
  const j = criticalJson(c);
  return { ...j, results: j.results as unknown as Record<string, unknown>[] };
};
const criticalOut = (r: DiagnosticReportState) => {
  const c = criticalViewOf(r);
  return c ? criticalMcp(c) : null;
};

export const orderDiagnosticTestTool = defineTool({
  name: 'order_diagnostic_test',
  title: 'Order a diagnostic test',
  description: `Orders a test for a patient (a FHIR ServiceRequest, active; intent proposal makes a draft a doctor activates later). Codes (LOINC): ${ORDERABLE_CODES.map((c) => `${c} ${ORDERABLE_TESTS[c].display}`).join('; ')}. Needs write:diagnostics and the doctor role.`,
  scopes: ['write:diagnostics'],
  input: z.object({
    patient_id: resourceId,
    code: z.enum(ORDERABLE_CODES as [OrderableCode, ...OrderableCode[]]).describe('LOINC code of the test'),
    priority: z.enum(SERVICE_REQUEST_PRIORITIES).default('routine'),
    intent: z.enum(['order', 'proposal']).default('order'),
    reason: nonBlankText(500).optional().describe('Why (ServiceRequest.reasonCode.text)'),
  }),
  output: z.object({ order: serviceRequest }),
  annotations: {
    title: 'Order a diagnostic test',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run({ deps, caller }, a) {
    const o = await createOrder(deps.pool, caller, {
      patientId: a.patient_id,
      code: a.code,
      priority: a.priority,
      intent: a.intent,
      reason: a.reason,
    });
    return {
      data: { order: toFhirServiceRequest(o) as z.infer<typeof serviceRequest> },
      text: `Ordered ${ORDERABLE_TESTS[a.code].display} (${a.priority}) for ${a.patient_id}: ${o.id}, ${o.status}.`,
    };
  },
});

export const listPendingOrdersTool = defineTool({
  name: 'list_pending_orders',
  title: 'Pending diagnostic orders',
  description:
    'Orders not yet resulted (draft, active or on-hold), newest first, for one patient or all. Reads the projection (one projector tick behind). Needs read:diagnostics.',
  scopes: ['read:diagnostics'],
  input: z.object({ patient_id: resourceId.optional(), limit: z.number().int().min(1).max(100).default(50) }),
  output: z.object({ count: z.number().int(), orders: z.array(serviceRequest) }),
  annotations: {
    title: 'Pending diagnostic orders',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ deps, caller }, a) {
    const orders = await listOrders(deps.pool, caller, { patientId: a.patient_id, status: ['draft', 'active', 'on-hold'], limit: a.limit });
    return {
      data: { count: orders.length, orders: orders.map((o) => toFhirServiceRequest(o) as z.infer<typeof serviceRequest>) },
      text: `${orders.length} pending order(s).`,
    };
  },
});

export const getDiagnosticReportTool = defineTool({
  name: 'get_diagnostic_report',
  title: 'Read a diagnostic report',
  description:
    'A FHIR DiagnosticReport with its Observations contained (values, units, reference ranges, interpretations L/H/LL/HH/A/AA), and its critical result if any. Needs read:diagnostics; a patient user reads its own final reports (patient/DiagnosticReport.rs).',
  scopes: [],
  input: z.object({ report_id: resourceId }),
  output: z.object({ report: fhir('DiagnosticReport').describe('FHIR R4 DiagnosticReport'), critical: criticalShape.nullable() }),
  annotations: {
    title: 'Read a diagnostic report',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  async run({ deps, caller }, a) {
    const r = await getReport(deps.pool, caller, a.report_id);
    const critical = reachesAll(caller.principal, 'CriticalResult', 'read') ? criticalOut(r) : null;
    const flags = r.results
      .filter((x) => x.interpretation !== undefined && x.interpretation !== 'N')
      .map((x) => `${x.display} ${x.value ?? x.text ?? ''}${x.unit ? ` ${x.unit}` : ''} (${x.interpretation})`);
    return {
      data: { report: toFhirDiagnosticReport(r) as z.infer<ReturnType<typeof fhir>>, critical },
      text: `${r.id} (${r.status}): ${flags.length ? flags.join('; ') : 'all results within range'}${critical && critical.state !== 'acknowledged' ? `. CRITICAL result ${critical.state}, not yet acknowledged.` : '.'}`,
    };
  },
});

export const listCriticalResultsTool = defineTool({
  name: 'list_critical_results',
  title: 'Critical results',
  description:
    'Critical diagnostic results (a value past its critical limit, or a finding the performer called critical), of one patient or of every patient: waiting ones (open, escalated; the default) oldest first, then acknowledged ones (with state acknowledged, the last 24 h or since an instant) newest first with who and when. Each result names the analyte, its value and unit and the critical limit it crossed. Doctors and nurses (read:diagnostics); audited.',
  scopes: ['read:diagnostics'],
  input: z.object({
    patient_id: resourceId.optional().describe('One patient (default: every patient the caller reaches)'),
    states: z.array(z.enum(CRITICAL_STATES)).min(1).optional().describe('open, escalated, acknowledged (default: open and escalated)'),
    since: instant.optional().describe('Acknowledged results: acknowledged at or after this instant (default: the last 24 h)'),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  output: z.object({ count: z.number().int(), critical_results: z.array(criticalShape) }),
  annotations: { title: 'Critical results', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run({ deps, caller }, a) {
    const list = (
      await listCriticalResults(deps.pool, caller, { patientId: a.patient_id, states: a.states, since: a.since, limit: a.limit })
    ).map(criticalMcp);
    const waiting = list.filter((c) => c.state !== 'acknowledged').length;
    return {
      data: { count: list.length, critical_results: list },
      text: `${list.length} critical result(s)${a.patient_id ? ` for ${a.patient_id}` : ''}: ${waiting} waiting for a clinician.`,
    };
  },
});

export const acknowledgeCriticalResultTool = defineTool({
  name: 'acknowledge_critical_result',
  title: 'Acknowledge a critical result',
  description:
    "Records that the signed-in clinician has seen a report's critical result (who: the user the token names, their name, the app, and when; audited); it leaves the triage board for its acknowledged history and stops escalating. Needs write:diagnostics, the doctor role and a token that names a user (a session signed in through the authorization code flow): an app acting for itself (client credentials) is refused.",
  scopes: ['write:diagnostics'],
  input: z.object({ report_id: resourceId, note: nonBlankText(2_000).optional() }),
  output: z.object({ critical: criticalShape }),
  annotations: {
    title: 'Acknowledge a critical result',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async run({ deps, caller }, a) {
    const r = await acknowledgeCriticalResult(diagnosticsDeps(deps), caller, a.report_id, a.note);
    const critical = must(criticalOut(r), `the critical result of report ${a.report_id}, just acknowledged`);
    return {
      data: { critical },
      text: `Critical result ${critical.critical_id} acknowledged by ${critical.acknowledged_by_name ?? critical.acknowledged_by} at ${critical.acknowledged_at}.`,
    };
  },
});
