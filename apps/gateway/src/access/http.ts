/** Route helpers shared by the event-sourced features: the caller, problem schemas, cursors. */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '@vitalis/http';
import type { Caller } from './caller';

export function callerOf(req: FastifyRequest): Caller {
  return { principal: req.principal!, requestId: req.id, ip: req.ip };
}

// The document's `Problem` component (developer/openapi.ts publishes PROBLEM_SCHEMA under this id).
export const problem = z.looseObject({ type: z.string(), title: z.string(), status: z.number().int(), detail: z.string() }).meta({ id: 'Problem', description: 'RFC 9457 problem' });
export const problems = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, problem]));

/** Opaque keyset cursor: base64url JSON of the last row's sort key. */
export const encodeKey = (key: Record<string, string>) => Buffer.from(JSON.stringify(key)).toString('base64url');
export function decodeKey<K extends string>(text: string | undefined, keys: K[]): Record<K, string> | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (keys.every((k) => typeof v[k] === 'string')) return v as Record<K, string>;
  } catch {
    /* fall through */
  }
  throw badRequest('The cursor is invalid.', { errors: [{ path: 'querystring.cursor', message: 'invalid cursor' }] });
}
