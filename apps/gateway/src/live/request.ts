/**
 * What a live subscription asks for, validated the same way for SSE (query string + Last-Event-ID)
 * and WebSocket (subscribe message): patients (a ward stream is several), codes, alerts, resume id.
 * Who may watch whom, and what a resume id may be, are the vitals service's (vitals/service.ts).
 */
import { z } from 'zod';
import { CURSOR_PATTERN } from '@vitalis/live';
import { alternationOf, csv, resourceId, VITAL_CODES } from '@vitalis/schemas';

const RESOURCE_ID_ITEM = '[A-Za-z0-9\\-.]{1,64}';
const CODE_ITEM = alternationOf(VITAL_CODES);

/** A resume id (an SSE event id): empty (start now) or the shape of an id this stream issues. */
export const resumeIdSchema = z
  .string()
  .max(8_192)
  .regex(new RegExp(`^$|${CURSOR_PATTERN.source}`), 'must be an event id of this stream (e.g. "3-1042" or "3-1042.1_7-88")');

export const codeSchema: z.ZodType<string, string> = z.enum(VITAL_CODES as [string, ...string[]]);

export const streamQuerySchema = (maxPatients: number) =>
  z.object({
    patient: csv(resourceId, RESOURCE_ID_ITEM, maxPatients).describe(`Patient id, or a comma-separated ward list (at most ${maxPatients})`),
    code: csv(codeSchema, CODE_ITEM, VITAL_CODES.length).optional().describe('LOINC/MDC codes to include (default all)'),
    alerts: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true')
      .describe('Include alert events'),
    last_event_id: resumeIdSchema.optional().describe('Resume id, for clients that cannot send the Last-Event-ID header'),
  });
