/**
 * The error contract as a fastify plugin: every error and every unknown route answers an RFC 9457
 * problem (`application/problem+json`, the 401/403 auth refusals included), never fastify's default shape, and every response carries the server's
 * request id (and echoes a sane caller's one apart). Unexpected errors are logged with the request
 * id and answered 500 without internals. A path served under other methods answers 405 with
 * `Allow`. A NUL character in the body, query string or path parameters is refused with a 400
 * before any handler runs (nul.ts).
 *
 * Under a FHIR base path (`fhirBasePaths`, the gateway's /fhir/R4) the same problem is answered as
 * an R4 OperationOutcome (operation-outcome.ts), same status and headers: one mechanism for every
 * FHIR route, the guard's 401/403 included.
 *
 * A problem is serialised here, never by the route's response schema: a route that documents
 * another error body for a status (the OAuth endpoints' RFC 6749 bodies) would otherwise turn a
 * framework error (malformed JSON) into a 500 FST_ERR_RESPONSE_SERIALIZATION.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { findUnstorable, nulPathText } from './nul';
import { FHIR_JSON, operationOutcomeOf } from './operation-outcome';
import { HttpProblem, PROBLEM_CONTENT_TYPE, problemBody, problemForStatus, validationFailed } from './problem';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Where a caller's own request id is echoed back (correlation only; see clientRequestIdOf). */
export const CLIENT_REQUEST_ID_HEADER = 'x-client-request-id';
const CLIENT_REQUEST_ID_PATTERN = /^[\w.:-]{1,128}$/;

/**
 * Every request's id (fastify's genReqId), minted by the server, never taken from the caller: it is
 * the audit trail's request_id, so a caller must not choose it (to blend its requests into another's
 * rows, or make two acts look like one).
 */
export function newRequestId(): string {
  return randomUUID();
}

/**
 * The caller's `x-request-id`, kept for correlation only (logged beside the server's id and echoed
 * as `x-client-request-id`) when it is short and plain (word characters, `.`, `:`, `-`; at most 128).
 */
export function clientRequestIdOf(req: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && CLIENT_REQUEST_ID_PATTERN.test(given) ? given : undefined;
}

const underAny = (path: string, bases: readonly string[]) => bases.some((b) => path === b || path.startsWith(`${b}/`));

/**
 * THE serialisation of a problem: an RFC 9457 body, or under a FHIR base path an OperationOutcome
 * (`application/fhir+json`), with the same status and headers either way.
 */
export function sendProblem(
  reply: FastifyReply,
  baseUrl: string,
  thrown: HttpProblem,
  fhirBasePaths: readonly string[] = [],
): FastifyReply {
  const problem = thrown.resolve(baseUrl);
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  const path = reply.request.url.split('?')[0] ?? '/';
  reply.code(problem.status);
  if (underAny(path, fhirBasePaths)) return reply.type(FHIR_JSON).send(JSON.stringify(operationOutcomeOf(problem)));
  return reply.type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(problemBody(baseUrl, problem, path)));
}

/**
 * Requests whose body the JSON parser read, and whether its text holds a `\u0000` or a `\uD800` to
 * `\uDFFF` escape: JSON can carry a NUL or an unpaired surrogate no other way (a raw control
 * character is invalid JSON; UTF-8 cannot encode a lone surrogate), so only those bodies are
 * walked (a 1 000-observation batch costs ~0.4 ms to walk, about what parsing it costs).
 */
const jsonBodies = new WeakMap<FastifyRequest, boolean>();
const UNSTORABLE_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** The first NUL or unpaired surrogate in the request's parsed input, as a validation problem naming where it is. */
function nulProblem(req: FastifyRequest): HttpProblem | undefined {
  const walkBody = jsonBodies.get(req) ?? true; // form bodies (small) are always walked
  for (const [context, value] of [
    ['body', walkBody ? req.body : undefined],
    ['querystring', req.query],
    ['params', req.params],
  ] as const) {
    const found = findUnstorable(value);
    if (!found) continue;
    const path = nulPathText(context, found.at);
    const { message } = found;
    return validationFailed(`The ${context} is invalid: ${path}: ${message}.`, [{ path, message }]);
  }
  return undefined;
}

function toProblem(err: FastifyError, req: FastifyRequest): HttpProblem {
  if (err instanceof HttpProblem) return err;
  if (hasZodFastifySchemaValidationErrors(err)) {
    const errors = err.validation.map((v) => ({
      path: `${err.validationContext ?? 'request'}${v.instancePath.replaceAll('/', '.')}`,
      message: v.message ?? 'invalid',
    }));
    return validationFailed(
      `The ${err.validationContext ?? 'request'} is invalid: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      errors,
    );
  }
  if (isResponseSerializationError(err)) {
    req.log.error({ err, method: req.method }, 'response did not match its schema');
    return problemForStatus(500, 'The server failed to build a valid response. The error was logged.');
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) return problemForStatus(status, err.message);
  req.log.error({ err }, 'unhandled error');
  return problemForStatus(500, 'An unexpected error occurred. The error was logged with this request id.');
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods the router serves this concrete path with (for 405 and its Allow header). */
function allowedMethods(app: FastifyInstance, path: string): string[] {
  const found = METHODS.flatMap((method) => {
    const route = app.findRoute({ method: method as 'GET', url: path });
    return route === null ? [] : [{ method, route }];
  });
  // A path some route names exactly (e.g. /fhir/R4/Patient/$export) is that resource: a parametric
  // route of another method (PUT /fhir/R4/Patient/:id) does not make its methods allowed there.
  const exact = found.filter((m) => Object.keys(m.route.params ?? {}).length === 0);
  return (exact.length > 0 ? exact : found).map((m) => m.method);
}

export interface ProblemPluginOptions {
  baseUrl: string;
  /** Path prefixes (e.g. '/fhir/R4') whose problems are FHIR OperationOutcomes (operation-outcome.ts). */
  fhirBasePaths?: readonly string[];
}

export const problemDetails = fp<ProblemPluginOptions>(
  async (app: FastifyInstance, { baseUrl, fhirBasePaths = [] }) => {
    app.addHook('onRequest', async (req, reply) => {
      reply.header(REQUEST_ID_HEADER, req.id);
      const clientRequestId = clientRequestIdOf(req);
      if (clientRequestId !== undefined) {
        reply.header(CLIENT_REQUEST_ID_HEADER, clientRequestId);
        // The request's log lines carry both ids, so a caller's id leads to the server's (and its audit rows).
        req.log = reply.log = req.log.child({ clientRequestId });
      }
    });
    const parseJson = app.getDefaultJsonParser(
      app.initialConfig.onProtoPoisoning ?? 'error',
      app.initialConfig.onConstructorPoisoning ?? 'error',
    );
    app.removeContentTypeParser('application/json');
    // FHIR clients send their bodies as application/fhir+json (older ones application/json+fhir):
    // JSON, parsed (prototype poisoning refused, NUL-checked) alike
    app.addContentTypeParser(['application/json', FHIR_JSON, 'application/json+fhir'], { parseAs: 'string' }, (req, body, done) => {
      jsonBodies.set(req, UNSTORABLE_ESCAPE.test(body as string));
      parseJson(req, body as string, done);
    });
    app.addHook('preValidation', async (req) => {
      const problem = nulProblem(req);
      if (problem) throw problem;
    });
    app.setErrorHandler((err: FastifyError, req, reply) => sendProblem(reply, baseUrl, toProblem(err, req), fhirBasePaths));
    const unrouted = (req: FastifyRequest, reply: FastifyReply): FastifyReply => {
      const path = req.url.split('?')[0] ?? '/';
      // The path exists under other methods: 405 with Allow (RFC 9110 §15.5.6), not 404.
      const allow = allowedMethods(app, path);
      if (allow.length > 0) {
        reply.header('allow', allow.join(', '));
        return sendProblem(
          reply,
          baseUrl,
          problemForStatus(405, `${req.method} is not allowed on ${path}; allowed: ${allow.join(', ')}.`),
          fhirBasePaths,
        );
      }
      return sendProblem(reply, baseUrl, problemForStatus(404, `No route ${req.method} ${path}.`), fhirBasePaths);
    };
    // Answered before the body is read: the body of a request no route serves is never parsed, so
    // its framing (a QUERY without Content-Type, a malformed body) cannot turn the 404/405 into a 400.
    // Paths some route names exactly (e.g. /fhir/R4/Patient/$export): another method's parametric
    // route (PUT /fhir/R4/Patient/:id) does not serve them; that method is a 405 there, not a 400.
    const exactPaths = new Set<string>();
    app.addHook('onRoute', (route) => {
      if (!route.url.includes(':') && !route.url.includes('*')) exactPaths.add(route.url);
    });
    app.addHook('onRequest', async (req, reply) => {
      if (req.is404) return unrouted(req, reply);
      if (req.routeOptions.url?.includes(':') && exactPaths.has(req.url.split('?')[0] ?? '')) return unrouted(req, reply);
    });
    app.setNotFoundHandler(unrouted);
  },
  { name: 'vitalis-problem-details', fastify: '5.x' },
);
