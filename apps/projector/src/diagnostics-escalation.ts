/**
 * Escalation of unacknowledged critical results (issue 21). The due time is in the
 * CriticalResultRaised event (raised + DIAGNOSTICS_ESCALATION_SECONDS, set by the gateway) and in
 * its read model (rm_diagnostic_reports.critical_due_at, rebuilt from the log), so it survives a
 * restart of any process: no timer holds it. Each run scans the open critical results that are
 * due, asks the report decider to escalate (it refuses one acknowledged or escalated meanwhile)
 * through the command handler (@vitalis/eventstore handleCommand, ADR 0024), which appends
 * CriticalResultEscalated at the folded version (a concurrent acknowledgement wins: the append
 * conflicts, once, and the next run sees it acknowledged), and publishes it live after the commit.
 *
 * One escalator at a time across projector instances: a session advisory lock, tried (a second
 * instance skips its run rather than waiting). A crash after the append and before the publish
 * loses the live notice only; the escalation is in the log and on the board.
 */
import type { Pool } from '@vitalis/db';
import { handleCommand } from '@vitalis/eventstore';
import { publishCriticalNotice } from '@vitalis/live';
import type { Redis } from '@vitalis/redis';
import { DIAGNOSTIC_REPORT_DECIDER, diagnosticReportStream } from '@vitalis/records';
import { withTriedLock } from './tried-lock';

const LOCK = 'vitalis-diagnostics-escalator';

export interface EscalationRun {
  escalated: string[];
  skipped: boolean;
}

export async function escalateDueCriticalResults(
  pool: Pool,
  redis: Redis,
  options: { now?: Date; limit?: number } = {},
): Promise<EscalationRun> {
  const run = await withTriedLock(pool, LOCK, async (session) => {
    const now = options.now ?? new Date();
    const { rows } = await session.query<{ report_id: string }>(
      `SELECT report_id FROM rm_diagnostic_reports WHERE critical_state = 'open' AND critical_due_at <= $1 ORDER BY critical_due_at LIMIT $2`,
      [now, options.limit ?? 100],
    );
    const escalated: string[] = [];
    for (const { report_id: id } of rows) {
      const outcome = await handleCommand(
        pool,
        DIAGNOSTIC_REPORT_DECIDER,
        diagnosticReportStream(id),
        { type: 'escalate', now: now.toISOString() },
        {
          metadata: { actor: 'vitalis-projector', scope: 'system' },
        },
      );
      // absent, acknowledged or escalated since the projection saw it, or changed meanwhile (an acknowledgement): the next run decides again
      if (!outcome.ok || !outcome.before) continue;
      for (const e of outcome.decided) await publishCriticalNotice(redis, outcome.before.patientId, 'CriticalResultEscalated', e.data);
      escalated.push(id);
    }
    return escalated;
  });
  return run === undefined ? { escalated: [], skipped: true } : { escalated: run, skipped: false };
}
