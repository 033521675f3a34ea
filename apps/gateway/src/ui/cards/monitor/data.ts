/**
 * What the monitor card's script receives as JSON (`DATA`, from `MONITOR_SCRIPT_DATA` in
 * ../../monitor.ts): the vital codes by name, the NEWS2 scale per code (SpO2 on scale 1) and the
 * tile alarm per parameter score. Types only, and structural: the browser code does not load the
 * server's modules (their types reach Node's); ../../monitor.ts declares its data
 * `satisfies MonitorData`, so the two cannot part.
 */

export type TileAlarm = 'none' | 'warn' | 'crit';

/** A NEWS2 parameter score (0–3): `News2Score` of @vitalis/clinical. */
export type Score = 0 | 1 | 2 | 3;

/** `News2Scale` of @vitalis/clinical: charted decimals, bands as [inclusive upper bound or null, score]. */
export interface Scale {
  readonly decimals: number;
  readonly bands: ReadonlyArray<readonly [upTo: number | null, score: Score]>;
}

export interface MonitorData {
  readonly code: Readonly<Record<'heartRate' | 'spo2' | 'systolic' | 'diastolic' | 'respiratoryRate' | 'temperature' | 'ecgLeadII', string>>;
  readonly scales: Readonly<Partial<Record<string, Scale>>>;
  readonly alarmByScore: Readonly<Record<Score, TileAlarm>>;
}
