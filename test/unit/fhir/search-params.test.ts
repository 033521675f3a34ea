/** FHIR search parameter values (apps/gateway/src/fhir/search-params.ts) and the OperationOutcome mapping (libs/http). */
import { describe, expect, it } from 'vitest';
import { HttpProblem, badRequest, notFound, operationOutcomeOf, validationFailed } from '@vitalis/http';
import { ECG_LEAD_II, VITAL_CODE } from '@vitalis/schemas';
import {
  DATE_PARAM_PATTERN,
  TOKEN_LIST_PATTERN,
  anyOfCodes,
  categoryMatches,
  dateBounds,
  dateHull,
  dateInterval,
  dateRangesOf,
  identifiersOf,
  inDateRanges,
  isoDateFilter,
  statusesOf,
  tokensOf,
  vitalCodesOf,
  observationRange,
  patientIdOf,
  referencePattern,
  referenceIdOf,
  tokenCodes,
  vitalCodeOf,
} from '../../../apps/gateway/src/fhir/search-params';
import { nextPageUrl } from '@vitalis/http';

const ms = (iso: string) => Date.parse(iso);

describe('FHIR search parameters', () => {
  it('references of any type: {id}, {type}/{id} or an absolute URL; another type is a 400', () => {
    expect(referenceIdOf('Schedule', 'schedule', 'clin-001')).toBe('clin-001');
    expect(referenceIdOf('Schedule', 'schedule', 'Schedule/clin-001')).toBe('clin-001');
    expect(referenceIdOf('Slot', 'slot', 'http://x/fhir/R4/Slot/s1')).toBe('s1');
    expect(() => referenceIdOf('Schedule', 'schedule', 'Practitioner/clin-001')).toThrow(HttpProblem);
  });

  it('tokens: the codes of the given system (or none), null for another system, lists split', () => {
    expect(tokenCodes('LAB', 'urn:s')).toEqual(['LAB']);
    expect(tokenCodes('urn:s|LAB,|EC,urn:other|RAD', 'urn:s')).toEqual(['LAB', 'EC', null]);
  });

  it('the next page repeats the query as given (repeated parameters too) with the cursor replaced', () => {
    const url = new URL(
      nextPageUrl(
        'http://x/fhir/R4/Slot',
        { start: ['ge2026-01-01', 'lt2026-01-02'], status: 'free', _count: 5, _cursor: 'old', schedule: undefined },
        'new',
      ),
    );
    expect(url.searchParams.getAll('start')).toEqual(['ge2026-01-01', 'lt2026-01-02']);
    expect(Object.fromEntries([...url.searchParams].filter(([k]) => k !== 'start'))).toEqual({
      status: 'free',
      _count: '5',
      _cursor: 'new',
    });
  });

  it('dates cover their precision', () => {
    expect(dateInterval('2026-03-01')).toEqual({ start: ms('2026-03-01T00:00:00Z'), end: ms('2026-03-02T00:00:00Z') });
    expect(dateInterval('2026-02')).toEqual({ start: ms('2026-02-01T00:00:00Z'), end: ms('2026-03-01T00:00:00Z') });
    expect(dateInterval('2026')).toEqual({ start: ms('2026-01-01T00:00:00Z'), end: ms('2027-01-01T00:00:00Z') });
    expect(dateInterval('2026-03-01T10:00:05+01:00')).toEqual({ start: ms('2026-03-01T09:00:05Z'), end: ms('2026-03-01T09:00:06Z') });
    expect(dateInterval('2026-03-01T10:00:05.250Z')).toEqual({
      start: ms('2026-03-01T10:00:05.250Z'),
      end: ms('2026-03-01T10:00:05.251Z'),
    });
    expect(dateInterval('2026-03-01T10:00')).toBeUndefined(); // a time needs its zone
    expect(dateInterval('yesterday')).toBeUndefined();
  });

  it('prefixes bound the range: ge/eq the start, gt the end, le/eq the end, lt the start', () => {
    expect(dateBounds(['ge2026-03-01', 'lt2026-03-03'])).toEqual({ fromMs: ms('2026-03-01T00:00:00Z'), toMs: ms('2026-03-03T00:00:00Z') });
    expect(dateBounds(['gt2026-03-01', 'le2026-03-03'])).toEqual({ fromMs: ms('2026-03-02T00:00:00Z'), toMs: ms('2026-03-04T00:00:00Z') });
    expect(dateBounds(['2026-03-01'])).toEqual({ fromMs: ms('2026-03-01T00:00:00Z'), toMs: ms('2026-03-02T00:00:00Z') });
    expect(dateBounds(['eq2026-03-01', 'ge2026-03-01T12:00:00Z'])).toEqual({
      fromMs: ms('2026-03-01T12:00:00Z'),
      toMs: ms('2026-03-02T00:00:00Z'),
    });
    expect(() => dateBounds(['ne2026-03-01'])).toThrow(expect.objectContaining({ kind: 'not-supported' }));
    expect(() => dateBounds(['ge2026-13-45'])).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('an Observation range defaults to the 24 hours before now (or before its upper bound)', () => {
    const now = ms('2026-03-05T12:00:00Z');
    expect(observationRange([], now)).toEqual({ from: '2026-03-04T12:00:00.000Z', to: '2026-03-05T12:00:00.000Z' });
    expect(observationRange(['lt2026-03-02'], now)).toEqual({ from: '2026-03-01T00:00:00.000Z', to: '2026-03-02T00:00:00.000Z' });
    expect(observationRange(['ge2026-03-05T11:00:00Z'], now)).toEqual({ from: '2026-03-05T11:00:00.000Z', to: '2026-03-05T12:00:00.000Z' });
  });

  it('references and codes', () => {
    expect(patientIdOf('patient', 'Patient/pat-1')).toBe('pat-1');
    expect(patientIdOf('patient', 'pat-1')).toBe('pat-1');
    expect(patientIdOf('subject', 'https://x.example/fhir/R4/Patient/pat-1')).toBe('pat-1');
    expect(() => patientIdOf('patient', 'Device/d1')).toThrow(expect.objectContaining({ status: 400 }));
    expect(vitalCodeOf(`http://loinc.org|${VITAL_CODE.heartRate}`)).toBe(VITAL_CODE.heartRate);
    expect(vitalCodeOf(VITAL_CODE.heartRate)).toBe(VITAL_CODE.heartRate);
    expect(vitalCodeOf('2708-6')).toBe(VITAL_CODE.spo2);
    expect(vitalCodeOf(`${ECG_LEAD_II.system}|${ECG_LEAD_II.code}`)).toBe(ECG_LEAD_II.code);
    expect(vitalCodeOf(`http://loinc.org|${ECG_LEAD_II.code}`)).toBeNull();
    expect(vitalCodeOf('1234-5')).toBeNull();
    expect(() => vitalCodeOf('8867-4,59408-5')).toThrow(expect.objectContaining({ kind: 'not-supported' }));
  });
});

describe('FHIR search semantics (issue 33 items 3 and 10)', () => {
  const now = ms('2026-03-10T00:00:00Z');
  const ranges = (...values: string[]) => dateRangesOf('date', values, now);

  it('token lists: a comma is OR, a bar splits system and code, a backslash escapes', () => {
    expect(tokensOf('booked,fulfilled')).toEqual([{ code: 'booked' }, { code: 'fulfilled' }]);
    expect(tokensOf('urn:s|a,|b')).toEqual([
      { system: 'urn:s', code: 'a' },
      { system: '', code: 'b' },
    ]);
    expect(tokensOf('urn:s|a\\,b')).toEqual([{ system: 'urn:s', code: 'a,b' }]);
    expect(identifiersOf('urn:mrn|1,2')).toEqual([{ system: 'urn:mrn', value: '1' }, { value: '2' }]);
    expect(anyOfCodes(undefined)).toBeUndefined();
    expect(anyOfCodes('a,|b,urn:x|c,a')).toEqual(['a', 'b']);
    expect(anyOfCodes('urn:x|c')).toBeNull();
    expect(anyOfCodes('http://loinc.org|1-8,2-6', 'http://loinc.org')).toEqual(['1-8', '2-6']);
    expect(statusesOf('booked,fulfilled,nonsense', ['booked', 'fulfilled'] as const)).toEqual(['booked', 'fulfilled']);
    expect(statusesOf('nonsense', ['booked'] as const)).toBeNull();
    expect(statusesOf('urn:other|booked', ['booked'] as const, 'urn:s')).toBeNull();
  });

  it('vital codes and categories take lists', () => {
    expect(vitalCodesOf(`${VITAL_CODE.heartRate},http://loinc.org|2708-6,1234-5`)).toEqual([VITAL_CODE.heartRate, VITAL_CODE.spo2]);
    expect(vitalCodesOf('1234-5,urn:x|8867-4')).toBeNull();
    expect(categoryMatches('laboratory,vital-signs')).toBe(true);
    expect(categoryMatches('http://terminology.hl7.org/CodeSystem/observation-category|vital-signs')).toBe(true);
    expect(categoryMatches('urn:other|vital-signs')).toBe(false);
    expect(categoryMatches('laboratory')).toBe(false);
  });

  it('every date prefix selects its ranges of point-in-time values', () => {
    const day = { fromMs: ms('2026-03-01T00:00:00Z'), toMs: ms('2026-03-02T00:00:00Z') };
    expect(ranges('2026-03-01')).toEqual([day]);
    expect(ranges('eq2026-03-01')).toEqual([day]);
    expect(ranges('ne2026-03-01')).toEqual([{ toMs: day.fromMs }, { fromMs: day.toMs }]);
    expect(ranges('gt2026-03-01')).toEqual([{ fromMs: day.toMs }]);
    expect(ranges('sa2026-03-01')).toEqual([{ fromMs: day.toMs }]);
    expect(ranges('ge2026-03-01')).toEqual([{ fromMs: day.fromMs }]);
    expect(ranges('lt2026-03-01')).toEqual([{ toMs: day.fromMs }]);
    expect(ranges('eb2026-03-01')).toEqual([{ toMs: day.fromMs }]);
    expect(ranges('le2026-03-01')).toEqual([{ toMs: day.toMs }]);
    // ap: 10% of the 9 days between the value and now on each side
    const slack = 0.9 * 86_400_000;
    expect(ranges('ap2026-03-01')).toEqual([{ fromMs: day.fromMs - slack, toMs: day.toMs + slack }]);
  });

  it('repetition is AND, a comma is OR; the hull is what one range of storage reads', () => {
    expect(ranges('ge2026-03-01', 'lt2026-03-03')).toEqual([{ fromMs: ms('2026-03-01T00:00:00Z'), toMs: ms('2026-03-03T00:00:00Z') }]);
    expect(ranges('2026-03-01,2026-03-02')).toEqual([{ fromMs: ms('2026-03-01T00:00:00Z'), toMs: ms('2026-03-03T00:00:00Z') }]);
    const apart = ranges('2026-03-01,2026-03-05', 'ne2026-03-05T12:00:00Z');
    expect(apart).toHaveLength(3);
    expect(inDateRanges(apart, ms('2026-03-05T12:00:00Z'))).toBe(false);
    expect(inDateRanges(apart, ms('2026-03-05T12:00:01Z'))).toBe(true);
    expect(inDateRanges(apart, ms('2026-03-03T00:00:00Z'))).toBe(false);
    expect(dateHull(apart)).toEqual({ fromMs: ms('2026-03-01T00:00:00Z'), toMs: ms('2026-03-06T00:00:00Z'), exact: false, none: false });
    expect(dateHull(ranges('lt2026-03-01', 'gt2026-03-05'))).toEqual({ exact: true, none: true });
    expect(dateHull(ranges())).toEqual({ exact: true, none: false });
    const f = isoDateFilter('start', ['ne2026-03-01'], now);
    expect(f).toMatchObject({ exact: false, none: false });
    expect(f.matches('2026-03-01T10:00:00Z')).toBe(false);
    expect(f.matches('2026-03-02T00:00:00Z')).toBe(true);
    expect(dateBounds(['lt2026-03-01', 'gt2026-03-05'])).toEqual({ fromMs: 0, toMs: 0 });
    expect(() => ranges('xx2026-03-01')).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('the published patterns accept what the parsers take and refuse the rest', () => {
    const token = new RegExp(TOKEN_LIST_PATTERN);
    for (const ok of ['booked', 'booked,fulfilled', 'urn:s|a,|b', 'http://loinc.org|8867-4', 'a\\,b'])
      expect(token.test(ok), ok).toBe(true);
    for (const bad of ['', 'a,', ',a', 'urn:s|', 'a|b|c']) expect(token.test(bad), bad).toBe(false);
    const date = new RegExp(DATE_PARAM_PATTERN);
    for (const ok of [
      '2026',
      'ge2026-03',
      'ap2026-03-01',
      'ne2026-03-01T10:00Z',
      'lt2026-03-01T10:00:00.5+01:00',
      '2026-03-01,2026-03-05',
    ]) {
      expect(date.test(ok), ok).toBe(true);
      expect(() => ranges(ok), ok).not.toThrow();
    }
    expect(isoDateFilter('start', ['ap0001-01-01', 'le9999-12-31'], now)).toMatchObject({ exact: true, none: false });
    expect(isoDateFilter('start', ['ap0001-01-01', 'le9999-12-31'], now).from).toBeUndefined();
    expect(isoDateFilter('start', ['gt9999-12-31'], now)).toMatchObject({ none: true });
    for (const bad of ['0000-01-01', 'xx2026', '2026-13', '2026-03-01T10:00', 'yesterday', '2026,'])
      expect(date.test(bad), bad).toBe(false);
    const reference = new RegExp(referencePattern('Patient'));
    for (const ok of ['pat-1', 'Patient/pat-1', 'https://x.example/fhir/R4/Patient/pat.1']) {
      expect(reference.test(ok), ok).toBe(true);
      expect(patientIdOf('patient', ok)).toMatch(/^pat/);
    }
    for (const bad of ['Device/d1', 'a/b', 'Patient/', 'pat 1']) expect(reference.test(bad), bad).toBe(false);
  });
});

describe('OperationOutcome of a problem', () => {
  it('maps kinds and statuses to issue codes, field errors to issues', () => {
    expect(operationOutcomeOf(notFound('x')).issue[0]).toEqual({
      severity: 'error',
      code: 'not-found',
      details: { text: 'Not Found' },
      diagnostics: 'x',
    });
    expect(operationOutcomeOf(badRequest('y')).issue[0]!.code).toBe('invalid');
    expect(operationOutcomeOf(new HttpProblem(403, 'insufficient-scope', 'Forbidden', 'z')).issue[0]!.code).toBe('forbidden');
    expect(operationOutcomeOf(new HttpProblem(401, 'unauthorized', 'Unauthorized', 'z')).issue[0]!.code).toBe('login');
    expect(operationOutcomeOf(new HttpProblem(503, 'unavailable', 'Service Unavailable', 'z')).issue[0]).toMatchObject({
      severity: 'fatal',
      code: 'transient',
    });
    const v = operationOutcomeOf(validationFailed('bad', [{ path: 'querystring._count', message: 'too big' }]));
    expect(v.issue.map((i) => i.diagnostics)).toEqual(['bad', 'querystring._count: too big']);
  });
});
