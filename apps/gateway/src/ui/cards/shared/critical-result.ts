/**
 * A critical diagnostic result as a clinician reads it, on every card that shows one (the monitor's
 * alarm panel; the triage board renders the same words): "Potassium 6.8 mmol/L (critical > 6.0)",
 * the interpretation in words ("critical high", never "HH"), the report status ("Preliminary
 * report"), and who acknowledged it. Pure functions of the server's record (REST
 * `GET /api/v1/diagnostics/critical-results`, the board's `critical_results`, the MCP tools' flat
 * form: the same fields) and of the tables the card's `DATA` carries (`ResultTables`: the
 * interpretation words of @vitalis/clinical and the screen units), no DOM:
 * test/unit/ui/critical-result.test.ts imports them directly.
 */

/** One result of a critical report (`CriticalResultValue`). */
export interface CriticalValue {
  code: string;
  /** The clinical name ("Potassium"); `display` is the LOINC long name. */
  name?: string;
  display?: string;
  value?: number;
  unit?: string;
  /** A finding in words (ECG impression). */
  text?: string;
  /** FHIR v3 interpretation code (HH, LL, AA, …). */
  interpretation?: string;
  /** The critical limit the value crossed. */
  crossed?: { side: 'low' | 'high'; limit: number } | null;
}

/** One critical result (`CriticalResult`: REST, the board, MCP). */
export interface CriticalResult {
  critical_id: string;
  report_id: string;
  patient_id?: string;
  report_status?: string;
  state: 'open' | 'escalated' | 'acknowledged';
  results?: CriticalValue[];
  raised_at: string;
  due_at: string;
  escalated_at?: string | null;
  acknowledged_at?: string | null;
  /** The user id; never an app. */
  acknowledged_by?: string | null;
  acknowledged_by_name?: string | null;
  note?: string | null;
}

/** What a card needs from the server to word a result: interpretation words per code, screen units where the UCUM code is not readable. */
export interface ResultTables {
  readonly interpretation: Readonly<Record<string, string>>;
  readonly unitText: Readonly<Record<string, string>>;
}

/** The report's status in words. */
export const REPORT_STATUS: Readonly<Record<string, string>> = {
  registered: 'Registered',
  partial: 'Partial report',
  preliminary: 'Preliminary report',
  final: 'Final report',
  amended: 'Amended report',
  corrected: 'Corrected report',
  cancelled: 'Cancelled report',
};

export const reportStatusText = (status: string | undefined): string | null =>
  status ? REPORT_STATUS[status] || status + ' report' : null;

const unitText = (t: ResultTables, unit: string | undefined) =>
  unit === undefined ? '' : ((Object.hasOwn(t.unitText, unit) ? t.unitText[unit] : undefined) ?? unit); // no text of its own: the unit

/** Decimals as written (6.8: 1): a limit is shown with at least the value's (6.0 beside 6.8, not 6). */
const decimals = (n: number) => (String(n).split('.')[1] || '').length;

/** The analyte's clinical name: `name`, else the LOINC display without its bracketed property, else the code. */
export const resultName = (r: CriticalValue): string => r.name || String(r.display || r.code).replace(/ \[[\s\S]*/, '');

/** "Potassium 6.8 mmol/L (critical > 6.0)"; a finding in words: "ECG impression: <text>". */
export function resultText(t: ResultTables, r: CriticalValue): string {
  const name = resultName(r);
  if (r.value === undefined) return name + ': ' + (r.text || '');
  const unit = unitText(t, r.unit);
  const value = name + ' ' + r.value + (unit ? ' ' + unit : '');
  return r.crossed
    ? value +
        ' (critical ' +
        (r.crossed.side === 'high' ? '> ' : '< ') +
        r.crossed.limit.toFixed(Math.max(decimals(r.value), decimals(r.crossed.limit))) +
        ')'
    : value;
}

/** The interpretation in words, lower case ("critical high"); empty without one. */
export const interpretationText = (t: ResultTables, r: CriticalValue): string =>
  r.interpretation ? (t.interpretation[r.interpretation] || r.interpretation).toLowerCase() : '';

/** Every result of the report, worded and joined ("Potassium 6.8 mmol/L (critical > 6.0)"). */
export const criticalWhat = (t: ResultTables, c: CriticalResult): string => (c.results || []).map((r) => resultText(t, r)).join('; ');

/** Who acknowledged it: the display name, else the user id. */
export const acknowledgerOf = (c: CriticalResult): string => c.acknowledged_by_name || c.acknowledged_by || 'unknown';
