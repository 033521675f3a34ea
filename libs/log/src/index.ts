/**
 * The one logger factory. Redaction is on by default: tokens, secrets, passwords
 * and the Authorization header never reach a log line. PHI is kept out by the
 * rule that handlers log ids, never record bodies, and by the request serializer
 * below: a request is logged as its method, route pattern and path, with every
 * query value replaced by `[redacted]` (searches carry names, birth dates and
 * MRNs in the query string); never headers, cookies or bodies.
 */
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { DestinationStream, Logger } from 'pino';

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

const REDACTED = '[redacted]';
/** A query parameter name worth keeping; anything else, or a bare `?value`, is redacted whole. */
const PARAM_NAME = /^[A-Za-z0-9_.\-[\]]{1,64}$/;

/** `/p?name=Ann&birthdate=1950-01-02` → `/p?name=[redacted]&birthdate=[redacted]`. */
export function redactQuery(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      return eq > 0 && PARAM_NAME.test(name) ? `${name}=${REDACTED}` : REDACTED;
    });
  return `${url.slice(0, q)}?${params.join('&')}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  routeOptions?: { url?: string };
}

/** How a request appears in a log line (fastify's `incoming request` and any `{ req }`). */
export function requestForLog(req: LoggedRequest): Record<string, unknown> {
  return {
    method: req.method,
    route: req.routeOptions?.url,
    url: req.url === undefined ? undefined : redactQuery(req.url),
    remoteAddress: req.ip,
  };
}

export function loggerOptions(app: string, level: string): LoggerOptions {
  return {
    name: `vitalis-${app}`,
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: requestForLog },
    base: { app },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
}

/** `destination`: where lines go (default stdout); tests pass a stream they read. */
export function createLogger(app: string, level = 'info', destination?: DestinationStream): Logger {
  return destination ? pino(loggerOptions(app, level), destination) : pino(loggerOptions(app, level));
}
