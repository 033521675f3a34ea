/**
 * Who the card is and how it talks, read once from the URL fragment at start-up.
 *  - Browser mode (`/ui/<name>#token=…&patient=…`): same-origin REST and SSE with the bearer token.
 *    The fragment never reaches a server; it is removed from the address bar at once.
 *  - MCP mode: embedded in a host (a parent window) with no token: postMessage JSON-RPC.
 */
import { must } from './must';
const fragment = new URLSearchParams(location.hash.slice(1));

/** The bearer token from `#token=…`, or null. */
export const token: string | null = fragment.get('token');

/** Every other fragment parameter (`patient`, `clinician`, `date`, `q`). */
export const params: Record<string, string> = {};
fragment.forEach((v, k) => {
  if (k !== 'token') params[k] = v;
});

// The token must not linger in the address bar, history or a screenshot.
if (location.hash) {
  try {
    history.replaceState(null, '', location.pathname + location.search);
  } catch {
    /* sandboxed, opaque origin */
  }
}

export const mode: 'mcp' | 'rest' = window.parent !== window && !token ? 'mcp' : 'rest';

/**
 * The token's scope claim (a JWT): only to skip calls that would be refused. The server decides
 * access; null = unknown (opaque token, or MCP mode), so the card just tries.
 */
export const scopes: string[] | null = (() => {
  try {
    const payload = token && must(token.split('.')[1], "the token's payload part");
    const claims = payload && JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/')));
    return claims && typeof claims.scope === 'string' ? (claims.scope as string).split(' ') : null;
  } catch {
    return null;
  }
})();

/** Whether the token (if readable) holds one of these scopes. */
export function mayUse(anyOf: string[]): boolean {
  return scopes === null || anyOf.some((s) => scopes.indexOf(s) >= 0);
}

/** An API refusal: the problem's `detail` as the message, with its status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly problem: unknown = null,
  ) {
    super(message);
  }
}

/** Opened in a browser without a token: say how to open it instead of sending doomed requests. */
export function noToken(): ApiError {
  return new ApiError(`No access token: open this card as ${location.pathname}#token=ACCESS_TOKEN (see /auth.md for how to get one).`, 401);
}
