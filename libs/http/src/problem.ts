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

/** What a problem kind is on the wire: its status and title, and when the server answers it (docs/api.md's catalogue). */
export interface ProblemSpec {
  readonly status: number;
  readonly title: string;
  readonly when: string;
  /** The kind answered for this status when fastify or Node raised it on its own (problemForStatus): one per status. */
  readonly framework?: true;
}

/**
 * Every problem kind the server answers, with its status and title: the one place a kind is
 * defined. Handlers build problems with `problemOf(kind, ...)` (or a named factory below), never
 * with `new HttpProblem(...)` inline (test/unit/http/problems.test.ts scans for that); docs/api.md's
 * error catalogue is generated from this table (apps/gateway/src/developer/doc-tables.ts).
 */
export const PROBLEMS = {
  'validation-error': { status: 400, title: 'Validation Failed', when: 'a parameter or body fails its zod schema (`errors[]` with paths)' },
  'bad-request': { status: 400, title: 'Bad Request', when: 'malformed JSON, an invalid cursor', framework: true },
  'not-supported': { status: 400, title: 'Not Supported', when: 'a FHIR search parameter, modifier or value the server does not support' },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    when: 'no, invalid, expired or revoked Bearer token (`WWW-Authenticate` names the resource metadata)',
    framework: true,
  },
  'insufficient-scope': {
    status: 403,
    title: 'Forbidden',
    when: 'a required scope is missing; a patient user asks for another patient (`WWW-Authenticate` `error="insufficient_scope"`, `required_scope`)',
  },
  forbidden: { status: 403, title: 'Forbidden', when: 'a browser origin the MCP endpoint does not allow', framework: true },
  'not-found': { status: 404, title: 'Not Found', when: 'no such route or resource; the sandbox when it is disabled', framework: true },
  'method-not-allowed': {
    status: 405,
    title: 'Method Not Allowed',
    when: 'the path exists under other methods (`Allow` lists them)',
    framework: true,
  },
  'not-acceptable': { status: 406, title: 'Not Acceptable', when: 'FHIR output asked for a shape that has none', framework: true },
  'request-timeout': { status: 408, title: 'Request Timeout', when: 'the request was not received in time', framework: true },
  conflict: {
    status: 409,
    title: 'Conflict',
    when: 'the resource exists already, is in a state the change cannot leave, or changed concurrently without If-Match',
  },
  'precondition-failed': {
    status: 412,
    title: 'Precondition Failed',
    when: '`If-Match` names a version that is not the current one (read it again and retry)',
  },
  'payload-too-large': { status: 413, title: 'Payload Too Large', when: 'body over `BODY_LIMIT_BYTES`', framework: true },
  'uri-too-long': { status: 414, title: 'URI Too Long', when: "a path segment over the router's limit", framework: true },
  'unsupported-media-type': {
    status: 415,
    title: 'Unsupported Media Type',
    when: 'a `Content-Type` no parser accepts',
    framework: true,
  },
  'range-not-satisfiable': {
    status: 416,
    title: 'Range Not Satisfiable',
    when: 'a bulk export file asked for with a `Range` outside it (`Content-Range: bytes */<size>`)',
  },
  'invalid-observations': {
    status: 422,
    title: 'Invalid Observations',
    when: 'a vitals batch with invalid items (every index listed; nothing published)',
  },
  'implausible-clinical-input': {
    status: 422,
    title: 'Unprocessable Content',
    when: 'an allergy whose substance is neither a SNOMED CT/RxNorm coding of the right shape with a display nor plausible text (≥ 3 printable characters, two letters; [records.md](records.md#allergy-input)); `errors[]` name the fields',
  },
  unprocessable: {
    status: 422,
    title: 'Unprocessable Content',
    when: 'a diagnostic order or result that cannot be processed (an unknown patient or order, an invalid result; `errors[]` when fields are named)',
  },
  'unknown-patient': {
    status: 422,
    title: 'Unknown Patient',
    when: 'an appointment or a triage admission for a patient that does not exist',
  },
  'invalid-appointment': { status: 422, title: 'Invalid Appointment', when: 'a booking that names no patient' },
  'invalid-scope': { status: 422, title: 'Unprocessable Content', when: 'a client approval naming scopes that do not exist' },
  'scope-beyond-role': { status: 422, title: 'Unprocessable Content', when: 'a client approval naming scopes its role does not hold' },
  'subscription-limit': {
    status: 422,
    title: 'Unprocessable Content',
    when: 'a client creating a Subscription beyond `FHIR_SUBSCRIPTIONS_PER_CLIENT`',
  },
  'upgrade-required': {
    status: 426,
    title: 'Upgrade Required',
    when: 'a plain GET on a WebSocket-only endpoint (`Upgrade: websocket`)',
  },
  'precondition-required': {
    status: 428,
    title: 'Precondition Required',
    when: 'an update without the `If-Match` it needs (optimistic concurrency)',
  },
  'rate-limited': {
    status: 429,
    title: 'Too Many Requests',
    when: 'sandbox over its per-address budget (the `detail` says to wait or register a client), or too many MCP sessions opened without a token from one address (`Retry-After`, `retry_after`)',
    framework: true,
  },
  'headers-too-large': {
    status: 431,
    title: 'Request Header Fields Too Large',
    when: "a request header section over the server's limit",
    framework: true,
  },
  internal: {
    status: 500,
    title: 'Internal Server Error',
    when: 'an unexpected error: logged with the request id, no internals in the body',
  },
  'export-failed': { status: 500, title: 'Export Failed', when: 'a bulk export job that failed (start a new one)' },
  unavailable: {
    status: 503,
    title: 'Service Unavailable',
    when: 'a dependency is down (Kafka for publishing, the audit trail for any vitals read, stream or write), or too many MCP sessions are open (`Retry-After`)',
  },
} as const satisfies Record<string, ProblemSpec>;

/** A problem kind the server answers: `type` = `{base}/errors/<kind>`. */
export type ProblemKind = keyof typeof PROBLEMS;

/** The problem of `kind` (its status and title from PROBLEMS), with this detail and any extension members and headers. */
export function problemOf(
  kind: ProblemKind,
  detail: string,
  extensions?: Record<string, unknown>,
  headers?: Record<string, string>,
): HttpProblem {
  const { status, title } = PROBLEMS[kind];
  return new HttpProblem(status, kind, title, detail, extensions, headers);
}

// Common problems, named for what they mean. Handlers throw these rather than building bodies.
export const badRequest = (detail: string, extensions?: Record<string, unknown>) => problemOf('bad-request', detail, extensions);
export const validationFailed = (detail: string, errors: { path: string; message: string }[]) =>
  problemOf('validation-error', detail, { errors });
export const notFound = (detail: string) => problemOf('not-found', detail);
export const conflict = (detail: string, extensions?: Record<string, unknown>) => problemOf('conflict', detail, extensions);
export const preconditionFailed = (detail: string) => problemOf('precondition-failed', detail);
export const tooManyRequests = (detail: string, retryAfterSeconds: number) =>
  problemOf('rate-limited', detail, { retry_after: retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
export const serviceUnavailable = (detail: string) => problemOf('unavailable', detail);

/** The kind answered for a status fastify or a plugin raised on its own (bad JSON, body too large...): PROBLEMS' `framework` kinds. */
export const FRAMEWORK_KINDS: ReadonlyMap<number, ProblemKind> = new Map(
  (Object.entries(PROBLEMS) as [ProblemKind, ProblemSpec][])
    .filter(([, spec]) => spec.framework)
    .map(([kind, spec]) => [spec.status, kind]),
);

/** The problem for a status fastify or Node raised: its framework kind, else `internal` (5xx) or a `bad-request` with that status. */
export function problemForStatus(status: number, detail: string): HttpProblem {
  const kind = FRAMEWORK_KINDS.get(status);
  if (kind) return problemOf(kind, detail);
  if (status >= 500) return new HttpProblem(status, 'internal', PROBLEMS.internal.title, detail);
  return new HttpProblem(status, 'bad-request', PROBLEMS['bad-request'].title, detail);
}
