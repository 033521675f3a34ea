/**
 * FHIR R4 search parameter values, parsed into what the services take (pure functions, no I/O):
 * references (`Patient/{id}`), tokens (`system|code`), dates with prefixes (`ge`, `gt`, `le`,
 * `lt`, `eq`) and their implicit ranges (a date of day precision is the whole day), and the one
 * error for what FHIR defines but Vitalis does not implement (400, issue code `not-supported`);
 * and the `_format` and `_cursor` parameters every /fhir/R4 route takes.
 */
import { z } from 'zod';
import { FHIR_JSON_FORMATS, badRequest, problemOf } from '@vitalis/http';
import { encodeKey } from '../access/http';
import { ECG_LEAD_II, LOINC_SYSTEM, NUMERIC_VITALS, SPO2_PROFILE_CODE, VITAL_CODE, resourceId } from '@vitalis/schemas';

// Published as what it is, an enumeration (the onRequest hook answers any other value 406 first;
// case and surrounding spaces are forgiven, as there).
export const format = z
  .preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(FHIR_JSON_FORMATS))
  .optional()
  .describe('json (the only format), or a JSON media type');
export const cursor = z.string().max(1_024).optional().describe('Opaque position of the next page (from Bundle.link next)');

/** 400 with OperationOutcome issue code `not-supported` (libs/http operation-outcome.ts). */
export const notSupported = (detail: string) => problemOf('not-supported', detail);

/** A reference as a search value: `{id}`, `{type}/{id}` or an absolute URL ending in `/{type}/{id}`. */
export function referenceIdOf(type: string, name: string, value: string): string {
  const m = new RegExp(`^(?:.*/)?${type}/([^/]+)$`).exec(value);
  const id = m ? m[1] : value.includes('/') ? undefined : value;
  if (id === undefined || !resourceId.safeParse(id).success)
    throw badRequest(`${name} must be a ${type} reference (${type}/{id} or {id}).`);
  return id;
}

/** A Patient reference as a search value: `{id}`, `Patient/{id}` or an absolute URL ending in `/Patient/{id}`. */
export const patientIdOf = (name: string, value: string): string => referenceIdOf('Patient', name, value);

/**
 * A token (`system|code`, `|code` or `code`) as its code when the system is `system` (or not given),
 * `null` when it names another system (matches nothing). Lists (`a,b`): every code, the same way.
 */
export function tokenCodes(value: string, system: string): (string | null)[] {
  return value.split(',').map((one) => {
    const bar = one.indexOf('|');
    if (bar < 0) return one.trim();
    const s = one.slice(0, bar);
    return s === '' || s === system ? one.slice(bar + 1).trim() : null;
  });
}

/** The system of each code Vitalis stores (LOINC; ECG lead II: MDC). */
function systemOf(code: string): string | undefined {
  if (code === ECG_LEAD_II.code) return ECG_LEAD_II.system;
  return code in NUMERIC_VITALS ? LOINC_SYSTEM : undefined;
}

/**
 * A `code` token (`system|code`, `|code` or `code`) as the Vitalis code it matches, or `null` when it
 * matches no stored observation (an unknown code, another system). 2708-6 (arterial SpO2, which the
 * oxygen saturation profile puts beside 59408-5 in every SpO2 Observation) matches SpO2. A list
 * (`a,b`) is not supported.
 */
export function vitalCodeOf(token: string): string | null {
  if (token.includes(',')) throw notSupported('code accepts one token; a comma-separated list (OR) is not supported.');
  const bar = token.indexOf('|');
  const system = bar >= 0 ? token.slice(0, bar) : undefined;
  const raw = bar >= 0 ? token.slice(bar + 1) : token;
  const code = raw === SPO2_PROFILE_CODE && (system === undefined || system === LOINC_SYSTEM) ? VITAL_CODE.spo2 : raw;
  const known = systemOf(code);
  if (!known) return null;
  if (system !== undefined && system !== '' && system !== known) return null;
  return code;
}

const PREFIXES = ['eq', 'ge', 'gt', 'le', 'lt'] as const;
type Prefix = (typeof PREFIXES)[number];
const UNSUPPORTED_PREFIXES = ['ne', 'sa', 'eb', 'ap'];

/** The instants a FHIR date value covers: [start, end) at its precision (year, month, day, minute, second, ms). */
export function dateInterval(value: string): { start: number; end: number } | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (h !== undefined && zone === undefined) return undefined; // a time needs its zone (FHIR dateTime)
  const iso = `${y}-${mo ?? '01'}-${d ?? '01'}T${h ?? '00'}:${mi ?? '00'}:${s ?? '00'}${frac ?? ''}${zone ?? 'Z'}`;
  const start = Date.parse(iso);
  if (Number.isNaN(start)) return undefined;
  const from = new Date(start);
  let end: number;
  if (frac !== undefined) end = start + 1;
  else if (s !== undefined) end = start + 1_000;
  else if (mi !== undefined) end = start + 60_000;
  else if (d !== undefined) end = start + 86_400_000;
  else if (mo !== undefined) end = Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1);
  else end = Date.UTC(from.getUTCFullYear() + 1, 0, 1);
  return { start, end };
}

/**
 * `date` values (each `[prefix]value`) as the half-open range [from, to) they select together;
 * a side no value bounds is undefined (the caller defaults it).
 */
export function dateBounds(values: readonly string[]): { fromMs?: number; toMs?: number } {
  let fromMs: number | undefined;
  let toMs: number | undefined;
  const lower = (t: number) => (fromMs = fromMs === undefined ? t : Math.max(fromMs, t));
  const upper = (t: number) => (toMs = toMs === undefined ? t : Math.min(toMs, t));
  for (const v of values) {
    const p = v.slice(0, 2);
    if (UNSUPPORTED_PREFIXES.includes(p)) throw notSupported(`The date prefix ${p} is not supported (use ge, gt, le, lt or eq).`);
    const prefix: Prefix = (PREFIXES as readonly string[]).includes(p) ? (p as Prefix) : 'eq';
    const interval = dateInterval(prefix === 'eq' && !v.startsWith('eq') ? v : v.slice(2));
    if (!interval)
      throw badRequest(`date=${v} is not a FHIR date or dateTime with an optional prefix (e.g. ge2026-01-01T00:00:00Z).`, {
        errors: [{ path: 'date', message: 'invalid date' }],
      });
    if (prefix === 'ge' || prefix === 'eq') lower(interval.start);
    if (prefix === 'gt') lower(interval.end);
    if (prefix === 'lt') upper(interval.start);
    if (prefix === 'le' || prefix === 'eq') upper(interval.end);
  }
  return { ...(fromMs !== undefined ? { fromMs } : {}), ...(toMs !== undefined ? { toMs } : {}) };
}

/** Without a lower bound a search covers this much before its upper bound (now, by default). */
export const DEFAULT_OBSERVATION_WINDOW_MS = 86_400_000;

/** The [from, to) of an Observation search: the `date` bounds, `to` defaulting to now and `from` to 24 h before `to`. */
export function observationRange(values: readonly string[], nowMs: number): { from: string; to: string } {
  const b = dateBounds(values);
  const toMs = b.toMs ?? nowMs;
  const fromMs = b.fromMs ?? toMs - DEFAULT_OBSERVATION_WINDOW_MS;
  return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() };
}

/** A parameter that may repeat (`date=ge…&date=lt…`): one value or up to four. */
export const oneOrMany = z.union([z.string().max(300), z.array(z.string().max(300)).max(4)]);
/** A repeatable parameter's values as a list. */
export const listOf = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The instants a repeated date parameter bounds, as ISO strings (either side may be open). */
export function isoBounds(values: string[]): { from?: string; to?: string } {
  const b = dateBounds(values);
  return {
    ...(b.fromMs !== undefined ? { from: new Date(b.fromMs).toISOString() } : {}),
    ...(b.toMs !== undefined ? { to: new Date(b.toMs).toISOString() } : {}),
  };
}

/** Token codes (LOINC) of a `code` parameter; null when none can match. */
export function loincCodes(value: string | undefined): string[] | undefined | null {
  if (value === undefined) return undefined;
  const codes = tokenCodes(value, LOINC_SYSTEM).filter((c): c is string => c !== null);
  return codes.length > 0 ? codes : null;
}

/** Status tokens (comma-separated) against the statuses a resource has; null when none can match. */
export function statusesOf<S extends string>(value: string | undefined, known: readonly S[]): S[] | undefined | null {
  if (value === undefined) return undefined;
  const wanted = value
    .split(',')
    .map((x) => x.trim())
    .filter((x): x is S => (known as readonly string[]).includes(x));
  return wanted.length > 0 ? wanted : null;
}

/** The cursor of a listing's next position (diagnostics: time and id), none on the last page. */
export const positionCursor = (p: { t: string; i: string } | null | undefined): string | null => (p ? encodeKey({ t: p.t, i: p.i }) : null);

/** The patient of an Observation search or `$lastn`: `patient` or `subject` (one of them, required). */
export function searchedPatient(q: { patient?: string | undefined; subject?: string | undefined }): string {
  if (q.patient !== undefined && q.subject !== undefined) throw badRequest('Give patient or subject, not both.');
  const given = q.patient ?? q.subject;
  if (given === undefined)
    throw badRequest('An Observation search needs patient (or subject): Observations are searched one patient at a time.');
  return patientIdOf(q.patient !== undefined ? 'patient' : 'subject', given);
}

/** `category` matches every Observation here when it is vital-signs (with or without its system), none otherwise. */
export function categoryMatches(category: string | undefined): boolean {
  if (category === undefined) return true;
  if (category.includes(',')) throw notSupported('category accepts one token; a comma-separated list is not supported.');
  return (
    /^(?:http:\/\/terminology\.hl7\.org\/CodeSystem\/observation-category\|)?vital-signs$/.test(category) || category === '|vital-signs'
  );
}
