/**
 * The audit trail: one append-only row per security-relevant act (token issued, refused,
 * revoked; patient data read or written). Ids and reasons only: never secrets, never PHI.
 */
import type { Pool } from '@vitalis/db';

export interface AuditEvent {
  action: string;
  outcome: 'success' | 'failure';
  clientId?: string | undefined;
  subject?: string | undefined;
  scope?: string | undefined;
  resourceType?: string | undefined;
  resourceId?: string | undefined;
  requestId?: string | undefined;
  ip?: string | undefined;
  detail?: Record<string, unknown>;
}

export async function recordAudit(pool: Pool, event: AuditEvent): Promise<void> {
  await pool.query(
    `INSERT INTO audit_events (action, outcome, actor_client_id, actor_subject, scope, resource_type, resource_id, request_id, ip, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      event.action,
      event.outcome,
      event.clientId ?? null,
      event.subject ?? null,
      event.scope ?? null,
      event.resourceType ?? null,
      event.resourceId ?? null,
      event.requestId ?? null,
      event.ip ?? null,
      event.detail ?? {},
    ],
  );
}
