/**
 * What the OpenAPI document derives about problems and security (openapi.ts applies it): the shared
 * RFC 9457 `Problem` schema and one reusable response per problem status, the security schemes and
 * each route's security requirements from its contract (`config.auth`), and the problem responses
 * an operation can produce from its shape (FHIR operations: OperationOutcome). A status a route
 * declares itself is never overwritten.
 */
import { must } from '@vitalis/runtime';
import { SCOPES, needsUser, type Scope } from '@vitalis/schemas';
import { PATHS } from '../auth/context';
import type { RouteAuth } from '../auth/route-auth';

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

export const SECURITY = { oauth2: 'oauth2', bearer: 'bearerAuth' } as const;

/** RFC 9457 problem body; `errors` is Vitalis' extension for validation failures. */
export const PROBLEM_SCHEMA: Json = {
  type: 'object',
  description: 'RFC 9457 problem details. Branch on `type`; `detail` is for humans.',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string', format: 'uri', description: '{base}/errors/<kind>' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', description: 'The request path' },
    errors: {
      type: 'array',
      description: 'Validation failures (validation-error, invalid-observations)',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, message: { type: 'string' }, index: { type: 'integer' } },
        required: ['message'],
      },
    },
    retry_after: { type: 'integer', description: 'Seconds to wait (429, 503)' },
  },
  additionalProperties: true,
};

/** One reusable response per problem status. */
export const PROBLEM_RESPONSES: Record<string, { name: string; description: string }> = {
  '400': { name: 'BadRequest', description: 'Malformed JSON or invalid parameters/body (validation-error, bad-request)' },
  '401': {
    name: 'Unauthorized',
    description: 'Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata)',
  },
  '403': {
    name: 'Forbidden',
    description:
      'The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata',
  },
  '404': { name: 'NotFound', description: 'No such resource or route' },
  '405': { name: 'MethodNotAllowed', description: 'The path exists under other methods (see Allow)' },
  '406': { name: 'NotAcceptable', description: 'No representation matches Accept' },
  '409': { name: 'Conflict', description: 'The resource changed concurrently, or the slot is taken' },
  '412': { name: 'PreconditionFailed', description: 'If-Match names a version that is no longer current' },
  '413': { name: 'PayloadTooLarge', description: 'The body is over the size limit' },
  '414': { name: 'URITooLong', description: 'A path segment is longer than the router reads (2048 bytes percent-encoded)' },
  '415': { name: 'UnsupportedMediaType', description: 'The Content-Type is not accepted here' },
  '422': { name: 'UnprocessableContent', description: 'Well-formed but refused by a domain rule' },
  '428': { name: 'PreconditionRequired', description: 'If-Match is required for this write' },
  '426': { name: 'UpgradeRequired', description: 'A WebSocket endpoint was asked without Upgrade: websocket' },
  '429': { name: 'TooManyRequests', description: 'Rate limited (see Retry-After)' },
  '431': {
    name: 'RequestHeaderFieldsTooLarge',
    description: "The header section is over the server's limit (16 KiB); the connection is closed",
  },
  '500': { name: 'InternalError', description: 'Unexpected error (logged with the request id; no internals in the body)' },
  '503': { name: 'ServiceUnavailable', description: 'A dependency is unavailable; retry later' },
};

const problemRef = (status: string) => ({
  $ref: `#/components/responses/${must(PROBLEM_RESPONSES[status], `the problem response of status ${status}`).name}`,
});

/** What a client acting for itself can hold: every scope but those that need a user (sign-in, SMART patient/ and user/). */
const MACHINE_SCOPES = Object.fromEntries(Object.entries(SCOPES).filter(([s]) => !needsUser(s as Scope)));

/** The two security schemes of the document: OAuth 2 (client credentials with the machine scopes, authorization code with all) and the bearer token. */
export function securitySchemes(baseUrl: string): Json {
  return {
    [SECURITY.oauth2]: {
      type: 'oauth2',
      description: 'OAuth 2 (see /auth.md). Each operation lists the scopes it needs.',
      flows: {
        clientCredentials: { tokenUrl: `${baseUrl}${PATHS.token}`, scopes: MACHINE_SCOPES },
        authorizationCode: {
          authorizationUrl: `${baseUrl}${PATHS.authorize}`,
          tokenUrl: `${baseUrl}${PATHS.token}`,
          refreshUrl: `${baseUrl}${PATHS.token}`,
          scopes: { ...SCOPES },
        },
      },
    },
    [SECURITY.bearer]: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'An access token from the token endpoint or the sandbox',
    },
  };
}

/** The route contract as OpenAPI security requirements. */
export function securityFor(auth: RouteAuth | undefined): Json[] {
  if (!auth) return [];
  const schemes = [SECURITY.oauth2, SECURITY.bearer];
  if (auth.anyOf) return schemes.flatMap((scheme) => auth.anyOf.map((scope) => ({ [scheme]: [scope] })));
  return schemes.map((scheme) => ({ [scheme]: [...auth.scopes] }));
}

/** Adds the problem responses an operation can produce, from its shape. */
export function addProblemResponses(path: string, op: Json): void {
  const responses = (op.responses ??= {}) as Json;
  const statuses: string[] = [];
  const takesInput = Boolean(op.requestBody) || (Array.isArray(op.parameters) && op.parameters.length > 0);
  if (takesInput) statuses.push('400');
  if (Array.isArray(op.security) && op.security.length > 0) statuses.push('401', '403');
  if (op['x-websocket']) statuses.push('401', '403', '426');
  if (path.includes('{')) statuses.push('404', '414');
  if (op.requestBody) statuses.push('413', '415');
  // Node's parser counts the request line (the path and query string) and the headers against one limit.
  if (path.includes('{') || (Array.isArray(op.parameters) && op.parameters.some((p: Json) => p.in === 'header' || p.in === 'query')))
    statuses.push('431');
  if (op['x-rate-limited']) statuses.push('429');
  statuses.push('500', '503');
  for (const status of statuses) if (!(status in responses)) responses[status] = problemRef(status);
  // A route that declared a problem body itself gets the shared response (one Problem schema, problem+json).
  for (const [status, response] of Object.entries(responses)) {
    if (PROBLEM_RESPONSES[status] && isDeclaredProblem(response as Json)) responses[status] = problemRef(status);
  }
}

/**
 * Under /fhir/R4 every body is FHIR JSON (`application/fhir+json`) and every error an
 * OperationOutcome (libs/http answers problems there as one); SMART discovery
 * (`/fhir/R4/.well-known/…`) is a plain JSON document, not a FHIR resource, and keeps its media type.
 */
export function fhirResponses(path: string, op: Json): void {
  const fhirBodies = !path.includes('/.well-known/');
  const responses = (op.responses ?? {}) as Record<string, Json>;
  // the Bulk Data manifest is application/json and its files application/fhir+ndjson (the IG), not FHIR JSON
  const bulk = /\/\$export-(status|file)\//.test(path);
  for (const [status, response] of Object.entries(responses)) {
    // 431 is Node's parser's, answered before any route is found: the shared problem response.
    if (status === '431') continue;
    if (Number(status) >= 400) {
      const description = PROBLEM_RESPONSES[status]?.description ?? 'Error';
      responses[status] = {
        description: `${description} (a FHIR OperationOutcome)`,
        content: { 'application/fhir+json': { schema: { $ref: '#/components/schemas/FhirOperationOutcome' } } },
      };
    } else if (response.content && fhirBodies && !(bulk && status !== '202')) {
      response.content = { 'application/fhir+json': Object.values(response.content as Record<string, Json>)[0] };
    } else if (response.content && path.includes('$export-file')) {
      response.content = { 'application/fhir+ndjson': Object.values(response.content as Record<string, Json>)[0] };
    }
  }
}

/** A response whose only body is an RFC 9457 problem (type, title, status, detail), whatever its media type. */
function isDeclaredProblem(response: Json): boolean {
  const bodies = Object.values((response.content ?? {}) as Record<string, Json>);
  return (
    bodies.length > 0 &&
    bodies.every((b) => {
      if ((b.schema as Json | undefined)?.$ref === '#/components/schemas/Problem') return true;
      const required = ((b.schema as Json | undefined)?.required ?? []) as string[];
      return ['type', 'title', 'status', 'detail'].every((k) => required.includes(k));
    })
  );
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '303': 'See Other',
  '400': 'Bad Request',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '503': 'Service Unavailable',
};

/** @fastify/swagger's placeholder description becomes the status text when the schema gave none. */
export function describeResponses(op: Json): void {
  for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
    if (response.description === 'Default Response') response.description = STATUS_TEXT[status] ?? `HTTP ${status}`;
  }
}
