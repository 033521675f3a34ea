/**
 * What the search card's script receives as JSON (`DATA`, from `searchScriptData()` in
 * ../../search.ts). Types only, and structural (the browser code does not load the server's
 * modules); ../../search.ts declares its data `satisfies SearchData`.
 */
export interface SearchData {
  /** Screen label and unit per vital code. */
  readonly vitalNames: Readonly<Record<string, readonly [label: string, unit: string]>>;
  /** The vitals in the order shown (the systolic code stands for blood pressure as one value). */
  readonly order: readonly string[];
  /** Blood pressure: shown as "BP systolic/diastolic". */
  readonly bp: { readonly systolic: string; readonly diastolic: string };
  /** Seconds per vital code after which a value is stale (the site's VITALIS_ALARMS applied). */
  readonly staleAfter: Readonly<Record<string, number>>;
  /** The codes NEWS2 is computed from. */
  readonly news2Codes: readonly string[];
}
