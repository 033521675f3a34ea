/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; the registration the
 * MCP authorization specification of 2025-11-25 recommends): a `client_id` that is an https URL
 * names a JSON document holding the client's metadata, which this server fetches when the client
 * comes to /authorize or /token, instead of the client registering first (RFC 7591 stays as the
 * fallback, registration.ts).
 *
 * The URL must be https, with a non-root path, no query, fragment, credentials or dot segments, and
 * in the canonical form the URL parser gives it; it is fetched under THE outbound-fetch rules of
 * ../remote-key-sets.ts (public addresses only, checked on the address connected to; no redirects;
 * CLIENT_DOCUMENT_MAX_BYTES; the time limit; the same test-only exemptions, refused in production).
 * The answer must be `application/json`, its `client_id` exactly the URL, and it must not carry a
 * client secret, a shared-secret authentication method or a software statement. Its metadata then
 * passes the same checks as a registration (clients.ts checkRegistration), as a client nobody vouches
 * for: open registration's role (none: the public scopes; the rest waits for an operator, who may
 * approve the client with a role like any other, docs/adr/0008). The first use stores and audits the
 * client (`client.registered`, as registration does); later fetches refresh its metadata only.
 *
 * A good document is trusted for its Cache-Control max-age, bounded to [CLIENT_DOCUMENT_MIN_TTL_SECONDS,
 * CLIENT_DOCUMENT_MAX_TTL_SECONDS]; a refused or failed one is not fetched again for
 * CLIENT_DOCUMENT_COOLDOWN_SECONDS. Both marks live in Redis, so every gateway shares them and no
 * request can cause a fetch per request.
 */
import { createHash } from 'node:crypto';
import type { Pool } from '@vitalis/db';
import type { Redis } from '@vitalis/redis';
import { findClient, registrationRequestSchema, storeClient, type Client } from './clients';
import { OAuthError } from './oauth-errors';
import { auditClientRefused, auditClientRegistered } from './registration-audit';
import { KeySetFetchError, keySetUriProblem, type RemoteKeySets } from '../remote-key-sets';

/** The draft suggests 5 kilobytes as a limit on a document's size. */
export const CLIENT_DOCUMENT_MAX_BYTES = 5 * 1024;
export const CLIENT_DOCUMENT_MAX_URL_LENGTH = 2000;
export const CLIENT_DOCUMENT_DEFAULT_TTL_SECONDS = 300;
export const CLIENT_DOCUMENT_MIN_TTL_SECONDS = 60;
export const CLIENT_DOCUMENT_MAX_TTL_SECONDS = 24 * 3600;
export const CLIENT_DOCUMENT_COOLDOWN_SECONDS = 30;

/** Authentication methods built on a shared secret: a document is public, so it can hold none. */
const SHARED_SECRET_METHODS = ['client_secret_basic', 'client_secret_post', 'client_secret_jwt'];

/** What resolving a client needs: the store, the shared freshness marks, and the outbound fetch. */
export interface ClientSources {
  pool: Pool;
  redis: Redis;
  keySets: RemoteKeySets;
}

/** Where a lookup came from, for the audit row of a first use or a refusal. */
export interface LookupOrigin {
  requestId?: string;
  ip?: string;
}

const refused = (description: string) => new OAuthError(400, 'invalid_client_metadata', description);

/** A client_id that is meant as a Client ID Metadata Document URL (registered ids are `cli_…`, `sbx_…`). */
export const isDocumentClientId = (clientId: string): boolean => clientId.startsWith('https://');

/**
 * The draft's rules for the URL itself (§3), then the outbound-fetch rules for its host. Returns
 * the problem, or undefined when the URL may be fetched.
 */
export function documentUrlProblem(clientId: string, allowHosts: ReadonlySet<string>): string | undefined {
  if (clientId.length > CLIENT_DOCUMENT_MAX_URL_LENGTH) return `is longer than ${CLIENT_DOCUMENT_MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not an absolute URL';
  }
  if (/\/\.{1,2}(\/|$)/.test(clientId)) return 'must not contain dot segments';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path';
  if (url.search || clientId.includes('?')) return 'must not have a query';
  // Exact string comparison is how the document's client_id is matched: only the canonical spelling.
  if (url.href !== clientId) return `must be written in its canonical form (${url.href})`;
  return keySetUriProblem(clientId, allowHosts);
}

/** Cache-Control's max-age (no-store and no-cache: the minimum), bounded; the default without one. */
export function documentTtlSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '').toLowerCase();
  if (/(^|[\s,])(no-store|no-cache)([\s,=]|$)/.test(directives)) return CLIENT_DOCUMENT_MIN_TTL_SECONDS;
  const maxAge = /(^|[\s,])max-age=(\d+)/.exec(directives)?.[2];
  const seconds = maxAge === undefined ? CLIENT_DOCUMENT_DEFAULT_TTL_SECONDS : Number(maxAge);
  return Math.min(Math.max(seconds, CLIENT_DOCUMENT_MIN_TTL_SECONDS), CLIENT_DOCUMENT_MAX_TTL_SECONDS);
}

/**
 * A fetched document read as registration metadata: JSON served as JSON, `client_id` exactly the
 * URL, no secret, no shared-secret method, no software statement. `token_endpoint_auth_method`
 * defaults to `none` (a document describes a public client unless it names its keys), and
 * `client_name` to the URL's host. Throws invalid_client_metadata.
 */
export function readDocument(clientId: string, body: Buffer, contentType: string | undefined) {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') throw refused(`the document is served as ${mediaType || 'nothing'}, not application/json`);
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw refused('the document is not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw refused('the document is not a JSON object');
  const metadata = doc as Record<string, unknown>;
  if (metadata.client_id !== clientId) throw refused('the document names a different client_id than the URL it was fetched from');
  if ('client_secret' in metadata || 'client_secret_expires_at' in metadata) throw refused('the document must not hold a client secret');
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (typeof method === 'string' && SHARED_SECRET_METHODS.includes(method))
    throw refused(
      `token_endpoint_auth_method ${method} needs a shared secret, which a public document cannot hold (use none or private_key_jwt)`,
    );
  if ('software_statement' in metadata) throw refused('a software statement is not accepted in a client ID metadata document');
  const parsed = registrationRequestSchema.safeParse({
    ...metadata,
    client_name: metadata.client_name ?? new URL(clientId).host,
    token_endpoint_auth_method: method,
  });
  if (!parsed.success) throw refused(`the document's metadata is invalid: ${parsed.error.issues[0]?.message ?? 'unreadable'}`);
  return parsed.data;
}

/** The Redis keys of one URL: fresh until, and refused until. */
const marks = (clientId: string) => {
  const id = createHash('sha256').update(clientId).digest('base64url');
  return { fresh: `vitalis:client-document:fresh:${id}`, refused: `vitalis:client-document:refused:${id}` };
};

/** Reads a mark; a Redis failure reads as absent (the fetch rules still hold, only the cache is lost). */
async function hasMark(redis: Redis, key: string): Promise<boolean> {
  try {
    return (await redis.exists(key)) === 1;
  } catch {
    return false;
  }
}

async function setMark(redis: Redis, key: string, seconds: number): Promise<void> {
  try {
    await redis.set(key, '1', 'EX', seconds);
  } catch {
    // Without the mark the next request fetches again, under the same rules.
  }
}

/**
 * The client a `client_id` names: a registered client, or the client a Client ID Metadata Document
 * URL describes (fetched when not fresh, stored, audited on first use). Undefined when there is no
 * such client, the URL is refused, or its document is refused or unreachable (audited with the
 * reason; the caller answers as for an unknown client).
 */
export async function resolveClient(src: ClientSources, clientId: string, origin: LookupOrigin = {}): Promise<Client | undefined> {
  if (!isDocumentClientId(clientId)) return findClient(src.pool, clientId);
  // The URL rules first, every time: a mark another gateway set never bypasses this one's policy.
  const problem = documentUrlProblem(clientId, src.keySets.allowHosts);
  if (problem) return refuse(src.pool, clientId, origin, 'invalid_client_id', `client_id ${problem}`);
  const mark = marks(clientId);
  if (await hasMark(src.redis, mark.fresh)) {
    const known = await findClient(src.pool, clientId);
    if (known) return known;
  }
  if (await hasMark(src.redis, mark.refused)) return undefined;
  try {
    await fetchAndStore(src, clientId, origin, mark.fresh);
  } catch (err) {
    if (!(err instanceof OAuthError || err instanceof KeySetFetchError)) throw err;
    await setMark(src.redis, mark.refused, CLIENT_DOCUMENT_COOLDOWN_SECONDS);
    if (err instanceof KeySetFetchError) return refuse(src.pool, clientId, origin, 'fetch_failed', `the document ${err.reason}`);
    return refuse(src.pool, clientId, origin, err.code, err.description);
  }
  return findClient(src.pool, clientId);
}

/** One fetch of the document, read and stored; the fresh mark set for its cache lifetime. */
async function fetchAndStore(src: ClientSources, clientId: string, origin: LookupOrigin, freshKey: string): Promise<void> {
  const fetched = await src.keySets.fetchDocument(clientId, {
    accept: 'application/json',
    maxBytes: CLIENT_DOCUMENT_MAX_BYTES,
    label: 'client_id',
  });
  const request = readDocument(clientId, fetched.body, fetched.headers['content-type']);
  const authority = { registration: 'open', role: null } as const;
  const stored = await storeClient(src.pool, request, authority, { clientId, jwksAllowHosts: src.keySets.allowHosts });
  if (stored.inserted)
    await auditClientRegistered(src.pool, stored.response, { registration: 'client_id_metadata_document', role: null }, origin);
  await setMark(src.redis, freshKey, documentTtlSeconds(fetched.headers['cache-control']));
}

/** A refused document client, audited as a refused registration is; answers undefined (unknown client). */
async function refuse(pool: Pool, clientId: string, origin: LookupOrigin, error: string, reason: string): Promise<undefined> {
  await auditClientRefused(pool, { clientId, error, reason, registration: 'client_id_metadata_document' }, origin);
  return undefined;
}
