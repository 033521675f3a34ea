/**
 * Telemetry joins diagnostics (issue 21 item 3): an ECG order (a rhythm strip, EKG study 11524-6,
 * or a 12-lead panel 34534-8) for a monitored patient is fulfilled from the vitals append log. The
 * final report carries every stored ECG chunk of the requested window as an Observation with
 * valueSampledData (the vitals FHIR mapping of @vitalis/schemas, so the same samples, device and
 * time the live stream and the history deliver), and the latest value of each vital sign within
 * ten minutes before the window's end.
 *
 * Who: a doctor (or a system client) holding write:diagnostics and the vitals access for the
 * patient (vitals/service.ts, the one owner of that rule); the report is posted through the same
 * service (decider, filler identifier, audit), its identifier naming the order and the window, so
 * fulfilling the same window twice stores one report.
 */
import { seriesAmong, type Pool } from '@vitalis/db';
import { STORED_INSTANT_SQL, STORED_SAMPLES_SQL } from '@vitalis/live';
import { DIAGNOSTIC_CODE } from '@vitalis/clinical';
import { ECG_LEAD_II, NUMERIC_VITALS, toFhirObservation, type VitalsObservation } from '@vitalis/schemas';
import { conflict } from '@vitalis/http';
import type { DiagnosticReportState, ResultInput } from '@vitalis/records';
import { insufficientScope } from '../access/refusal';
import { audit, type Caller } from '../access/caller';
import { queryRaw, rowToObservation, type RawRow } from '../vitals/history';
import { vitalsDenial } from '../vitals/service';
import { loadOrder, postReport, unprocessable, type DiagnosticsDeps } from './service';

/** Longest window one report takes (60 s at 250 Hz: 15,000 samples). */
export const MAX_STRIP_SECONDS = 60;
/** How far before the window's end a vital sign still counts as "at that time". */
const VITALS_LOOKBACK = '10 minutes';
const ECG_ORDERS: readonly string[] = [DIAGNOSTIC_CODE.ecgStudy, DIAGNOSTIC_CODE.ecg12Lead];
export const TELEMETRY_IDENTIFIER_SYSTEM = 'urn:vitalis:telemetry-window';

const asResult = (o: VitalsObservation, display: string): ResultInput => ({
  code: o.code,
  telemetry: { display, observation: toFhirObservation(o) as unknown as Record<string, unknown> },
});

async function vitalsAt(pool: Pool, patientId: string, at: string): Promise<VitalsObservation[]> {
  const { rows } = await pool.query<RawRow>(
    `SELECT DISTINCT ON (code) device_id, seq, code, ${STORED_INSTANT_SQL} AS at, value, unit, sample_period_ms, ${STORED_SAMPLES_SQL}
       FROM vitals_observations
      WHERE ${seriesAmong('$1', '$2::text[]')} AND effective_at <= $3 AND effective_at > $3::timestamptz - interval '${VITALS_LOOKBACK}'
      ORDER BY code, effective_at DESC, device_id, seq DESC`,
    [patientId, Object.keys(NUMERIC_VITALS), at],
  );
  return rows.map((r) => rowToObservation(patientId, r));
}

export async function fulfilFromTelemetry(
  deps: DiagnosticsDeps,
  caller: Caller,
  orderId: string,
  window: { from: string; to: string; conclusion?: string | undefined },
): Promise<{ report: DiagnosticReportState; created: boolean }> {
  const { pool } = deps;
  const action = 'diagnostics.report.from_telemetry';
  const fail = async (reason: string, problem: Error): Promise<never> => {
    await audit(pool, caller, {
      action,
      outcome: 'failure',
      scope: 'write:diagnostics',
      resourceType: 'ServiceRequest',
      resourceId: orderId,
      detail: { reason },
    });
    throw problem;
  };
  const order = await loadOrder(pool, orderId);
  if (!order) return fail('unknown order', unprocessable(`Order ${orderId} does not exist.`));
  const denied = vitalsDenial(caller.principal, [order.patientId]);
  if (denied)
    return fail(
      'vitals access',
      insufficientScope(['read:vitals'], { detail: `Fulfilling from telemetry reads the patient's vitals: ${denied.detail}` }),
    );
  if (!ECG_ORDERS.includes(order.code))
    return fail(
      'not an ECG order',
      conflict(`Order ${orderId} is for ${order.code}; only an ECG order (${ECG_ORDERS.join(', ')}) is fulfilled from telemetry.`, {
        code: order.code,
      }),
    );
  const span = (Date.parse(window.to) - Date.parse(window.from)) / 1000;
  if (!(span > 0 && span <= MAX_STRIP_SECONDS)) {
    return fail(
      'bad window',
      unprocessable(`The window must end after it starts and span at most ${MAX_STRIP_SECONDS} s.`, [
        { path: 'body.to', message: 'window' },
      ]),
    );
  }
  const ecg = await queryRaw(pool, { patient: order.patientId, code: ECG_LEAD_II.code, from: window.from, to: window.to, limit: 1_000 });
  if (ecg.rows.length === 0)
    return fail(
      'no ECG in the window',
      unprocessable(`No ECG of patient ${order.patientId} is stored between ${window.from} and ${window.to}.`),
    );
  const vitals = await vitalsAt(pool, order.patientId, window.to);
  const results = [
    ...ecg.rows.map((o) => asResult(o, 'ECG lead II')),
    ...vitals.map((o) => asResult(o, NUMERIC_VITALS[o.code as keyof typeof NUMERIC_VITALS]?.display ?? o.code)),
  ];
  return postReport(
    deps,
    caller,
    {
      orderId,
      identifier: { system: TELEMETRY_IDENTIFIER_SYSTEM, value: `${orderId}/${window.from}/${window.to}` },
      status: 'final',
      results,
      conclusion: window.conclusion ?? null,
      effectiveAt: window.from,
    },
    'fulfil',
    action,
  );
}
