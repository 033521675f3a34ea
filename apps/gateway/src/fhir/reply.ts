/**
 * What every /fhir/R4 route shares: format negotiation (JSON only), the FHIR reply (media type, no
 * caching), weak ETags of versionIds and If-None-Match, the `_format` and `_cursor` query
 * parameters, and the `next` link of a search page (the query as given, the cursor replaced).
 */
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FHIR_JSON, HttpProblem } from '@vitalis/http';

// ---------------------------------------------------------------------------------------------
// Formats: JSON only

const FORMATS = ['json', 'application/json', 'application/fhir+json', 'application/json+fhir'] as const;
const JSON_FORMATS = new Set<string>(FORMATS);
const ACCEPTABLE = new Set([...JSON_FORMATS, '*/*', 'application/*']);

/** `_format` (any value but JSON) and `Accept` (nothing JSON-like acceptable): 406 not-supported. */
export function negotiateFormat(req: FastifyRequest): void {
  const query = new URLSearchParams(req.url.split('?')[1] ?? '');
  for (const f of query.getAll('_format')) {
    if (!JSON_FORMATS.has(f.trim().toLowerCase())) throw new HttpProblem(406, 'not-acceptable', 'Not Acceptable', `_format=${f} is not supported: this server speaks FHIR JSON only (_format=json).`);
  }
  const accept = req.headers.accept;
  if (!accept || query.has('_format')) return;
  const ranges = accept.split(',').map((r) => r.split(';')[0]!.trim().toLowerCase());
  if (!ranges.some((r) => ACCEPTABLE.has(r))) throw new HttpProblem(406, 'not-acceptable', 'Not Acceptable', `Accept: ${accept} is not supported: this server answers application/fhir+json only.`);
}

export const fhirReply = (reply: FastifyReply) => reply.type(FHIR_JSON).header('cache-control', 'no-store');

// Published as what it is, an enumeration (the onRequest hook answers any other value 406 first;
// case and surrounding spaces are forgiven, as there).
export const format = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(FORMATS)).optional().describe('json (the only format), or a JSON media type');
export const cursor = z.string().max(1_024).optional().describe('Opaque position of the next page (from Bundle.link next)');

/** An ETag `W/"<version>"` (FHIR versionId) and whether If-None-Match names it. */
export const weakEtag = (version: number) => `W/"${version}"`;
export function notModified(req: FastifyRequest, version: number): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').map((t) => t.trim()).some((t) => t === '*' || t === weakEtag(version) || t === `"${version}"`);
}

/** The next page's URL: this search's parameters as given (repeated ones repeated), `_cursor` replaced. */
export function nextPageUrl(searchUrl: string, query: Record<string, unknown>, nextCursor: string): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (k === '_cursor' || v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
  }
  params.set('_cursor', nextCursor);
  return `${searchUrl}?${params}`;
}
