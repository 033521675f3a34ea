/**
 * The typed request core. `paths` is generated from the gateway's OpenAPI document, so a call's
 * path, path parameters, query, JSON body and success body are all checked against the real API:
 * `api.request('get', '/api/v1/patients/{id}/vitals/latest', { path: { id } })`.
 */
import type { paths } from './generated/openapi';
import { errorFromResponse } from './errors';
import type { TokenSource } from './auth';

/** The empty object type: `Empty extends T` holds when T has no required property (so the argument may be left out). */
export type Empty = Record<never, never>;

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? Exclude<O, undefined> : never;
/** Every path that has an operation for this method. */
export type PathsFor<M extends Method> = { [P in keyof paths]: [Operation<P, M>] extends [never] ? never : P }[keyof paths];

type Parameters<O> = O extends { parameters: infer X } ? X : Record<string, never>;
type Part<O, K extends string> = Parameters<O> extends Partial<Record<K, infer V>> ? Exclude<V, undefined> : never;
type JsonOf<C> = C extends { content: { 'application/json': infer B } }
  ? B
  : C extends { content: { 'application/problem+json': infer B } }
    ? B
    : undefined;
type RequestBody<O> = O extends { requestBody?: infer R } ? JsonOf<Exclude<R, undefined>> : never;
/** The JSON body of the operation's 2xx responses. */
export type SuccessBody<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 ? JsonOf<R[S]> : S extends 204 ? undefined : never }[keyof R]
  : never;

type Opt<K extends string, T> = [T] extends [never] ? { [P in K]?: never } : Empty extends T ? { [P in K]?: T } : { [P in K]: T };
export type RequestOptions<O> = Opt<'path', Part<O, 'path'>> &
  Opt<'query', Part<O, 'query'>> &
  Opt<'body', RequestBody<O>> & { headers?: Record<string, string>; signal?: AbortSignal };

export type ResponseOf<P extends keyof paths, M extends Method> = SuccessBody<Operation<P, M>>;

export interface TransportOptions {
  baseUrl: string;
  auth?: TokenSource;
  fetch?: typeof fetch;
  /**
   * Called for every answer that carries a `Deprecation` or `Sunset` header (RFC 9745 / RFC 8594):
   * the endpoint still works but has a successor (`link`, rel="deprecation" or "successor-version").
   */
  onDeprecation?: (notice: DeprecationNotice) => void;
}

export interface DeprecationNotice {
  method: string;
  url: string;
  deprecation: string | null;
  sunset: string | null;
  link: string | null;
}

export class Transport {
  readonly baseUrl: string;
  readonly auth?: TokenSource;
  private readonly fetchFn: typeof fetch;
  constructor(private readonly opts: TransportOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.auth = opts.auth;
    this.fetchFn = opts.fetch ?? ((input, init) => fetch(input, init));
  }

  /** Any operation of the API, typed from the OpenAPI document. */
  async request<M extends Method, P extends PathsFor<M>>(
    method: M,
    path: P,
    ...[options]: Empty extends RequestOptions<Operation<P, M>> ? [RequestOptions<Operation<P, M>>?] : [RequestOptions<Operation<P, M>>]
  ): Promise<ResponseOf<P, M>> {
    const o = (options ?? {}) as {
      path?: Record<string, string | number>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    };
    const res = await this.send(method.toUpperCase(), buildUrl(this.baseUrl, path as string, o.path, o.query), o.body, o.headers, o.signal);
    if (res.status === 204) return undefined as ResponseOf<P, M>;
    const type = res.headers.get('content-type') ?? '';
    return (type.includes('json') ? await res.json() : await res.text()) as ResponseOf<P, M>;
  }

  /** A raw authenticated fetch (retries once with a fresh token after a 401); throws typed errors on non-2xx. */
  async send(method: string, url: string, body?: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    const attempt = async (): Promise<Response> => {
      const h: Record<string, string> = { accept: 'application/json', ...headers };
      if (body !== undefined) h['content-type'] = 'application/json';
      if (this.auth) h.authorization = `Bearer ${await this.auth.token()}`;
      return this.fetchFn(url, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), signal });
    };
    let res = await attempt();
    if (res.status === 401 && this.auth) {
      // An expired or revoked token: fetch a new one once; a second 401 is the caller's problem.
      await res.body?.cancel();
      this.auth.invalidate();
      res = await attempt();
    }
    if (this.opts.onDeprecation && (res.headers.has('deprecation') || res.headers.has('sunset'))) {
      this.opts.onDeprecation({
        method,
        url,
        deprecation: res.headers.get('deprecation'),
        sunset: res.headers.get('sunset'),
        link: res.headers.get('link'),
      });
    }
    if (!res.ok) throw await errorFromResponse(res);
    return res;
  }
}

export function buildUrl(
  baseUrl: string,
  template: string,
  pathParams: Record<string, string | number> = {},
  query: Record<string, unknown> = {},
): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = pathParams[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
  const url = new URL(baseUrl + path);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    url.searchParams.set(k, Array.isArray(v) ? v.join(',') : v instanceof Date ? v.toISOString() : String(v));
  }
  return url.toString();
}
