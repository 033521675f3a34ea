/**
 * The one registrar of a FHIR resource definition (definition.ts): from `resources/<Type>.ts` it
 * derives the routes at /fhir/R4 — search-type (`GET /<Type>`: the query schema, `_count` paging
 * through Bundle.link next built by the one `nextPageUrl`), read (`GET /<Type>/:id`) and vread
 * (`GET /<Type>/:id/_history/:vid`), create (`POST /<Type>`: 201, Location, ETag where the
 * resource has a version of its own) and update (`PUT /<Type>/:id`: If-Match required, 412 when
 * stale, 428 without; ETag and Last-Modified) — with the route guard (`config.auth`), the OpenAPI
 * words (operationIds `fhirSearch<Type>`, `fhirRead<Type>`, `fhirVread<Type>`, `fhirCreate<Type>`,
 * `fhirUpdate<Type>`), the response schemas, the FHIR reply (media type, no-store), ETag /
 * Last-Modified / If-None-Match; on every search `_summary`, `_elements` and `Prefer: handling`
 * (search-shaping.ts). The services the
 * definitions call keep their access rules and audit; `_format` is negotiated by the FHIR plugin's
 * onRequest hook (routes.ts) and declared in every query schema.
 */
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, fhirReply, nextPageUrl, notModified, weakEtag } from '@vitalis/http';
import { resourceId, searchsetBundle } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { expectedFromIfMatch } from '../access/caller';
import { callerOf } from '../access/http';
import { FHIR_BASE_PATH } from './base';
import type {
  CreateDefinition,
  FhirResourceDefinition,
  ReadDefinition,
  ReadResult,
  SearchContext,
  SearchEntry,
  SearchResult,
  UpdateDefinition,
} from './definition';
import { outcomes } from './schemas';
import { format, notSupported } from './search-params';
import {
  type ResultShape,
  knownParams,
  mandatoryElementsOf,
  preferredHandling,
  resultShapeOf,
  searchResultParams,
  selfUrlOf,
  subsets,
  subsetted,
} from './search-shaping';

/** The app a FHIR plugin registers routes on (zod type provider). */
export type FhirApp = Parameters<FastifyPluginAsyncZod>[0];

const idParams = z.object({ id: resourceId });
const vidParams = z.object({ id: resourceId, vid: z.coerce.number().int().min(1) });
const readQuery = z.strictObject({ _format: format });
const READ_ERRORS = outcomes(400, 401, 403, 404, 406);
const SEARCH_ERRORS = outcomes(400, 401, 403, 406);
const writeQuery = z.strictObject({ _format: format });
const ifMatchHeaders = z.object({ 'if-match': z.string().max(100).optional() });

/** The absolute URL of the FHIR base and the entries a search answers. */
function searchContextOf<Q>(deps: GatewayDeps, req: FastifyRequest, q: Q, asked: { count: boolean; self: string }): SearchContext<Q> {
  const urlOf = (type: string, id: string) => `${deps.config.baseUrl}${FHIR_BASE_PATH}/${type}/${id}`;
  const entry =
    (mode: 'match' | 'include') =>
    (type: string, id: string, resource: object): SearchEntry => ({
      fullUrl: urlOf(type, id),
      resource: resource as Record<string, unknown>,
      search: { mode },
    });
  return { req, q, deps, caller: () => callerOf(req), urlOf, match: entry('match'), included: entry('include'), ...asked };
}

/**
 * A read's reply: with a Last-Modified, the ETag and Last-Modified first and (a conditional read)
 * 304 when If-None-Match names the version; otherwise the FHIR reply, with its ETag where versioned.
 */
async function sendRead(req: FastifyRequest, reply: FastifyReply, result: ReadResult, conditional: boolean) {
  const { resource, version, lastModified } = result;
  if (lastModified !== undefined && version !== undefined) {
    reply.header('etag', weakEtag(version)).header('last-modified', new Date(lastModified).toUTCString());
    if (conditional && notModified(req, version)) return reply.code(304).send(null);
    return fhirReply(reply).send(resource);
  }
  const fhir = fhirReply(reply);
  return (version === undefined ? fhir : fhir.header('etag', weakEtag(version))).send(resource);
}

/** The read and vread routes of a definition. */
function registerReads(app: FhirApp, def: FhirResourceDefinition, deps: GatewayDeps): void {
  const path = `${FHIR_BASE_PATH}/${def.type}`;
  const config = def.auth ? { auth: def.auth } : {};
  const readWith = (read: ReadDefinition['read'], conditional: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const params = req.params as { id: string; vid?: number };
    const result = await read({ req, id: params.id, vid: params.vid, caller: () => callerOf(req), deps });
    return sendRead(req, reply, result, conditional);
  };
  app.get(
    `${path}/:id`,
    {
      config,
      schema: {
        tags: ['fhir'],
        summary: def.read.summary ?? `Read ${def.type}`,
        operationId: `fhirRead${def.type}`,
        description: def.read.description,
        params: def.read.params ?? idParams,
        querystring: def.read.query ?? readQuery,
        response: { 200: def.schema, ...(def.read.errors ?? READ_ERRORS) },
      },
    },
    readWith(def.read.read, def.read.conditional === true),
  );
  const vread = def.vread;
  if (vread === undefined) return;
  app.get(
    `${path}/:id/_history/:vid`,
    {
      config,
      schema: {
        tags: ['fhir'],
        summary: vread.summary ?? `Read a ${def.type} version (vread)`,
        operationId: `fhirVread${def.type}`,
        description: vread.description,
        params: vidParams,
        querystring: def.read.query ?? readQuery,
        response: { 200: def.schema, ...(vread.errors ?? READ_ERRORS) },
      },
    },
    readWith(vread.read ?? def.read.read, false),
  );
}

/** The create route of a definition: 201 with the resource, Location (its version's, and the ETag, where it has one). */
function registerCreate(app: FhirApp, type: string, schema: z.ZodType, create: CreateDefinition, deps: GatewayDeps): void {
  app.post(
    `${FHIR_BASE_PATH}/${type}`,
    {
      config: { auth: create.auth },
      schema: {
        tags: ['fhir'],
        summary: create.summary ?? `Create ${type}`,
        operationId: `fhirCreate${type}`,
        description: create.description,
        body: create.body,
        querystring: writeQuery,
        response: { 201: schema, ...(create.errors ?? SEARCH_ERRORS) },
      },
    },
    async (req, reply) => {
      const made = await create.create({ req, body: req.body, caller: () => callerOf(req), deps });
      const url = `${deps.config.baseUrl}${FHIR_BASE_PATH}/${type}/${made.id}`;
      const fhir = fhirReply(reply).code(201);
      if (made.version === undefined) return fhir.header('location', url).send(made.resource);
      return fhir.header('location', `${url}/_history/${made.version}`).header('etag', weakEtag(made.version)).send(made.resource);
    },
  );
}

/** The update route of a definition: If-Match required (428 without, 412 when stale), the body's id the URL's; ETag and Last-Modified. */
function registerUpdate(app: FhirApp, type: string, schema: z.ZodType, update: UpdateDefinition, deps: GatewayDeps): void {
  app.put(
    `${FHIR_BASE_PATH}/${type}/:id`,
    {
      config: { auth: update.auth },
      schema: {
        tags: ['fhir'],
        summary: update.summary ?? `Update ${type}`,
        operationId: `fhirUpdate${type}`,
        description: update.description,
        params: idParams,
        headers: ifMatchHeaders,
        body: update.body,
        querystring: writeQuery,
        response: { 200: schema, ...(update.errors ?? READ_ERRORS) },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const bodyId = (req.body as { id?: unknown }).id;
      if (bodyId !== undefined && bodyId !== id)
        throw badRequest(`The ${type}'s id (${String(bodyId)}) is not the one in the URL (${id}).`);
      const expected = expectedFromIfMatch(req.headers['if-match'], true);
      const made = await update.update({ req, id, expected, body: req.body, caller: () => callerOf(req), deps });
      return fhirReply(reply)
        .header('etag', weakEtag(made.version))
        .header('last-modified', new Date(made.lastModified).toUTCString())
        .send(made.resource);
    },
  );
}

/** The create and update routes of a definition, each interaction the statement lists served by the definition's function (a definition without it stops the server). */
function registerWrites(app: FhirApp, def: FhirResourceDefinition, deps: GatewayDeps): void {
  for (const code of ['create', 'update'] as const) {
    if (def.interactions.includes(code) !== (def[code] !== undefined))
      throw new Error(`FHIR ${def.type}: the interaction ${code} is ${def[code] ? 'defined but not listed' : 'listed but not defined'}.`);
  }
  if (def.create) registerCreate(app, def.type, def.schema, def.create, deps);
  if (def.update) registerUpdate(app, def.type, def.schema, def.update, deps);
}

/** The request's query after lenient handling dropped the unknown parameters (the self link names only these). */
const appliedQuery = new WeakMap<FastifyRequest, Record<string, unknown>>();

/** The search-type route's hook: under `Prefer: handling=lenient` the parameters the query schema does not know are dropped before validation. */
function lenientHandling(known: ReadonlySet<string>) {
  return async (req: FastifyRequest) => {
    if (preferredHandling(req.headers.prefer) !== 'lenient') return;
    const { kept } = knownParams(req.query as Record<string, unknown>, known);
    req.query = kept;
    appliedQuery.set(req, kept);
  };
}

/** The matched entries of a bundle as `_elements` / `_summary=data` shape them (included ones as they are). */
function shapedEntries<E extends { resource?: unknown; search?: { mode?: string } }>(
  entries: E[],
  shape: ResultShape,
  mandatory: string[],
): E[] {
  return entries.map((e) =>
    e.search?.mode === 'match' && e.resource !== undefined
      ? { ...e, resource: subsetted(e.resource as Record<string, unknown>, shape, mandatory) }
      : e,
  );
}

/**
 * A search's reply, shaped by `_summary` and `_elements`: a count as a Bundle with `total` only (a
 * search that did not count answers a one-page result's size, and refuses when there are more
 * pages); subsetted resources are sent as text (they no longer satisfy the full resource schema).
 */
function sendSearch(
  reply: FastifyReply,
  def: FhirResourceDefinition,
  result: SearchResult,
  shape: ResultShape,
  links: { self: string; next: (cursor: string) => string },
) {
  const { self } = links;
  if ('entries' in result && result.total !== undefined) return fhirReply(reply).send(searchsetBundle([], { self, total: result.total }));
  if (shape.count) {
    if ('json' in result || result.nextCursor) throw notSupported(`_summary=count is not supported on ${def.type} searches yet.`);
    return fhirReply(reply).send(searchsetBundle([], { self, total: result.entries.filter((e) => e.search?.mode === 'match').length }));
  }
  const mandatory = mandatoryElementsOf(def.schema);
  if ('json' in result) {
    if (!subsets(shape)) return fhirReply(reply).send(result.json);
    const bundle = JSON.parse(result.json) as { entry?: SearchEntry[] };
    return fhirReply(reply).send(
      JSON.stringify({ ...bundle, ...(bundle.entry ? { entry: shapedEntries(bundle.entry, shape, mandatory) } : {}) }),
    );
  }
  const bundle = searchsetBundle(result.entries, { self, next: result.nextCursor ? links.next(result.nextCursor) : null });
  if (!subsets(shape)) return fhirReply(reply).send(bundle);
  return fhirReply(reply).send(
    JSON.stringify({ ...bundle, ...(bundle.entry ? { entry: shapedEntries(bundle.entry, shape, mandatory) } : {}) }),
  );
}

/** The search-type route of a definition: its query schema with `_summary` and `_elements`, lenient handling, the shaped reply. */
function registerSearch(app: FhirApp, def: FhirResourceDefinition, deps: GatewayDeps): void {
  const path = `${FHIR_BASE_PATH}/${def.type}`;
  const query = def.search.query.extend(searchResultParams);
  app.get(
    path,
    {
      config: def.auth ? { auth: def.auth } : {},
      preValidation: lenientHandling(new Set(Object.keys(query.shape))),
      schema: {
        tags: ['fhir'],
        summary: def.search.summary ?? `Search ${def.type}`,
        operationId: `fhirSearch${def.type}`,
        description: def.search.description,
        querystring: query,
        response: { 200: def.bundle, ...(def.search.errors ?? SEARCH_ERRORS) },
      },
    },
    async (req, reply) => {
      const q = req.query as Record<string, unknown>;
      const shape = resultShapeOf(q as Parameters<typeof resultShapeOf>[0]);
      const applied = appliedQuery.get(req);
      const self = applied ? selfUrlOf(`${deps.config.baseUrl}${path}`, applied) : `${deps.config.baseUrl}${req.url}`;
      const result = await def.search.search(searchContextOf(deps, req, q, { count: shape.count, self }));
      return sendSearch(reply, def, result, shape, { self, next: (cursor) => nextPageUrl(`${deps.config.baseUrl}${path}`, q, cursor) });
    },
  );
}

/** The routes of one resource definition: search-type, read, (where declared) vread, create and update. */
export function registerFhirResource(app: FhirApp, def: FhirResourceDefinition, deps: GatewayDeps): void {
  registerSearch(app, def, deps);
  registerReads(app, def, deps);
  registerWrites(app, def, deps);
}
