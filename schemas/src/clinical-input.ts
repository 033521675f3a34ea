/**
 * Clinically plausible input (issue 31, item 5): allergy entries named "0" and "í]" with high
 * criticality were accepted and shown with a red banner. An allergy names its substance with a
 * coding from a terminology a clinician's system can match (SNOMED CT or RxNorm, with a code of the
 * right shape and a display) or with a text a person can read: at least 3 printable characters, at
 * least two of them letters (any script), nothing garbled. `allergyEntrySchema` is THE rule: the
 * patients service checks every allergy with it (REST, FHIR and MCP writes alike) and answers 422
 * naming the field. The same rule holds for a reaction's description.
 *
 * What "the right shape" is:
 *  - SNOMED CT (http://snomed.info/sct): a concept id: 6 to 18 digits, no leading zero, partition
 *    identifier 00 (short format) or 10 (long format: extension concepts) in the 2nd and 3rd
 *    digits from the right, and a valid Verhoeff check digit (the last), as the SNOMED CT
 *    specification defines SCTIDs. A description or relationship id, or a typo, is refused.
 *  - RxNorm (http://www.nlm.nih.gov/research/umls/rxnorm): an RXCUI: 1 to 8 digits, no leading zero.
 * Whether the code exists in the release is a terminology server's question; Vitalis has none.
 */
import { z } from 'zod';

export const SNOMED_CT = 'http://snomed.info/sct';
export const RXNORM = 'http://www.nlm.nih.gov/research/umls/rxnorm';
export const ALLERGY_CODE_SYSTEMS = [SNOMED_CT, RXNORM] as const;

export const CLINICAL_TEXT_MIN_LENGTH = 3;
const MIN_LETTERS = 2;

/** Control (C0, DEL, C1), format (zero-width, bidi overrides, BOM), private-use, unassigned and surrogate code points, and U+FFFD (a decoder's "?"). */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\uFFFD]/u;
/**
 * UTF-8 read as Latin-1 or Windows-1252 ("é" → "Ã©", "°" → "Â°", "’" → "â€™", a BOM → "ï»¿"): the
 * lead byte's character followed by a continuation byte's. No word of any language has these pairs.
 */
const MOJIBAKE =
  /[\u00C2\u00C3][\u0080-\u00BF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u0192\u02C6\u02DC\u2013\u2014\u2018-\u201A\u201C-\u201E\u2020-\u2022\u2026\u2030\u2039\u203A\u20AC\u2122]|\u00E2\u20AC|\u00EF\u00BB\u00BF/u;
const LETTER = /\p{L}/gu;

/** Why `value` (trimmed) is not plausible clinical text, or null when it is. */
export function clinicalTextIssue(value: string): string | null {
  const text = value.trim();
  if ([...text].length < CLINICAL_TEXT_MIN_LENGTH)
    return `must be at least ${CLINICAL_TEXT_MIN_LENGTH} characters long (a name or a description)`;
  if (UNPRINTABLE.test(text)) return 'must hold printable characters only (no control, format, private-use or replacement characters)';
  if (MOJIBAKE.test(text)) return 'looks garbled (UTF-8 read with another character set, e.g. "Ã©" for "é"): send the text as UTF-8';
  if ((text.match(LETTER) ?? []).length < MIN_LETTERS)
    return `must contain at least ${MIN_LETTERS} letters (a name or a description, not a number or symbols)`;
  return null;
}

/** Free text a clinician reads as a clinical fact (a substance, a reaction): trimmed, at most `max` characters, clinicalTextIssue-free. */
export const clinicalText = (max: number) =>
  z
    .string()
    .max(max)
    .trim()
    .superRefine((value, ctx) => {
      const issue = clinicalTextIssue(value);
      if (issue) ctx.addIssue({ code: 'custom', message: issue });
    });

// Verhoeff's dihedral-group tables (the check digit of SNOMED CT identifiers).
const D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** Whether a string of digits ends in its Verhoeff check digit. */
export function verhoeffValid(digits: string): boolean {
  let c = 0;
  const n = digits.length;
  for (let i = 0; i < n; i++) {
    const p = P[i % 8]?.[Number(digits[n - 1 - i])];
    const next = p === undefined ? undefined : D[c]?.[p];
    if (next === undefined) return false; // not a digit: no check digit to end in
    c = next;
  }
  return c === 0;
}

/** Why `code` is not a SNOMED CT concept id, or null when it has the shape of one. */
export function snomedConceptIdIssue(code: string): string | null {
  if (!/^[1-9][0-9]{5,17}$/.test(code)) return 'must be a SNOMED CT concept id: 6 to 18 digits, no leading zero';
  const partition = code.slice(-3, -1);
  if (partition !== '00' && partition !== '10')
    return `must be a SNOMED CT concept id (partition identifier 00 or 10, not ${partition}: a description or relationship id?)`;
  if (!verhoeffValid(code)) return 'fails the SNOMED CT check digit (Verhoeff): a typing error?';
  return null;
}

/** Why `code` is not an RxNorm concept id (RXCUI), or null. */
export function rxnormCodeIssue(code: string): string | null {
  return /^[1-9][0-9]{0,7}$/.test(code) ? null : 'must be an RxNorm concept id (RXCUI): 1 to 8 digits, no leading zero';
}

export const allergyCodingSchema = z
  .object({
    system: z.enum(ALLERGY_CODE_SYSTEMS, { error: `must be SNOMED CT (${SNOMED_CT}) or RxNorm (${RXNORM})` }),
    code: z.string().max(18),
    display: clinicalText(200),
  })
  .superRefine((c, ctx) => {
    const issue = c.system === SNOMED_CT ? snomedConceptIdIssue(c.code) : rxnormCodeIssue(c.code);
    if (issue) ctx.addIssue({ code: 'custom', path: ['code'], message: issue });
  });

/** The substance: a coding (or several naming the same substance) and/or a text. At least one. */
export const allergySubstanceSchema = z
  .object({
    text: clinicalText(200).optional(),
    coding: z.array(allergyCodingSchema).min(1).max(3).optional(),
  })
  .refine((c) => c.text !== undefined || c.coding !== undefined, {
    message: `needs a coding (SNOMED CT or RxNorm, with code and display) or a text of at least ${CLINICAL_TEXT_MIN_LENGTH} characters`,
  });

export const ALLERGY_CRITICALITIES = ['low', 'high', 'unable-to-assess'] as const;

/** One allergy as recorded (whatever surface it came through). */
export const allergyEntrySchema = z.object({
  code: allergySubstanceSchema,
  criticality: z.enum(ALLERGY_CRITICALITIES).default('unable-to-assess'),
  reaction: clinicalText(500).optional(),
});

export type AllergyCoding = z.infer<typeof allergyCodingSchema>;
export type AllergyEntry = z.infer<typeof allergyEntrySchema>;
/** What a surface hands the service: its fields, in shape only, not yet judged by allergyEntrySchema. */
export interface AllergyEntryInput {
  code: { text?: string | undefined; coding?: Array<{ system: string; code: string; display?: string | undefined }> | undefined };
  criticality?: (typeof ALLERGY_CRITICALITIES)[number] | undefined;
  reaction?: string | undefined;
}

/** The issues of a failed parse as `{ path, message }`, each path under `prefix` in the surface's own terms (`body`, `body.code.text`). */
export function issuesAt(
  prefix: string,
  issues: readonly z.core.$ZodIssue[],
  rename: (path: string) => string = (p) => p,
): { path: string; message: string }[] {
  return issues.map((i) => {
    const inner = rename(i.path.map(String).join('.'));
    return { path: [prefix, inner].filter(Boolean).join('.'), message: i.message };
  });
}
