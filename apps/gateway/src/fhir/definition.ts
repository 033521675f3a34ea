/**
 * What a FHIR resource type served at /fhir/R4 is, declared once (issue 32 item 3; the HAPI
 * resource-provider / Medplum router shape): its interactions, its search parameters (one zod
 * query schema, each parameter registered with its FHIR type and documentation through
 * `searchParam`), and its read / vread / search functions over the domain services. One file per
 * type under resources/; register.ts derives the routes from a definition and this module its
 * CapabilityStatement entry, so what the statement lists and what is served come from one source.
 */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FhirBundleEntry } from '@vitalis/schemas';
import type { RouteAuth } from '../auth/route-auth';
import type { Caller } from '../access/caller';
import type { GatewayDeps } from '../deps';
import { dateParam } from './search-params';

/** A FHIR search parameter type (CapabilityStatement.rest.resource.searchParam.type) the server uses. */
export type FhirSearchParamType = 'token' | 'string' | 'date' | 'reference' | 'number';
/** A CapabilityStatement interaction; each is served from the definition's function of that name (register.ts). */
export type FhirInteraction = 'read' | 'vread' | 'search-type' | 'create' | 'update';

/** A CapabilityStatement `operation` entry, declared beside the operation's route (operations/). */
export interface FhirOperationEntry {
  name: string;
  definition: string;
  documentation: string;
}

/** The FHIR type and documentation of one search parameter, as the CapabilityStatement lists it. */
export interface FhirSearchParamMeta {
  type: FhirSearchParamType;
  documentation: string;
}

/**
 * The search parameters the CapabilityStatement lists, keyed by their query schema. A registry of
 * its own (not zod's global one), so nothing of it reaches the OpenAPI document.
 */
const searchParamRegistry = z.registry<FhirSearchParamMeta>();

/** A query parameter of a search, registered as a FHIR search parameter (listed in the CapabilityStatement). */
export function searchParam<S extends z.ZodType>(schema: S, type: FhirSearchParamType, documentation: string): S {
  searchParamRegistry.add(schema, { type, documentation });
  return schema;
}

/** `_count`: a page size 1..max (default `dflt`), paged through Bundle.link next. A new schema per call (one registry entry each). */
export const countParam = (
  max: number,
  dflt: number,
  documentation = `Page size, 1-${max} (default ${dflt}); further pages via Bundle.link next.`,
) => searchParam(z.coerce.number().int().min(1).max(max).default(dflt), 'number', documentation);

/**
 * `_lastUpdated` (a date parameter over meta.lastUpdated: every prefix, repeatable as AND, commas as
 * OR), for the types whose resources carry meta.lastUpdated.
 */
export const lastUpdatedParam = () =>
  searchParam(
    dateParam.optional(),
    'date',
    'meta.lastUpdated: [prefix]date with prefixes eq ne gt lt ge le sa eb ap (ap: within 10% of the gap to now), repeatable (AND), comma-separated values (OR).',
  );

/** `patient` as a reference search parameter (required or not, as the query schema says). */
export const patientParam = <S extends z.ZodType>(schema: S, required: boolean) =>
  searchParam(schema, 'reference', `${required ? 'Required: ' : ''}Patient/{id} or {id}.`);

/** The registered search parameters of a query schema, in its key order (the unregistered `_cursor`, `_format`, `_include` are not). */
export function searchParamsOf(query: z.ZodObject): ({ name: string } & FhirSearchParamMeta)[] {
  return Object.entries(query.shape).flatMap(([name, schema]) => {
    const meta = searchParamRegistry.get(schema as z.ZodType);
    return meta ? [{ name, type: meta.type, documentation: meta.documentation }] : [];
  });
}

/** A bundle entry as a search answers it. */
export type SearchEntry = FhirBundleEntry<Record<string, unknown>>;

/** What a search function is given: the request, its parsed query, the caller and the URL of a resource. */
export interface SearchContext<Q> {
  req: FastifyRequest;
  q: Q;
  caller: () => Caller;
  deps: GatewayDeps;
  /** The absolute URL a resource is read at (a Bundle entry's fullUrl). */
  urlOf: (type: string, id: string) => string;
  /** A matched resource as a Bundle entry, at its URL. */
  match: (type: string, id: string, resource: object) => SearchEntry;
  /** An included resource (`_include`) as a Bundle entry, at its URL. */
  included: (type: string, id: string, resource: object) => SearchEntry;
  /** `_summary=count`: the search answers `{ entries: [], total }`, the number of matches counted by its service (not by reading every page). */
  count?: boolean;
  /** The Bundle's self link: the request's URL, or under `Prefer: handling=lenient` the URL of the parameters applied (undefined outside a search route). */
  self?: string;
}

/**
 * What a search answers: the entries of one page and the cursor of the next (none: the last page),
 * from which the registrar builds the searchset Bundle with its self and next links; or, for a
 * search that renders its own JSON (Observation, per-code templates), that text. Asked to count
 * (`SearchContext.count`), no entries and the number of matches as `total`.
 */
export type SearchResult = { entries: SearchEntry[]; nextCursor?: string | null; total?: number } | { json: string };

/** What a read or vread answers: the resource, and its versionId (ETag) and last update (Last-Modified) where it has them. */
export interface ReadResult {
  resource: object;
  version?: number;
  /** Last-Modified (ISO instant); with it the ETag and Last-Modified are set before the body, and a read may answer 304. */
  lastModified?: string;
}

/** What a read function is given. */
export interface ReadContext {
  req: FastifyRequest;
  id: string;
  /** The version a vread asks for (undefined: a read). */
  vid?: number;
  caller: () => Caller;
  deps: GatewayDeps;
}

/** The OpenAPI words of one route; the summary and the error responses have defaults (register.ts). */
export interface RouteDoc {
  summary?: string;
  description: string;
  /** The non-200 responses (OperationOutcome schemas by status), when they differ from the default. */
  errors?: Record<number, z.ZodType>;
}

/** How an instance is read: its function, and the route's schemas where they differ from the defaults. */
export interface ReadDefinition extends RouteDoc {
  read: (ctx: ReadContext) => Promise<ReadResult>;
  /** The `:id` path parameter (default: a FHIR resource id). */
  params?: z.ZodType;
  /** The read's query (default: `_format` only, strict). */
  query?: z.ZodType;
  /** Whether If-None-Match with the current ETag answers 304 (conditionalRead in the statement). */
  conditional?: boolean;
}

/** What a create or update function is given: the body its schema parsed, the caller. */
export interface WriteContext<B> {
  req: FastifyRequest;
  body: B;
  caller: () => Caller;
  deps: GatewayDeps;
}

/** What an update function is given besides: the id in the URL and the version If-Match expects (required: 428 without). */
export interface UpdateContext<B> extends WriteContext<B> {
  id: string;
  expected: number | '*' | undefined;
}

/**
 * What a create answers: the resource and its id (Location), and its versionId where the resource
 * has a version of its own (then Location names that version and the ETag is set).
 */
export interface CreateResult {
  resource: object;
  id: string;
  version?: number;
}

/** What an update answers: the resource, its versionId (ETag) and its last update (Last-Modified). */
export interface UpdateResult {
  resource: object;
  version: number;
  lastModified: string;
}

/** The route words, guard and body schema of a create or update (the writes have guards of their own: write scopes). */
export interface WriteDefinitionOf<B extends z.ZodType> extends RouteDoc {
  auth: RouteAuth;
  body: B;
}

/** How an instance is created (`POST /<Type>`): its function over the domain service, typed by its body schema `B`. */
export interface CreateDefinitionOf<B extends z.ZodType> extends WriteDefinitionOf<B> {
  create: (ctx: WriteContext<z.infer<B>>) => Promise<CreateResult>;
}

/** How an instance is updated (`PUT /<Type>/:id`, If-Match required): its function, typed by its body schema `B`. */
export interface UpdateDefinitionOf<B extends z.ZodType> extends WriteDefinitionOf<B> {
  update: (ctx: UpdateContext<z.infer<B>>) => Promise<UpdateResult>;
}

/** A create as the registrar takes it (the body schema's type erased). */
export type CreateDefinition = CreateDefinitionOf<z.ZodType>;
/** An update as the registrar takes it (the body schema's type erased). */
export type UpdateDefinition = UpdateDefinitionOf<z.ZodType>;

/** A create, its function typed by its body schema; the registrar hands it the body that very schema parsed, so the erased one casts it back here, once. */
export function defineCreate<B extends z.ZodType>(def: CreateDefinitionOf<B>): CreateDefinition {
  return { ...def, create: (ctx) => def.create(ctx as WriteContext<z.infer<B>>) };
}

/** An update, its function typed by its body schema (as defineCreate). */
export function defineUpdate<B extends z.ZodType>(def: UpdateDefinitionOf<B>): UpdateDefinition {
  return { ...def, update: (ctx) => def.update(ctx as UpdateContext<z.infer<B>>) };
}

/** How the type is searched: the query (its registered parameters are the statement's), the function and the docs. */
export interface SearchDefinition<Q extends z.ZodObject> extends RouteDoc {
  query: Q;
  search: (ctx: SearchContext<z.infer<Q>>) => Promise<SearchResult>;
}

/** One resource type served at /fhir/R4 (resources/<Type>.ts), its search typed by its query schema `Q`. */
export interface FhirResourceDefinitionOf<Q extends z.ZodObject> {
  type: string;
  /** The route guard (the auth plugin's `config.auth`); none: public. */
  auth?: RouteAuth;
  /** The statement's interactions, in its order (each listed create and update needs its function below: register.ts checks). */
  interactions: FhirInteraction[];
  /** The response schemas: the resource and its searchset Bundle. */
  schema: z.ZodType;
  bundle: z.ZodType;
  supportedProfile?: string[];
  /** The statement's documentation of the type. */
  documentation?: string;
  searchInclude?: string[];
  /** The type-level operations (operations/<op>.ts) the statement lists under this type. */
  operations?: FhirOperationEntry[];
  read: ReadDefinition;
  /** The vread route's words, and its function where it is not the read's with `vid`. */
  vread?: RouteDoc & { read?: ReadDefinition['read'] };
  search: SearchDefinition<Q>;
  /** `POST /<Type>` (the interaction `create`). */
  create?: CreateDefinition;
  /** `PUT /<Type>/:id` (the interaction `update`; no create on update). */
  update?: UpdateDefinition;
}

/** A definition as the registrar and the statement take it (the query schema's type erased). */
export type FhirResourceDefinition = FhirResourceDefinitionOf<z.ZodObject>;

/**
 * A definition, its search function typed by its query schema. The registrar hands the search the
 * query that very schema parsed (fastify's validator), so the erased definition casts it back here, once.
 */
export function defineFhirResource<Q extends z.ZodObject>(def: FhirResourceDefinitionOf<Q>): FhirResourceDefinition {
  const search = def.search.search;
  return { ...def, search: { ...def.search, search: (ctx) => search(ctx as SearchContext<z.infer<Q>>) } };
}

/** The CapabilityStatement `rest.resource` entry of a definition. */
export function capabilityEntryOf(def: FhirResourceDefinition) {
  return {
    type: def.type,
    ...(def.supportedProfile ? { supportedProfile: def.supportedProfile } : {}),
    ...(def.documentation ? { documentation: def.documentation } : {}),
    interaction: def.interactions.map((code) => ({ code })),
    ...(def.interactions.includes('vread') ? { versioning: 'versioned', readHistory: true } : {}),
    ...(def.interactions.includes('update') ? { updateCreate: false } : {}),
    ...(def.read.conditional ? { conditionalRead: 'not-match' } : {}),
    searchParam: searchParamsOf(def.search.query),
    ...(def.searchInclude ? { searchInclude: def.searchInclude } : {}),
    ...(def.operations ? { operation: def.operations } : {}),
  };
}
