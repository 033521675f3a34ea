/**
 * What a live subscription asks for, validated the same way for SSE (query string + Last-Event-ID)
 * and WebSocket (subscribe message): patients (a ward stream is several), codes, alerts, resume id.
 * Patient users may only watch themselves.
 */
import { z } from 'zod';
import { HttpProblem, badRequest } from '@vitalis/http';
import { decodeCursor, type Cursor } from '@vitalis/live';
import { resourceId, VITAL_CODES } from '@vitalis/schemas';
import type { Principal } from '../auth/route-auth';

const csv = (item: z.ZodType<string, string>, max: number) =>
  z
    .string()
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))])
    .pipe(z.array(item).min(1).max(max));

export const codeSchema: z.ZodType<string, string> = z.enum(VITAL_CODES as [string, ...string[]]);

export const streamQuerySchema = (maxPatients: number) =>
  z.object({
    patient: csv(resourceId, maxPatients).describe(`Patient id, or a comma-separated ward list (at most ${maxPatients})`),
    code: csv(codeSchema, VITAL_CODES.length).optional().describe('LOINC/MDC codes to include (default all)'),
    alerts: z.enum(['true', 'false']).default('true').transform((v) => v === 'true').describe('Include alert events'),
    last_event_id: z.string().max(8_192).optional().describe('Resume id, for clients that cannot send the Last-Event-ID header'),
  });

export const forbidden = (detail: string) => new HttpProblem(403, 'forbidden', 'Forbidden', detail);

export function assertMayWatch(principal: Principal | undefined, patients: string[]): void {
  const own = principal?.patientId;
  if (own !== undefined && patients.some((p) => p !== own)) throw forbidden('A patient user may only watch their own vitals.');
}

export function parseResumeId(id: string | undefined): Cursor | undefined {
  if (id === undefined || id === '') return undefined;
  const cursor = decodeCursor(id);
  if (!cursor) throw badRequest('Last-Event-ID is not an id this stream issued (expected e.g. "3-1042" or "3-1042.1_7-88").');
  return cursor;
}
