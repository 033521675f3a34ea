/**
 * What a live subscription asks for, validated the same way for SSE (query string + Last-Event-ID)
 * and WebSocket (subscribe message): patients (a ward stream is several), codes, alerts, resume id.
 * Who may watch whom, and what a resume id may be, are the vitals service's (vitals/service.ts).
 */
import { z } from 'zod';
import { resourceId, VITAL_CODES } from '@vitalis/schemas';

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
