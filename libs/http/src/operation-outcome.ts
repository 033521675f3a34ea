/**
 * FHIR's error body: under a FHIR base path (the gateway's /fhir/R4) the one error handler answers
 * every problem as an R4 `OperationOutcome` (`application/fhir+json`) instead of an RFC 9457 body,
 * with the same status and headers (WWW-Authenticate, Retry-After, Allow). FHIR clients read
 * `issue[].code`; the problem's kind picks it, else its status.
 */
import type { HttpProblem } from './problem';

export const FHIR_JSON = 'application/fhir+json';

/** FHIR R4 issue-type codes (http://hl7.org/fhir/issue-type) Vitalis answers with. */
export type IssueType =
  | 'invalid'
  | 'security'
  | 'login'
  | 'forbidden'
  | 'not-found'
  | 'not-supported'
  | 'conflict'
  | 'throttled'
  | 'transient'
  | 'exception'
  | 'too-costly';

const BY_KIND: Record<string, IssueType> = {
  'validation-error': 'invalid',
  'bad-request': 'invalid',
  unauthorized: 'login',
  'insufficient-scope': 'forbidden',
  forbidden: 'forbidden',
  'not-found': 'not-found',
  'not-supported': 'not-supported',
  'not-acceptable': 'not-supported',
  'unsupported-media-type': 'not-supported',
  'method-not-allowed': 'not-supported',
  conflict: 'conflict',
  'precondition-failed': 'conflict',
  'rate-limited': 'throttled',
  unavailable: 'transient',
};

export function issueTypeOf(p: Pick<HttpProblem, 'kind' | 'status'>): IssueType {
  const byKind = BY_KIND[p.kind];
  if (byKind) return byKind;
  if (p.status === 401) return 'login';
  if (p.status === 403) return 'forbidden';
  if (p.status === 404) return 'not-found';
  if (p.status >= 500) return 'exception';
  return 'invalid';
}

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: { severity: 'error' | 'fatal'; code: IssueType; details: { text: string }; diagnostics: string }[];
}

/** The problem (already resolved for the base URL) as an OperationOutcome; field errors become one issue each. */
export function operationOutcomeOf(p: HttpProblem): OperationOutcome {
  const severity = p.status >= 500 ? ('fatal' as const) : ('error' as const);
  const code = issueTypeOf(p);
  const fieldErrors = Array.isArray(p.extensions.errors) ? (p.extensions.errors as { path?: unknown; message?: unknown }[]) : [];
  return {
    resourceType: 'OperationOutcome',
    issue: [
      { severity, code, details: { text: p.title }, diagnostics: p.detail },
      ...fieldErrors.slice(0, 50).map((e) => ({
        severity,
        code,
        details: { text: p.title },
        diagnostics: `${String(e.path ?? '')}: ${String(e.message ?? 'invalid')}`,
      })),
    ],
  };
}
