/**
 * Authorization of MCP traffic, per the MCP authorization spec and service spec section 7, at the
 * HTTP layer (before the SDK parses anything), so refusals are real HTTP 401/403 responses with
 * `WWW-Authenticate` (clients start the OAuth flow from the 401's resource_metadata):
 *  - initialize, ping, notifications and listing need no token;
 *  - tools/call needs a valid token holding the tool's scopes (those of the equivalent REST route);
 *  - resources/read and resources/subscribe of vitalis:// (patient data) need read:vitals; ui://
 *    resources are public HTML; any other scheme (or no URI at all) is refused (400). The URI is
 *    classified as the SDK will see it (resource-uri.ts: parsed with `new URL`, so case, spaces and
 *    control characters cannot slip past this gate), and the handlers check again on the parsed
 *    resource through the vitals service;
 *  - a token, when presented, is always verified (invalid, expired or revoked → 401), and a session
 *    is bound to the subject and client of the first token that authenticates on it: a token of
 *    another subject, or of the same subject through another client → 403, and no token at all →
 *    401 (a session id alone never reaches patient data).
 * Verification is the gateway's one bearer check (app.verifyBearer), so a Redis outage is a 503 here too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Scope } from '@vitalis/schemas';
import { bearerToken } from '../auth/bearer';
import { insufficientScope } from '../access/refusal';
import { bearerContextOf } from '../auth/guard';
import type { Principal } from '../access/principal';
import { parseResourceUri } from './resource-uri';
import { isBoundTo, type SessionBinding } from './session-store';

export interface AccessNeed {
  /** A valid token is required. */
  token: boolean;
  scopes: Scope[];
  /** What asked for it (audit detail on refusal). */
  what: string[];
  /** Messages refused whatever the token (a resource of an unknown scheme): the request is answered 400. */
  refused?: string[];
}

/** What one JSON-RPC message needs; unknown tools need nothing (the SDK answers them with an error). */
export function needOf(message: unknown, toolScopes: ReadonlyMap<string, Scope[]>): AccessNeed {
  const none: AccessNeed = { token: false, scopes: [], what: [] };
  if (typeof message !== 'object' || message === null) return none;
  const { method, params } = message as { method?: unknown; params?: Record<string, unknown> };
  if (typeof method !== 'string') return none;
  if (method === 'tools/call') {
    const name = params?.name;
    const scopes = typeof name === 'string' ? toolScopes.get(name) : undefined;
    return scopes ? { token: true, scopes, what: [`tools/call ${name}`] } : none;
  }
  if (method === 'resources/read' || method === 'resources/subscribe') {
    const uri = params?.uri;
    if (typeof uri !== 'string') return none; // the SDK refuses the message itself (invalid params)
    const ref = parseResourceUri(uri);
    if (ref.kind === 'ui') return none;
    if (ref.kind === 'refused') return { ...none, refused: [`${method}: ${ref.reason}`] };
    return { token: true, scopes: ['read:vitals'], what: [`${method} ${ref.uri.slice(0, 200)}`] };
  }
  return none;
}

/** A POST body may be one message or a batch: the union of what each needs. */
export function needOfBody(body: unknown, toolScopes: ReadonlyMap<string, Scope[]>): AccessNeed {
  const messages = Array.isArray(body) ? body : [body];
  const need: AccessNeed = { token: false, scopes: [], what: [] };
  for (const m of messages) {
    const n = needOf(m, toolScopes);
    need.token ||= n.token;
    for (const s of n.scopes) if (!need.scopes.includes(s)) need.scopes.push(s);
    need.what.push(...n.what);
    if (n.refused) (need.refused ??= []).push(...n.refused);
  }
  return need;
}

export const sessionOwnedByOther = (scopes: readonly Scope[]) =>
  insufficientScope(scopes, {
    detail: 'This MCP session belongs to another subject or client; start a new session (initialize) with your own token.',
  });

/**
 * Verifies what the request needs through the gateway's one bearer check (`app.verifyBearer`:
 * signature, expiry, revocation with 503 when unknowable, scopes, refusal audit). Returns the
 * principal when a token was presented (and valid), undefined for an anonymous request that needs
 * none; throws the 401/403/503 problems otherwise.
 */
export async function authenticate(
  app: FastifyInstance,
  req: FastifyRequest,
  need: AccessNeed,
  binding: SessionBinding | undefined,
): Promise<Principal | undefined> {
  const detail = { mcp: need.what.slice(0, 10) };
  if (!bearerToken(req.headers.authorization) && !need.token && binding === undefined) return undefined;
  const principal = await app.verifyBearer(req, need.scopes, { detail });
  if (binding !== undefined && !isBoundTo(binding, principal)) {
    throw await app.bearerAuth.refuse(
      bearerContextOf(req, detail),
      'session bound to another subject or client',
      sessionOwnedByOther(need.scopes),
      principal,
    );
  }
  return principal;
}
