/**
 * `_elements` (FHIR search result parameter; Bulk Data Access IG 3.0 kick-off parameter): a
 * resource reduced to the listed top-level elements and its mandatory ones, marked with the
 * SUBSETTED tag so that nobody stores it over the complete resource: which entries apply to which
 * type, and each exported type's mandatory elements. What a subset keeps and how it is tagged is
 * @vitalis/schemas `subsetResource`, the searches' rule too.
 */
import { subsetResource } from '@vitalis/schemas';

export { SUBSETTED_TAG } from '@vitalis/schemas';

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

/**
 * The resource reduced to the `_elements` that apply to its type (entries without a type apply to
 * every type), plus its mandatory elements, tagged SUBSETTED; the resource itself when no entry
 * applies to its type (the IG: an element is returned "where it is applicable").
 */
export function subsetElements(resource: Record<string, unknown>, elements: readonly string[]): Record<string, unknown> {
  const type = String(resource.resourceType);
  const names = elements.flatMap((e) => {
    const parsed = parseElement(e);
    return parsed && (parsed.type === undefined || parsed.type === type) ? [parsed.name] : [];
  });
  if (names.length === 0) return resource;
  return subsetResource(resource, names, MANDATORY[type] ?? []);
}
