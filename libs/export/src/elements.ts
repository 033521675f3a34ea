/**
 * `_elements` (FHIR search result parameter; Bulk Data Access IG 3.0 kick-off parameter): a
 * resource reduced to the listed top-level elements and its mandatory ones, marked with the
 * SUBSETTED tag so that nobody stores it over the complete resource. One function for the export
 * (the worker's Observations, the gateway's other types) and for searches that serve `_elements`.
 */

/** The v3 ObservationValue coding that marks a resource as incomplete (R4 3.1.1.4.4.1 `_elements`). */
export const SUBSETTED_TAG = {
  system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationValue',
  code: 'SUBSETTED',
  display: 'subsetted',
} as const;

/** Elements kept in every subset: what identifies the resource, and what carries the tag. */
const ALWAYS = ['resourceType', 'id', 'meta'];

/** The top-level elements of minimum cardinality 1 in R4, for the types the server exports. */
const MANDATORY: Record<string, readonly string[]> = {
  Observation: ['status', 'code'],
  AllergyIntolerance: ['patient'],
  Appointment: ['status', 'participant'],
  ServiceRequest: ['status', 'intent', 'subject'],
  DiagnosticReport: ['status', 'code'],
  DetectedIssue: ['status'],
  Group: ['type', 'actual'],
};

const ELEMENT = /^(?:([A-Z][A-Za-z]+)\.)?([a-z][A-Za-z0-9]*(?:\[x\])?)$/;

/** One `_elements` entry: `name` (every type) or `Type.name` (that type); undefined when it is not of that form. */
export function parseElement(entry: string): { type?: string; name: string } | undefined {
  const m = ELEMENT.exec(entry.trim());
  if (!m?.[2]) return undefined;
  return m[1] === undefined ? { name: m[2] } : { type: m[1], name: m[2] };
}

/** Whether an element key of a resource is named by `name` (a choice `value[x]` names valueQuantity etc.). */
const named = (key: string, name: string) =>
  name.endsWith('[x]') ? key.startsWith(name.slice(0, -3)) && /^[A-Z]/.test(key.slice(name.length - 3)) : key === name;

/**
 * The resource reduced to the `_elements` that apply to its type (entries without a type apply to
 * every type), plus its mandatory elements, tagged SUBSETTED; the resource itself when no entry
 * applies to its type (the IG: an element is returned "where it is applicable"). The subset's meta
 * drops `profile` (it no longer conforms to what the whole resource claims).
 */
export function subsetElements(resource: Record<string, unknown>, elements: readonly string[]): Record<string, unknown> {
  const type = String(resource.resourceType);
  const names = elements.flatMap((e) => {
    const parsed = parseElement(e);
    return parsed && (parsed.type === undefined || parsed.type === type) ? [parsed.name] : [];
  });
  if (names.length === 0) return resource;
  const keep = [...ALWAYS, ...(MANDATORY[type] ?? []), ...names];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) if (keep.some((n) => named(key, n))) out[key] = value;
  // a subset no longer conforms to the profiles the whole resource claims (a vital-signs Observation
  // without its subject, say): meta.profile goes with the elements
  const { profile: _claimed, ...meta } = (typeof resource.meta === 'object' && resource.meta !== null ? resource.meta : {}) as Record<
    string,
    unknown
  >;
  const tags = Array.isArray(meta.tag) ? (meta.tag as unknown[]) : [];
  out.meta = { ...meta, tag: [...tags, { ...SUBSETTED_TAG }] };
  return out;
}
