/**
 * What every FHIR reply shares (the gateway's /fhir/R4 routes, and its REST routes that answer
 * FHIR JSON): format negotiation (JSON only), the FHIR reply (media type, no caching), weak ETags
 * of versionIds and If-None-Match, and the `next` link of a search page (the query as given, the
 * cursor replaced), which the REST listings use too. The `_format` and `_cursor` query parameters'
 * schemas are the gateway's (fhir/search-params.ts), over `FHIR_JSON_FORMATS`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FHIR_JSON } from './operation-outcome';
import { problemOf } from './problem';

// ---------------------------------------------------------------------------------------------
// Formats: JSON only

/** The `_format` values that mean FHIR JSON, the only format served. */
export const FHIR_JSON_FORMATS = ['json', 'application/json', 'application/fhir+json', 'application/json+fhir'] as const;
const JSON_FORMATS = new Set<string>(FHIR_JSON_FORMATS);
const ACCEPTABLE = new Set([...JSON_FORMATS, '*/*', 'application/*']);

/** `_format` (any value but JSON) and `Accept` (nothing JSON-like acceptable): 406 not-supported. */
export function negotiateFormat(req: FastifyRequest): void {
  const query = new URLSearchParams(req.url.split('?')[1] ?? '');
  for (const f of query.getAll('_format')) {
    if (!JSON_FORMATS.has(f.trim().toLowerCase()))
      throw problemOf('not-acceptable', `_format=${f} is not supported: this server speaks FHIR JSON only (_format=json).`);
  }
  const accept = req.headers.accept;
  if (!accept || query.has('_format')) return;
  const ranges = accept.split(',').map((r) =>
    r
      .replace(/;[\s\S]*/, '')
      .trim()
      .toLowerCase(),
  ); // the media range before its parameters
  if (!ranges.some((r) => ACCEPTABLE.has(r)))
    throw problemOf('not-acceptable', `Accept: ${accept} is not supported: this server answers application/fhir+json only.`);
}

/** The reply as FHIR JSON (`application/fhir+json`), never cached. */
export const fhirReply = (reply: FastifyReply) => reply.type(FHIR_JSON).header('cache-control', 'no-store');

/** An ETag `W/"<version>"` (FHIR versionId) and whether If-None-Match names it. */
export const weakEtag = (version: number) => `W/"${version}"`;
/** Whether the request's If-None-Match names this version (weak or strong) or `*`: then a 304. */
export function notModified(req: FastifyRequest, version: number): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t === weakEtag(version) || t === `"${version}"`);
}

/**
 * The next page's URL: this search's parameters as given (repeated ones repeated), the cursor
 * parameter replaced. FHIR searches name it `_cursor`; the REST v1 listings name it `cursor`.
 */
export function nextPageUrl(searchUrl: string, query: Record<string, unknown>, nextCursor: string, cursorParam = '_cursor'): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (k === cursorParam || v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
  }
  params.set(cursorParam, nextCursor);
  return `${searchUrl}?${params}`;
}
