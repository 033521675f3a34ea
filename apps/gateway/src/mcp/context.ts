/** What the MCP handlers share: the verified caller of a request, and domain problems as JSON-RPC errors. */
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, McpError, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { HttpProblem } from '@vitalis/http';
import type { Caller } from '../access/caller';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The caller the HTTP layer verified for this request (auth.ts), if any. */
export function callerOf(extra: Extra): Caller | undefined {
  return (extra.authInfo?.extra as { caller?: Caller } | undefined)?.caller;
}

/** A domain problem as a JSON-RPC error (resources/read, subscribe): 404 → -32002 (MCP "resource not found"). */
export function toMcpError(err: unknown): unknown {
  if (!(err instanceof HttpProblem)) return err;
  return new McpError(err.status === 404 ? -32002 : ErrorCode.InvalidRequest, `${err.title}: ${err.detail}`, {
    status: err.status,
    kind: err.kind,
  });
}
