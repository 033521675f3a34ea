/**
 * Issue 33 items 2, 3 (Observation) and 4 over real HTTP with a third-party FHIR client
 * (fhir-kit-client): `Observation?patient=P&category=vital-signs` without a date finds P's
 * 3-day-old vitals and pages through all of them (no duplicates, no gaps, every stored row served,
 * the `self` link the request as applied); `code=a,b` is OR (with and without the system, 2708-6
 * for SpO2, 85354-9 for the panel); a device's systolic and diastolic of one instant are one R4
 * `bp` panel (85354-9 with components 8480-6 and 8462-4 in mm[Hg]) that passes the HAPI validator
 * with the vital-signs and bp profiles, is found by either component's code and by
 * `component-code`, and is read by its id; a systolic whose diastolic never came is still served.
 * The vitals are written straight into the append log (what the ingest writes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'fhir-kit-client';
import { VITAL_CODE } from '@vitalis/schemas';
import { authHeaders } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { expectValidFhir, VITAL_SIGNS_PROFILE } from '../../helpers/fhir-validator';
import { uid } from '../records/support';

const BP_PROFILE = 'http://hl7.org/fhir/StructureDefinition/bp';
const MINUTES = 40;
let gw: RunningGateway;
let client: Client;
let token: string;
let patient: string;
let device: string;
/** The first reading's instant: three days ago, on a whole minute. */
let t0: number;
const at = (minute: number) => new Date(t0 + minute * 60_000).toISOString();
/** The seq of the systolic whose diastolic never came. */
const LONE_SEQ = 100_000;
/** Every stored row's identity, `{device}/{seq}`. */
const stored: string[] = [];

type Bundle = { resourceType: 'Bundle'; link: { relation: string; url: string }[]; entry?: { fullUrl: string; resource: any }[] };
const resources = (b: Bundle) => (b.entry ?? []).map((e) => e.resource);

/** Each minute: heart rate, SpO2, systolic, diastolic (seq in that order); and one lone systolic between two minutes. */
async function seed() {
  const rows: { seq: number; code: string; at: string; value: number; unit: string }[] = [];
  for (let m = 0; m < MINUTES; m++) {
    rows.push({ seq: 4 * m + 1, code: VITAL_CODE.heartRate, at: at(m), value: 60 + m, unit: '/min' });
    rows.push({ seq: 4 * m + 2, code: VITAL_CODE.spo2, at: at(m), value: 95, unit: '%' });
    rows.push({ seq: 4 * m + 3, code: VITAL_CODE.systolic, at: at(m), value: 110 + m, unit: 'mm[Hg]' });
    rows.push({ seq: 4 * m + 4, code: VITAL_CODE.diastolic, at: at(m), value: 70 + m, unit: 'mm[Hg]' });
  }
  rows.push({ seq: LONE_SEQ, code: VITAL_CODE.systolic, at: new Date(t0 + 90_000).toISOString(), value: 150, unit: 'mm[Hg]' });
  await gw.deps.pool.query(
    `INSERT INTO vitals_observations (patient_id, device_id, seq, code, effective_at, value, unit, kafka_partition, kafka_offset, series_id)
     SELECT $1, $2, r.seq, r.code, r.at, r.value, r.unit, 0, r.seq, vitals_series_assign($1, r.code)
       FROM unnest($3::bigint[], $4::text[], $5::timestamptz[], $6::real[], $7::text[]) AS r(seq, code, at, value, unit)`,
    [
      patient,
      device,
      rows.map((r) => r.seq),
      rows.map((r) => r.code),
      rows.map((r) => r.at),
      rows.map((r) => r.value),
      rows.map((r) => r.unit),
    ],
  );
  stored.push(...rows.map((r) => `${device}/${r.seq}`));
}

/** Every page of a search, following Bundle.link next with the client. */
async function allPages(searchParams: Record<string, string | number | string[]>): Promise<Bundle[]> {
  const pages = [(await client.search({ resourceType: 'Observation', searchParams })) as Bundle];
  for (;;) {
    const last = pages[pages.length - 1];
    if (!last?.link.some((l) => l.relation === 'next')) return pages;
    pages.push((await client.nextPage({ bundle: last })) as Bundle);
  }
}

const codeOf = (o: any): string => o.code.coding.find((c: any) => c.system === 'http://loinc.org').code;

beforeAll(async () => {
  gw = await startGateway({ SANDBOX_RATE_LIMIT: '1000000' });
  token = (await authHeaders(gw.url, ['read:patients', 'read:vitals'])).authorization!.slice('Bearer '.length);
  client = new Client({ baseUrl: `${gw.url}/fhir/R4`, bearerToken: token });
  patient = `obs-${uid()}`;
  device = `dev-${patient}`;
  t0 = Math.floor((Date.now() - 3 * 86_400_000) / 60_000) * 60_000;
  await seed();
});
afterAll(async () => {
  await gw?.close();
});

describe('FHIR Observation search over the whole history', () => {
  it('finds 3-day-old vitals without a date and pages to the end: no duplicates, no gaps, every stored row, self as applied', async () => {
    const pages = await allPages({ patient, category: 'vital-signs', _count: 7 });
    expect(pages.length).toBeGreaterThan(10);
    expect(pages[0]!.link.find((l) => l.relation === 'self')!.url).toBe(
      `${gw.url}/fhir/R4/Observation?patient=${patient}&category=vital-signs&_count=7`,
    );
    const all = pages.flatMap(resources);
    // 40 heart rates, 40 SpO2, 40 panels and the lone systolic
    expect(all).toHaveLength(3 * MINUTES + 1);
    expect(new Set(all.map((o) => o.id)).size).toBe(all.length);
    const served = all.flatMap((o) => o.identifier.map((i: { value: string }) => i.value)).sort();
    expect(served).toEqual([...stored].sort());
    const times = all.map((o) => Date.parse(o.effectiveDateTime));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[0]).toBe(t0);
    for (const page of pages) expect(page.entry!.length).toBeLessThanOrEqual(7);
    await expectValidFhir(pages, { profiles: [VITAL_SIGNS_PROFILE] });

    // newest first, the same Observations
    const newest = (await allPages({ patient, _sort: '-date', _count: 50 })).flatMap(resources);
    expect(newest.map((o) => o.id).sort()).toEqual(all.map((o) => o.id).sort());
    expect(Date.parse(newest[0].effectiveDateTime)).toBe(t0 + (MINUTES - 1) * 60_000);
  }, 300_000); // the first test starts the HAPI validator on a shared machine

  it('honours a date range exactly, whatever its length', async () => {
    const ten = (await allPages({ patient, date: [`ge${at(10)}`, `lt${at(20)}`], _count: 1000 })).flatMap(resources);
    expect(ten).toHaveLength(30);
    expect(
      ten.every((o) => Date.parse(o.effectiveDateTime) >= Date.parse(at(10)) && Date.parse(o.effectiveDateTime) < Date.parse(at(20))),
    ).toBe(true);
    const long = await allPages({ patient, date: `ge${new Date(t0 - 400 * 86_400_000).toISOString()}`, _count: 1000 });
    expect(long.flatMap(resources)).toHaveLength(3 * MINUTES + 1);
    expect(long[0]!.link.find((l) => l.relation === 'self')!.url).toContain('date=ge');
    // Prefer: handling=lenient leaves an unknown parameter out, and so does self
    const lenient = await fetch(`${gw.url}/fhir/R4/Observation?patient=${patient}&nonsense=1&_count=1`, {
      headers: { authorization: `Bearer ${token}`, prefer: 'handling=lenient' },
    });
    const self = ((await lenient.json()) as Bundle).link.find((l) => l.relation === 'self')!.url;
    expect(self).toContain(`patient=${patient}`);
    expect(self).not.toContain('nonsense');
  });
});

describe('code=a,b (OR)', () => {
  it('matches any of several codes, with or without the system, 2708-6 as SpO2', async () => {
    const both = (await allPages({ patient, code: `${VITAL_CODE.heartRate},http://loinc.org|2708-6`, _count: 1000 })).flatMap(resources);
    expect(both).toHaveLength(2 * MINUTES);
    expect(new Set(both.map(codeOf))).toEqual(new Set([VITAL_CODE.heartRate, '2708-6']));
    const hrAndPanel = (await allPages({ patient, code: `|${VITAL_CODE.heartRate},85354-9`, _count: 1000 })).flatMap(resources);
    expect(hrAndPanel).toHaveLength(2 * MINUTES);
    const none = await client.search({
      resourceType: 'Observation',
      searchParams: { patient, code: 'http://snomed.info/sct|8867-4,1234-5' },
    });
    expect((none as Bundle).entry).toBeUndefined();
  });
});

describe('blood pressure as one R4 bp panel', () => {
  it('serves a panel of 85354-9 with both components in mm[Hg], valid against the vital-signs and bp profiles', async () => {
    const panels = (await allPages({ patient, code: 'http://loinc.org|85354-9', _count: 15 })).flatMap(resources);
    expect(panels).toHaveLength(MINUTES);
    expect(panels[0]).toMatchObject({
      resourceType: 'Observation',
      id: `${device}.3`,
      meta: { profile: [BP_PROFILE] },
      status: 'final',
      category: [{ coding: [{ code: 'vital-signs' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      subject: { reference: `Patient/${patient}` },
      component: [
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
          valueQuantity: { value: 110, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
          valueQuantity: { value: 70, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
      ],
    });
    expect(Date.parse(panels[0].effectiveDateTime)).toBe(t0);
    expect(panels[0].valueQuantity).toBeUndefined();
    await expectValidFhir(panels, { profiles: [VITAL_SIGNS_PROFILE, BP_PROFILE] });
  });

  it('finds the panels by either component code and by component-code; a systolic without diastolic is still served', async () => {
    const bySystolic = (await allPages({ patient, code: VITAL_CODE.systolic, _count: 1000 })).flatMap(resources);
    expect(bySystolic.filter((o) => codeOf(o) === '85354-9')).toHaveLength(MINUTES);
    const lone = bySystolic.filter((o) => codeOf(o) === VITAL_CODE.systolic);
    expect(lone).toHaveLength(1);
    expect(lone[0]).toMatchObject({ id: `${device}.${LONE_SEQ}`, valueQuantity: { value: 150, code: 'mm[Hg]' } });
    await expectValidFhir(lone, { profiles: [VITAL_SIGNS_PROFILE] });
    const byDiastolic = (await allPages({ patient, code: VITAL_CODE.diastolic, _count: 1000 })).flatMap(resources);
    expect(byDiastolic.map(codeOf)).toEqual(Array(MINUTES).fill('85354-9'));
    const byComponent = (await allPages({ patient, 'component-code': `http://loinc.org|${VITAL_CODE.diastolic}`, _count: 1000 })).flatMap(
      resources,
    );
    expect(byComponent.map((o) => o.id)).toEqual(byDiastolic.map((o) => o.id));
  });

  it('reads a panel by its id, and the lone systolic by its own', async () => {
    const panel = (await client.read({ resourceType: 'Observation', id: `${device}.7` })) as any;
    expect(codeOf(panel)).toBe('85354-9');
    expect(panel.component.map((c: any) => c.valueQuantity.value)).toEqual([111, 71]);
    await expectValidFhir(panel, { profiles: [VITAL_SIGNS_PROFILE, BP_PROFILE] });
    const lone = (await client.read({ resourceType: 'Observation', id: `${device}.${LONE_SEQ}` })) as any;
    expect(codeOf(lone)).toBe(VITAL_CODE.systolic);
    await expectValidFhir(lone, { profiles: [VITAL_SIGNS_PROFILE] });
  });

  it('$lastn answers the latest panel', async () => {
    const lastn = (await client.operation({
      name: '$lastn',
      resourceType: 'Observation',
      method: 'GET',
      input: { patient, code: '85354-9' },
    })) as Bundle;
    expect(resources(lastn).map((o) => [codeOf(o), Date.parse(o.effectiveDateTime)])).toEqual([['85354-9', Date.parse(at(MINUTES - 1))]]);
    await expectValidFhir(lastn, { profiles: [VITAL_SIGNS_PROFILE] });
  });
});
