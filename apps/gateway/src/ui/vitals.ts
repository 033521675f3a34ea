/**
 * How the cards show a vital: a short screen label and a screen unit (mmHg, °C: not the wire's UCUM
 * `mm[Hg]`, `Cel`), keyed by the codes of @vitalis/schemas, read from each sign's definition there. A card's script receives what it needs
 * as JSON data (`scriptData`) rather than restating a code or a number in its own text.
 */
import { NUMERIC_VITALS, type NumericVitalCode } from '@vitalis/schemas';

/** Each numeric vital's screen label and unit, from its one definition (@vitalis/schemas NUMERIC_VITALS). */
export const VITAL_LABELS: Readonly<Record<NumericVitalCode, { label: string; unit: string }>> = Object.fromEntries(
  Object.values(NUMERIC_VITALS).map((v) => [v.code, { label: v.label, unit: v.screenUnit }]),
) as Record<NumericVitalCode, { label: string; unit: string }>;

/**
 * How the cards show a result's UCUM unit where it is not readable as written (the rest are shown
 * as they are: mmol/L, mg/dL, g/dL, ng/mL). `[pH]` has no unit on screen.
 */
export const ANALYTE_UNIT_TEXT: Readonly<Record<string, string>> = { '10*3/uL': '×10³/µL', 'mm[Hg]': 'mmHg', '[pH]': '' };

/**
 * A value as a JavaScript literal for a card's inline script: JSON, with `<` escaped so no data can
 * close the script element or open a comment in it.
 */
export function scriptData(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
