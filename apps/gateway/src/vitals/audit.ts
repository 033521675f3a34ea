/**
 * Audit of vitals reads (who read which patient's vitals, when, under which scope).
 *
 * INTEGRATION POINT (audit): the OAuth work is adding `libs/audit` with `recordAudit(pool, event)`.
 * Until it lands, this writes the same row straight into `audit_events` (migration 0001, the shared
 * contract). When libs/audit exists, replace the INSERT below with a call to recordAudit.
 */
import type { FastifyRequest } from 'fastify';
import type { Pool } from '@vitalis/db';

export interface VitalsAuditEvent {
  action: string;
  patientId: string;
  outcome: 'success' | 'failure';
  detail: Record<string, unknown>;
}

export async function recordVitalsAudit(pool: Pool, req: FastifyRequest, event: VitalsAuditEvent): Promise<void> {
  const principal = req.principal;
  await pool.query(
    `INSERT INTO audit_events (action, outcome, actor_client_id, actor_subject, scope, resource_type, resource_id, request_id, ip, detail)
     VALUES ($1, $2, $3, $4, 'read:vitals', 'Patient', $5, $6, $7, $8)`,
    [event.action, event.outcome, principal?.clientId ?? null, principal?.subject ?? null, event.patientId, req.id, req.ip ?? null, event.detail],
  );
}
