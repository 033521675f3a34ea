/**
 * The FHIR part of an OpenAPI document (the /fhir/R4 paths and the components they reach), and the
 * base URL and version the CapabilityStatement snapshot was taken with: what definitions-snapshot.test.ts
 * compares with the JSON files in __snapshots__ (regenerate those only for an intended change).
 */

/** The base URL and version the capability snapshot was taken with. */
export const SNAPSHOT_BASE_URL = 'https://vitalis.example';
export const SNAPSHOT_VERSION = '0.0.0-snapshot';

export interface OpenapiDocument {
  paths: Record<string, unknown>;
  components: Record<string, Record<string, unknown>>;
}

/** Every `#/components/<kind>/<name>` reference inside a value. */
function refsIn(value: unknown, found: Set<string>): void {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, found));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/')) found.add(v);
      else refsIn(v, found);
    }
}

/** The FHIR part of an OpenAPI document: the /fhir/R4 paths and the components they reach. */
export function fhirPartOf(doc: OpenapiDocument): { paths: Record<string, unknown>; components: Record<string, Record<string, unknown>> } {
  const paths = Object.fromEntries(Object.entries(doc.paths).filter(([p]) => p === '/fhir/R4' || p.startsWith('/fhir/R4/')));
  const components: Record<string, Record<string, unknown>> = {};
  const pending = new Set<string>();
  refsIn(paths, pending);
  const seen = new Set<string>();
  for (const ref of pending) {
    if (seen.has(ref)) continue;
    seen.add(ref);
    const [kind, name] = ref.slice('#/components/'.length).split('/') as [string, string];
    const target = doc.components[kind]?.[name];
    (components[kind] ??= {})[name] = target;
    refsIn(target, pending);
  }
  const sorted = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((kind) => [kind, Object.fromEntries(Object.entries(components[kind] ?? {}).sort(([a], [b]) => a.localeCompare(b)))]),
  );
  return { paths, components: sorted };
}
