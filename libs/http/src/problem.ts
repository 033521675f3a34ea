/**
 * RFC 9457 problem details. Every error Vitalis answers is one of these, with
 * `type` = `{base}/errors/<kind>` so a client can branch on the kind.
 * (No maintained npm package covers this for fastify 5; it is a few pure functions.)
 */
/**
 * Every problem, the 401/403 refusals of protected resources included, is RFC 9457's
 * `application/problem+json` (a JSON media type; spec section 7 says `application/json`, the
 * departure is ADR 0011's and docs/api.md#errors says so). Only the OAuth endpoints' own RFC 6749
 * error bodies (`error`, `error_description`) are `application/json`, and they are not problems.
 */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

/** A thrown HttpProblem becomes a problem response; headers (WWW-Authenticate, Retry-After) travel with it. */
export class HttpProblem extends Error {
  override name = 'HttpProblem';
  constructor(
    readonly status: number,
    readonly kind: string,
    readonly title: string,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  /**
   * The problem as sent from the server at `baseUrl`. A problem raised where the base URL is not
   * known (a domain service refusing access) completes its headers and detail here; most
   * problems are complete already.
   */
  resolve(_baseUrl: string): HttpProblem {
    return this;
  }
}

export function problemBody(baseUrl: string, thrown: HttpProblem, instance?: string): ProblemBody {
  const p = thrown.resolve(baseUrl);
  return {
    ...p.extensions,
    type: `${baseUrl}/errors/${p.kind}`,
    title: p.title,
    status: p.status,
    detail: p.detail,
    ...(instance ? { instance } : {}),
  };
}

// Common problems, named for what they mean. Handlers throw these rather than building bodies.
export const badRequest = (detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(400, 'bad-request', 'Bad Request', detail, extensions);
export const validationFailed = (detail: string, errors: { path: string; message: string }[]) =>
  new HttpProblem(400, 'validation-error', 'Validation Failed', detail, { errors });
export const notFound = (detail: string) => new HttpProblem(404, 'not-found', 'Not Found', detail);
export const conflict = (detail: string, extensions?: Record<string, unknown>) =>
  new HttpProblem(409, 'conflict', 'Conflict', detail, extensions);
export const preconditionFailed = (detail: string) => new HttpProblem(412, 'precondition-failed', 'Precondition Failed', detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  new HttpProblem(
    429,
    'rate-limited',
    'Too Many Requests',
    detail,
    { retry_after: retryAfterSeconds },
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
export const serviceUnavailable = (detail: string) => new HttpProblem(503, 'unavailable', 'Service Unavailable', detail);

/** Maps a status fastify or a plugin raised on its own (bad JSON, body too large...) to a problem. */
const FRAMEWORK_KINDS: Record<number, [kind: string, title: string]> = {
  400: ['bad-request', 'Bad Request'],
  401: ['unauthorized', 'Unauthorized'],
  403: ['forbidden', 'Forbidden'],
  404: ['not-found', 'Not Found'],
  405: ['method-not-allowed', 'Method Not Allowed'],
  406: ['not-acceptable', 'Not Acceptable'],
  408: ['request-timeout', 'Request Timeout'],
  413: ['payload-too-large', 'Payload Too Large'],
  414: ['uri-too-long', 'URI Too Long'],
  415: ['unsupported-media-type', 'Unsupported Media Type'],
  429: ['rate-limited', 'Too Many Requests'],
  431: ['headers-too-large', 'Request Header Fields Too Large'],
};

export function problemForStatus(status: number, detail: string): HttpProblem {
  const [kind, title] = FRAMEWORK_KINDS[status] ?? (status >= 500 ? ['internal', 'Internal Server Error'] : ['bad-request', 'Bad Request']);
  return new HttpProblem(status, kind, title, detail);
}
