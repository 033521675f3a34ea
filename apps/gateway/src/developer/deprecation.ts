/**
 * Deprecation headers (spec section 9): a route with `config.deprecation` answers with
 *   Deprecation: @<unix seconds>                      (RFC 9745, a structured-field date)
 *   Sunset: Fri, 31 Dec 2027 23:59:59 GMT             (RFC 8594, an HTTP-date)
 *   Link: <{base}/developers#deprecation>; rel="deprecation", <{base}{replacement}>; rel="successor-version"
 * on every response, errors included, so a client notices whichever answer it gets.
 */
import type { FastifyReply, FastifyRequest, onSendHookHandler, RouteOptions } from 'fastify';
import type { RouteDeprecation } from './route-meta';

export const DEPRECATION_ANCHOR = '/developers#deprecation';

export function deprecationHeader(since: string): string {
  return `@${Math.floor(Date.parse(since) / 1000)}`;
}

export function sunsetHeader(sunset: string): string {
  return new Date(sunset).toUTCString();
}

export function deprecationLinks(baseUrl: string, d: RouteDeprecation): string {
  return `<${baseUrl}${DEPRECATION_ANCHOR}>; rel="deprecation", <${baseUrl}${d.replacement}>; rel="successor-version"`;
}

/** Refuses metadata that would emit malformed headers: a typo must fail at start, not in a client. */
export function assertDeprecation(url: string, d: RouteDeprecation): void {
  const since = Date.parse(d.since);
  const sunset = Date.parse(d.sunset);
  if (Number.isNaN(since) || Number.isNaN(sunset)) throw new Error(`route ${url}: deprecation since/sunset must be ISO 8601 dates`);
  if (sunset <= since) throw new Error(`route ${url}: the sunset must come after the deprecation`);
  if (!d.replacement.startsWith('/')) throw new Error(`route ${url}: deprecation.replacement must be a path`);
}

/** Adds the headers hook to a deprecated route's own onSend list (from an onRoute hook). */
export function attachDeprecationHeaders(route: RouteOptions, baseUrl: () => string): void {
  const d = route.config?.deprecation;
  if (!d) return;
  assertDeprecation(route.url, d);
  const deprecation = deprecationHeader(d.since);
  const sunset = sunsetHeader(d.sunset);
  const hook: onSendHookHandler = async (_req: FastifyRequest, reply: FastifyReply, payload) => {
    reply.header('deprecation', deprecation);
    reply.header('sunset', sunset);
    const links = deprecationLinks(baseUrl(), d);
    const existing = reply.getHeader('link');
    if (typeof existing !== 'string' || !existing.includes('rel="deprecation"')) {
      reply.header('link', existing ? `${String(existing)}, ${links}` : links);
    }
    return payload;
  };
  const own = route.onSend;
  route.onSend = own ? [...(Array.isArray(own) ? own : [own]), hook] : [hook];
}
