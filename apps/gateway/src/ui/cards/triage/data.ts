/**
 * What the board's script receives as JSON (`DATA`, from `triageScriptData()` in ../../triage.ts).
 * Types only, and structural: the browser code does not load the server's modules; ../../triage.ts
 * declares its data `satisfies TriageData`, so the two cannot part.
 */

export type VitalColumn = 'hr' | 'spo2' | 'sys' | 'dia' | 'rr' | 'temp';

export interface TriageData {
  /** The board's vitals column per vital code. */
  readonly vitalColumns: Readonly<Record<string, VitalColumn>>;
  /** Seconds per vital code after which a value is stale (`AlarmSettings.staleAfterSeconds`, the site's VITALIS_ALARMS applied). */
  readonly staleAfter: Readonly<Record<string, number>>;
  /** The codes NEWS2 is computed from: its time is the oldest of their values'. */
  readonly news2Codes: readonly string[];
  /** Screen label per vital code (HR, SpO₂, …). */
  readonly labels: Readonly<Record<string, string>>;
  /** Screen unit per vital code (%, °C, mmHg, …). */
  readonly units: Readonly<Record<string, string>>;
  /** A result's interpretation in words, per FHIR code (HH: "Critical high"). */
  readonly interpretation: Readonly<Record<string, string>>;
  /** The label per alarm rule (the alarm table, the site's VITALIS_ALARMS applied): "SpO2 low". */
  readonly alarmLabels: Readonly<Record<string, string>>;
  /** A result's unit on screen where the UCUM code is not readable as written. */
  readonly unitText: Readonly<Record<string, string>>;
}
