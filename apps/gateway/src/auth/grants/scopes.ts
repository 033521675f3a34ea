/** Scope arithmetic shared by the grants: parse a request, refuse unknown names and escalation. */
import type { Scope } from '@vitalis/schemas';
import { parseScopes, scopeCeiling, type Client } from '../clients';
import { roleScopes, type User } from '../users';
import { invalidScope } from '../oauth-errors';

/**
 * The scopes to grant: the requested ones when given (every one must be in `allowed`, else
 * invalid_scope; what a SMART wildcard covers counts only where allowed), otherwise everything
 * `allowed`. Never empty.
 */
export function grantScopes(requested: string | undefined, allowed: Scope[], what: string): Scope[] {
  const { scopes, optional, unknown } = parseScopes(requested);
  if (unknown.length > 0) throw invalidScope(`unknown scope(s): ${unknown.join(', ')}`);
  const beyond = scopes.filter((s) => !allowed.includes(s));
  if (beyond.length > 0) throw invalidScope(`scope(s) beyond ${what}: ${beyond.join(', ')}`);
  const granted = requested ? [...scopes, ...intersect(optional, allowed)] : allowed;
  if (granted.length === 0) throw invalidScope(`no scope can be granted (${what} allows none)`);
  return granted;
}

export const intersect = (a: Scope[], b: Scope[]) => a.filter((s) => b.includes(s));

/**
 * The most a token that `client` holds for `user` may carry, as both are NOW: the client's
 * registered scopes, within the ceiling of its current role, within the user's current role. A
 * refresh grants at most what its grant held ∩ this, so an operator narrowing a client (a new role,
 * fewer scopes) or a user's role narrows the next refreshed token at once, not after the refresh
 * token's 30 days.
 */
export function userTokenCeiling(client: Pick<Client, 'scopes' | 'registration' | 'role'>, user: Pick<User, 'roles'>): Scope[] {
  return intersect(intersect(client.scopes, scopeCeiling(client)), roleScopes(user.roles));
}
