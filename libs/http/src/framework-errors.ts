/**
 * The refusals fastify and Node's HTTP parser answer before any route, hook or error handler runs,
 * as RFC 9457 problems like every other error (fastify's defaults answer its own
 * `{error, code, message, statusCode}` shape and echo the offending path):
 *  - `frameworkErrorsHandler` (fastify's `frameworkErrors`): a path that is not valid percent-encoding
 *    (400), a path parameter over the router's `maxParamLength` (414);
 *  - `clientErrorHandler` (Node's `clientError`): a header section over `maxHeaderSize` (431), a
 *    request the parser cannot read (400), a request that timed out (408). No request exists then,
 *    so the problem is written to the socket, which is then closed.
 * The details never echo the request: it may hold anything (control characters, PHI in a path).
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PROBLEM_CONTENT_TYPE, problemBody, problemForStatus } from './problem';
import { sendProblem } from './plugin';

const FRAMEWORK_DETAILS: Record<string, [number, string]> = {
  FST_ERR_BAD_URL: [400, 'The path is not a valid URL (malformed percent-encoding).'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'A path segment is too long.'],
};

export function frameworkErrorsHandler(baseUrl: string) {
  return (err: { code?: string }, req: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const [status, detail] = FRAMEWORK_DETAILS[err.code ?? ''] ?? [
      500,
      'An unexpected error occurred. The error was logged with this request id.',
    ];
    if (status >= 500) req.log.error({ err }, 'framework error');
    reply.header('x-request-id', req.id);
    return sendProblem(reply, baseUrl, problemForStatus(status, detail));
  };
}

export function clientErrorHandler(baseUrl: string) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection has nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, detail] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request header section is too large.']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'The request was not received in time.']
          : [400, 'The request is not valid HTTP.'];
    if (socket.writable) {
      const body = JSON.stringify(problemBody(baseUrl, problemForStatus(status, detail)));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}
