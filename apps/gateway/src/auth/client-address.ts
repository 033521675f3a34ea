/**
 * The client address every per-address limit counts by (login throttling, request rate limits):
 * `req.ip`: the socket's address, or behind the proxies TRUST_PROXY names the client's address from
 * X-Forwarded-For (the right-most one not a trusted hop: fastify's `trustProxy`), normalised
 * by @fastify/rate-limit's `normalizeIP`, so an IPv4-mapped IPv6 address is its IPv4 address and
 * an IPv6 /64 (what one subscriber usually holds) counts as one address.
 */
import type { FastifyRequest } from 'fastify';
import { normalizeIP } from '@fastify/rate-limit';

export const IPV6_SUBNET = 64;

export function clientAddress(req: Pick<FastifyRequest, 'ip'>): string {
  return normalizeIP(req.ip, IPV6_SUBNET);
}
