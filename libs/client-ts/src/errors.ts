/**
 * Typed errors. Every non-OAuth error the gateway answers is an RFC 9457 problem whose `type` ends
 * in `/errors/<kind>`; the client raises a ProblemError (or the subclass for its status) carrying
 * the whole body, so callers branch on `instanceof` or on `kind`. The OAuth endpoints answer RFC
 * 6749 bodies instead (`{error, error_description}`): those become OAuthError.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

export class VitalisError extends Error {
  override name = 'VitalisError';
}

export class ProblemError extends VitalisError {
  override name = 'ProblemError';
  /** Last path segment of `type`, e.g. `unauthorized`, `validation-error`, `not-found`. */
  readonly kind: string;
  constructor(
    readonly status: number,
    readonly problem: Problem,
    readonly headers: Headers,
  ) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.kind = problem.type.slice(problem.type.lastIndexOf('/') + 1);
  }
}

export class UnauthorizedError extends ProblemError {
  override name = 'UnauthorizedError';
  /** The WWW-Authenticate challenge, e.g. `Bearer realm="vitalis", error="invalid_token", ...`. */
  get challenge(): string | null {
    return this.headers.get('www-authenticate');
  }
}
export class ForbiddenError extends UnauthorizedError {
  override name = 'ForbiddenError';
}
export class NotFoundError extends ProblemError {
  override name = 'NotFoundError';
}
export class ValidationError extends ProblemError {
  override name = 'ValidationError';
  get errors(): { path?: string; message?: string; index?: number }[] {
    return (this.problem.errors as { path?: string; message?: string }[] | undefined) ?? [];
  }
}
export class ConflictError extends ProblemError {
  override name = 'ConflictError';
}
export class RateLimitedError extends ProblemError {
  override name = 'RateLimitedError';
  /** Seconds to wait, from Retry-After. */
  get retryAfter(): number | null {
    const v = this.headers.get('retry-after');
    return v === null ? null : Number(v);
  }
}

export class OAuthError extends VitalisError {
  override name = 'OAuthError';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description?: string,
    readonly headers: Headers = new Headers(),
  ) {
    super(`${status} ${error}${description ? `: ${description}` : ''}`);
  }

  /** Seconds to wait when the endpoint is rate-limiting (429 `temporarily_unavailable`), from Retry-After. */
  get retryAfter(): number | null {
    const v = this.headers.get('retry-after');
    return v === null ? null : Number(v);
  }
}

const BY_STATUS: Record<number, typeof ProblemError> = {
  400: ValidationError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  412: ConflictError,
  422: ValidationError,
  429: RateLimitedError,
};

/** Builds the right error for a failed response (reads the body). */
export async function errorFromResponse(res: Response): Promise<VitalisError> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (isRecord(body) && typeof body.error === 'string' && body.type === undefined) {
    return new OAuthError(
      res.status,
      body.error,
      typeof body.error_description === 'string' ? body.error_description : undefined,
      res.headers,
    );
  }
  const problem: Problem =
    isRecord(body) && typeof body.type === 'string'
      ? (body as Problem)
      : { type: 'about:blank', title: res.statusText || 'HTTP error', status: res.status, detail: text.slice(0, 500) };
  const Ctor = BY_STATUS[res.status] ?? ProblemError;
  return new Ctor(res.status, problem, res.headers);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
