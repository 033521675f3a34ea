/**
 * The one registrar of a FHIR resource definition (definition.ts): from `resources/<Type>.ts` it
 * derives the routes at /fhir/R4 — search-type (`GET /<Type>`: the query schema, `_count` paging
 * through Bundle.link next built by the one `nextPageUrl`), read (`GET /<Type>/:id`) and vread
 * (`GET /<Type>/:id/_history/:vid`) — with the route guard (`config.auth`), the OpenAPI words
 * (operationIds `fhirSearch<Type>`, `fhirRead<Type>`, `fhirVread<Type>`), the response schemas,
 * the FHIR reply (media type, no-store), ETag / Last-Modified / If-None-Match. The services the
 * definitions call keep their access rules and audit; `_format` is negotiated by the FHIR plugin's
 * onRequest hook (routes.ts) and declared in every query schema.
 */
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fhirReply, nextPageUrl, notModified, weakEtag } from '@vitalis/http';
import { resourceId, searchsetBundle } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { callerOf } from '../access/http';
import { FHIR_BASE_PATH } from './base';
import type { FhirResourceDefinition, ReadDefinition, ReadResult, SearchContext, SearchEntry } from './definition';
import { outcomes } from './schemas';
import { format } from './search-params';

/** The app a FHIR plugin registers routes on (zod type provider). */
export type FhirApp = Parameters<FastifyPluginAsyncZod>[0];

const idParams = z.object({ id: resourceId });
const vidParams = z.object({ id: resourceId, vid: z.coerce.number().int().min(1) });
const readQuery = z.strictObject({ _format: format });
const READ_ERRORS = outcomes(400, 401, 403, 404, 406);
const SEARCH_ERRORS = outcomes(400, 401, 403, 406);

/** The absolute URL of the FHIR base and the entries a search answers. */
function searchContextOf<Q>(deps: GatewayDeps, req: FastifyRequest, q: Q): SearchContext<Q> {
  const urlOf = (type: string, id: string) => `${deps.config.baseUrl}${FHIR_BASE_PATH}/${type}/${id}`;
  const entry =
    (mode: 'match' | 'include') =>
    (type: string, id: string, resource: object): SearchEntry => ({
      fullUrl: urlOf(type, id),
      resource: resource as Record<string, unknown>,
      search: { mode },
    });
  return { req, q, deps, caller: () => callerOf(req), urlOf, match: entry('match'), included: entry('include') };
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

/** The routes of one resource definition: search-type, read and (where declared) vread. */
export function registerFhirResource(app: FhirApp, def: FhirResourceDefinition, deps: GatewayDeps): void {
  const path = `${FHIR_BASE_PATH}/${def.type}`;
  app.get(
    path,
    {
      config: def.auth ? { auth: def.auth } : {},
      schema: {
        tags: ['fhir'],
        summary: def.search.summary ?? `Search ${def.type}`,
        operationId: `fhirSearch${def.type}`,
        description: def.search.description,
        querystring: def.search.query,
        response: { 200: def.bundle, ...(def.search.errors ?? SEARCH_ERRORS) },
      },
    },
    async (req, reply) => {
      const q = req.query as Record<string, unknown>;
      const result = await def.search.search(searchContextOf(deps, req, q));
      if ('json' in result) return fhirReply(reply).send(result.json);
      const self = `${deps.config.baseUrl}${req.url}`;
      const next = result.nextCursor ? nextPageUrl(`${deps.config.baseUrl}${path}`, q, result.nextCursor) : null;
      return fhirReply(reply).send(searchsetBundle(result.entries, { self, next }));
    },
  );
  registerReads(app, def, deps);
}
