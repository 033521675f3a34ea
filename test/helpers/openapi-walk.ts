/**
 * Walks an OpenAPI document's bodies for the contract rules of docs/api.md ("Conventions for a new
 * route"): every request and response body is a named component; a free-form object (or an untyped
 * value) appears only where the allow-list says why; every operation has an operationId and every
 * request body an example. test/integration/developer/openapi-bodies.test.ts applies it to the
 * served document.
 */
type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SCALARS = ['string', 'number', 'integer', 'boolean', 'null'];

export interface Operation {
  key: string;
  op: Json;
}

export const operationsOf = (doc: Json): Operation[] =>
  Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ key: `${m.toUpperCase()} ${path}`, op: item[m] as Json })),
  );

/** Every body of an operation: where it is (e.g. `request application/json`, `200 application/json`) and its media type object. */
export function bodiesOf(op: Json): { where: string; media: Json }[] {
  const out: { where: string; media: Json }[] = [];
  for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>))
    out.push({ where: `request ${type}`, media });
  for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
    for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>))
      out.push({ where: `${status} ${type}`, media });
  }
  return out;
}

const isScalar = (schema: Json) => SCALARS.includes(schema.type as string);
const componentOf = (ref: string) => ref.replace('#/components/schemas/', '');

/** A body given inline as anything but a scalar (HTML, Markdown, an SSE stream, a 101 are strings or null). */
export const isAnonymous = (schema: Json | undefined) => Boolean(schema) && typeof schema!.$ref !== 'string' && !isScalar(schema!);

/** No type, no structure: `{}` or only annotations (`description`, `title`...). */
const isUntyped = (schema: Json) =>
  !['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const', 'not', 'properties', 'items'].some((k) => k in schema);
/** Any property allowed with any value: `additionalProperties` true or an untyped schema. */
const isOpenMap = (schema: Json) =>
  schema.additionalProperties === true ||
  (typeof schema.additionalProperties === 'object' && isUntyped(schema.additionalProperties as Json));

/**
 * The free-form places reachable from the components the bodies name, each as
 * `<Component><JSON pointer>` (`…/additionalProperties` for an open object, the pointer of an
 * untyped value otherwise).
 */
export function freeFormPlaces(doc: Json): string[] {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
  const places = new Set<string>();
  const seen = new Set<string>();
  const walk = (schema: unknown, at: string): void => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Json;
    if (typeof s.$ref === 'string') return visit(componentOf(s.$ref));
    if (isUntyped(s)) places.add(at);
    if (isOpenMap(s)) places.add(`${at}/additionalProperties`);
    for (const [name, p] of Object.entries((s.properties ?? {}) as Json)) walk(p, `${at}/properties/${name}`);
    if (s.items) walk(s.items, `${at}/items`);
    for (const k of ['anyOf', 'oneOf', 'allOf']) ((s[k] ?? []) as unknown[]).forEach((b, i) => walk(b, `${at}/${k}/${i}`));
    if (s.additionalProperties && typeof s.additionalProperties === 'object' && !isUntyped(s.additionalProperties as Json))
      walk(s.additionalProperties, `${at}/additionalProperties`);
  };
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    seen.add(name);
    walk(schemas[name], name);
  };
  for (const { op } of operationsOf(doc)) {
    for (const { media } of bodiesOf(op)) if (media.schema) walk(media.schema, '(inline)');
  }
  return [...places].sort();
}

/** The request body's example: on the media type, or on the (named) schema it refers to. */
export function requestExampleOf(doc: Json, op: Json): unknown {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Json>;
  for (const media of Object.values((op.requestBody?.content ?? {}) as Record<string, Json>)) {
    if (media.example !== undefined || media.examples) return media.example ?? media.examples;
    const schema = typeof media.schema?.$ref === 'string' ? schemas[componentOf(media.schema.$ref as string)] : media.schema;
    if (schema?.example !== undefined || schema?.examples) return schema.example ?? schema.examples;
  }
  return undefined;
}
