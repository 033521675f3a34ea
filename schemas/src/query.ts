/**
 * Query parameters that carry a comma-separated list. The OpenAPI document publishes a query
 * parameter's pattern, never a transform, so the pattern is what the validator checks first: the
 * document and the validator refuse the same strings (the contract check's fuzzer holds them to it).
 */
import { z } from 'zod';

const escaped = (value: string) => value.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/**
 * A comma-separated list of 1..max items matching `itemPattern` (a regex source), as a list without
 * duplicates (spaces around the commas are forgiven).
 */
export const csv = <T extends string>(item: z.ZodType<T, string>, itemPattern: string, max: number) =>
  z
    .string()
    .regex(new RegExp(`^ *(?:${itemPattern}) *(?:, *(?:${itemPattern}) *){0,${max - 1}}$`), `must be a comma-separated list of 1 to ${max}`)
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(item).min(1).max(max));

/** A comma-separated list of some of `values` (each at most once). */
export const enumCsv = <const T extends readonly [string, ...string[]]>(values: T) =>
  csv(z.enum(values) as unknown as z.ZodType<T[number], string>, values.map(escaped).join('|'), values.length);

/** The alternation of `values` as a regex source (for a list's item pattern). */
export const alternationOf = (values: readonly string[]) => values.map(escaped).join('|');
