/**
 * The `code` of an Observation search or `$lastn` as the codes it asks for: a token list (comma:
 * OR, search-params `vitalCodesOf` for the stored vital codes, 2708-6 as SpO2) plus LOINC 85354-9,
 * the blood-pressure panel the read side pairs systolic and diastolic into (docs/adr/0026).
 */
import { BP_PANEL_CODE, LOINC_SYSTEM } from '@vitalis/schemas';
import { tokensOf, vitalCodesOf } from './search-params';

/** The codes a `code` value asks for: undefined when absent, null when no token can match anything served. */
export function observationCodesOf(value: string | undefined): string[] | undefined | null {
  if (value === undefined) return undefined;
  const panel = tokensOf(value).some(
    (t) => t.code === BP_PANEL_CODE && (t.system === undefined || t.system === '' || t.system === LOINC_SYSTEM),
  );
  const codes = [...(vitalCodesOf(value) ?? []), ...(panel ? [BP_PANEL_CODE] : [])];
  return codes.length > 0 ? codes : null;
}
