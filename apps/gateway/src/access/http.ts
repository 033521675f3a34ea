/** Route helpers shared by the event-sourced features: the caller, problem schemas, cursors. */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { must } from '@vitalis/runtime';
import { badRequest } from '@vitalis/http';
import type { Caller } from './caller';

export function callerOf(req: FastifyRequest): Caller {
  return { principal: must(req.principal, 'the principal the bearer check sets before this route'), requestId: req.id, ip: req.ip };
}

// The document's `Problem` component (developer/openapi.ts publishes PROBLEM_SCHEMA under this id).
export const problem = z
  .looseObject({ type: z.string(), title: z.string(), status: z.number().int(), detail: z.string() })
  .meta({ id: 'Problem', description: 'RFC 9457 problem' });
export const problems = (...codes: number[]) => Object.fromEntries(codes.map((c) => [c, problem]));

/**
 * Opaque keyset cursors: base64url JSON of the last row's sort key, e.g. `{"t": <start>, "s": <slot id>}`.
 * A cursor comes back from the caller, so it is input like any other: decoded by `decodeKey` only,
 * through ONE zod schema per cursor shape (its field names, each with the one rule below), and
 * anything else (not base64url, not JSON, a missing, extra or mistyped field, a time that is no
 * time, an id out of range, a NUL) is a 400 problem, never a value handed to SQL (issue 30 item 7:
 * a `t` of "not-a-time" was a 500 from PostgreSQL).
 */
const keyText = z
  .string()
  .min(1)
  .max(300)
  .refine((v) => !v.includes('\u0000'), 'must not contain NUL');
/**
 * A real instant as the rows' times are written: ISO 8601 (`2024-01-01T10:00:00.000Z`) or
 * PostgreSQL's text of a timestamptz (`2024-01-01 10:00:00.123456+00`), each field in range, so
 * neither a 30 February nor an hour 25 reaches PostgreSQL.
 */
const TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2}))?)$/;
const keyTime = z
  .string()
  .max(40)
  .refine((t) => {
    const m = TIME.exec(t);
    if (!m) return false;
    // an absent group (the offset's, with Z or without minutes) is 0; the others always take part
    const [y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0, oh = 0, om = 0] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
    const dayOk = y >= 1 && mo >= 1 && mo <= 12 && d >= 1 && new Date(Date.UTC(y, mo - 1, d)).getUTCDate() === d;
    return dayOk && h <= 23 && mi <= 59 && se <= 59 && oh <= 15 && om <= 59;
  }, 'must be an ISO 8601 time');
/** A bigint row id (the audit trail's). */
const keyRowId = z
  .string()
  .regex(/^\d{1,19}$/)
  .refine((v) => /^\d{1,19}$/.test(v) && BigInt(v) <= 9_223_372_036_854_775_807n, 'out of range');

/** Every field a cursor may hold and its rule: t a time, id a row id, the others ids or names. */
const CURSOR_FIELDS = { t: keyTime, id: keyRowId, s: keyText, i: keyText, f: keyText, a: keyText } as const;
export type CursorField = keyof typeof CURSOR_FIELDS;

/** One strict schema per shape (the field names a route's cursor holds), built once. */
const cursorSchemas = new Map<string, z.ZodType<Record<string, string>>>();
function cursorSchema(keys: readonly CursorField[]): z.ZodType<Record<string, string>> {
  const id = keys.join(',');
  let schema = cursorSchemas.get(id);
  if (!schema) {
    schema = z.strictObject(Object.fromEntries(keys.map((k) => [k, CURSOR_FIELDS[k]]))) as unknown as z.ZodType<Record<string, string>>;
    cursorSchemas.set(id, schema);
  }
  return schema;
}

const BASE64URL = /^[A-Za-z0-9_-]{1,1024}$/;

export const encodeKey = (key: Partial<Record<CursorField, string>>) => Buffer.from(JSON.stringify(key)).toString('base64url');

/** The cursor's key, checked against its shape; undefined without a cursor; a 400 problem for anything this server did not mint. */
export function decodeKey<K extends CursorField>(text: string | undefined, keys: K[]): Record<K, string> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  if (BASE64URL.test(text)) {
    try {
      value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    } catch {
      value = undefined;
    }
  }
  const parsed = value === undefined ? undefined : cursorSchema(keys).safeParse(value);
  if (parsed?.success) return parsed.data as Record<K, string>;
  throw badRequest('The cursor is invalid.', {
    errors: [{ path: 'querystring.cursor', message: 'invalid cursor: use the next link of a page as given' }],
  });
}
