/**
 * The audit trail: one append-only row per security-relevant act (token issued, refused,
 * revoked; patient data read or written). Ids and reasons only: never secrets, never PHI.
 * The rows form a hash chain (migration 0014, chain.ts) anchored by signed checkpoints kept
 * outside PostgreSQL (checkpoint.ts); `verifyAuditTrail` checks both.
 */
import type { Queryable } from '@vitalis/db';

export { GENESIS_HASH, CHAIN_COLUMNS, rowHash, verifyChain, type ChainRow, type ChainProblem, type ChainVerification } from './chain';
export {
  signCheckpoint,
  checkpointSignatureValid,
  writeCheckpoint,
  readCheckpoints,
  startAuditCheckpoints,
  verifyAuditTrail,
  checkpointFileName,
  type Checkpoint,
  type CheckpointFile,
  type AuditCheckpointOptions,
  type AuditTrailVerification,
} from './checkpoint';

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

/**
 * Appends one row. On a pool it commits on its own; on a client inside a transaction it commits
 * (or rolls back) with the change it records. The chain trigger holds the chain head's lock until
 * the transaction ends, so inside a transaction write the audit row last, just before COMMIT.
 */
export async function recordAudit(db: Queryable, event: AuditEvent): Promise<void> {
  try {
    await insertAuditRow(db, event);
  } catch (err) {
    auditWriteStats.failures += 1;
    throw err;
  }
}

/**
 * Audit rows that could not be written (each one a refused request: a 503). A process-wide count
 * the app's metrics read at scrape time (vitalis_audit_write_failures_total); it pages someone.
 */
export const auditWriteStats = { failures: 0 };

async function insertAuditRow(db: Queryable, event: AuditEvent): Promise<void> {
  await db.query(
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
