/**
 * The one owner of outbound fetches of JSON Web Key Sets: a client's registered `jwks_uri`
 * (private_key_jwt) and a TRUSTED_ISSUERS entry's `jwks_uri` (token exchange). Both are URLs a
 * caller or an operator supplies, so every fetch is a server-side request forgery risk. The rules:
 *
 * - `https` only, no credentials or fragment in the URL;
 * - the host's addresses must be public unicast (ipaddr.js classification): no loopback, private
 *   (RFC 1918), CGNAT (RFC 6598), unique-local (fc00::/7, which holds fd00:ec2::254), link-local
 *   (169.254/16 with 169.254.169.254, fe80::/10), multicast, broadcast, unspecified, reserved,
 *   and no IPv6 form embedding any of those (IPv4-mapped, NAT64, 6to4, Teredo);
 * - the check is made on THE ADDRESS CONNECTED TO: a literal IP is checked before the request, a
 *   DNS name is resolved by our own `lookup`, which refuses the answer when any address is
 *   forbidden and otherwise hands the checked addresses to the socket (no second resolution, so a
 *   DNS answer that changes between check and connect changes nothing);
 * - no redirects (anything but 200 is a failure), at most KEY_SET_MAX_BYTES, at most
 *   KEY_SET_TIMEOUT_MS for the whole exchange;
 * - a bounded cache: an LRU of KEY_SET_CACHE_ENTRIES key sets, each fresh for
 *   KEY_SET_CACHE_MAX_AGE_MS; an unknown `kid` reloads a set at most once per cool-down, and a
 *   failed fetch is not retried for a cool-down either, so no request can cause a fetch per request.
 *
 * Callers must have checked the JWT's header and claims before asking for its keys (auth/jwt-checks.ts).
 * The same rules (fetchPublicDocument, RemoteKeySets.fetchDocument) fetch a client's Client ID
 * Metadata Document (auth/client-metadata-document.ts), with that document's own size limit.
 * Test-only escape hatches (refused in production by config.ts): hosts exempt from the address
 * check (JWKS_FETCH_ALLOW_HOSTS) and an extra trusted CA (JWKS_FETCH_CA_FILE).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Logger } from '@vitalis/log';

export const KEY_SET_MAX_BYTES = 64 * 1024;
export const KEY_SET_TIMEOUT_MS = 3_000;
export const KEY_SET_CACHE_ENTRIES = 1_000;
export const KEY_SET_CACHE_MAX_AGE_MS = 10 * 60_000;
export const KEY_SET_COOLDOWN_MS = 30_000;

export interface KeySetFetchPolicy {
  /** Hosts (lower-case, IPv6 without brackets) exempt from the address check. Test only. */
  allowHosts: ReadonlySet<string>;
  /** Extra trusted CA certificates (PEM). Test only. */
  ca?: string;
  /** How long an unknown kid or a failed fetch waits before the next fetch of the same URL. */
  cooldownMs: number;
}

/** A fetch refused or failed; `reason` is for the log (no secrets: a URL of key sets holds none). */
export class KeySetFetchError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'KeySetFetchError';
  }
}

/** The hostname as a lookup key: lower-case, IPv6 literals without their brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Public unicast only; IPv4-mapped IPv6 is judged as the IPv4 address it carries. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * Names that never denote a public host, whatever DNS says: `localhost` and its subdomains (RFC
 * 6761 §6.3), the link-local and site-internal suffixes (mDNS `.local`, `.internal` as in
 * `metadata.google.internal`, `home.arpa`, `.localdomain`, `.lan`, `.intranet`, `.corp`,
 * `.private`, `.home`, `.arpa` reverse names, `.invalid`), and single-label names (resolved through
 * the server's search domains, i.e. inside its network). A trailing dot (`localhost.`, the
 * fully-qualified spelling) changes nothing.
 */
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'intranet',
  'lan',
  'corp',
  'private',
  'home',
  'arpa',
  'invalid',
];

export function isInternalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (!name.includes('.')) return true;
  return INTERNAL_SUFFIXES.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/**
 * THE rule for a key-set URL, at registration (clients.ts), in configuration (TRUSTED_ISSUERS) and
 * before every fetch: https, no credentials or fragment, a literal IP host must be public and a
 * DNS name must not be a loopback, link-local or internal name (isInternalName). What a public
 * name resolves to is checked again on the address connected to, at fetch time. Returns the
 * problem, or undefined when the URL may be fetched.
 */
export function keySetUriProblem(uri: string, allowHosts: ReadonlySet<string> = new Set()): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (url.username || url.password) return 'must not contain credentials';
  if (url.hash || uri.includes('#')) return 'must not contain a fragment';
  const host = bareHost(url);
  if (allowHosts.has(host)) return undefined;
  if (isIP(host) !== 0 && !isPublicAddress(host)) return 'must not name a loopback, private, link-local or otherwise non-public address';
  if (isIP(host) === 0 && isInternalName(host)) return 'must not name a loopback, link-local or internal host name';
  return undefined;
}

/**
 * A `lookup` for the socket: resolves every address, refuses the answer if any is not public,
 * and connects only to what it checked.
 */
const publicOnlyLookup = ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
  dnsLookup(hostname, { family: options.family ?? 0, all: true }, (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
    if (err) return callback(err);
    const forbidden = addresses.find((a) => !isPublicAddress(a.address));
    const [first] = addresses;
    if (first === undefined || forbidden) {
      return callback(new KeySetFetchError(`${hostname} resolves to a non-public address${forbidden ? ` (${forbidden.address})` : ''}`));
    }
    if (options.all) return callback(null, addresses);
    return callback(null, first.address, first.family);
  });
}) as unknown as LookupFunction;

/** What one fetch accepts: the Accept header, the largest body, and what the URL is called in errors. */
export interface DocumentFetchLimits {
  accept: string;
  maxBytes: number;
  /** The URL's name in error messages (`jwks_uri`, `client_id`). */
  label: string;
}

/** A 200 answer: its body and headers (Content-Type, Cache-Control for the caller to judge). */
export interface FetchedDocument {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

const KEY_SET_LIMITS: DocumentFetchLimits = {
  accept: 'application/jwk-set+json, application/json',
  maxBytes: KEY_SET_MAX_BYTES,
  label: 'jwks_uri',
};

/** One GET of a key-set document under every rule above; resolves to the body of a 200 answer. */
export async function fetchKeySetDocument(uri: string, policy: Pick<KeySetFetchPolicy, 'allowHosts' | 'ca'>): Promise<Buffer> {
  return (await fetchPublicDocument(uri, policy, KEY_SET_LIMITS)).body;
}

/**
 * One GET of a caller-supplied URL under every rule above (https, public addresses checked on the
 * address connected to, no redirects, the size limit, KEY_SET_TIMEOUT_MS); resolves to a 200 answer.
 */
export function fetchPublicDocument(
  uri: string,
  policy: Pick<KeySetFetchPolicy, 'allowHosts' | 'ca'>,
  limits: DocumentFetchLimits,
): Promise<FetchedDocument> {
  const problem = keySetUriProblem(uri, policy.allowHosts);
  if (problem) return Promise.reject(new KeySetFetchError(`${limits.label} ${problem}`));
  const url = new URL(uri);
  const exempt = policy.allowHosts.has(bareHost(url));
  return new Promise<FetchedDocument>((resolve, reject) => {
    let settled = false;
    /** Settles once: with a 200 answer, or with the error. */
    const finish = (outcome: Error | FetchedDocument) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (outcome instanceof Error) {
        req.destroy();
        reject(outcome instanceof KeySetFetchError ? outcome : new KeySetFetchError(outcome.message));
      } else resolve(outcome);
    };
    const tooLarge = () => new KeySetFetchError(`is larger than ${limits.maxBytes} bytes`);
    const req = request(
      url,
      {
        method: 'GET',
        agent: false,
        headers: { accept: limits.accept },
        ...(exempt ? {} : { lookup: publicOnlyLookup }),
        ...(policy.ca ? { ca: policy.ca } : {}),
      },
      (res) => {
        if (res.statusCode !== 200)
          return finish(new KeySetFetchError(`answered ${res.statusCode} (only 200 is accepted; redirects are not followed)`));
        if (Number(res.headers['content-length'] ?? 0) > limits.maxBytes) return finish(tooLarge());
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) return finish(tooLarge());
          chunks.push(chunk);
        });
        res.on('end', () => finish({ body: Buffer.concat(chunks), headers: res.headers }));
        res.on('error', (err) => finish(err));
      },
    );
    const deadline = setTimeout(() => finish(new KeySetFetchError(`took longer than ${KEY_SET_TIMEOUT_MS} ms`)), KEY_SET_TIMEOUT_MS);
    req.on('error', (err) => finish(err));
    req.end();
  });
}

interface Entry {
  getKey: JWTVerifyGetKey;
  /** When the last fetch of this URL failed; no new fetch before the cool-down has passed. */
  failedAt?: number;
}

/**
 * Key sets by URL for jose's jwtVerify/compactVerify, one per gateway. jose's remote set gives the
 * freshness and unknown-kid cool-down; the fetch is ours; the LRU bounds how many are held.
 */
export class RemoteKeySets {
  private readonly entries = new LRUCache<string, Entry>({ max: KEY_SET_CACHE_ENTRIES });

  constructor(
    private readonly policy: KeySetFetchPolicy,
    private readonly logger?: Logger,
  ) {}

  /** Hosts exempt from the address check (registration applies the same exemption). */
  get allowHosts(): ReadonlySet<string> {
    return this.policy.allowHosts;
  }

  /** One document under this gateway's fetch policy (the same exemptions and CA as the key sets). */
  fetchDocument(uri: string, limits: DocumentFetchLimits): Promise<FetchedDocument> {
    return fetchPublicDocument(uri, this.policy, limits);
  }

  /** The key resolver for a URL; throws KeySetFetchError (without any fetch) for a URL the rules refuse. */
  forUri(uri: string): JWTVerifyGetKey {
    const problem = keySetUriProblem(uri, this.policy.allowHosts);
    if (problem) throw new KeySetFetchError(`jwks_uri ${problem}`);
    const href = new URL(uri).href;
    const cached = this.entries.get(href);
    if (cached) return cached.getKey;
    const entry: Entry = {
      getKey: createRemoteJWKSet(new URL(href), {
        timeoutDuration: KEY_SET_TIMEOUT_MS,
        cooldownDuration: this.policy.cooldownMs,
        cacheMaxAge: KEY_SET_CACHE_MAX_AGE_MS,
        [customFetch]: () => this.fetch(href, entry),
      }),
    };
    this.entries.set(href, entry);
    return entry.getKey;
  }

  private async fetch(href: string, entry: Entry): Promise<Response> {
    if (entry.failedAt !== undefined && Date.now() - entry.failedAt < this.policy.cooldownMs) {
      throw new KeySetFetchError('the last fetch failed; waiting for the cool-down');
    }
    try {
      const body = await fetchKeySetDocument(href, this.policy);
      entry.failedAt = undefined;
      return new Response(new Uint8Array(body), { status: 200, headers: { 'content-type': 'application/json' } });
    } catch (err) {
      entry.failedAt = Date.now();
      const host = new URL(href).host;
      this.logger?.warn({ jwksHost: host, reason: err instanceof Error ? err.message : String(err) }, 'key set fetch refused or failed');
      throw err;
    }
  }
}

/** JWKS_FETCH_ALLOW_HOSTS: comma-separated hosts, IPv6 with or without brackets. */
export function parseAllowHosts(raw: string): Set<string> {
  return new Set(
    raw
      .split(',')
      .map((h) =>
        h
          .trim()
          .replace(/^\[(.*)\]$/, '$1')
          .toLowerCase(),
      )
      .filter(Boolean),
  );
}

/** The fetch policy from the gateway's settings (reads the CA file once, at start). */
export function keySetFetchPolicy(settings: {
  JWKS_FETCH_ALLOW_HOSTS: string;
  JWKS_FETCH_CA_FILE?: string | undefined;
  JWKS_FETCH_COOLDOWN_SECONDS: number;
}): KeySetFetchPolicy {
  return {
    allowHosts: parseAllowHosts(settings.JWKS_FETCH_ALLOW_HOSTS),
    ...(settings.JWKS_FETCH_CA_FILE ? { ca: readFileSync(settings.JWKS_FETCH_CA_FILE, 'utf8') } : {}),
    cooldownMs: settings.JWKS_FETCH_COOLDOWN_SECONDS * 1000,
  };
}
