/**
 * The diagnostics MCP tools through the SDK's own client over Streamable HTTP (issue 21 item 5):
 * order_diagnostic_test, list_pending_orders, get_diagnostic_report, acknowledge_critical_result
 * go through the same service as REST (same roles, audit, decider), their structuredContent
 * matches the declared zod output schemas (the SDK client validates it), refusals are tool errors
 * naming the status, and the resources they return are valid FHIR R4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { headPosition } from '@vitalis/eventstore';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { serviceRequestsProjection } from '../../../apps/projector/src/projections/definitions';
import { connect, type Connected } from '../mcp/support';
import { api, newPatient, quantityObs, reportBody, roleHeaders, userSession } from './support';

let gw: RunningGateway;
let doctor: Connected;
let labMcp: Connected;
/** The demo doctor signed in (a session whose token names the user): who acknowledges. */
let doctorUser: Connected;
let doctorApp: string;

beforeAll(async () => {
  gw = await startGateway();
  const token = async (role: 'doctor' | 'lab') =>
    clientCredentialsToken(gw.url, await registerClient(gw.url, ['read:diagnostics', 'write:diagnostics'], `mcp-dx-${role}`, role));
  const session = await userSession(gw, 'doctor', ['read:diagnostics', 'write:diagnostics']);
  doctorApp = session.clientId;
  [doctor, labMcp, doctorUser] = await Promise.all([
    connect(gw.url, await token('doctor')),
    connect(gw.url, await token('lab')),
    connect(gw.url, session.token),
  ]);
});
afterAll(async () => {
  await Promise.all([doctor, labMcp, doctorUser].map((c) => c?.close()));
  await gw?.close();
});

async function call(c: Connected, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { structuredContent?: any }> {
  return (await c.client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: any };
}
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('diagnostics MCP tools', () => {
  it('order, list pending, read the report with its critical result, acknowledge it', async () => {
    const patient = await newPatient(gw);
    const ordered = await call(doctor, 'order_diagnostic_test', {
      patient_id: patient,
      code: '2524-7',
      priority: 'stat',
      reason: 'suspected sepsis',
    });
    expect(ordered.isError).toBeFalsy();
    const order = ordered.structuredContent.order;
    expect(order).toMatchObject({
      resourceType: 'ServiceRequest',
      status: 'active',
      priority: 'stat',
      subject: { reference: `Patient/${patient}` },
    });
    expect(textOf(ordered)).toContain(order.id);
    // the lab may not order (role), a bad code is refused by the input schema
    const refused = await call(labMcp, 'order_diagnostic_test', { patient_id: patient, code: '2524-7' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('(403)');
    const bad = await call(doctor, 'order_diagnostic_test', { patient_id: patient, code: '0000-0' });
    expect(bad.isError).toBe(true);

    await catchUpTo(gw.deps.pool, serviceRequestsProjection, await headPosition(gw.deps.pool));
    const pending = await call(labMcp, 'list_pending_orders', { patient_id: patient });
    expect(pending.structuredContent.orders.map((o: { id: string }) => o.id)).toEqual([order.id]);

    const lab = await roleHeaders(gw, 'lab', ['read:diagnostics', 'write:diagnostics']);
    const posted = await api(gw)('POST', '/reports', lab, reportBody(order.id, 'final', [quantityObs('2524-7', 6.3, 'mmol/L')]));
    const reportId = posted.body.id as string;
    const read = await call(doctor, 'get_diagnostic_report', { report_id: reportId });
    expect(read.isError).toBeFalsy();
    expect(read.structuredContent).toMatchObject({
      report: { resourceType: 'DiagnosticReport', id: reportId, status: 'final' },
      critical: { state: 'open', report_id: reportId },
    });
    expect(textOf(read)).toContain('CRITICAL');
    await expectValidFhir([order, read.structuredContent.report]);

    const notAllowed = await call(labMcp, 'acknowledge_critical_result', { report_id: reportId });
    expect(notAllowed.isError).toBe(true);
    // a doctor-role app acting for itself is no person: refused, saying who must acknowledge
    const machine = await call(doctor, 'acknowledge_critical_result', { report_id: reportId });
    expect(machine.isError).toBe(true);
    expect(textOf(machine)).toContain('(403)');
    expect(textOf(machine)).toContain('A signed-in clinician must acknowledge a critical result');
    const ack = await call(doctorUser, 'acknowledge_critical_result', { report_id: reportId, note: 'fluids started' });
    expect(ack.isError).toBeFalsy();
    expect(ack.structuredContent.critical).toMatchObject({
      state: 'acknowledged',
      acknowledged_by: 'usr-demo-doctor',
      acknowledged_by_name: 'Dr. Demo Doctor',
      acknowledged_with: doctorApp,
      report_status: 'final',
      results: [expect.objectContaining({ code: '2524-7', name: 'Lactate', value: 6.3, crossed: { side: 'high', limit: 4 } })],
    });
    expect(textOf(ack)).toContain('acknowledged by Dr. Demo Doctor');
    const twice = await call(doctorUser, 'acknowledge_critical_result', { report_id: reportId });
    expect(twice.isError).toBe(true);
    expect(textOf(twice)).toContain('(409)');
    const { rows } = await gw.deps.pool.query(
      `SELECT action, outcome FROM audit_events WHERE resource_id = $1 AND action LIKE 'diagnostics.%' ORDER BY id`,
      [reportId],
    );
    expect(rows.map((r) => `${r.action}:${r.outcome}`)).toEqual([
      'diagnostics.report.post:success',
      'diagnostics.report.read:success',
      'diagnostics.critical.acknowledge:failure',
      'diagnostics.critical.acknowledge:failure',
      'diagnostics.critical.acknowledge:success',
      'diagnostics.critical.acknowledge:failure',
    ]);
  });
});
