/**
 * What every FHIR search takes besides its own parameters, applied once by the registrar
 * (register.ts) to every search-type route (issue 33 item 11; https://hl7.org/fhir/R4/search.html):
 * `_summary` (count: a searchset Bundle with `total` and no entries; data: without the narrative;
 * false: the whole resources), `_elements` (each matched resource keeps the listed top-level elements
 * and the mandatory ones, tagged SUBSETTED), and `Prefer: handling=lenient` (unknown parameters are
 * dropped before validation instead of refused; the self link then names only the parameters applied).
 * Pure functions over the query, the header and the resources; no I/O.
 */
import { z } from 'zod';
import { subsetResource, withoutNarrative } from '@vitalis/schemas';

/** The `_summary` values served: count (total only), data (no narrative), false (everything). `true` and `text` are not served. */
export const SUMMARY_VALUES = ['count', 'data', 'false'] as const;
export type SummaryMode = (typeof SUMMARY_VALUES)[number];

/** What `_elements` is: top-level element names, comma-separated. */
export const ELEMENTS_PATTERN = '^[A-Za-z][A-Za-z0-9]*(?:,[A-Za-z][A-Za-z0-9]*)*$';

/** The query parameters every FHIR search takes besides its own (the registrar adds them to each search's query schema). */
export const searchResultParams = {
  _summary: z
    .enum(SUMMARY_VALUES)
    .optional()
    .describe(
      'count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources',
    ),
  _elements: z
    .string()
    .max(500)
    .regex(new RegExp(ELEMENTS_PATTERN), 'must be top-level element names, comma-separated')
    .optional()
    .describe('Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED)'),
};

/** How the result of a search is shaped, from its query. */
export interface ResultShape {
  count: boolean;
  /** The top-level elements kept (undefined: all). */
  elements?: ReadonlySet<string>;
  /** Whether the narrative is dropped (`_summary=data`). */
  withoutText: boolean;
}

/** The shape a parsed query asks for. */
export function resultShapeOf(q: { _summary?: SummaryMode | undefined; _elements?: string | undefined }): ResultShape {
  return {
    count: q._summary === 'count',
    ...(q._elements !== undefined ? { elements: new Set(q._elements.split(',')) } : {}),
    withoutText: q._summary === 'data',
  };
}

/** Whether the shape changes the resources at all. */
export const subsets = (shape: ResultShape): boolean => shape.elements !== undefined || shape.withoutText;

/** The top-level elements a resource schema requires (an object schema's keys that do not accept undefined). */
export function mandatoryElementsOf(schema: z.ZodType): string[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([k, s]) => (s.safeParse(undefined).success ? [] : [k]));
}

/** A resource as `_elements` / `_summary=data` serve it (@vitalis/schemas subsetResource, the export's rule too). */
export function subsetted(resource: Record<string, unknown>, shape: ResultShape, mandatory: readonly string[]): Record<string, unknown> {
  if (shape.elements === undefined) return withoutNarrative(resource);
  return subsetResource(resource, [...shape.elements], mandatory);
}

/** The `handling` preference of a request's Prefer header (RFC 7240; FHIR: strict, the default, or lenient). */
export function preferredHandling(prefer: string | string[] | undefined): 'strict' | 'lenient' {
  const values = (Array.isArray(prefer) ? prefer : [prefer ?? '']).flatMap((h) => h.split(/[,;]/)).map((p) => p.trim().toLowerCase());
  return values.includes('handling=lenient') ? 'lenient' : 'strict';
}

/** A query with only the parameters a search knows (lenient handling drops the rest), and the names dropped. */
export function knownParams(
  query: Record<string, unknown>,
  known: ReadonlySet<string>,
): { kept: Record<string, unknown>; dropped: string[] } {
  const entries = Object.entries(query);
  return {
    kept: Object.fromEntries(entries.filter(([k]) => known.has(k))),
    dropped: entries.filter(([k]) => !known.has(k)).map(([k]) => k),
  };
}

/** The self link of a search: the search URL with the parameters applied, repeated ones repeated. */
export function selfUrlOf(searchUrl: string, query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
  }
  const text = params.toString();
  return text === '' ? searchUrl : `${searchUrl}?${text}`;
}
