/**
 * Every MCP tool called with the SDK's own Client over Streamable HTTP against a real gateway
 * (PostgreSQL event store, projections caught up by the real projector runner): the happy path,
 * structuredContent matching the declared output schema (the SDK client validates it), a short
 * text, and a refusal each where one is meaningful, as a tool result with isError (never a 500).
 * The vitals tools run against real ingested data in live.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { headPosition } from '@vitalis/eventstore';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection, slotsProjection, triageProjection } from '../../../apps/projector/src/projections/definitions';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { UI_CARDS } from '../../../apps/gateway/src/ui/cards';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { uid } from '../vitals/support';
import { connect, tokenFor, type Connected } from './support';

let gw: RunningGateway;
let clinician: Connected;
let reception: Connected;
let vitalsOnly: Connected;

beforeAll(async () => {
  gw = await startGateway();
  const c = await tokenFor(
    gw.url,
    ['read:patients', 'write:patients', 'read:appointments', 'write:appointments', 'read:vitals', 'write:triage'],
    'mcp-test-clinician',
  );
  const r = await tokenFor(gw.url, ['write:patients', 'read:appointments', 'write:appointments'], 'mcp-test-reception');
  const v = await tokenFor(gw.url, ['read:vitals'], 'mcp-test-vitals');
  [clinician, reception, vitalsOnly] = await Promise.all([connect(gw.url, c.token), connect(gw.url, r.token), connect(gw.url, v.token)]);
});
afterAll(async () => {
  await Promise.all([clinician, reception, vitalsOnly].map((x) => x?.close()));
  await gw?.close();
});

const project = async (...projections: (typeof patientsProjection)[]) => {
  const head = await headPosition(gw.deps.pool);
  for (const p of projections) await catchUpTo(gw.deps.pool, p, head);
};

async function call(c: Connected, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult & { structuredContent?: any }> {
  return (await c.client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: any };
}
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

async function registerPatient(family: string): Promise<string> {
  const r = await call(clinician, 'register_patient', {
    family,
    given: ['Ada', 'Grace'],
    birth_date: '1980-02-03',
    gender: 'female',
    identifiers: [{ system: 'urn:vitalis:mrn', value: `MRN-${family}` }],
  });
  expect(r.isError).toBeFalsy();
  return r.structuredContent.patient.id as string;
}

describe('tools/list', () => {
  it('every tool has zod-derived input and output schemas, annotations, and the card it renders in', async () => {
    const { tools } = await clinician.client.listTools();
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: false,
      });
      expect(t.description!.length, t.name).toBeGreaterThan(40);
    }
    const ui = Object.fromEntries(tools.map((t) => [t.name, (t._meta as { ui?: { resourceUri: string } } | undefined)?.ui?.resourceUri]));
    expect(ui).toMatchObject({
      find_available_slots: 'ui://vitalis/appointment-booking-form',
      book_appointment: 'ui://vitalis/appointment-booking-form',
      get_latest_vitals: 'ui://vitalis/vitals-telemetry-monitor',
      get_vitals_history: 'ui://vitalis/vitals-telemetry-monitor',
      get_triage_board: 'ui://vitalis/emergency-triage-board',
      search_patients: 'ui://vitalis/patient-search-card',
      get_patient: 'ui://vitalis/patient-search-card',
    });
    expect(tools.find((t) => t.name === 'get_patient')!._meta).toMatchObject({ 'ui/resourceUri': 'ui://vitalis/patient-search-card' });
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.annotations!]));
    expect(byName.cancel_appointment!.destructiveHint).toBe(true);
    expect(byName.search_patients!.readOnlyHint).toBe(true);
    expect(byName.register_patient!.idempotentHint).toBe(false);
  });
});

describe('ui:// resources', () => {
  it('reads each card as text/html;profile=mcp-app, the same document the gateway serves', async () => {
    expect(UI_CARDS.length).toBe(4);
    for (const card of UI_CARDS) {
      const { contents } = await reception.client.readResource({ uri: `ui://vitalis/${card.name}` });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: `ui://vitalis/${card.name}`, mimeType: 'text/html;profile=mcp-app' });
      expect((contents[0] as { text: string }).text).toBe(card.html());
    }
  });
});

describe('patients', () => {
  it('register_patient, search_patients and get_patient: clinical readers see allergies, reception demographics only; each read audited', async () => {
    const family = `Mcp${uid()}`;
    const id = await registerPatient(family);
    expect(id).toMatch(/^pat-/);
    await project(patientsProjection);

    const found = await call(clinician, 'search_patients', { name: family });
    expect(found.isError).toBeFalsy();
    expect(found.structuredContent).toMatchObject({
      count: 1,
      next_cursor: null,
      patients: [{ id, family, given: ['Ada', 'Grace'], name: `Ada Grace ${family}`, birth_date: '1980-02-03', allergies: [] }],
    });
    expect(textOf(found)).toContain(id);
    const byIdentifier = await call(clinician, 'search_patients', { identifier: `urn:vitalis:mrn|MRN-${family}` });
    expect(byIdentifier.structuredContent.patients.map((p: { id: string }) => p.id)).toEqual([id]);
    const demographicsOnly = await call(reception, 'search_patients', { name: family });
    expect(demographicsOnly.structuredContent.patients[0].allergies).toBeUndefined();

    const record = await call(clinician, 'get_patient', { patient_id: id });
    // the record envelope, the same keys as REST GET /api/v1/patients/{id}: allergies beside the patient (0.2.0)
    expect(record.structuredContent).toMatchObject({
      view: 'clinical',
      patient: { id },
      allergies: [],
      latest_vitals: [],
      news2: { score: expect.any(Number) },
    });
    expect(record.structuredContent.patient).not.toHaveProperty('allergies');
    expect(textOf(record)).toContain('no known allergies');
    const front = await call(reception, 'get_patient', { patient_id: id });
    expect(front.structuredContent.view).toBe('demographics');
    expect(front.structuredContent.patient.allergies).toBeUndefined();
    expect(front.structuredContent.allergies).toBeUndefined();
    expect(front.structuredContent.news2).toBeUndefined();

    const { rows } = await gw.deps.pool.query<{ action: string; outcome: string }>(
      'SELECT action, outcome FROM audit_events WHERE resource_id = $1 ORDER BY id',
      [id],
    );
    expect(rows.map((r) => r.action)).toEqual(['patient.register', 'patient.read', 'patient.read']);
  });

  it('refusals are tool errors with a clear text: unknown patient, a token with neither patient scope, a bad cursor, invalid input', async () => {
    const missing = await call(clinician, 'get_patient', { patient_id: `pat-none-${uid()}` });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/Not Found \(404\): Patient .* does not exist/);
    expect(missing._meta).toMatchObject({ 'vitalis/problem': { status: 404, type: `${gw.url}/errors/not-found` } });

    const noScope = await call(vitalsOnly, 'search_patients', { name: 'x' });
    expect(noScope.isError).toBe(true);
    expect(textOf(noScope)).toMatch(/Forbidden \(403\).*read:patients or write:patients/);
    const noView = await call(vitalsOnly, 'get_patient', { patient_id: 'pat-0001' });
    expect(noView.isError).toBe(true);

    const badCursor = await call(clinician, 'search_patients', { name: 'x', cursor: 'nope' });
    expect(badCursor.isError).toBe(true);
    expect(textOf(badCursor)).toContain('cursor is invalid');

    const invalid = await call(clinician, 'register_patient', { family: '', birth_date: 'yesterday' });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/family|birth_date/);
  });

  it('search_patients pages with next_cursor', async () => {
    const family = `Page${uid()}`;
    for (let i = 0; i < 3; i++) await registerPatient(`${family}${i}`);
    await project(patientsProjection);
    const first = await call(clinician, 'search_patients', { name: family, limit: 2 });
    expect(first.structuredContent.count).toBe(2);
    expect(first.structuredContent.next_cursor).toEqual(expect.any(String));
    const second = await call(clinician, 'search_patients', { name: family, limit: 2, cursor: first.structuredContent.next_cursor });
    expect(second.structuredContent).toMatchObject({ count: 1, next_cursor: null });
    expect(second.structuredContent.patients[0].family).toBe(`${family}2`);
  });
});

describe('appointments', () => {
  it('find_available_slots, book_appointment (one winner), cancel_appointment (then gone)', async () => {
    const patient = await registerPatient(`Appt${uid()}`);
    const clinicianId = `clin-mcp-${uid()}`;
    const day = Date.UTC(2031, 6, 7, 9);
    for (let i = 0; i < 3; i++) {
      const start = new Date(day + i * 1_800_000);
      await createSlot(gw.deps.pool, {
        clinicianId,
        appointmentType: 'consultation',
        start: start.toISOString(),
        end: new Date(start.getTime() + 1_800_000).toISOString(),
      });
    }
    await project(slotsProjection);

    const free = await call(reception, 'find_available_slots', { clinician_id: clinicianId, date: '2031-07-07' });
    expect(free.isError).toBeFalsy();
    expect(free.structuredContent).toMatchObject({ count: 3, more: false });
    expect(free.structuredContent.slots.map((s: { start: string }) => s.start)).toEqual(
      [0, 1, 2].map((i) => new Date(day + i * 1_800_000).toISOString()),
    );
    const slotId = free.structuredContent.slots[0].slot_id as string;
    expect(textOf(free)).toContain(slotId);
    const otherDay = await call(reception, 'find_available_slots', { clinician_id: clinicianId, date: '2031-07-08' });
    expect(otherDay.structuredContent.count).toBe(0);

    const booked = await call(reception, 'book_appointment', { slot_id: slotId, patient_id: patient, reason: 'follow-up' });
    expect(booked.isError).toBeFalsy();
    expect(booked.structuredContent.appointment).toMatchObject({
      status: 'booked',
      slot_id: slotId,
      patient_id: patient,
      clinician_id: clinicianId,
      reason: 'follow-up',
    });
    const again = await call(clinician, 'book_appointment', { slot_id: slotId, patient_id: patient });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/Conflict \(409\).*already booked/);
    const unknownPatient = await call(clinician, 'book_appointment', {
      slot_id: free.structuredContent.slots[1].slot_id,
      patient_id: `pat-none-${uid()}`,
    });
    expect(unknownPatient.isError).toBe(true);
    expect(textOf(unknownPatient)).toContain('(422)');

    await project(slotsProjection);
    const remaining = await call(reception, 'find_available_slots', { clinician_id: clinicianId });
    expect(remaining.structuredContent.slots.map((s: { slot_id: string }) => s.slot_id)).not.toContain(slotId);

    const id = booked.structuredContent.appointment.appointment_id as string;
    const cancelled = await call(reception, 'cancel_appointment', { appointment_id: id, reason: 'patient request' });
    expect(cancelled.structuredContent.appointment).toMatchObject({ appointment_id: id, status: 'cancelled' });
    const twice = await call(reception, 'cancel_appointment', { appointment_id: id });
    expect(twice.isError).toBe(true);
    expect(textOf(twice)).toContain('(404)');

    const backwards = await call(reception, 'find_available_slots', { from: '2031-07-08T00:00:00Z', to: '2031-07-07T00:00:00Z' });
    expect(backwards.isError).toBe(true);
    expect(textOf(backwards)).toContain('from must be before to');
  });
});

describe('triage', () => {
  it('get_triage_board sorted by ESI with NEWS2, set_triage_level (404 when not on the board, 412 when stale)', async () => {
    const a = await registerPatient(`TriA${uid()}`);
    const b = await registerPatient(`TriB${uid()}`);
    const nurseRest = { authorization: `Bearer ${clinician.auth.token}`, 'content-type': 'application/json' };
    for (const [patient, esi] of [
      [a, 3],
      [b, 2],
    ] as const) {
      const res = await fetch(`${gw.url}/api/v1/triage`, {
        method: 'POST',
        headers: nurseRest,
        body: JSON.stringify({ patient_id: patient, esi, complaint: 'chest pain' }),
      });
      expect(res.status).toBe(201);
    }
    await project(triageProjection, patientsProjection);

    const board = await call(clinician, 'get_triage_board');
    expect(board.isError).toBeFalsy();
    const mine = board.structuredContent.entries.filter((e: { patient_id: string }) => e.patient_id === a || e.patient_id === b);
    expect(mine.map((e: { patient_id: string; esi: number }) => [e.patient_id, e.esi])).toEqual([
      [b, 2],
      [a, 3],
    ]);
    expect(mine[0]).toMatchObject({
      complaint: 'chest pain',
      alerts: [],
      news2: { score: expect.any(Number) },
      name: expect.stringContaining('TriB'),
    });
    expect(textOf(board)).toMatch(/patient\(s\) on the board/);

    const raised = await call(clinician, 'set_triage_level', { patient_id: a, esi: 1, reason: 'deteriorating' });
    expect(raised.structuredContent.entry).toMatchObject({ patient_id: a, esi: 1, version: 2 });
    const stale = await call(clinician, 'set_triage_level', { patient_id: a, esi: 2, expected_version: 1 });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toContain('(412)');
    const absent = await call(clinician, 'set_triage_level', { patient_id: `pat-none-${uid()}`, esi: 2 });
    expect(absent.isError).toBe(true);
    expect(textOf(absent)).toContain('not on the triage board');

    await project(triageProjection);
    const after = await call(clinician, 'get_triage_board');
    const first = after.structuredContent.entries.findIndex((e: { patient_id: string }) => e.patient_id === a);
    const second = after.structuredContent.entries.findIndex((e: { patient_id: string }) => e.patient_id === b);
    expect(first).toBeLessThan(second); // ESI 1 now before ESI 2
  });
});

describe('whoami', () => {
  it('names the client, subject and scopes of the token', async () => {
    const me = await call(reception, 'whoami');
    expect(me.structuredContent).toMatchObject({
      scopes: ['write:patients', 'read:appointments', 'write:appointments'],
      roles: ['system'],
      auth_method: 'client_secret',
    });
    expect(me.structuredContent.expires_in).toBeGreaterThan(0);
    expect(textOf(me)).toContain(me.structuredContent.client_id);
  });
});
