/**
 * The audit records of client registration, in one place: a client registered (RFC 7591
 * registration, a software statement, a Client ID Metadata Document's first use) and a refused
 * registration. registration.ts and client-metadata-document.ts both write through here.
 */
import { recordAudit } from '@vitalis/audit';
import type { Pool } from '@vitalis/db';
import type { Registration, RegistrationResponse } from './clients';

/** Where a registration came from, for its audit record. */
export interface RegistrationOrigin {
  requestId?: string;
  ip?: string;
}

/**
 * The audit record of a registered client, however it came (RFC 7591 registration, a software
 * statement, a Client ID Metadata Document's first use): its grants, how it registered and its role,
 * and a requested scope waiting for an operator.
 */
export async function auditClientRegistered(
  pool: Pool,
  registered: RegistrationResponse,
  how: { registration: Registration | 'client_id_metadata_document'; role: string | null; extra?: Record<string, unknown> },
  origin: RegistrationOrigin,
): Promise<void> {
  await recordAudit(pool, {
    action: 'client.registered',
    outcome: 'success',
    clientId: registered.client_id,
    scope: registered.scope,
    resourceType: 'Client',
    resourceId: registered.client_id,
    ...origin,
    detail: {
      grant_types: registered.grant_types,
      token_endpoint_auth_method: registered.token_endpoint_auth_method,
      registration: how.registration,
      role: how.role,
      ...(registered.requested_scope ? { requested_scope: registered.requested_scope, approval: 'pending' } : {}),
      ...how.extra,
    },
  });
}

/** The audit record of a refused registration (`clientId`: a metadata document's URL; a registration has none yet). */
export async function auditClientRefused(
  pool: Pool,
  refused: { clientId?: string; error: string; reason: string; registration?: 'client_id_metadata_document' },
  origin: RegistrationOrigin,
): Promise<void> {
  await recordAudit(pool, {
    action: 'client.refused',
    outcome: 'failure',
    ...(refused.clientId ? { clientId: refused.clientId } : {}),
    ...origin,
    detail: {
      ...(refused.registration ? { registration: refused.registration } : {}),
      error: refused.error,
      reason: refused.reason,
    },
  });
}
