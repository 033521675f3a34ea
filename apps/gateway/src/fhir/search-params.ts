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
import { must } from '@vitalis/runtime';
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
  const m = new RegExp(`^(?:\\S*/)?${type}/([^/]+)$`).exec(value);
  const id = m ? m[1] : value.includes('/') ? undefined : value;
  if (id === undefined || !resourceId.safeParse(id).success)
    throw badRequest(`${name} must be a ${type} reference (${type}/{id} or {id}).`);
  return id;
}

/** What a reference search value is, published as its `pattern`: `{id}`, `{type}/{id}` or a URL ending in `/{type}/{id}` (as referenceIdOf reads it). */
export const referencePattern = (type: string) => `^(?:(?:\\S*/)?${type}/)?[A-Za-z0-9\\-.]{1,64}$`;
/** A reference search parameter of `type`, its syntax published (the pattern is what referenceIdOf accepts). */
export const referenceParam = (type: string) =>
  z
    .string()
    .max(300)
    .regex(new RegExp(referencePattern(type)), `must be ${type}/{id}, {id} or a URL ending in /${type}/{id}`);

/** A Patient reference as a search value: `{id}`, `Patient/{id}` or an absolute URL ending in `/Patient/{id}`. */
export const patientIdOf = (name: string, value: string): string => referenceIdOf('Patient', name, value);

/** One token of a search value: `system|code`, `|code` (no system: `system` is '') or `code` (any system: undefined). */
export interface SearchToken {
  system?: string;
  code: string;
}

/** FHIR search escapes (`\,` `\|` `\$` `\\`) undone. */
const unescaped = (text: string) => text.replace(/\\(.)/g, '$1');

/**
 * A token parameter's value as its tokens: a comma is OR (`booked,fulfilled`,
 * `sys|a,sys|b`), a backslash escapes a comma or bar inside a system or code.
 */
export function tokensOf(value: string): SearchToken[] {
  return value.split(/(?<!\\),/).map((one) => {
    const bar = /(?<!\\)\|/.exec(one);
    if (!bar) return { code: unescaped(one.trim()) };
    return { system: unescaped(one.slice(0, bar.index).trim()), code: unescaped(one.slice(bar.index + 1).trim()) };
  });
}

/** Whether a token names `system` (or no system at all). */
const ofSystem = (t: SearchToken, system: string | undefined) => t.system === undefined || t.system === '' || t.system === system;

/**
 * A token list (`system|code`, `|code` or `code`, comma-separated: OR) as its codes where the system
 * is `system` (or not given), `null` for a token naming another system (it matches nothing).
 */
export function tokenCodes(value: string, system: string): (string | null)[] {
  return tokensOf(value).map((t) => (ofSystem(t, system) ? t.code : null));
}

/**
 * A token list as the codes that can match (`system`: the one system they are coded in; omitted: a
 * code without a system of its own, such as `_id`, where only `code` and `|code` match): undefined
 * when the parameter is absent, null when no token can match (the search then matches nothing).
 */
export function anyOfCodes(value: string | undefined, system?: string): string[] | undefined | null {
  if (value === undefined) return undefined;
  const codes = tokensOf(value).flatMap((t) => (ofSystem(t, system) && t.code !== '' ? [t.code] : []));
  return codes.length > 0 ? [...new Set(codes)] : null;
}

/** A token list as `{ system, value }` pairs (Identifier search: `system|value` exact, `value` in any system); system undefined: any. */
export function identifiersOf(value: string): { system?: string; value: string }[] {
  return tokensOf(value).map((t) => (t.system === undefined ? { value: t.code } : { system: t.system, value: t.code }));
}

/** The system of each code Vitalis stores (LOINC; ECG lead II: MDC). */
function systemOf(code: string): string | undefined {
  if (code === ECG_LEAD_II.code) return ECG_LEAD_II.system;
  return code in NUMERIC_VITALS ? LOINC_SYSTEM : undefined;
}

/** One parsed `code` token as the Vitalis code it matches (vitalCodeOf), or null. */
function vitalCodeOfToken(t: SearchToken): string | null {
  const code = t.code === SPO2_PROFILE_CODE && (t.system === undefined || t.system === LOINC_SYSTEM) ? VITAL_CODE.spo2 : t.code;
  const known = systemOf(code);
  if (!known) return null;
  if (t.system !== undefined && t.system !== '' && t.system !== known) return null;
  return code;
}

/**
 * A `code` token (`system|code`, `|code` or `code`) as the Vitalis code it matches, or `null` when it
 * matches no stored observation (an unknown code, another system). 2708-6 (arterial SpO2, which the
 * oxygen saturation profile puts beside 59408-5 in every SpO2 Observation) matches SpO2. One token:
 * a list (`a,b`) is refused here; vitalCodesOf takes lists.
 */
export function vitalCodeOf(token: string): string | null {
  if (token.includes(',')) throw notSupported('code accepts one token; a comma-separated list (OR) is not supported.');
  return vitalCodeOfToken(must(tokensOf(token)[0], 'split always answers one part'));
}

/**
 * A `code` token list (comma: OR) as the distinct Vitalis codes it matches (each token as
 * vitalCodeOf), `null` when none of them matches a stored observation.
 */
export function vitalCodesOf(value: string): string[] | null {
  const codes = tokensOf(value).flatMap((t) => {
    const code = vitalCodeOfToken(t);
    return code === null ? [] : [code];
  });
  return codes.length > 0 ? [...new Set(codes)] : null;
}

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

/** The FHIR R4 date prefixes (https://hl7.org/fhir/R4/search.html#prefix); no prefix is eq. */
export const DATE_PREFIXES = ['eq', 'ne', 'gt', 'lt', 'ge', 'le', 'sa', 'eb', 'ap'] as const;
export type DatePrefix = (typeof DATE_PREFIXES)[number];

/** `ap` (approximately): the value's interval widened on each side by this share of the gap between now and the value. */
export const APPROXIMATE_SHARE = 0.1;

/** A half-open range of instants [fromMs, toMs); a side left undefined is open. */
export interface DateRange {
  fromMs?: number;
  toMs?: number;
}

const lowOf = (r: DateRange) => r.fromMs ?? -Infinity;
const highOf = (r: DateRange) => r.toMs ?? Infinity;
const rangeOf = (from: number, to: number): DateRange => ({
  ...(from === -Infinity ? {} : { fromMs: from }),
  ...(to === Infinity ? {} : { toMs: to }),
});

/** Ranges as the sorted, disjoint union they cover (empty ones dropped, touching or overlapping ones merged). */
export function unionOf(ranges: readonly DateRange[]): DateRange[] {
  const sorted = ranges.filter((r) => lowOf(r) < highOf(r)).sort((a, b) => lowOf(a) - lowOf(b));
  const out: { from: number; to: number }[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && lowOf(r) <= last.to) last.to = Math.max(last.to, highOf(r));
    else out.push({ from: lowOf(r), to: highOf(r) });
  }
  return out.map((r) => rangeOf(r.from, r.to));
}

/** Two disjoint unions intersected (both sorted, as unionOf answers). */
function intersectionOf(a: readonly DateRange[], b: readonly DateRange[]): DateRange[] {
  return unionOf(a.flatMap((x) => b.map((y) => rangeOf(Math.max(lowOf(x), lowOf(y)), Math.min(highOf(x), highOf(y))))));
}

/** The 400 of a date value that is not `[prefix]date`. */
const invalidDate = (name: string, v: string) =>
  badRequest(`${name}=${v} is not a FHIR date or dateTime with an optional prefix (e.g. ge2026-01-01T00:00:00Z).`, {
    errors: [{ path: name, message: 'invalid date' }],
  });

/**
 * One `[prefix]date` value (no comma) as the ranges it selects of point-in-time values, for the
 * value's interval [start, end) at its precision: eq [start, end); ne everything else; gt and sa
 * (starts after) from end; lt and eb (ends before) before start; ge from start; le before end;
 * ap the interval widened on each side by 10% of the gap between `nowMs` and the value (its start).
 */
export function dateValueRanges(name: string, v: string, nowMs: number): DateRange[] {
  const p = v.slice(0, 2);
  const prefix: DatePrefix = (DATE_PREFIXES as readonly string[]).includes(p) ? (p as DatePrefix) : 'eq';
  const interval = dateInterval(/^[a-z]{2}/.test(v) ? v.slice(2) : v);
  if (!interval || (/^[a-z]{2}/.test(v) && prefix === 'eq' && p !== 'eq')) throw invalidDate(name, v);
  const { start, end } = interval;
  switch (prefix) {
    case 'eq':
      return [{ fromMs: start, toMs: end }];
    case 'ne':
      return [{ toMs: start }, { fromMs: end }];
    case 'gt':
    case 'sa':
      return [{ fromMs: end }];
    case 'lt':
    case 'eb':
      return [{ toMs: start }];
    case 'ge':
      return [{ fromMs: start }];
    case 'le':
      return [{ toMs: end }];
    case 'ap': {
      const slack = Math.round(Math.abs(nowMs - start) * APPROXIMATE_SHARE);
      return [{ fromMs: start - slack, toMs: end + slack }];
    }
  }
}

/**
 * A date parameter's values as the disjoint ranges they select together: a repetition is AND, a
 * comma inside one value is OR (`date=ge2026-01-01&date=lt2026-02-01`, `date=2026-01-01,2026-01-03`).
 * No value: everything (one open range).
 */
export function dateRangesOf(name: string, values: readonly string[], nowMs: number): DateRange[] {
  return values.reduce<DateRange[]>(
    (acc, value) => intersectionOf(acc, unionOf(value.split(',').flatMap((one) => dateValueRanges(name, one.trim(), nowMs)))),
    [{}],
  );
}

/** Whether an instant (ms) lies in one of the ranges. */
export const inDateRanges = (ranges: readonly DateRange[], tMs: number): boolean => ranges.some((r) => lowOf(r) <= tMs && tMs < highOf(r));

/**
 * What a storage that takes one [from, to) is given for a date parameter: the smallest range holding
 * every match (`none`: nothing can match), and `exact` when that range selects the matches exactly;
 * otherwise (`ne`, a comma list of apart dates) the caller keeps only the rows `inDateRanges` accepts.
 */
export function dateHull(ranges: readonly DateRange[]): DateRange & { exact: boolean; none: boolean } {
  const first = ranges[0];
  const last = ranges[ranges.length - 1];
  if (!first || !last) return { exact: true, none: true };
  return { ...rangeOf(lowOf(first), highOf(last)), exact: ranges.length === 1, none: false };
}

/**
 * `date` values (each `[prefix]value`) as the one half-open range [from, to) they select together;
 * a side no value bounds is undefined (the caller defaults it). For callers whose storage takes one
 * range: what selects more than one (`ne`, a comma list of apart dates) is a 400 not-supported; an
 * empty selection (e.g. `lt2026&gt2027`) is an empty range.
 */
export function dateBounds(values: readonly string[], nowMs: number = Date.now(), name = 'date'): DateRange {
  const hull = dateHull(dateRangesOf(name, values, nowMs));
  if (!hull.exact) throw notSupported(`${name} here takes one range: ne and comma lists of apart dates are not supported on this search.`);
  if (hull.none) return { fromMs: 0, toMs: 0 };
  return rangeOf(hull.fromMs ?? -Infinity, hull.toMs ?? Infinity);
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

/** What a token parameter's value is, published as its `pattern`: `[system|]code`, comma-separated (OR); `\\` escapes `,` and `|`. */
export const TOKEN_LIST_PATTERN =
  '^(?:(?:[^\\\\|,]|\\\\[\\s\\S])*\\|)?(?:[^\\\\|,]|\\\\[\\s\\S])+(?:,(?:(?:[^\\\\|,]|\\\\[\\s\\S])*\\|)?(?:[^\\\\|,]|\\\\[\\s\\S])+)*$';
/** A token parameter: `[system|]code`, a comma list of them is OR (the pattern is what the server parses). */
export const tokenList = (max = 300) =>
  z.string().max(max).regex(new RegExp(TOKEN_LIST_PATTERN), 'must be [system|]code tokens, comma-separated (OR)');

const DATE_VALUE =
  '(?:eq|ne|gt|lt|ge|le|sa|eb|ap)?(?:[0-9](?:[0-9](?:[0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\\d|3[01])(?:T(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?(?:Z|[+-](?:0\\d|1[0-4]):[0-5]\\d))?)?)?';
/** What a date parameter's value is, published as its `pattern`: `[prefix]date`, comma-separated (OR); a time has its zone. */
export const DATE_PARAM_PATTERN = `^${DATE_VALUE}(?:,${DATE_VALUE})*$`;
const dateValue = z
  .string()
  .max(300)
  .regex(new RegExp(DATE_PARAM_PATTERN), 'must be [prefix]date values (eq ne gt lt ge le sa eb ap; a time with its zone), comma-separated');
/** How a date parameter is documented (CapabilityStatement searchParam.documentation). */
export const DATE_DOC =
  'Prefixes eq ne gt lt ge le sa eb ap (ap: within 10% of the gap between now and the value); repeatable (AND), comma-separated values (OR).';
/** A date parameter, repeatable (AND; up to four), each value `[prefix]date` with commas as OR. */
export const dateParam = z.union([dateValue, z.array(dateValue).min(1).max(4)]);

/** A parameter that may repeat (`date=ge…&date=lt…`): one value or up to four. */
export const oneOrMany = z.union([z.string().max(300), z.array(z.string().max(300)).max(4)]);
/** A repeatable parameter's values as a list. */
export const listOf = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** The instants a repeated date parameter bounds, as ISO strings (either side may be open); one range only (dateBounds). */
export function isoBounds(values: string[]): { from?: string; to?: string } {
  const b = dateBounds(values);
  return {
    ...(b.fromMs !== undefined ? { from: new Date(b.fromMs).toISOString() } : {}),
    ...(b.toMs !== undefined ? { to: new Date(b.toMs).toISOString() } : {}),
  };
}

/** The instants storage takes (PostgreSQL timestamptz of the years 1 to 9999 as ISO strings). */
const STORABLE_MS = { from: Date.parse('0001-01-01T00:00:00Z'), to: Date.parse('9999-12-31T23:59:59Z') };

/**
 * A date parameter for a storage that takes one ISO [from, to): the bounds to read (dateHull),
 * `none` when nothing can match, and `matches` for an instant, which a search applies to the rows
 * it read when the bounds are not exact (`ne`, a comma list of apart dates): such a page may hold
 * fewer than `_count` rows, and its next link goes on where the read stopped.
 */
export function isoDateFilter(
  name: string,
  values: readonly string[],
  nowMs: number = Date.now(),
): { from?: string; to?: string; none: boolean; exact: boolean; matches: (iso: string) => boolean } {
  const ranges = dateRangesOf(name, values, nowMs);
  const hull = dateHull(ranges);
  // a bound outside what storage holds (years 1-9999, e.g. ap of an early year) is an open side, or selects nothing stored
  if (hull.fromMs !== undefined && hull.fromMs < STORABLE_MS.from) delete hull.fromMs;
  if (hull.toMs !== undefined && hull.toMs > STORABLE_MS.to) delete hull.toMs;
  if ((hull.fromMs ?? 0) > STORABLE_MS.to || (hull.toMs ?? 0) < STORABLE_MS.from) return { none: true, exact: true, matches: () => false };
  return {
    ...(hull.fromMs !== undefined ? { from: new Date(hull.fromMs).toISOString() } : {}),
    ...(hull.toMs !== undefined ? { to: new Date(hull.toMs).toISOString() } : {}),
    none: hull.none,
    exact: hull.exact,
    matches: (iso) => inDateRanges(ranges, Date.parse(iso)),
  };
}

/** Token codes (LOINC) of a `code` parameter; null when none can match. */
export function loincCodes(value: string | undefined): string[] | undefined | null {
  if (value === undefined) return undefined;
  const codes = tokenCodes(value, LOINC_SYSTEM).filter((c): c is string => c !== null);
  return codes.length > 0 ? codes : null;
}

/**
 * Status tokens (comma-separated: OR; `system|code` as `code` when the system is `system` or not
 * given) against the statuses a resource has: undefined when absent, null when none can match.
 */
export function statusesOf<S extends string>(value: string | undefined, known: readonly S[], system?: string): S[] | undefined | null {
  if (value === undefined) return undefined;
  const wanted = tokensOf(value)
    .filter((t) => system === undefined || ofSystem(t, system))
    .map((t) => t.code)
    .filter((x): x is S => (known as readonly string[]).includes(x));
  return wanted.length > 0 ? [...new Set(wanted)] : null;
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

/** The system of the Observation category codes (vital-signs). */
export const OBSERVATION_CATEGORY_SYSTEM = 'http://terminology.hl7.org/CodeSystem/observation-category';

/** `category` (a token list: OR) matches every Observation here when one of its tokens is vital-signs (with or without its system), none otherwise. */
export function categoryMatches(category: string | undefined): boolean {
  if (category === undefined) return true;
  return tokensOf(category).some((t) => t.code === 'vital-signs' && ofSystem(t, OBSERVATION_CATEGORY_SYSTEM));
}
