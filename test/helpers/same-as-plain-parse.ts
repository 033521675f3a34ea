/**
 * The one-loop sample check (@vitalis/schemas `parseWithSamples`) must answer exactly what zod's
 * plain parse answers: the same success, the same data, or the same issues. Shared by the tests of
 * single observations (decimal samples) and of v2 frame items (whole steps).
 */
import { expect } from 'vitest';
import type { z } from 'zod';
import { parseWithSamples } from '@vitalis/schemas';

export function expectSameAsPlainParse<T>(schema: z.ZodType<T>, value: unknown): void {
  const fast = parseWithSamples(schema, value);
  const plain = schema.safeParse(value);
  expect(fast.success).toBe(plain.success);
  if (plain.success) expect(fast.data).toEqual(plain.data);
  else expect(fast.error?.issues).toEqual(plain.error.issues);
}
