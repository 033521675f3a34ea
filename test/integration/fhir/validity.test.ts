/**
 * Issue 22 item 1: every JSON object Vitalis returns with a `resourceType` is valid FHIR R4, checked
 * by an independent validator (HAPI FHIR, test/helpers/fhir-validator.ts) against the R4 base
 * definitions, and vital-sign Observations also against the vital-signs profile.
 *
 * The inventory is collected over real HTTP from a real gateway fed for real (vitals through Kafka
 * -> ingest -> live stage; patients, allergies, slots, bookings and triage through their write
 * paths and projections): every REST v1 response that carries FHIR, the live SSE alert (a Flag),
 * every MCP tool result and resource, and a search Bundle of each FHIR R4 resource type (/fhir/R4).
 * Issue 33: the CapabilityStatement is walked too, one search per declared search parameter of
 * every type (a parameter the walk has no value for fails it; a declared search refused is a
 * problem), so what the statement declares is what is served, and valid.
 * Each response is walked recursively for `resourceType`; every vital-sign Observation (category
 * vital-signs or a vital-sign code: the blood-pressure panel too) is also checked against the R4
 * vital-signs profile (and the profiles it names in meta.profile, e.g. bp).
 * Bundles must page with `link` (relation next) and carry `fullUrl`s that resolve: an absolute URL
 * this API serves (read back here with Accept: application/fhir+json) or a urn:uuid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { headPosition } from '@vitalis/eventstore';
import { VITAL_CODE } from '@vitalis/schemas';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection, slotsProjection, triageProjection } from '../../../apps/projector/src/projections/definitions';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { saveGroup } from '@vitalis/export';
import { authHeaders } from '../../helpers/auth';
import { formatIssues, validateFhir, VITAL_SIGNS_PROFILE, type FhirIssue } from '../../helpers/fhir-validator';
import { openSse, startRig, uid, waitFor, type LiveRig } from '../live/support';
import { connect, tokenFor, type Connected } from '../mcp/support';

const FHIR_JSON = 'application/fhir+json';
let rig: LiveRig;
let auth: Record<string, string>;
let mcp: Connected;

interface Collected {
  where: string;
  body: unknown;
}
const responses: Collected[] = [];

beforeAll(async () => {
  // one client_credentials token serves the whole inventory, which outlasts the five minutes a backend token lives in production
  rig = await startRig('fhir-validity', { BACKEND_TOKEN_TTL_SECONDS: '3600' });
  auth = await authHeaders(rig.gw.url, [
    'read:patients',
    'write:patients',
    'read:appointments',
    'write:appointments',
    'read:vitals',
    'write:triage',
    'read:diagnostics',
  ]);
  const t = await tokenFor(
    rig.gw.url,
    ['read:patients', 'write:patients', 'read:appointments', 'write:appointments', 'read:vitals', 'write:triage'],
    'fhir-validity-mcp',
  );
  mcp = await connect(rig.gw.url, t.token);
});
afterAll(async () => {
  await mcp?.close();
  await rig?.close();
});

const json = { 'content-type': 'application/json' };
async function call(where: string, path: string, init: RequestInit & { accept?: string; expect?: number } = {}): Promise<any> {
  const headers = {
    ...auth,
    ...(init.body ? json : {}),
    ...(init.accept ? { accept: init.accept } : {}),
    ...(init.headers as Record<string, string> | undefined),
  };
  const res = await fetch(`${rig.gw.url}${path}`, { ...init, headers });
  const text = await res.text();
  expect(res.status, `${where}: ${text.slice(0, 300)}`).toBe(init.expect ?? 200);
  const body = text ? JSON.parse(text) : null;
  responses.push({ where, body });
  return body;
}
async function tool(name: string, args: Record<string, unknown>): Promise<any> {
  const r = (await mcp.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name}: ${JSON.stringify(r.content).slice(0, 300)}`).toBeFalsy();
  responses.push({ where: `mcp tool ${name}`, body: r.structuredContent });
  return r.structuredContent;
}

/** Every object with a resourceType, at any depth, with the path it was found at. */
function resourcesIn(value: unknown, path = '$', out: { path: string; resource: Record<string, unknown> }[] = []) {
  if (Array.isArray(value)) value.forEach((v, i) => resourcesIn(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.resourceType === 'string') out.push({ path, resource: o });
    for (const [k, v] of Object.entries(o)) resourcesIn(v, `${path}.${k}`, out);
  }
  return out;
}
/** Only the outermost resources (a Bundle is validated with its entries). */
function outermost(value: unknown, path = '$', out: { path: string; resource: Record<string, unknown> }[] = []) {
  if (Array.isArray(value)) value.forEach((v, i) => outermost(v, `${path}[${i}]`, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.resourceType === 'string') out.push({ path, resource: o });
    else for (const [k, v] of Object.entries(o)) outermost(v, `${path}.${k}`, out);
  }
  return out;
}

const pagingProblems: string[] = [];
/** The next page of a Bundle: `link` relation next (anything else is recorded as a problem, then followed so the inventory goes on). */
function nextPage(where: string, bundle: { link?: { relation: string; url: string }[]; next?: string | null }): string {
  const url = bundle.link?.find((l) => l.relation === 'next')?.url;
  if (!url) pagingProblems.push(`${where}: a Bundle pages with link relation next`);
  const u = new URL(url ?? bundle.next!);
  return u.pathname + u.search;
}

/** What the walk searches with: the records this test made. */
interface WalkData {
  patient: string;
  family: string;
  clinician: string;
  group: string;
  from: string;
  to: string;
}

/**
 * A value for each search parameter the CapabilityStatement declares, by `<Type>.<name>` (or by
 * name for every type), chosen to match the records this test made where it can; and the
 * parameters a type's search always needs beside it. A parameter declared without a value here
 * fails the walk: a new search parameter is tested the day it is declared.
 */
function sampleValue(type: string, name: string, d: WalkData): string | undefined {
  const loinc = 'http://loinc.org';
  const byTypeAndName: Record<string, string> = {
    'Patient._id': d.patient,
    'Patient.identifier': 'urn:vitalis:mrn|no-such-mrn,urn:vitalis:mrn|another-mrn',
    'Patient.name': d.family,
    'Patient.family': d.family,
    'Patient.given': 'Ada',
    'Patient.birthdate': 'ge1970-01-01',
    'Patient.gender': 'female,other',
    'Observation.subject': `Patient/${d.patient}`,
    'Observation.code': `${loinc}|${VITAL_CODE.heartRate},${loinc}|${VITAL_CODE.respiratoryRate}`,
    'Observation.component-code': `${loinc}|${VITAL_CODE.systolic}`,
    'Observation.date': `ge${d.from}`,
    'Observation.category': 'vital-signs',
    'Observation._sort': '-date',
    'Practitioner._id': 'clin-001',
    'Practitioner.name': 'okafor',
    'Schedule._id': d.clinician,
    'Schedule.actor': `Practitioner/${d.clinician}`,
    'Slot.schedule': `Schedule/${d.clinician}`,
    'Slot.start': 'ge2032-03-03',
    'Slot.status': 'free,busy',
    'Appointment.date': 'ge2032-03-01',
    'Appointment.status': 'booked,cancelled',
    'ServiceRequest.status': 'active,completed',
    'ServiceRequest.code': `${loinc}|${VITAL_CODE.heartRate}`,
    'DiagnosticReport.code': `${loinc}|${VITAL_CODE.heartRate}`,
    'DiagnosticReport.status': 'final,amended',
    'DiagnosticReport.category': 'LAB',
    'DetectedIssue.status': 'preliminary,final',
    'Group._id': d.group,
    'Group.name': 'Validity ward',
  };
  const byName: Record<string, string> = {
    patient: d.patient,
    _count: '2',
    _lastUpdated: 'ge2000-01-01T00:00:00Z',
    _id: 'no-such-id',
  };
  return byTypeAndName[`${type}.${name}`] ?? byName[name];
}
/** The parameters a type's search cannot go without (FHIR lets a server require them). */
interface DeclaredParam {
  name: string;
  documentation?: string;
}
/**
 * The parameters a type's search cannot go without (FHIR lets a server require them; the statement's
 * documentation of each says "Required"), with their sample values; `subject` stands in for `patient`.
 */
function requiredWith(type: string, params: DeclaredParam[], d: WalkData, searchedBy?: string): Record<string, string> {
  const required = params.filter((p) => p.documentation?.startsWith('Required') && !(p.name === 'patient' && searchedBy === 'subject'));
  return Object.fromEntries(required.map((p) => [p.name, sampleValue(type, p.name, d) ?? '']));
}

/**
 * Every search parameter of every type of the CapabilityStatement, one search each (a parameter
 * without a sample value fails); answers the searches refused (each a problem of the inventory).
 */
async function walkCapabilityStatement(d: WalkData): Promise<string[]> {
  const statement = await call('FHIR CapabilityStatement', '/fhir/R4/metadata');
  const missing: string[] = [];
  const refused: string[] = [];
  let searches = 0;
  for (const resource of statement.rest[0].resource as {
    type: string;
    interaction: { code: string }[];
    searchParam?: DeclaredParam[];
  }[]) {
    if (!resource.interaction.some((i) => i.code === 'search-type')) continue;
    await call(
      `FHIR ${resource.type} search (no parameter but the required)`,
      `/fhir/R4/${resource.type}?${new URLSearchParams(requiredWith(resource.type, resource.searchParam ?? [], d))}`,
    );
    for (const { name } of resource.searchParam ?? []) {
      const value = sampleValue(resource.type, name, d);
      if (value === undefined) {
        missing.push(`${resource.type}.${name}`);
        continue;
      }
      const query = `/fhir/R4/${resource.type}?${new URLSearchParams({ ...requiredWith(resource.type, resource.searchParam ?? [], d, name), [name]: value })}`;
      const res = await fetch(`${rig.gw.url}${query}`, { headers: auth });
      const text = await res.text();
      if (res.status !== 200) refused.push(`${query} -> ${res.status} ${text.slice(0, 300)}`);
      else responses.push({ where: `FHIR ${resource.type} search by ${name}`, body: JSON.parse(text) });
      searches++;
    }
  }
  expect(missing, 'search parameters the CapabilityStatement declares that the walk has no value for').toEqual([]);
  expect(searches).toBeGreaterThan(20);
  return refused;
}

const project = async () => {
  const head = await headPosition(rig.gw.deps.pool);
  for (const p of [patientsProjection, slotsProjection, triageProjection]) await catchUpTo(rig.gw.deps.pool, p, head);
};

describe('every resource Vitalis returns is valid FHIR R4', () => {
  it('collects the REST v1, live and MCP responses, and the validator finds no error', async () => {
    const family = `Fhirvalid${uid()}`;
    const patientBody = (given: string, mrn: string) => ({
      resourceType: 'Patient',
      name: [{ family, given: [given] }],
      birthDate: '1970-05-06',
      gender: 'female',
      identifier: [{ system: 'urn:vitalis:mrn', value: mrn }],
      telecom: [{ system: 'phone', value: '+44 20 7946 0001' }],
    });
    // patients: register, update, allergy, read (clinical, with vitals), search (paged)
    const p1 = await call('POST /patients', '/api/v1/patients', {
      method: 'POST',
      body: JSON.stringify(patientBody('Ada', `MRN-${uid()}`)),
      expect: 201,
    });
    const p2 = await call('POST /patients (2)', '/api/v1/patients', {
      method: 'POST',
      body: JSON.stringify(patientBody('Grace', `MRN-${uid()}`)),
      expect: 201,
    });
    // the least a Patient may have: a family name (no given names, identifiers, telecom, gender, birth date)
    const bare = await call('POST /patients (minimal)', '/api/v1/patients', {
      method: 'POST',
      body: JSON.stringify({ name: [{ family }] }),
      expect: 201,
    });
    await call('GET /patients/{id} (minimal)', `/api/v1/patients/${bare.id}`);
    await call('PUT /patients/{id}', `/api/v1/patients/${p1.id}`, {
      method: 'PUT',
      headers: { 'if-match': '"1"' },
      body: JSON.stringify(patientBody('Ada', `MRN-${uid()}`)),
    });
    await call('POST /patients/{id}/allergies', `/api/v1/patients/${p1.id}/allergies`, {
      method: 'POST',
      body: JSON.stringify({ code: { text: 'Penicillin' }, criticality: 'high', reaction: [{ description: 'Anaphylaxis' }] }),
      expect: 201,
    });
    await call('POST /patients/{id}/allergies (no reaction)', `/api/v1/patients/${p1.id}/allergies`, {
      method: 'POST',
      body: JSON.stringify({ code: { text: 'Latex' } }),
      expect: 201,
    });

    // vitals through Kafka -> ingest (live stage raises an SpO2 alert); the SSE stream sees its Flag
    const device = `${p1.id}-mon`;
    const sse = await openSse(`${rig.gw.url}/api/v1/vitals/stream?patient=${p1.id}`, auth);
    expect(sse.status).toBe(200);
    const t0 = Date.now() - 60_000;
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    const obs = [
      { code: VITAL_CODE.heartRate, value: 88, unit: '/min' },
      { code: VITAL_CODE.respiratoryRate, value: 18, unit: '/min' },
      { code: VITAL_CODE.temperature, value: 37.4, unit: 'Cel' },
      { code: VITAL_CODE.systolic, value: 128, unit: 'mm[Hg]' },
      { code: VITAL_CODE.diastolic, value: 82, unit: 'mm[Hg]' },
      { code: VITAL_CODE.spo2, value: 86, unit: '%' },
      { code: VITAL_CODE.spo2, value: 85, unit: '%' },
      { code: VITAL_CODE.spo2, value: 84, unit: '%' },
    ].map((o, i) => ({ patient_id: p1.id, device_id: device, seq: i + 1, effective_at: at(i * 5), ...o }));
    const ecg = {
      patient_id: p1.id,
      device_id: `${p1.id}-ecg`,
      seq: 1,
      effective_at: at(1),
      code: VITAL_CODE.ecgLeadII,
      unit: 'mV',
      waveform: { origin: 0, period_ms: 4, samples: [0.1, 0.25, -0.05, 0.8] },
    };
    await rig.send(p1.id, [...obs, ecg]);
    const from = new Date(t0 - 1000).toISOString();
    const to = new Date(Date.now() + 1000).toISOString();
    await waitFor(
      () => call('GET /vitals (wait)', `/api/v1/vitals?patient=${p1.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`),
      (b) => b.count === obs.length + 1,
      45_000,
      'ingested vitals',
    );
    const alerts = await waitFor(
      async () => sse.events.filter((e) => e.event === 'alert'),
      (a) => a.length > 0,
      45_000,
      'an SpO2 alert on the SSE stream',
    );
    sse.close();
    responses.push({ where: 'SSE /vitals/stream alert', body: alerts.map((e) => e.data) });

    const range = `patient=${p1.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const page1 = await call('GET /vitals (FHIR, page 1)', `/api/v1/vitals?${range}&limit=4`, { accept: FHIR_JSON });
    await call('GET /vitals (FHIR, page 2)', nextPage('GET /vitals', page1), { accept: FHIR_JSON });
    await call('GET /vitals/latest (FHIR)', `/api/v1/vitals/latest?patient=${p1.id}`, { accept: FHIR_JSON });
    await call('GET /patients/{id}/vitals/latest (FHIR, deprecated)', `/api/v1/patients/${p1.id}/vitals/latest`, { accept: FHIR_JSON });
    await call('GET /vitals/latest', `/api/v1/vitals/latest?patient=${p1.id}`);

    await call('GET /patients/{id}', `/api/v1/patients/${p1.id}`);
    await call('GET /patients/{id} (FHIR)', `/api/v1/patients/${p1.id}`, { accept: FHIR_JSON });
    await project();
    const search = await call('GET /patients?name (page 1)', `/api/v1/patients?name=${family}&limit=1`);
    await call('GET /patients?name (page 2)', nextPage('GET /patients', search));

    // appointments: slots (free, busy), a booking, its read, cancel and reschedule
    const clinician = `clin-${uid()}`;
    const day = Date.UTC(2032, 2, 3, 9);
    const slots = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        createSlot(rig.gw.deps.pool, {
          clinicianId: clinician,
          appointmentType: 'consultation',
          start: new Date(day + i * 1_800_000).toISOString(),
          end: new Date(day + (i + 1) * 1_800_000).toISOString(),
        }),
      ),
    );
    const booked = await call('POST /appointments', '/api/v1/appointments', {
      method: 'POST',
      body: JSON.stringify({ slot_id: slots[0]!.id, patient_id: p1.id, reason: 'Check-up' }),
      expect: 201,
    });
    await call('GET /appointments/{id}', `/api/v1/appointments/${booked.id}`);
    const second = await call('POST /appointments (2)', '/api/v1/appointments', {
      method: 'POST',
      body: JSON.stringify({ slot_id: slots[1]!.id, patient_id: p2.id }),
      expect: 201,
    });
    await call('POST /appointments/{id}/cancel', `/api/v1/appointments/${second.id}/cancel`, {
      method: 'POST',
      body: JSON.stringify({ reason: 'Travel' }),
    });
    await call('POST /appointments/{id}/reschedule', `/api/v1/appointments/${booked.id}/reschedule`, {
      method: 'POST',
      body: JSON.stringify({ slot_id: slots[2]!.id }),
      expect: 201,
    });
    await project();
    const list = await call('GET /appointments (page 1)', `/api/v1/appointments?clinician=${clinician}&limit=2`);
    await call('GET /appointments (page 2)', nextPage('GET /appointments', list));

    // the FHIR R4 API (issue 22 item 2): a search Bundle of each resource type; the fullUrl check below reads each resource back
    await call('FHIR AllergyIntolerance search', `/fhir/R4/AllergyIntolerance?patient=${p1.id}`);
    await call('FHIR Practitioner search', '/fhir/R4/Practitioner');
    await call('FHIR Schedule search', `/fhir/R4/Schedule?actor=Practitioner/${clinician}`);
    const fhirSlots = await call('FHIR Slot search (page 1)', `/fhir/R4/Slot?schedule=${clinician}&_count=2`);
    await call('FHIR Slot search (page 2)', nextPage('FHIR Slot search', fhirSlots));
    await call('FHIR Appointment search (_include=Appointment:slot)', `/fhir/R4/Appointment?patient=${p1.id}&_include=Appointment:slot`);
    await call(
      'FHIR Observation search (_include=Observation:patient)',
      `/fhir/R4/Observation?patient=${p1.id}&date=ge${from}&date=lt${to}&_include=Observation:patient&_count=3`,
    );
    await call('FHIR Observation $lastn', `/fhir/R4/Observation/$lastn?patient=${p1.id}`);
    await call('FHIR Device search', `/fhir/R4/Device?patient=${p1.id}`);

    // issue 33: every search parameter of every type the CapabilityStatement lists, once, each answered
    // a searchset that goes into the inventory (validated below; its fullUrls read back)
    const group = `ward-${uid()}`;
    await saveGroup(rig.gw.deps.pool, { id: group, name: `Validity ward ${group}`, members: [p1.id, p2.id] });
    const walkRefusals = await walkCapabilityStatement({ patient: p1.id, family, clinician, group, from, to });

    // triage and catalog
    await call('POST /triage', '/api/v1/triage', {
      method: 'POST',
      body: JSON.stringify({ patient_id: p1.id, esi: 2, complaint: 'Short of breath' }),
      expect: 201,
    });
    await project();
    await call('GET /triage', '/api/v1/triage');
    await call('GET /catalog/clinicians', '/api/v1/catalog/clinicians');

    // MCP: every tool with structured content, and the patient vitals resource
    await tool('search_patients', { name: family });
    await tool('get_patient', { patient_id: p1.id });
    await tool('register_patient', { family, given: ['Mcp'] });
    await tool('get_latest_vitals', { patient_id: p1.id });
    await tool('get_vitals_history', { patient_id: p1.id, from, to });
    await tool('find_available_slots', { clinician_id: clinician, date: '2032-03-03' });
    const mcpBooked = await tool('book_appointment', { slot_id: slots[3]!.id, patient_id: p2.id });
    await tool('cancel_appointment', { appointment_id: mcpBooked.appointment.appointment_id });
    await tool('get_triage_board', {});
    await tool('set_triage_level', { patient_id: p1.id, esi: 3 });
    await tool('whoami', {});
    const resource = await mcp.client.readResource({ uri: `vitalis://patients/${p1.id}/vitals` });
    responses.push({
      where: 'MCP resource patient-vitals',
      body: resource.contents.map((c) => ('text' in c ? JSON.parse(c.text as string) : c)),
    });

    // --- the inventory
    const all = responses.flatMap((r) => resourcesIn(r.body).map((x) => ({ ...x, where: r.where })));
    const types = new Set(all.map((x) => x.resource.resourceType));
    for (const t of ['Patient', 'AllergyIntolerance', 'Bundle', 'Observation', 'Slot', 'Schedule', 'Appointment', 'Flag', 'Practitioner'])
      expect(types, `the inventory covers ${t}`).toContain(t);

    const problems: string[] = [...pagingProblems, ...walkRefusals.map((r) => `a declared search refused: ${r}`)];
    const report = (where: string, path: string, issues: FhirIssue[]) => {
      if (issues.length > 0) problems.push(`${where} ${path}:\n${formatIssues(issues)}`);
    };
    // each outermost resource against the base definitions (and its meta.profile)
    for (const r of responses) {
      const top = outermost(r.body);
      const issues = await validateFhir(top.map((t) => t.resource));
      for (const t of top)
        report(
          r.where,
          t.path,
          issues.filter((i) => top[i.index] === t),
        );
    }
    // every vital-sign Observation, wherever it is, against the vital-signs profile: those in category
    // vital-signs or coded as one (so a vital sign that lost its category is caught); a laboratory
    // result inside a DiagnosticReport is checked against the base definitions above
    const vitalCodes = new Set<string>([...Object.values(VITAL_CODE), '85354-9']);
    const isVitalSign = (o: Record<string, any>) =>
      (o.category ?? []).some((c: any) => (c.coding ?? []).some((k: any) => k.code === 'vital-signs')) ||
      (o.code?.coding ?? []).some((k: any) => vitalCodes.has(k.code));
    const observations = all.filter((x) => x.resource.resourceType === 'Observation' && isVitalSign(x.resource));
    expect(observations.length).toBeGreaterThan(10);
    const vsIssues = await validateFhir(
      observations.map((o) => o.resource),
      { profiles: [VITAL_SIGNS_PROFILE] },
    );
    observations.forEach((o, i) =>
      report(
        `${o.where} (vital-signs profile)`,
        o.path,
        vsIssues.filter((x) => x.index === i),
      ),
    );

    // Bundles: no invented top-level properties is the validator's; fullUrls must resolve
    const readBack = new Set<string>(); // each URL once (the walk finds the same resources many times)
    for (const b of all.filter((x) => x.resource.resourceType === 'Bundle')) {
      for (const e of (b.resource.entry as { fullUrl?: string; resource: { resourceType: string; id?: string } }[]) ?? []) {
        const full = e.fullUrl;
        if (!full) problems.push(`${b.where} ${b.path}: entry ${e.resource.resourceType}/${e.resource.id} has no fullUrl`);
        else if (readBack.has(`${full} ${e.resource.resourceType}/${e.resource.id}`)) continue;
        else if (full.startsWith('urn:uuid:')) {
          if (!/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(full))
            problems.push(`${b.where}: malformed ${full}`);
        } else {
          readBack.add(`${full} ${e.resource.resourceType}/${e.resource.id}`);
          const url = new URL(full);
          if (url.origin !== new URL(rig.gw.url).origin) problems.push(`${b.where}: fullUrl ${full} is not this API`);
          const res = await fetch(full, { headers: { ...auth, accept: FHIR_JSON } });
          const body = res.ok ? ((await res.json()) as { resourceType?: string; id?: string }) : undefined;
          if (!body || body.resourceType !== e.resource.resourceType || body.id !== e.resource.id)
            problems.push(
              `${b.where}: fullUrl ${full} answers ${res.status} ${body ? `${body.resourceType}/${body.id}` : ''}, not ${e.resource.resourceType}/${e.resource.id}`,
            );
        }
      }
    }
    expect(problems, `${problems.length} invalid:\n${problems.join('\n')}`).toEqual([]);
  }, 600_000); // the whole inventory through one HAPI validator; minutes on a loaded 2-core machine
});
