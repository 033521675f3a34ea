/**
 * A FHIR resource served with some of its elements left out (R4 3.1.1.5.8, `_elements` and
 * `_summary`; Bulk Data Access IG 3.0 kick-off `_elements`): the one rule for what a subset keeps
 * and how it is marked, used by the searches (apps/gateway/src/fhir/search-shaping.ts) and by the
 * bulk export (libs/export/src/elements.ts) alike. Pure functions, no I/O.
 */

/** The v3 ObservationValue coding that marks a resource as incomplete, so nobody stores it over the whole one. */
export const SUBSETTED_TAG = {
  system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue',
  code: 'SUBSETTED',
  display: 'subsetted',
} as const;

/** Elements every subset keeps: what identifies the resource, and what carries the tag. */
const ALWAYS_KEPT = ['resourceType', 'id', 'meta'];

/** Whether an element key of a resource is named by `name` (a choice `value[x]` names valueQuantity etc.). */
const named = (key: string, name: string) =>
  name.endsWith('[x]') ? key.startsWith(name.slice(0, -3)) && /^[A-Z]/.test(key.slice(name.length - 3)) : key === name;

/** The resource's meta with the SUBSETTED tag added, and without `profile` when `dropProfile`. */
function subsettedMeta(resource: Record<string, unknown>, dropProfile: boolean): Record<string, unknown> {
  const meta = (typeof resource.meta === 'object' && resource.meta !== null ? resource.meta : {}) as Record<string, unknown>;
  const { profile, ...rest } = meta;
  const tags = Array.isArray(meta.tag) ? (meta.tag as unknown[]) : [];
  return { ...rest, ...(dropProfile || profile === undefined ? {} : { profile }), tag: [...tags, { ...SUBSETTED_TAG }] };
}

/**
 * The resource reduced to the top-level elements `names` (a choice `value[x]` names each of its
 * types), plus `resourceType`, `id`, `meta` and the type's `mandatory` elements (so the subset is
 * still a valid resource), tagged SUBSETTED. Its meta drops `profile`: a subset no longer conforms
 * to what the whole resource claims (a vital-signs Observation without its subject, say).
 */
export function subsetResource(
  resource: Record<string, unknown>,
  names: readonly string[],
  mandatory: readonly string[],
): Record<string, unknown> {
  const keep = [...ALWAYS_KEPT, ...mandatory, ...names];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) if (keep.some((n) => named(key, n))) out[key] = value;
  out.meta = subsettedMeta(resource, true);
  return out;
}

/** The resource without its narrative (`_summary=data`), tagged SUBSETTED; its profiles still hold (a narrative is optional). */
export function withoutNarrative(resource: Record<string, unknown>): Record<string, unknown> {
  const { text: _narrative, ...rest } = resource;
  return { ...rest, meta: subsettedMeta(resource, false) };
}
