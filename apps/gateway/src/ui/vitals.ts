/**
 * How the cards show a vital: a short screen label and a screen unit (mmHg, °C: not the wire's UCUM
 * `mm[Hg]`, `Cel`), keyed by the codes of @vitalis/schemas. A card's script receives what it needs
 * as JSON data (`scriptData`) rather than restating a code or a number in its own text.
 */
import { VITAL_CODE, type NumericVitalCode } from '@vitalis/schemas';

export const VITAL_LABELS: Readonly<Record<NumericVitalCode, { label: string; unit: string }>> = {
  [VITAL_CODE.heartRate]: { label: 'HR', unit: '/min' },
  [VITAL_CODE.spo2]: { label: 'SpO₂', unit: '%' },
  [VITAL_CODE.systolic]: { label: 'Sys', unit: 'mmHg' },
  [VITAL_CODE.diastolic]: { label: 'Dia', unit: 'mmHg' },
  [VITAL_CODE.respiratoryRate]: { label: 'RR', unit: '/min' },
  [VITAL_CODE.temperature]: { label: 'Temp', unit: '°C' },
};

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
