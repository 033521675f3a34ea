/**
 * The one logger factory. Redaction is on by default: tokens, secrets, passwords
 * and the Authorization header never reach a log line. PHI is kept out by the
 * rule that handlers log ids, never record bodies.
 */
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger } from 'pino';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.subject_token',
  '*.client_assertion',
  '*.token',
  '*.code_verifier',
];

export function loggerOptions(app: string, level: string): LoggerOptions {
  return {
    name: `vitalis-${app}`,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

export function createLogger(app: string, level = 'info'): Logger {
  return pino(loggerOptions(app, level));
}
