/**
 * The triage board's entries as the card reads them (GET /api/v1/triage, get_triage_board): one per
 * patient in the department, with the latest vitals, alarms and critical results the token may read.
 */
import type { CriticalResult } from '../shared/critical-result';

export interface LatestVital {
  code: string;
  value: number;
  unit?: string;
  effective_at: string;
}
export interface Entry {
  patient_id: string;
  name?: string | null;
  esi: number;
  version: number;
  complaint?: string;
  arrived_at: string;
  news2?: { score: number; risk: string } | null;
  latest_vitals?: LatestVital[];
  alerts?: string[];
  /** The active bedside alarms, highest priority first (Alarm read). */
  alarms?: BoardAlarm[];
  /** Unacknowledged critical diagnostic results (read:diagnostics). */
  critical_results?: Critical[];
  /** Acknowledged in the last 12 h (read:diagnostics). */
  acknowledged_critical_results?: Critical[];
}
export interface BoardAlarm {
  alarm_id: string;
  rule: string;
  priority: 'high' | 'medium' | 'low';
  state: 'raised' | 'acknowledged' | 'latched' | 'resolved';
  raised_at: string;
  escalated_to: string | null;
}
/** A critical result and its values: the shapes and words of every card (../shared/critical-result.ts). */
export type Critical = CriticalResult;

/** The patient's name, or the id when the name is not known. */
export const nameOf = (e: Entry) => e.name || e.patient_id;
