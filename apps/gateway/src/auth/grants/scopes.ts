/** Scope arithmetic shared by the grants: parse a request, refuse unknown names and escalation. */
import type { Scope } from '@vitalis/schemas';
import { parseScopes } from '../clients';
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
