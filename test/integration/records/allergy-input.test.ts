/**
 * Clinically plausible allergy input (issue 31, item 5) over real HTTP on every surface that
 * records an allergy: REST (POST /api/v1/patients/{id}/allergies), FHIR (POST
 * /fhir/R4/AllergyIntolerance) and MCP (record_allergy). One rule (@vitalis/schemas
 * allergyEntrySchema, applied by the patients service): a SNOMED CT or RxNorm coding of the right
 * shape with a display, or a text of at least 3 printable characters with two letters. The
 * issue's "0" and "í]", and other junk, are a 422 naming the field (an RFC 9457 problem on REST, an
 * OperationOutcome on FHIR, a tool error carrying the problem on MCP), audited as a refusal without
 * the text; a coded entry and a good text are recorded (and read back with their coding).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { authHeaders, clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { connect, type Connected } from '../mcp/support';
import { patientBody, uid } from './support';

const SNOMED = 'http://snomed.info/sct';
const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
const penicillin = { system: SNOMED, code: '764146007', display: 'Penicillin' }; // Penicillin (substance)
const amoxicillin = { system: RXNORM, code: '723', display: 'Amoxicillin' };

let gw: RunningGateway;
let clinician: Record<string, string>;
let reception: Record<string, string>;
let mcp: Connected;
let patient: string;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  gw = await startGateway();
  clinician = await authHeaders(gw.url, ['read:patients', 'write:patients']);
  reception = await authHeaders(gw.url, ['write:patients']);
  mcp = await connect(
    gw.url,
    await clientCredentialsToken(gw.url, await registerClient(gw.url, ['read:patients', 'write:patients'], 'vitalis-allergy-mcp-test')),
  );
  const res = await fetch(`${gw.url}/api/v1/patients`, {
    method: 'POST',
    headers: { ...clinician, ...json },
    body: JSON.stringify(patientBody(`Allergy${uid()}`)),
  });
  expect(res.status).toBe(201);
  patient = ((await res.json()) as { id: string }).id;
});
afterAll(async () => {
  await mcp?.close();
  await gw?.close();
});

const rest = (body: unknown, headers = clinician) =>
  fetch(`${gw.url}/api/v1/patients/${patient}/allergies`, { method: 'POST', headers: { ...headers, ...json }, body: JSON.stringify(body) });
const fhir = (body: unknown) =>
  fetch(`${gw.url}/fhir/R4/AllergyIntolerance`, {
    method: 'POST',
    headers: { ...clinician, 'content-type': 'application/fhir+json', accept: 'application/fhir+json' },
    body: JSON.stringify(body),
  });
const tool = async (args: Record<string, unknown>) =>
  (await mcp.client.callTool({ name: 'record_allergy', arguments: { patient_id: patient, ...args } })) as CallToolResult & {
    structuredContent?: any;
    _meta?: any;
  };

/** The refused REST call: 422, an RFC 9457 problem of kind implausible-clinical-input naming exactly `paths`. */
async function expectImplausible(res: Response, paths: string[]): Promise<any> {
  expect(res.status).toBe(422);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = (await res.json()) as any;
  expect(problem).toMatchObject({ type: `${gw.url}/errors/implausible-clinical-input`, title: 'Unprocessable Content', status: 422 });
  expect(problem.errors.map((e: { path: string }) => e.path)).toEqual(paths);
  for (const p of paths) expect(problem.detail).toContain(p);
  return problem;
}

describe('REST POST /api/v1/patients/{id}/allergies', () => {
  it('refuses the issue\'s "0" and "í]" with high criticality: 422 naming body.code.text', async () => {
    const zero = await expectImplausible(await rest({ resourceType: 'AllergyIntolerance', code: { text: '0' }, criticality: 'high' }), [
      'body.code.text',
    ]);
    expect(zero.errors[0].message).toMatch(/at least 3 characters/);
    await expectImplausible(await rest({ code: { text: 'í]' }, criticality: 'high' }), ['body.code.text']);
  });

  it('refuses digits and symbols, garbled text, invisible characters, and a bad reaction, each by its field', async () => {
    expect((await expectImplausible(await rest({ code: { text: '12345' } }), ['body.code.text'])).errors[0].message).toMatch(
      /at least 2 letters/,
    );
    expect((await expectImplausible(await rest({ code: { text: '!!!?' } }), ['body.code.text'])).errors[0].message).toMatch(
      /at least 2 letters/,
    );
    expect((await expectImplausible(await rest({ code: { text: 'PenicillinÃ©' } }), ['body.code.text'])).errors[0].message).toMatch(
      /garbled/,
    );
    expect((await expectImplausible(await rest({ code: { text: 'Peni\u200Bcillin' } }), ['body.code.text'])).errors[0].message).toMatch(
      /printable/,
    );
    await expectImplausible(await rest({ code: { text: 'Latex' }, reaction: [{ description: '0' }] }), ['body.reaction.0.description']);
    await expectImplausible(await rest({ code: {} }), ['body.code']);
  });

  it('refuses a coding of another system, a SNOMED CT id failing its check digit or partition, a malformed RXCUI, or no display', async () => {
    await expectImplausible(await rest({ code: { coding: [{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }] } }), [
      'body.code.coding.0.system',
    ]);
    expect(
      (await expectImplausible(await rest({ code: { coding: [{ ...penicillin, code: '764146008' }] } }), ['body.code.coding.0.code']))
        .errors[0].message,
    ).toMatch(/check digit/);
    await expectImplausible(await rest({ code: { coding: [{ ...penicillin, code: '764146' }] } }), ['body.code.coding.0.code']);
    await expectImplausible(await rest({ code: { coding: [{ ...amoxicillin, code: '0723' }] } }), ['body.code.coding.0.code']);
    await expectImplausible(await rest({ code: { coding: [{ system: SNOMED, code: '764146007' }] } }), ['body.code.coding.0.display']);
  });

  it('a refusal is audited without the text; reception is refused by the access policy first (403)', async () => {
    await rest({ code: { text: '0' }, criticality: 'high' });
    const { rows } = await gw.deps.pool.query(
      `SELECT outcome, detail FROM audit_events WHERE resource_id = $1 AND action = 'patient.allergy.record' AND outcome = 'failure' ORDER BY id DESC LIMIT 1`,
      [patient],
    );
    expect(rows[0]).toEqual({ outcome: 'failure', detail: { reason: 'implausible input', fields: ['body.code.text'] } });
    expect((await rest({ code: { text: '0' } }, reception)).status).toBe(403);
  });

  it('records a SNOMED CT coded entry, an RxNorm one, and a good text (201), read back with their codings', async () => {
    const coded = await rest({
      resourceType: 'AllergyIntolerance',
      code: { coding: [penicillin] },
      criticality: 'high',
      reaction: [{ description: 'Hives' }],
    });
    expect(coded.status).toBe(201);
    const codedBody = (await coded.json()) as any;
    expect(codedBody.code).toEqual({ coding: [penicillin], text: 'Penicillin' });
    await expectValidFhir(codedBody);

    const rx = await rest({ code: { coding: [amoxicillin], text: 'Amoxicillin (oral)' }, criticality: 'low' });
    expect(rx.status).toBe(201);
    expect(((await rx.json()) as any).code).toEqual({ coding: [amoxicillin], text: 'Amoxicillin (oral)' });

    const text = await rest({ code: { text: '  Latex  ' }, criticality: 'low', reaction: [{ description: 'Contact dermatitis' }] });
    expect(text.status).toBe(201);
    const textBody = (await text.json()) as any;
    expect(textBody.code).toEqual({ text: 'Latex' });
    expect(textBody.reaction).toEqual([{ manifestation: [{ text: 'Contact dermatitis' }], description: 'Contact dermatitis' }]);

    const record = (await (await fetch(`${gw.url}/api/v1/patients/${patient}`, { headers: clinician })).json()) as any;
    expect(record.allergies.map((a: any) => a.code)).toEqual(
      expect.arrayContaining([{ coding: [penicillin], text: 'Penicillin' }, { text: 'Latex' }]),
    );
  });
});

describe('FHIR POST /fhir/R4/AllergyIntolerance', () => {
  it('"0" is a 422 OperationOutcome naming body.code.text; an unknown system names its coding', async () => {
    const res = await fhir({
      resourceType: 'AllergyIntolerance',
      patient: { reference: `Patient/${patient}` },
      code: { text: '0' },
      criticality: 'high',
    });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/fhir\+json/);
    const outcome = (await res.json()) as any;
    expect(outcome.resourceType).toBe('OperationOutcome');
    expect(outcome.issue.map((i: any) => i.diagnostics)).toContainEqual(
      expect.stringMatching(/^body\.code\.text: must be at least 3 characters/),
    );
    await expectValidFhir(outcome);

    const system = await fhir({
      resourceType: 'AllergyIntolerance',
      patient: { reference: `Patient/${patient}` },
      code: { coding: [{ system: 'urn:local', code: 'PEN', display: 'Penicillin' }] },
    });
    expect(system.status).toBe(422);
    expect(((await system.json()) as any).issue.map((i: any) => i.diagnostics)).toContainEqual(
      expect.stringMatching(/^body\.code\.coding\.0\.system: /),
    );
  });

  it('creates a coded entry and a good text (201, Location), valid FHIR; a reaction from its manifestation', async () => {
    const res = await fhir({
      resourceType: 'AllergyIntolerance',
      patient: { reference: `Patient/${patient}` },
      code: { coding: [penicillin] },
      criticality: 'high',
      reaction: [{ manifestation: [{ text: 'Anaphylaxis' }] }],
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(res.headers.get('location')).toBe(`${gw.url}/fhir/R4/AllergyIntolerance/${body.id}`);
    expect(body).toMatchObject({
      resourceType: 'AllergyIntolerance',
      patient: { reference: `Patient/${patient}` },
      code: { coding: [penicillin], text: 'Penicillin' },
      criticality: 'high',
      reaction: [{ description: 'Anaphylaxis' }],
    });
    await expectValidFhir(body);

    const text = await fhir({ resourceType: 'AllergyIntolerance', patient: { reference: patient }, code: { text: 'Peanuts' } });
    expect(text.status).toBe(201);
    expect(((await text.json()) as any).code).toEqual({ text: 'Peanuts' });
  });

  it('an unknown patient is a 404', async () => {
    expect(
      (await fhir({ resourceType: 'AllergyIntolerance', patient: { reference: 'Patient/pat-nobody-here' }, code: { text: 'Peanuts' } }))
        .status,
    ).toBe(404);
  });
});

describe('MCP record_allergy', () => {
  it('"0" is a tool error carrying the 422 problem that names substance.text', async () => {
    const r = await tool({ substance: { text: '0' }, criticality: 'high' });
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toMatch(
      /^Unprocessable Content \(422\): The allergy is not plausible clinical input: substance\.text: /,
    );
    expect(r._meta['vitalis/problem']).toMatchObject({
      status: 422,
      type: `${gw.url}/errors/implausible-clinical-input`,
      errors: [{ path: 'substance.text' }],
    });
    const bad = await tool({ substance: { coding: [{ ...penicillin, code: '123' }] }, reaction: 'x' });
    expect(bad._meta['vitalis/problem'].errors.map((e: { path: string }) => e.path)).toEqual(['substance.coding.0.code', 'reaction']);
  });

  it('records a coded entry and a good text', async () => {
    const coded = await tool({ substance: { coding: [penicillin] }, criticality: 'high', reaction: 'Hives' });
    expect(coded.isError).toBeFalsy();
    expect(coded.structuredContent.allergy).toMatchObject({
      substance: 'Penicillin',
      coding: [penicillin],
      criticality: 'high',
      reaction: 'Hives',
    });
    expect((coded.content[0] as { text: string }).text).toContain('Recorded Penicillin (SNOMED CT 764146007), criticality high');
    const text = await tool({ substance: { text: 'Sulfonamides' } });
    expect(text.isError).toBeFalsy();
    expect(text.structuredContent.allergy).toMatchObject({ substance: 'Sulfonamides', criticality: 'unable-to-assess' });
    expect(text.structuredContent.allergy).not.toHaveProperty('coding');
  });
});
