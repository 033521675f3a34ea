/**
 * The FHIR R4 primitive rules a write must satisfy (issue 33 item 7), in one module: every text a
 * write puts into a served FHIR resource (REST v1, /fhir/R4 and MCP alike) is checked by these
 * schemas, and the stored-text check (apps/gateway/src/fhir-text-check.ts) judges what is already
 * stored by the same patterns. FHIR R4 datatypes (https://hl7.org/fhir/R4/datatypes.html):
 *  - `string`: no Unicode code point below 32 except tab (U+0009), LF (U+000A) and CR (U+000D); a
 *    value is never empty, and Vitalis also refuses one of white space only (regex `[ \r\n\t\S]+`);
 *  - `uri`: no white space (`\S*`); `Identifier.system` names the namespace of the value and must be
 *    absolute (`scheme:…`, e.g. `urn:oid:2.16.840.1.113883.2.4.6.3` or `https://hospital.example/mrn`):
 *    the HAPI validator refuses a local reference such as `MRN`;
 *  - `code`: no leading or trailing white space, single white space between tokens (`[^\s]+(\s[^\s]+)*`);
 *  - `id`: 1 to 64 of `A-Z a-z 0-9 - .` (`[A-Za-z0-9\-\.]{1,64}`).
 * Each pattern is one regular expression without lookahead, published as the JSON Schema `pattern`
 * of the OpenAPI document (generated from these zod schemas), so a client's schema refuses exactly
 * what the server refuses.
 */
import { z } from 'zod';

/* eslint-disable no-control-regex -- the control characters are what these patterns refuse */

/**
 * FHIR `string`, not blank: characters other than the forbidden control characters around one
 * that is neither white space nor a control character. (PostgreSQL refuses U+0000 in text and
 * jsonb; lone surrogates, which jsonb refuses too, are refused for every string of every request by
 * libs/http `findUnstorable`.)
 */
export const FHIR_STRING_PATTERN =
  /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F]*[^\s\u0000-\u001F][^\u0000-\u0008\u000B\u000C\u000E-\u001F]*$/;
/** An absolute URI: a scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`), a colon, then no white space and no control character. */
export const ABSOLUTE_URI_PATTERN = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001F\u007F]+$/;
/** FHIR `code`: tokens without white space or control characters, one white space character between two. */
export const FHIR_CODE_PATTERN = /^[^\s\u0000-\u001F]+(?:\s[^\s\u0000-\u001F]+)*$/;
/** FHIR `id`. */
export const FHIR_ID_PATTERN = /^[A-Za-z0-9\-.]{1,64}$/;

/* eslint-enable no-control-regex */

/** The words of each rule, as the 400 names them and the stored-text report repeats them. */
export const FHIR_RULE = {
  string: 'must not be blank, nor contain control characters (U+0000 to U+001F) other than tab, LF and CR',
  absoluteUri: 'must be an absolute URI (scheme:…, e.g. urn:oid:2.16.840.1.113883.2.4.6.3 or https://hospital.example/mrn)',
  code: 'must be a FHIR code: no leading, trailing or repeated white space, no control characters',
  id: 'must be 1-64 characters of A-Z, a-z, 0-9, "-" or "."',
} as const;
export type FhirRule = keyof typeof FHIR_RULE;

/**
 * Free text a person typed (a name, a reason, a complaint), a FHIR `string`: at most `max`
 * characters, kept trimmed; checked before trimming, so the OpenAPI document refuses exactly what
 * the validator refuses.
 */
export const nonBlankText = (max: number) => z.string().max(max).regex(FHIR_STRING_PATTERN, FHIR_RULE.string).trim();

/** An `Identifier.system` (or any FHIR `uri` that must be absolute): at most `max` characters. */
export const absoluteUri = (max: number) => z.string().max(max).regex(ABSOLUTE_URI_PATTERN, FHIR_RULE.absoluteUri);

/** A FHIR `code` of at most `max` characters. */
export const fhirCode = (max: number) => z.string().max(max).regex(FHIR_CODE_PATTERN, FHIR_RULE.code);

/** FHIR `id`-shaped identifiers: safe in URLs, references and Kafka keys. */
export const resourceId = z.string().regex(FHIR_ID_PATTERN, FHIR_RULE.id);

/** Which rule `value` breaks as a FHIR value of `rule`'s type, or null when it keeps it (what the stored-text check asks of stored values). */
export function fhirRuleBroken(rule: FhirRule, value: string): string | null {
  const pattern = { string: FHIR_STRING_PATTERN, absoluteUri: ABSOLUTE_URI_PATTERN, code: FHIR_CODE_PATTERN, id: FHIR_ID_PATTERN }[rule];
  return pattern.test(value) ? null : FHIR_RULE[rule];
}

// eslint-disable-next-line no-control-regex -- the control characters are what it removes
const FORBIDDEN_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** `value` without the control characters a FHIR `string` forbids (tab, LF and CR stay): the stored-text repair and the last-line guard of a served Patient. */
export function withoutForbiddenControls(value: string): string {
  return value.replace(FORBIDDEN_CONTROL, '');
}
