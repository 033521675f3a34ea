/**
 * What the monitor card's script receives as JSON (`DATA`, from `monitorScriptData()` in
 * ../../monitor.ts): the vital codes by name, the NEWS2 scale per code (SpO2 on scale 1), the tile
 * alarm per parameter score, the NEWS2 clinical-risk table, and the site's freshness settings
 * (stale threshold per code, the device-disconnect delay), and the words of a critical result
 * (interpretation, screen units) for the alarm panel. Types only, and structural: the browser
 * code does not load the server's modules (their types reach Node's); ../../monitor.ts declares
 * its data `satisfies MonitorData`, so the two cannot part.
 */

import type { ResultTables } from '../shared/critical-result';

export type TileAlarm = 'none' | 'warn' | 'crit';

/** A NEWS2 parameter score (0–3): `News2Score` of @vitalis/clinical. */
export type Score = 0 | 1 | 2 | 3;

/** `News2Risk` of @vitalis/clinical. */
export type Risk = 'low' | 'low-medium' | 'medium' | 'high';

/** `News2Scale` of @vitalis/clinical: charted decimals, bands as [inclusive upper bound or null, score]. */
export interface Scale {
  readonly decimals: number;
  readonly bands: ReadonlyArray<readonly [upTo: number | null, score: Score]>;
}

/** `NEWS2_RISK` of @vitalis/clinical: aggregate bands and the single-red-parameter rule. */
export interface RiskTable {
  readonly bands: ReadonlyArray<readonly [upTo: number | null, risk: Risk]>;
  readonly redScore: Score;
  readonly redRisk: Risk;
}

export interface MonitorData extends ResultTables {
  readonly code: Readonly<
    Record<'heartRate' | 'spo2' | 'systolic' | 'diastolic' | 'respiratoryRate' | 'temperature' | 'ecgLeadII', string>
  >;
  readonly scales: Readonly<Partial<Record<string, Scale>>>;
  readonly alarmByScore: Readonly<Record<Score, TileAlarm>>;
  readonly risk: RiskTable;
  /** Seconds per vital code after which a value is stale (`AlarmSettings.staleAfterSeconds`, the site's VITALIS_ALARMS applied). */
  readonly staleAfter: Readonly<Record<string, number>>;
  /** Seconds without any value after which the badge says "No data since" and never "Live" (the device-disconnect alarm's onset delay). */
  readonly noDataAfter: number;
  /** Screen label per numeric code (HR, SpO₂, …): which inputs of the NEWS2 total are stale. */
  readonly labels: Readonly<Record<string, string>>;
}
