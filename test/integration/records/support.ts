import { randomUUID } from 'node:crypto';
import type { Pool } from '@vitalis/db';
import type { Principal } from '../../../apps/gateway/src/access/principal';
import type { Caller } from '../../../apps/gateway/src/access/caller';

export const uid = () => randomUUID().replace(/-/g, '').slice(0, 10);

/**
 * A service caller with exactly `p`'s scopes. Without `roles`, a system-role backend: the access
 * policy (apps/gateway/src/access/policy.ts) then decides by scope and patient alone; tests of a
 * role's cells name the role.
 */
export function caller(p: Partial<Principal>): Caller {
  return {
    principal: {
      clientId: 'test-client',
      subject: 'test-subject',
      scopes: [],
      roles: ['system'],
      tokenId: uid(),
      expiresAt: Math.floor(Date.now() / 1000) + 600,
      authMethod: 'client_secret',
      derivedFrom: [],
      sandbox: false,
      ...p,
    } as Principal,
    requestId: `req-${uid()}`,
  };
}

export const patientBody = (family: string, extra: Record<string, unknown> = {}) => ({
  resourceType: 'Patient',
  name: [{ family, given: ['Ada'] }],
  birthDate: '1980-02-03',
  gender: 'female',
  identifier: [{ system: 'urn:vitalis:mrn', value: `MRN-${family}` }],
  ...extra,
});

export async function auditRows(pool: Pool, resourceId: string): Promise<{ action: string; outcome: string; scope: string }[]> {
  const { rows } = await pool.query('SELECT action, outcome, scope FROM audit_events WHERE resource_id = $1 ORDER BY id', [resourceId]);
  return rows;
}
