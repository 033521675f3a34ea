/**
 * How a query on the append log names a series (one patient's one code) so that the series index,
 * `(series_id, effective_at)` since migration 0037, serves it: by the series' key, looked up in the
 * dictionary `vitals_series` by a subquery the executor runs once per scan (none matches a series
 * never stored). The key alone, not the patient and code beside it: the planner would multiply
 * their selectivities with the key's, as if independent, and expect a handful of rows where a
 * series holds thousands (then sort them all instead of reading the index in order). The arguments
 * are SQL expressions (a parameter such as `$1`, a column such as `c.code`), never input.
 */

/** One series: `patient`'s rows of `code`. */
export function seriesOf(patient: string, code: string, alias = ''): string {
  return `${alias}series_id = (SELECT s.series_id FROM vitals_series s WHERE s.patient_id = ${patient} AND s.code = ${code})`;
}

/** Several series of one patient: the codes of `codes` (a text[] expression; NULL: every code), or every code when left out. */
export function seriesAmong(patient: string, codes?: string, alias = ''): string {
  const code = codes === undefined ? '' : ` AND (${codes} IS NULL OR s.code = ANY (${codes}))`;
  return `${alias}series_id = ANY (ARRAY(SELECT s.series_id FROM vitals_series s WHERE s.patient_id = ${patient}${code}))`;
}

/** Every series of several patients (`patients`: a text[] expression). */
export function seriesOfPatients(patients: string, alias = ''): string {
  return `${alias}series_id = ANY (ARRAY(SELECT s.series_id FROM vitals_series s WHERE s.patient_id = ANY (${patients})))`;
}
