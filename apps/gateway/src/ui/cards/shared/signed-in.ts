/**
 * Whether the card's token names a signed-in person (a user), read from its claims: only to hide
 * an action the server would refuse to an app acting for itself (acknowledging a critical result
 * or an alarm is a person's act: the access policy's user-only cells, apps/gateway/src/access/policy.ts
 * `namesUser`). The server decides; null = unknown (MCP mode: the host's session, or an opaque
 * token), so the card offers the action and shows the server's answer.
 */
import { token } from './access';

interface Claims {
  sub?: unknown;
  client_id?: unknown;
  auth_method?: unknown;
  sandbox?: unknown;
}

function claims(): Claims | null {
  try {
    const part = token && token.split('.')[1];
    return part ? (JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as Claims) : null;
  } catch {
    return null;
  }
}

export function signedInUser(): boolean | null {
  const c = claims();
  if (!c || typeof c.sub !== 'string') return null;
  if (c.sandbox === true) return false;
  if (c.auth_method === 'authorization_code' || c.auth_method === 'refresh_token') return c.sub !== c.client_id;
  // an exchanged token keeps its subject: a person unless the subject is one of this server's client ids
  if (c.auth_method === 'token_exchange') return c.sub !== c.client_id && !/^(cli|sbx)_/.test(c.sub);
  return false;
}
