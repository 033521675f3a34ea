/**
 * Diagnostic reference data, in one place: the tests a clinician may order (LOINC), the results a
 * department may report (LOINC, UCUM unit, reference range, critical limits), and the rules that
 * turn a value into a FHIR interpretation (L/H/LL/HH/N, A/AA) and a critical result.
 *
 * Codes checked against LOINC (loinc.org) and the US Core clinical-test value set: 58410-2 CBC
 * panel (automated count), 51990-0 basic metabolic panel (blood), 10839-9 troponin I (mass/volume),
 * 89579-7 troponin I high-sensitivity, 2524-7 lactate (moles/volume, serum or plasma), 24336-0 gas
 * panel (arterial blood), 34534-8 12 lead EKG panel, 11524-6 EKG study (a rhythm strip is an EKG
 * study of one lead), 36643-5 XR chest 2 views.
 *
 * Ranges and critical limits are adult defaults for a demo; a site sets its own (the decision
 * limit of a troponin assay is its 99th percentile upper reference limit). One table, so a limit
 * is never written twice.
 */

export const LOINC = 'http://loinc.org';

/**
 * The diagnostic LOINC codes by name: this module is their one owner (test/unit/clinical/codes.test.ts),
 * everything else names them from here.
 */
export const DIAGNOSTIC_CODE = {
  cbcPanel: '58410-2',
  basicMetabolicPanel: '51990-0',
  troponinI: '10839-9',
  troponinIHighSensitivity: '89579-7',
  lactate: '2524-7',
  bloodGasPanel: '24336-0',
  ecg12Lead: '34534-8',
  ecgStudy: '11524-6',
  chestXray: '36643-5',
  potassium: '2823-3',
  sodium: '2951-2',
  chloride: '2075-0',
  co2Total: '2028-9',
  ureaNitrogen: '3094-0',
  creatinine: '2160-0',
  glucose: '2345-7',
  calcium: '17861-6',
  hemoglobin: '718-7',
  leukocytes: '6690-2',
  platelets: '777-3',
  arterialPh: '2744-1',
  arterialPco2: '2019-8',
  arterialPo2: '2703-7',
  ecgImpression: '8601-7',
  radiologyNarrative: '18782-3',
} as const;
const C = DIAGNOSTIC_CODE;
export const UCUM = 'http://unitsofmeasure.org';

/** HL7 v2 table 0074, the diagnostic service section a report comes from. */
export type DiagnosticSection = 'LAB' | 'EC' | 'RAD';

export interface OrderableTest {
  code: string;
  display: string;
  section: DiagnosticSection;
  /** The department that performs it (ServiceRequest.performer). */
  performer: string;
}

/** What may be ordered, by LOINC code. */
export const ORDERABLE_TESTS = {
  [C.cbcPanel]: { code: C.cbcPanel, display: 'CBC panel - Blood by Automated count', section: 'LAB', performer: 'Laboratory' },
  [C.basicMetabolicPanel]: {
    code: C.basicMetabolicPanel,
    display: 'Basic metabolic panel - Blood',
    section: 'LAB',
    performer: 'Laboratory',
  },
  [C.troponinI]: {
    code: C.troponinI,
    display: 'Troponin I.cardiac [Mass/volume] in Serum or Plasma',
    section: 'LAB',
    performer: 'Laboratory',
  },
  [C.troponinIHighSensitivity]: {
    code: C.troponinIHighSensitivity,
    display: 'Troponin I.cardiac [Mass/volume] in Serum or Plasma by High sensitivity method',
    section: 'LAB',
    performer: 'Laboratory',
  },
  [C.lactate]: { code: C.lactate, display: 'Lactate [Moles/volume] in Serum or Plasma', section: 'LAB', performer: 'Laboratory' },
  [C.bloodGasPanel]: { code: C.bloodGasPanel, display: 'Gas panel - Arterial blood', section: 'LAB', performer: 'Laboratory' },
  [C.ecg12Lead]: { code: C.ecg12Lead, display: '12 lead EKG panel', section: 'EC', performer: 'Cardiology' },
  [C.ecgStudy]: { code: C.ecgStudy, display: 'EKG study', section: 'EC', performer: 'Cardiology' },
  [C.chestXray]: { code: C.chestXray, display: 'XR Chest 2 Views', section: 'RAD', performer: 'Radiology' },
} as const satisfies Record<string, OrderableTest>;

export type OrderableCode = keyof typeof ORDERABLE_TESTS;
export const ORDERABLE_CODES = Object.keys(ORDERABLE_TESTS) as OrderableCode[];
export const isOrderableCode = (code: string): code is OrderableCode => Object.hasOwn(ORDERABLE_TESTS, code);

export interface Limits {
  low?: number;
  high?: number;
}

export interface QuantityAnalyte {
  kind: 'quantity';
  code: string;
  /** The LOINC long common name (FHIR Coding.display). */
  display: string;
  /** The clinical name a person reads on a screen ("Potassium"; FHIR code.text). */
  short: string;
  /** UCUM code (also the unit shown). */
  unit: string;
  reference: Limits;
  /** A value below `low` or above `high` is a critical result. */
  critical: Limits;
}

/** A finding in words (an ECG or imaging impression); the performer says whether it is abnormal (A) or critical (AA). */
export interface NarrativeAnalyte {
  kind: 'narrative';
  code: string;
  display: string;
  short: string;
}

export type Analyte = QuantityAnalyte | NarrativeAnalyte;

const q = (code: string, short: string, display: string, unit: string, reference: Limits, critical: Limits = {}): QuantityAnalyte => ({
  kind: 'quantity',
  code,
  display,
  short,
  unit,
  reference,
  critical,
});

/** What may be reported, by LOINC code: units, reference ranges and critical limits in one table. */
export const ANALYTES: Record<string, Analyte> = Object.fromEntries(
  [
    // basic metabolic panel
    q(C.potassium, 'Potassium', 'Potassium [Moles/volume] in Serum or Plasma', 'mmol/L', { low: 3.5, high: 5.1 }, { low: 2.5, high: 6.0 }),
    q(C.sodium, 'Sodium', 'Sodium [Moles/volume] in Serum or Plasma', 'mmol/L', { low: 136, high: 145 }, { low: 120, high: 160 }),
    q(C.chloride, 'Chloride', 'Chloride [Moles/volume] in Serum or Plasma', 'mmol/L', { low: 98, high: 107 }),
    q(
      C.co2Total,
      'Bicarbonate (total CO₂)',
      'Carbon dioxide, total [Moles/volume] in Serum or Plasma',
      'mmol/L',
      { low: 22, high: 29 },
      { low: 10, high: 40 },
    ),
    q(C.ureaNitrogen, 'Urea nitrogen (BUN)', 'Urea nitrogen [Mass/volume] in Serum or Plasma', 'mg/dL', { low: 7, high: 20 }),
    q(C.creatinine, 'Creatinine', 'Creatinine [Mass/volume] in Serum or Plasma', 'mg/dL', { low: 0.6, high: 1.3 }),
    q(C.glucose, 'Glucose', 'Glucose [Mass/volume] in Serum or Plasma', 'mg/dL', { low: 70, high: 99 }, { low: 40, high: 500 }),
    q(C.calcium, 'Calcium', 'Calcium [Mass/volume] in Serum or Plasma', 'mg/dL', { low: 8.6, high: 10.3 }, { low: 6.0, high: 13.0 }),
    // CBC
    q(C.hemoglobin, 'Haemoglobin', 'Hemoglobin [Mass/volume] in Blood', 'g/dL', { low: 12.0, high: 17.5 }, { low: 7.0, high: 20.0 }),
    q(
      C.leukocytes,
      'White cell count',
      'Leukocytes [#/volume] in Blood by Automated count',
      '10*3/uL',
      { low: 4.0, high: 11.0 },
      { low: 2.0, high: 30.0 },
    ),
    q(
      C.platelets,
      'Platelets',
      'Platelets [#/volume] in Blood by Automated count',
      '10*3/uL',
      { low: 150, high: 400 },
      { low: 20, high: 1000 },
    ),
    // lactate, troponin: critical above the decision limit
    q(C.lactate, 'Lactate', 'Lactate [Moles/volume] in Serum or Plasma', 'mmol/L', { low: 0.5, high: 2.2 }, { high: 4.0 }),
    q(C.troponinI, 'Troponin I', 'Troponin I.cardiac [Mass/volume] in Serum or Plasma', 'ng/mL', { high: 0.04 }, { high: 0.04 }),
    q(
      C.troponinIHighSensitivity,
      'Troponin I (high-sensitivity)',
      'Troponin I.cardiac [Mass/volume] in Serum or Plasma by High sensitivity method',
      'ng/L',
      { high: 26 },
      { high: 26 },
    ),
    // arterial blood gas
    q(C.arterialPh, 'Arterial pH', 'pH of Arterial blood', '[pH]', { low: 7.35, high: 7.45 }, { low: 7.2, high: 7.6 }),
    q(
      C.arterialPco2,
      'Arterial pCO₂',
      'Carbon dioxide [Partial pressure] in Arterial blood',
      'mm[Hg]',
      { low: 35, high: 45 },
      { low: 20, high: 70 },
    ),
    q(C.arterialPo2, 'Arterial pO₂', 'Oxygen [Partial pressure] in Arterial blood', 'mm[Hg]', { low: 80, high: 100 }, { low: 40 }),
    // ECG and imaging impressions
    { kind: 'narrative', code: C.ecgImpression, display: 'EKG impression', short: 'ECG impression' } as NarrativeAnalyte,
    {
      kind: 'narrative',
      code: C.radiologyNarrative,
      display: 'Radiology Study observation (narrative)',
      short: 'Imaging report',
    } as NarrativeAnalyte,
  ].map((a) => [a.code, a]),
);

export const isAnalyteCode = (code: string): boolean => Object.hasOwn(ANALYTES, code);

/** FHIR R4 v3-ObservationInterpretation codes Vitalis uses. */
export type Interpretation = 'N' | 'L' | 'H' | 'LL' | 'HH' | 'A' | 'AA';
export const INTERPRETATION_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
export const INTERPRETATION_DISPLAY: Record<Interpretation, string> = {
  N: 'Normal',
  L: 'Low',
  H: 'High',
  LL: 'Critical low',
  HH: 'Critical high',
  A: 'Abnormal',
  AA: 'Critical abnormal',
};

/** The interpretation of a numeric value against its analyte's limits (critical first, then the reference range). */
export function interpretQuantity(a: QuantityAnalyte, value: number): Interpretation {
  if (a.critical.low !== undefined && value < a.critical.low) return 'LL';
  if (a.critical.high !== undefined && value > a.critical.high) return 'HH';
  if (a.reference.low !== undefined && value < a.reference.low) return 'L';
  if (a.reference.high !== undefined && value > a.reference.high) return 'H';
  return 'N';
}

/**
 * The critical limit a value crossed (`side` low: below `limit`; high: above it), or null when it
 * is not critical by its analyte's limits (a narrative AA has no number to cross).
 */
export function criticalLimitCrossed(a: Analyte | undefined, value: number | undefined): { side: 'low' | 'high'; limit: number } | null {
  if (a?.kind !== 'quantity' || value === undefined) return null;
  if (a.critical.low !== undefined && value < a.critical.low) return { side: 'low', limit: a.critical.low };
  if (a.critical.high !== undefined && value > a.critical.high) return { side: 'high', limit: a.critical.high };
  return null;
}

/** LL, HH and AA are critical results: they must reach a clinician and be acknowledged. */
export const isCriticalInterpretation = (i: Interpretation): boolean => i === 'LL' || i === 'HH' || i === 'AA';
