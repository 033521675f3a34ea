/**
 * Bedside alarms over MCP (issue 31), through the official SDK client against a real gateway:
 * list_alarms and acknowledge_alarm with their output schemas and structuredContent, the same
 * service and policy as REST (a session of an app acting for itself cannot acknowledge), and the
 * acknowledgement as a live `alarm` notification to a session subscribed to the patient's vitals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { connect, type Connected } from '../mcp/support';
import { clear, newPatient, raise, signIn, type SignedIn } from './support';

let gw: RunningGateway;
let doctor: SignedIn;
let nurse: SignedIn;
const sessions: Connected[] = [];

beforeAll(async () => {
  gw = await startGateway();
  [doctor, nurse] = await Promise.all([signIn(gw, 'doctor'), signIn(gw, 'nurse')]);
}, 60_000);
afterAll(async () => {
  for (const s of sessions) await s.close().catch(() => undefined);
  await gw?.close();
});

async function session(token: string): Promise<Connected> {
  const c = await connect(gw.url, token);
  sessions.push(c);
  return c;
}
const call = async (c: Connected, name: string, args: Record<string, unknown>) =>
  (await c.client.callTool({ name, arguments: args })) as any;
const textOf = (r: any) => (r.content as { type: string; text: string }[]).map((x) => x.text).join('\n');

describe('alarm tools', () => {
  it(
    "list_alarms and acknowledge_alarm by a signed-in nurse; an app acting for itself cannot acknowledge; the doctor's session gets the live notice",
    { timeout: 60_000 },
    async () => {
      const patient = await newPatient(gw);
      const at = (s: number) => new Date(Date.now() - 60_000 + s * 1_000).toISOString();
      const spo2 = await raise(gw, patient, 'spo2-low', { raisedAt: at(0) });
      const sys = await raise(gw, patient, 'sys-high', { raisedAt: at(1) });
      await clear(gw, patient, 'sys-high');

      const nurseMcp = await session(nurse.token);
      const { tools } = await nurseMcp.client.listTools();
      for (const name of ['list_alarms', 'acknowledge_alarm']) {
        const tool = tools.find((t) => t.name === name)!;
        expect(tool.outputSchema, name).toBeDefined();
        expect(tool.annotations?.readOnlyHint, name).toBe(name === 'list_alarms');
      }

      // the doctor watches the patient's vitals (resources/subscribe): alarm notices come with them
      const doctorMcp = await session(doctor.token);
      const updates: any[] = [];
      doctorMcp.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n));
      await doctorMcp.client.subscribeResource({ uri: `vitalis://patients/${patient}/vitals` });

      const listed = await call(nurseMcp, 'list_alarms', { patient_id: patient });
      expect(listed.isError).toBeFalsy();
      expect(listed.structuredContent).toMatchObject({
        count: 1,
        alarms: [{ alarm_id: spo2.id, state: 'raised', priority: 'high', label: 'SpO2 low', acknowledged_by: null }],
      });
      expect(textOf(listed)).toContain(spo2.id);
      const all = await call(nurseMcp, 'list_alarms', { patient_id: patient, state: 'all' });
      expect(all.structuredContent.alarms.map((a: any) => [a.alarm_id, a.state])).toEqual([
        [spo2.id, 'raised'],
        [sys.id, 'resolved'],
      ]);

      // an MCP session of a nurse-role app acting for itself (client credentials): reads, never acknowledges
      const app = await registerClient(gw.url, ['read:vitals'], 'alarm-mcp-app', 'nurse');
      const machine = await session(await clientCredentialsToken(gw.url, app));
      expect((await call(machine, 'list_alarms', { patient_id: patient })).isError).toBeFalsy();
      const refused = await call(machine, 'acknowledge_alarm', { alarm_id: spo2.id });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('(403)');
      expect(textOf(refused)).toContain('A signed-in clinician must acknowledge a bedside alarm');
      expect(refused._meta['vitalis/problem']).toMatchObject({ status: 403 });

      const ack = await call(nurseMcp, 'acknowledge_alarm', { alarm_id: spo2.id, note: 'suctioned; SpO2 recovering' });
      expect(ack.isError).toBeFalsy();
      expect(ack.structuredContent.alarm).toMatchObject({
        alarm_id: spo2.id,
        state: 'acknowledged',
        note: 'suctioned; SpO2 recovering',
        acknowledged_by: { user: 'usr-demo-nurse', name: 'Demo Nurse', client_id: nurse.clientId },
      });
      expect(textOf(ack)).toContain('acknowledged by Demo Nurse');
      const twice = await call(nurseMcp, 'acknowledge_alarm', { alarm_id: spo2.id });
      expect(twice.isError).toBe(true);
      expect(textOf(twice)).toContain('(409)');
      expect(textOf(twice)).toContain('Demo Nurse');
      expect((await call(nurseMcp, 'acknowledge_alarm', { alarm_id: sys.id })).isError).toBe(true); // resolved

      // the live notice: a resources/updated for the patient's vitals uri with the alarm event (no id)
      const deadline = Date.now() + 20_000;
      const notice = () => updates.map((u) => u.params._meta?.['vitalis/live']).find((l) => l?.type === 'alarm');
      while (!notice() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(notice()).toMatchObject({
        type: 'alarm',
        event: 'VitalsAlertAcknowledged',
        data: { alert_id: spo2.id, patient_id: patient, by: { user: 'usr-demo-nurse' } },
      });
      expect(notice()).not.toHaveProperty('id');

      const { rows } = await gw.deps.pool.query(
        `SELECT action, outcome, actor_subject, detail->>'via' AS via FROM audit_events WHERE resource_id = $1 AND action = 'alarm.acknowledge' ORDER BY id`,
        [spo2.id],
      );
      expect(rows).toEqual([
        { action: 'alarm.acknowledge', outcome: 'failure', actor_subject: app.client_id, via: null },
        { action: 'alarm.acknowledge', outcome: 'success', actor_subject: 'usr-demo-nurse', via: 'mcp' },
        { action: 'alarm.acknowledge', outcome: 'failure', actor_subject: 'usr-demo-nurse', via: 'mcp' },
      ]);
    },
  );
});
