/**
 * Issue 33 items 3 and 11 (and the FHIR half of item 10) over real HTTP: a comma is OR in every
 * token parameter (Patient _id and identifier, Slot status), every R4 date prefix on Slot.start
 * (eq ne gt lt ge le sa eb ap; repetition AND, commas OR), _lastUpdated, _summary=count totals
 * counted by the services, _elements subsetting (tagged SUBSETTED, still valid FHIR by the HAPI
 * validator), and Prefer: handling=lenient against the default strict handling; fhir-kit-client
 * searches with the new syntax.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'fhir-kit-client';
import { headPosition } from '@vitalis/eventstore';
import { VITAL_CODE } from '@vitalis/schemas';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { patientsProjection, slotsProjection } from '../../../apps/projector/src/projections/definitions';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { uid } from '../records/support';

const FHIR_JSON = 'application/fhir+json';
const SUBSETTED = { system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue', code: 'SUBSETTED', display: 'subsetted' };
type Bundle = {
  resourceType: 'Bundle';
  total?: number;
  link: { relation: string; url: string }[];
  entry?: { fullUrl: string; resource: any; search: { mode: string } }[];
};

let gw: RunningGateway;
let fhirBase: string;
let staff: Record<string, string>;
const seen: unknown[] = [];

async function get(path: string, headers: Record<string, string> = staff): Promise<{ status: number; body: any }> {
  const res = await fetch(path.startsWith('http') ? path : `${fhirBase}${path}`, { headers });
  const text = await res.text();
  const body = text ? JSON.parse(text) : null;
  if (body?.resourceType) seen.push(body);
  return { status: res.status, body };
}
/** The ids a searchset matched (its match entries). */
const idsOf = (b: Bundle) => (b.entry ?? []).filter((e) => e.search.mode === 'match').map((e) => e.resource.id as string);
const selfOf = (b: Bundle) => b.link.find((l) => l.relation === 'self')?.url;

let family: string;
let ada: string;
let grace: string;
let alan: string;
let beforeRegistration: string;
let clinician: string;
/** The four slots of the clinician, 30 minutes each from 2033-05-05T09:00Z, in start order. */
let slots: string[];
const DAY = Date.UTC(2033, 4, 5, 9);

beforeAll(async () => {
  gw = await startGateway();
  fhirBase = `${gw.url}/fhir/R4`;
  staff = await authHeaders(gw.url, ['read:patients', 'write:patients', 'read:appointments', 'read:vitals']);
  family = `Semantics${uid()}`;
  beforeRegistration = new Date(Date.now() - 1_000).toISOString();
  const register = async (given: string) => {
    const r = await fetch(`${fhirBase}/Patient`, {
      method: 'POST',
      headers: { ...staff, 'content-type': FHIR_JSON },
      body: JSON.stringify({
        resourceType: 'Patient',
        name: [{ use: 'official', family, given: [given] }],
        gender: 'female',
        birthDate: '1975-03-04',
        identifier: [{ system: 'urn:vitalis:mrn', value: `MRN-${given}-${family}` }],
      }),
    });
    expect(r.status).toBe(201);
    return ((await r.json()) as { id: string }).id;
  };
  ada = await register('Ada');
  grace = await register('Grace');
  alan = await register('Alan');
  clinician = `clin-${uid()}`;
  slots = [];
  for (const i of [0, 1, 2, 3]) {
    const s = await createSlot(gw.deps.pool, {
      clinicianId: clinician,
      appointmentType: 'consultation',
      start: new Date(DAY + i * 1_800_000).toISOString(),
      end: new Date(DAY + (i + 1) * 1_800_000).toISOString(),
    });
    slots.push(s.id);
  }
  await gw.deps.pool.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id) VALUES ($1, $2, 1, $3, $4, 72, '/min', 0, 1, vitals_series_assign($1, $3))`,
    [ada, `dev-${ada}`, VITAL_CODE.heartRate, new Date(Date.now() - 3_600_000).toISOString()],
  );
  const head = await headPosition(gw.deps.pool);
  for (const p of [patientsProjection, slotsProjection]) await catchUpTo(gw.deps.pool, p, head);
});
afterAll(async () => {
  await gw?.close();
});

describe('token parameters: a comma is OR', () => {
  it('Patient _id=a,b and identifier=sys|a,sys|b find each named patient', async () => {
    const byId = await get(`/Patient?_id=${ada},${grace}`);
    expect(byId.status).toBe(200);
    expect(idsOf(byId.body).sort()).toEqual([ada, grace].sort());
    const mrn = (given: string) => `urn:vitalis:mrn|MRN-${given}-${family}`;
    const byIdentifier = await get(`/Patient?identifier=${encodeURIComponent(`${mrn('Grace')},${mrn('Alan')}`)}`);
    expect(byIdentifier.status).toBe(200);
    expect(idsOf(byIdentifier.body).sort()).toEqual([grace, alan].sort());
    // a token of another system matches nothing; with it in a list, the others still match
    const mixed = await get(`/Patient?identifier=${encodeURIComponent(`urn:other|MRN-Ada-${family},${mrn('Ada')}`)}`);
    expect(idsOf(mixed.body)).toEqual([ada]);
  });

  it('Slot status=free,busy is any of them', async () => {
    const both = await get(`/Slot?schedule=Schedule/${clinician}&status=free,busy`);
    expect(both.status).toBe(200);
    expect(idsOf(both.body)).toEqual(slots);
    const busy = await get(`/Slot?schedule=${clinician}&status=busy`);
    expect(idsOf(busy.body)).toEqual([]);
  });

  it('a token that is not [system|]code is refused by the published pattern (400)', async () => {
    const r = await get(`/Patient?_id=${ada},`);
    expect(r.status).toBe(400);
    expect(r.body.resourceType).toBe('OperationOutcome');
  });
});

describe('date parameters: every prefix of FHIR R4', () => {
  const start = (...values: string[]) => values.map((v) => `start=${encodeURIComponent(v)}`).join('&');
  const slotIds = async (query: string) => {
    const r = await get(`/Slot?schedule=${clinician}&${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return idsOf(r.body);
  };
  const t = (i: number) => new Date(DAY + i * 1_800_000).toISOString();

  it('eq ne gt lt ge le sa eb on the start instants', async () => {
    expect(await slotIds(start(t(1)))).toEqual([slots[1]]);
    expect(await slotIds(start(`eq${t(1)}`))).toEqual([slots[1]]);
    expect(await slotIds(start(`ne${t(1)}`))).toEqual([slots[0], slots[2], slots[3]]);
    expect(await slotIds(start(`gt${t(1)}`))).toEqual([slots[2], slots[3]]);
    expect(await slotIds(start(`sa${t(1)}`))).toEqual([slots[2], slots[3]]);
    expect(await slotIds(start(`ge${t(1)}`))).toEqual([slots[1], slots[2], slots[3]]);
    expect(await slotIds(start(`lt${t(2)}`))).toEqual([slots[0], slots[1]]);
    expect(await slotIds(start(`eb${t(2)}`))).toEqual([slots[0], slots[1]]);
    expect(await slotIds(start(`le${t(2)}`))).toEqual([slots[0], slots[1], slots[2]]);
  });

  it('ap: approximately (10% of the gap between now and the value on each side)', async () => {
    // the day of 2033-05-05 widened by a tenth of the ~6.5 years until it: every slot of that day, and the day after
    expect(await slotIds(start('ap2033-05-05'))).toEqual(slots);
    expect(await slotIds(start('ap2033-05-04'))).toEqual(slots);
    // far from the value: the slots lie years outside a tenth of the gap
    expect(await slotIds(start('ap2000-01-01'))).toEqual([]);
  });

  it('a repetition is AND, a comma is OR, and ne combines with both', async () => {
    expect(await slotIds(start(`ge${t(1)}`, `lt${t(3)}`))).toEqual([slots[1], slots[2]]);
    expect(await slotIds(start(`${t(0)},${t(3)}`))).toEqual([slots[0], slots[3]]);
    expect(await slotIds(start('2033-05-05', `ne${t(2)}`))).toEqual([slots[0], slots[1], slots[3]]);
    expect(await slotIds(start(`lt${t(0)}`, `gt${t(3)}`))).toEqual([]);
  });

  it('Patient birthdate takes every prefix (a birth date is its day) and gender is a token list', async () => {
    const found = async (q: string) => {
      const r = await get(`/Patient?family=${family}&${q}`);
      expect(r.status, q).toBe(200);
      return idsOf(r.body).length;
    };
    const cases: [string, number][] = [
      ['birthdate=1975-03-04', 3],
      ['birthdate=eq1975', 3],
      ['birthdate=eq1975-03', 3],
      ['birthdate=gt1975-03-04', 0],
      ['birthdate=ge1975-03-04', 3],
      ['birthdate=lt1975-03-05', 3],
      ['birthdate=le1975-03-03', 0],
      ['birthdate=ne1975-03-04', 0],
      ['birthdate=ne1980-01-01', 3],
      ['birthdate=sa1975-03-03', 3],
      ['birthdate=eb1975-03-04', 0],
      ['birthdate=ge1975-01-01&birthdate=lt1975-12-31', 3],
      ['birthdate=1960-01-01,1975-03-04', 3],
      ['gender=male,female', 3],
      ['gender=http://hl7.org/fhir/administrative-gender|female', 3],
      ['gender=male,other', 0],
    ];
    for (const [q, n] of cases) expect(await found(q), q).toBe(n);
    const counted = await get(`/Patient?family=${family}&birthdate=ge1975-01-01&_summary=count`);
    expect(counted.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 3 });
  });

  it('a date that is not [prefix]date is a 400 OperationOutcome', async () => {
    for (const bad of ['xx2033-05-05', '2033-05-05T09:00', 'yesterday']) {
      const r = await get(`/Slot?schedule=${clinician}&${start(bad)}`);
      expect(r.status, bad).toBe(400);
    }
  });
});

describe('_lastUpdated', () => {
  it('Patient._lastUpdated bounds meta.lastUpdated (ge, lt, ne)', async () => {
    const q = `_id=${ada},${grace}`;
    const after = await get(`/Patient?${q}&_lastUpdated=ge${encodeURIComponent(beforeRegistration)}`);
    expect(idsOf(after.body).sort()).toEqual([ada, grace].sort());
    const before = await get(`/Patient?${q}&_lastUpdated=lt${encodeURIComponent(beforeRegistration)}`);
    expect(idsOf(before.body)).toEqual([]);
    const graceUpdated = (await get(`/Patient/${grace}`)).body.meta.lastUpdated as string;
    const notGrace = await get(`/Patient?${q}&_lastUpdated=ne${encodeURIComponent(graceUpdated)}`);
    expect(idsOf(notGrace.body)).toEqual([ada]);
  });

  it('is declared in the CapabilityStatement (type date) where the resources carry meta.lastUpdated', async () => {
    const cs = (await get('/metadata', {})).body;
    const params = (type: string) =>
      (cs.rest[0].resource.find((r: { type: string }) => r.type === type)?.searchParam ?? []) as { name: string; type: string }[];
    for (const type of ['Patient', 'ServiceRequest', 'DiagnosticReport', 'DetectedIssue'])
      expect(
        params(type).find((p) => p.name === '_lastUpdated'),
        type,
      ).toMatchObject({ type: 'date' });
  });
});

describe('_summary and _elements', () => {
  it('_summary=count: a searchset Bundle with the total and no entries', async () => {
    const slotsCount = await get(`/Slot?schedule=${clinician}&_summary=count&_count=1`);
    expect(slotsCount.status).toBe(200);
    expect(slotsCount.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 4 });
    expect(slotsCount.body.entry).toBeUndefined();
    const freeBefore = await get(
      `/Slot?schedule=${clinician}&status=free&start=lt${encodeURIComponent(new Date(DAY + 3_600_000).toISOString())}&_summary=count`,
    );
    expect(freeBefore.body.total).toBe(2);
    const patients = await get(`/Patient?_id=${ada},${grace},${alan}&_summary=count&_count=1`);
    expect(patients.body.total).toBe(3);
    const family3 = await get(`/Patient?family=${family}&_summary=count`);
    expect(family3.body.total).toBe(3);
    // validated with every other Bundle of the file at the end (seen)
  });

  it('_elements keeps the listed elements, id, meta and the mandatory ones, tagged SUBSETTED; valid FHIR', async () => {
    const r = await get(`/Patient?_id=${ada}&_elements=name,gender`);
    expect(r.status).toBe(200);
    const patient = r.body.entry[0].resource;
    expect(Object.keys(patient).sort()).toEqual(['gender', 'id', 'meta', 'name', 'resourceType']);
    expect(patient.meta.tag).toContainEqual(SUBSETTED);
    expect(patient.meta.versionId).toBe('1');
    const s = await get(`/Slot?schedule=${clinician}&_elements=comment&_count=1`);
    const slot = s.body.entry[0].resource;
    // Slot's mandatory elements stay (schedule, status, start, end)
    expect(slot).toMatchObject({ resourceType: 'Slot', id: slots[0], status: 'free', schedule: { reference: `Schedule/${clinician}` } });
    expect(slot.meta.tag).toContainEqual(SUBSETTED);
    expect(slot.identifier).toBeUndefined();
    const data = await get(`/Patient?_id=${ada}&_summary=data`);
    expect(data.body.entry[0].resource.meta.tag).toContainEqual(SUBSETTED);
    expect(data.body.entry[0].resource.name[0].family).toBe(family);
    await expectValidFhir([r.body, s.body, data.body]);
  });

  it('_elements applies to the Observation search too (its page is rendered as text)', async () => {
    const r = await get(`/Observation?patient=${ada}&_elements=valueQuantity`);
    expect(r.status).toBe(200);
    const obs = r.body.entry[0].resource;
    expect(obs).toMatchObject({ resourceType: 'Observation', status: 'final', valueQuantity: { value: 72 } });
    expect(obs.meta.tag).toContainEqual(SUBSETTED);
    // the elements the Observation schema requires stay (the vital-signs profile needs them)
    expect(obs.effectiveDateTime).toEqual(expect.any(String));
    expect(obs.code.coding[0].code).toBe(VITAL_CODE.heartRate);
    await expectValidFhir(r.body);
  });

  it('_summary values not served and _elements that are not element names are refused (400)', async () => {
    expect((await get(`/Patient?_id=${ada}&_summary=text`)).status).toBe(400);
    expect((await get(`/Patient?_id=${ada}&_elements=name.given`)).status).toBe(400);
  });
});

describe('Prefer: handling', () => {
  it('strict (the default) refuses an unknown parameter; lenient ignores it and leaves it out of self', async () => {
    const url = `/Patient?_id=${ada}&colour=blue`;
    const strict = await get(url, { ...staff, prefer: 'handling=strict' });
    expect(strict.status).toBe(400);
    expect(strict.body.resourceType).toBe('OperationOutcome');
    expect((await get(url)).status).toBe(400);
    const lenient = await get(url, { ...staff, prefer: 'handling=lenient' });
    expect(lenient.status).toBe(200);
    expect(idsOf(lenient.body)).toEqual([ada]);
    const self = new URL(selfOf(lenient.body) ?? '');
    expect([...self.searchParams.keys()]).toEqual(['_id']);
    // an invalid value of a known parameter is still an error
    expect((await get(`/Patient?_id=${ada}&_count=0`, { ...staff, prefer: 'handling=lenient' })).status).toBe(400);
  });
});

describe('a third-party client (fhir-kit-client)', () => {
  it('searches with comma lists, date prefixes and _summary=count', async () => {
    const client = new Client({ baseUrl: fhirBase, bearerToken: staff.authorization?.slice('Bearer '.length) ?? '' });
    const ne = (await client.search({
      resourceType: 'Slot',
      searchParams: { schedule: clinician, start: `ne${new Date(DAY).toISOString()}`, status: 'free,busy' },
    })) as Bundle;
    expect(idsOf(ne)).toEqual(slots.slice(1));
    const counted = (await client.search({
      resourceType: 'Patient',
      searchParams: { _id: `${ada},${alan}`, _summary: 'count' },
    })) as Bundle;
    expect(counted.total).toBe(2);
    seen.push(ne, counted);
  });
});

afterAll(async () => {
  if (seen.length > 0) await expectValidFhir(seen);
});
