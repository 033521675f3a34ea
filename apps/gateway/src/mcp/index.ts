/**
 * The MCP server at /.well-known/mcp (Streamable HTTP, the official SDK): POST for JSON-RPC,
 * GET for the session's SSE stream (resumable with Last-Event-ID), DELETE to end a session.
 * Public in the route contract (initialize and listing are anonymous); auth.ts authorises each
 * request by what its messages touch, before the SDK sees it. See README.md in this folder.
 */
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { FASTIFY_VERSIONS, PLUGIN, ROUTE_MODULE_NEEDS } from '../plugins';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { ErrorCode, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { must } from '@vitalis/runtime';
import { problemOf, serviceUnavailable, tooManyRequests } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import type { LiveSource } from '../vitals/live-sources';
import { bearerToken } from '../auth/bearer';
import { problems, problem } from '../access/http';
import { authenticate, needOfBody, sessionOwnedByOther, type AccessNeed } from './auth';
import type { SessionRecord } from './session-store';
import { SessionRegistry, type McpSession } from './sessions';
import { TOOL_SCOPES } from './tools';
import type { Principal } from '../access/principal';
import type { RouteApp } from '../route-app';

export const MCP_PATH = '/.well-known/mcp';
const SESSION_HEADER = 'mcp-session-id';

export { SessionRegistry } from './sessions';
export { TOOLS } from './tools';

declare module 'fastify' {
  interface FastifyInstance {
    /** The open MCP sessions of this gateway (stats, tests). */
    mcpSessions: SessionRegistry;
  }
}

/** JSON-RPC error bodies the transport itself would answer (clients expect these, not problems). */
function rpcError(req: FastifyRequest, reply: FastifyReply, status: number, code: number, message: string): void {
  reply.hijack(); // written as is: the route's response schemas describe problems
  reply.raw
    .writeHead(status, { 'content-type': 'application/json', 'x-request-id': req.id })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function allowedOrigins(deps: GatewayDeps): Set<string> {
  const extra = deps.config.MCP_ALLOWED_ORIGINS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return new Set([new URL(deps.config.baseUrl).origin, ...extra]);
}

const description = (verb: string) =>
  `${verb} Model Context Protocol server (Streamable HTTP, protocol 2025-06-18 and later; any MCP client works). ` +
  'Authorization per the MCP authorization spec: initialize, ping and listing (tools, resources, templates) are anonymous; tools/call, resources/read of vitalis:// and ' +
  "resources/subscribe need a Bearer token with the tool's scopes (the same as the equivalent REST route). Without a valid token: 401 with " +
  '`WWW-Authenticate: Bearer realm="vitalis", resource_metadata=".../.well-known/oauth-protected-resource"`; lacking a scope: 403 `error="insufficient_scope"`. ' +
  'A session (Mcp-Session-Id) is bound to the subject and client of the first token that authenticates on it. ' +
  'Sessions opened without a token are rate-limited per client address (429 with Retry-After).';

/** What the MCP handler shares across requests: the app (its bearer check), the deps, the sessions, the allowed origins and the anonymous-session limiter. */
interface McpContext {
  app: RouteApp;
  deps: GatewayDeps;
  registry: SessionRegistry;
  origins: Set<string>;
  anonymousSessions: ReturnType<RouteApp['rateLimiter']>;
}

/** DNS-rebinding protection (MCP transport spec): a browser page of a foreign origin is refused. */
function checkOrigin(origins: Set<string>, req: FastifyRequest): void {
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.has(origin))
    throw problemOf('forbidden', `Origin ${origin.slice(0, 100)} may not call the MCP endpoint.`);
}

/** The named session: open here, or (held by another instance, or by one that is gone) its stored record to take over after authenticating. */
async function knownSession(
  registry: SessionRegistry,
  req: FastifyRequest,
  sessionId: string,
): Promise<{ session?: McpSession; record?: SessionRecord }> {
  const session = registry.get(sessionId);
  if (session || !/^[\w-]{1,64}$/.test(sessionId)) return { session };
  const record = await registry.store.load(sessionId).catch((err: unknown) => {
    req.log.error({ err }, 'mcp session store unreachable');
    throw serviceUnavailable('The MCP session store is unreachable; retry shortly.');
  });
  return { record };
}

/**
 * A new session, only for an initialize request; one without a token counts against the address's
 * anonymous-session limit (429). Undefined when the request was answered with a JSON-RPC error.
 */
async function newSession(
  ctx: McpContext,
  req: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  principal: Principal | undefined,
): Promise<McpSession | undefined> {
  const initializing = req.method === 'POST' && (Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body));
  if (!initializing) return void rpcError(req, reply, 400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first.');
  if (!principal) {
    const verdict = await ctx.anonymousSessions(req);
    if (verdict.exceeded) {
      throw tooManyRequests(
        `This address opened ${verdict.max} MCP sessions without a token in ${ctx.deps.config.MCP_ANONYMOUS_SESSION_WINDOW_SECONDS} s; retry after ${verdict.resetSeconds} s, or initialize with a Bearer token.`,
        verdict.resetSeconds,
      );
    }
  }
  return ctx.registry.create();
}

/** Marks the session seen now; its stored record is touched at most every 30 s. */
function markSeen(registry: SessionRegistry, session: McpSession): void {
  session.lastSeen = Date.now();
  if (session.lastSeen - session.lastTouched >= 30_000) {
    session.lastTouched = session.lastSeen;
    void registry.store.touch(session.id).catch(() => undefined);
  }
}

/** Hands the request to the session's SDK transport, with the caller as its AuthInfo; a GET is counted as an open stream while it lasts. */
async function serveOnSession(
  req: FastifyRequest,
  reply: FastifyReply,
  session: McpSession,
  principal: Principal | undefined,
  body: unknown,
): Promise<void> {
  const auth: AuthInfo | undefined = principal && {
    token: must(bearerToken(req.headers.authorization), 'the bearer token the principal was read from'),
    clientId: principal.clientId,
    scopes: principal.scopes,
    expiresAt: principal.expiresAt,
    extra: { caller: { principal, requestId: req.id, ip: req.ip } },
  };
  (req.raw as typeof req.raw & { auth?: AuthInfo }).auth = auth;
  reply.hijack();
  reply.raw.setHeader('x-request-id', req.id);
  if (req.method === 'GET') {
    session.openStreams += 1;
    reply.raw.once('close', () => {
      session.openStreams -= 1;
      session.lastSeen = Date.now();
    });
  }
  try {
    await session.transport.handleRequest(req.raw, reply.raw, body);
  } catch (err) {
    req.log.error({ err }, 'mcp transport failed');
    if (!reply.raw.headersSent)
      reply.raw
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }));
  } finally {
    if (!session.initialized) await session.close(); // a failed initialize leaves nothing behind
  }
}

/** One MCP request (POST, GET or DELETE): origin, session, access by what the messages touch, then the SDK transport. */
async function handleMcp(ctx: McpContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  checkOrigin(ctx.origins, req);
  const { registry } = ctx;
  const body = req.method === 'POST' ? req.body : undefined;
  const sessionId = req.headers[SESSION_HEADER];
  let session: McpSession | undefined;
  let record: SessionRecord | undefined;
  if (typeof sessionId === 'string') {
    ({ session, record } = await knownSession(registry, req, sessionId));
    if (!session && !record) return rpcError(req, reply, 404, -32001, 'Session not found: initialize a new session.');
  }
  const need: AccessNeed = req.method === 'POST' ? needOfBody(body, TOOL_SCOPES) : { token: false, scopes: [], what: [req.method] };
  if (need.refused) return rpcError(req, reply, 400, ErrorCode.InvalidParams, `Refused: ${need.refused.join('; ')}.`);
  const principal = await authenticate(ctx.app, req, need, session?.binding ?? record?.binding);
  if (!session && record)
    session =
      registry.get(sessionId as string) ??
      (await registry.adopt(sessionId as string, record, principal && { principal, requestId: req.id, ip: req.ip }));

  session ??= await newSession(ctx, req, reply, body, principal);
  if (!session) return;
  if (principal && !session.bind(principal)) throw sessionOwnedByOther(need.scopes);
  markSeen(registry, session);
  await serveOnSession(req, reply, session, principal, body);
}

// As served: the transport answers JSON-RPC (application/json) or an SSE stream; a refusal about
// the session or the message is a JSON-RPC error (rpcError), one about access or a dependency a problem.
const rpcErrorBody = z
  .looseObject({
    jsonrpc: z.literal('2.0'),
    error: z.looseObject({ code: z.number().int(), message: z.string() }),
    id: z.union([z.string(), z.number(), z.null()]),
  })
  .meta({
    id: 'JsonRpcError',
    description:
      'JSON-RPC 2.0 error (https://www.jsonrpc.org/specification#error_object); `error.data` and other members as the MCP specification defines them',
  });
const rpcErrorOrProblem = (description: string) => ({
  description,
  content: { 'application/json': { schema: rpcErrorBody }, 'application/problem+json': { schema: problem } },
});
const common = {
  tags: ['mcp'],
  response: {
    200: {
      description: 'JSON-RPC response or an SSE stream',
      content: {
        'application/json': {
          schema: z.unknown().meta({
            id: 'JsonRpcResponse',
            description:
              'JSON-RPC 2.0 response (or batch): the MCP specification defines the results (https://modelcontextprotocol.io/specification)',
          }),
        },
        'text/event-stream': { schema: z.string().describe('SSE stream of JSON-RPC messages') },
      },
    },
    400: rpcErrorOrProblem(
      'A message other than initialize without a session, a refused tool call (JSON-RPC error), or an invalid request (problem)',
    ),
    404: rpcErrorOrProblem('Session not found: initialize a new one (JSON-RPC error)'),
    406: {
      description:
        'Accept does not list application/json and text/event-stream, as the MCP Streamable HTTP transport requires (JSON-RPC error)',
      content: { 'application/json': { schema: rpcErrorBody } },
    },
    ...problems(401, 403, 503),
  },
};
const sessionHeader = z.string().min(1).max(128).describe('The session from the initialize response (MCP Streamable HTTP)');

/** The three MCP routes (POST, GET, DELETE on MCP_PATH), each served by `handle`; this order is the document's. */
function mcpEndpointRoutes(app: RouteApp, handle: (req: FastifyRequest, reply: FastifyReply) => Promise<void>): void {
  app.post(
    MCP_PATH,
    {
      schema: {
        ...common,
        summary: 'MCP: send JSON-RPC messages (initialize, tools/list, tools/call, resources/read, resources/subscribe...)',
        description: description('POST to the'),
        body: z.unknown().meta({
          id: 'JsonRpcMessage',
          description:
            'A JSON-RPC 2.0 message (or batch): the MCP specification defines the messages (https://modelcontextprotocol.io/specification)',
          example: {
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example-agent', version: '1.0.0' } },
          },
        }),
        headers: z.looseObject({ [SESSION_HEADER]: sessionHeader.optional() }),
        response: { ...common.response, 202: z.null().describe('Accepted (notifications and responses only)') },
        // read by the OpenAPI document (adds the 429 problem response): anonymous initialize is rate-limited
        'x-rate-limited': true,
      },
    },
    handle,
  );
  app.get(
    MCP_PATH,
    {
      schema: {
        ...common,
        summary: "MCP: the session's server-to-client SSE stream (notifications; Last-Event-ID resumes)",
        description: description('GET the stream of the'),
        headers: z.looseObject({ [SESSION_HEADER]: sessionHeader }),
      },
    },
    handle,
  );
  app.delete(
    MCP_PATH,
    {
      schema: {
        ...common,
        summary: 'MCP: end a session',
        description: description('DELETE a session of the'),
        headers: z.looseObject({ [SESSION_HEADER]: sessionHeader }),
      },
    },
    handle,
  );
}

/** Wrapped with fastify-plugin so `app.mcpSessions` is visible on the root instance. */
export function mcpRoutes(deps: GatewayDeps, hub: LiveSource) {
  const plugin: FastifyPluginAsyncZod = async (app) => {
    const registry = new SessionRegistry(deps, hub);
    app.decorate('mcpSessions', registry);
    app.addHook('preClose', () => registry.closeAll());
    const ctx: McpContext = {
      app,
      deps,
      registry,
      origins: allowedOrigins(deps),
      // Each session holds an McpServer in memory: one address may open only so many without a token.
      anonymousSessions: app.rateLimiter({
        name: 'mcp-anonymous',
        max: deps.config.MCP_ANONYMOUS_SESSION_LIMIT,
        windowSeconds: deps.config.MCP_ANONYMOUS_SESSION_WINDOW_SECONDS,
      }),
    };
    mcpEndpointRoutes(app, (req, reply) => handleMcp(ctx, req, reply));
  };
  return fp(plugin, {
    name: PLUGIN.mcp,
    fastify: FASTIFY_VERSIONS,
    dependencies: [...ROUTE_MODULE_NEEDS, PLUGIN.rateLimits],
    decorators: { fastify: ['verifyBearer', 'bearerAuth', 'rateLimiter'] },
  });
}
