/**
 * Alerts propose tests (issue 21 item 3): a vitals alert raised on the live stream creates draft
 * ServiceRequests (intent `proposal`) that a doctor activates (POST …/orders/{id}/activate) or
 * revokes (…/cancel). A process manager, not a read model: it follows the event store like a
 * projection (its own checkpoint, one batch per transaction, gap-safe) and appends
 * ServiceRequestCreated through the command handler (@vitalis/eventstore handleCommand, ADR 0024)
 * with the order decider, in the batch's transaction. Never rebuilt; a fresh checkpoint starts at the
 * head of the log, so turning it on does not propose tests for every alert in history.
 *
 * Idempotent: the order id is derived from the alert event's id and the test code, and an order
 * stream that exists already is skipped (the create is expected at version 0: the handler refuses
 * it at any other), so a batch applied again after a crash proposes nothing twice.
 */
import { createHash } from 'node:crypto';
import type { Pool } from '@vitalis/db';
import {
  handleCommand,
  headPosition,
  inTransaction,
  readStream,
  STREAM_CATEGORIES,
  streamCategory,
  type StoredEvent,
} from '@vitalis/eventstore';
import { DIAGNOSTIC_CODE, ORDERABLE_TESTS, type OrderableCode } from '@vitalis/clinical';
import { ALERT_EVENT_TYPES, asAlertEvent } from '@vitalis/live';
import {
  foldPatient,
  patientStream,
  SERVICE_REQUEST_DECIDER,
  serviceRequestStream,
  type ServiceRequestCommand,
  type ServiceRequestPriority,
} from '@vitalis/records';
import type { Projection } from './projections/definitions';
import { catchUp } from './projections/runner';

/** Which tests an alert rule proposes (rule ids of the ingest's alert rules). */
export const ALERT_PROPOSALS: Record<string, { code: OrderableCode; priority: ServiceRequestPriority }[]> = {
  // NEWS2 >= 7: a sepsis screen
  'news2-high': [
    { code: DIAGNOSTIC_CODE.lactate, priority: 'urgent' },
    { code: DIAGNOSTIC_CODE.bloodGasPanel, priority: 'urgent' },
  ],
  'spo2-low': [{ code: DIAGNOSTIC_CODE.bloodGasPanel, priority: 'urgent' }],
  'hr-high': [{ code: DIAGNOSTIC_CODE.ecg12Lead, priority: 'urgent' }],
};

export const PROPOSALS_CHECKPOINT = 'alert-proposals';
/** Who proposed it (ServiceRequest.requester): the alerting system, named by the rule. */
export const proposalRequester = (rule: string) => `vitalis-alerts:${rule}`;
export const proposalId = (alertEventId: string, code: string) =>
  `sr-${createHash('sha1').update(`${alertEventId}|${code}`).digest('hex').slice(0, 12)}`;

const alertProposer: Projection = {
  name: PROPOSALS_CHECKPOINT,
  table: 'events', // writes events, not rows; the runner only hands the name through
  owns: (stream) => streamCategory(stream) === STREAM_CATEGORIES.patientAlerts,
  write: async (client, _table, _streams, batch: StoredEvent[]) => {
    for (const e of batch) {
      const alert = asAlertEvent(e);
      if (!alert || alert.type !== ALERT_EVENT_TYPES.raised) continue;
      const proposals = ALERT_PROPOSALS[alert.data.rule] ?? [];
      if (proposals.length === 0) continue;
      const patientId = alert.data.patient_id;
      if (!foldPatient(await readStream(client, patientStream(patientId)))) continue; // no such record: nobody to order for
      for (const p of proposals) {
        const id = proposalId(e.eventId, p.code);
        const test = ORDERABLE_TESTS[p.code];
        const create: ServiceRequestCommand = {
          type: 'create',
          status: 'draft',
          details: {
            id,
            patientId,
            intent: 'proposal',
            priority: p.priority,
            code: test.code,
            reason: `Alert ${alert.data.rule}: ${alert.data.message}`,
            requester: proposalRequester(alert.data.rule),
            performer: test.performer,
            note: null,
          },
        };
        // expected at version 0: an order stream that exists already (a batch applied again) is refused, and skipped
        await handleCommand(inTransaction(client), SERVICE_REQUEST_DECIDER, serviceRequestStream(id), create, {
          metadata: { actor: 'vitalis-projector', causationId: e.eventId, scope: 'system' },
          expectedVersion: 0,
        });
      }
    }
  },
};

/** Starts a missing checkpoint at the head of the log (only alerts from now on propose tests). */
async function ensureCheckpoint(pool: Pool): Promise<void> {
  const { rows } = await pool.query('SELECT 1 FROM projection_checkpoints WHERE name = $1', [PROPOSALS_CHECKPOINT]);
  if (rows.length > 0) return;
  await pool.query('INSERT INTO projection_checkpoints (name, position) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    PROPOSALS_CHECKPOINT,
    await headPosition(pool),
  ]);
}

/** One run: every alert appended since the last run proposes its tests. */
export async function proposeTestsForAlerts(pool: Pool): Promise<{ events: number; position: number }> {
  await ensureCheckpoint(pool);
  const r = await catchUp(pool, alertProposer, { checkpoint: PROPOSALS_CHECKPOINT });
  return { events: r.events, position: r.position };
}
