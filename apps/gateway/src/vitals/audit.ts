/**
 * Audit of vitals reads (who read which patient's vitals, when, under which scope), through the
 * shared audit trail (libs/audit, table audit_events). Ids and counts only, never values.
 */
import type { FastifyRequest } from 'fastify';
import { recordAudit } from '@vitalis/audit';
import type { Pool } from '@vitalis/db';

export interface VitalsAuditEvent {
  action: string;
  patientId: string;
  outcome: 'success' | 'failure';
  detail: Record<string, unknown>;
}

export function recordVitalsAudit(pool: Pool, req: FastifyRequest, event: VitalsAuditEvent): Promise<void> {
  return recordAudit(pool, {
    action: event.action,
    outcome: event.outcome,
    clientId: req.principal?.clientId,
    subject: req.principal?.subject,
    scope: 'read:vitals',
    resourceType: 'Patient',
    resourceId: event.patientId,
    requestId: req.id,
    ip: req.ip,
    detail: event.detail,
  });
}
