/**
 * NEWS2, the Royal College of Physicians' National Early Warning Score 2 (December 2017).
 * A pure function of the latest observations: each parameter scores 0–3 by band, the bands
 * being inclusive on a continuous scale (a temperature of 38.05 °C scores like 38.0), and the
 * aggregate plus any single "red" score of 3 give the clinical risk.
 *
 * Missing parameters score nothing and are listed in `missing`: a bedside monitor measures five
 * of the seven, so a score from monitor data alone is a lower bound and says so (`complete`).
 *
 * The band table (`NEWS2_SCALES`) is exported as data: the monitor card colours its tiles from it
 * and the catalog's normal ranges are its 0-point bands, so nothing restates a threshold.
 */
import { OXYGEN_FLOW, VITAL_CODE, type VitalCode } from '@vitalis/schemas';

export type Consciousness = 'A' | 'C' | 'V' | 'P' | 'U';

export interface News2Input {
  /** Breaths per minute. */
  respiratoryRate?: number;
  /** Peripheral oxygen saturation, %. */
  spo2?: number;
  /** SpO2 scale 2 is for patients with confirmed hypercapnic respiratory failure (target 88–92%). */
  spo2Scale?: 1 | 2;
  supplementalOxygen?: boolean;
  /** Systolic blood pressure, mmHg. */
  systolic?: number;
  /** Pulse, beats per minute. */
  heartRate?: number;
  /** ACVPU: Alert, new Confusion, responds to Voice, to Pain, Unresponsive. */
  consciousness?: Consciousness;
  /** Body temperature, °C. */
  temperature?: number;
}

export const NEWS2_PARAMETERS = [
  'respiratoryRate',
  'spo2',
  'supplementalOxygen',
  'systolic',
  'heartRate',
  'consciousness',
  'temperature',
] as const;
export type News2Parameter = (typeof NEWS2_PARAMETERS)[number];

/** Each parameter as a person reads it (messages, cards): "missing respiratory rate, temperature". */
export const NEWS2_PARAMETER_WORDS: Readonly<Record<News2Parameter, string>> = {
  respiratoryRate: 'respiratory rate',
  spo2: 'SpO2',
  supplementalOxygen: 'air or oxygen',
  systolic: 'systolic pressure',
  heartRate: 'heart rate',
  consciousness: 'consciousness',
  temperature: 'temperature',
};

export type News2Risk = 'low' | 'low-medium' | 'medium' | 'high';

export interface News2Result {
  score: number;
  /** RCP thresholds: 0–4 low; a single parameter at 3 low-medium; 5–6 medium; 7+ high. */
  risk: News2Risk;
  /** Score of each parameter that was present. */
  parameters: Partial<Record<News2Parameter, number>>;
  missing: News2Parameter[];
  complete: boolean;
}

export type News2Score = 0 | 1 | 2 | 3;

/**
 * One parameter's bands as the RCP chart draws them, ascending: `[upTo, score]`, `upTo` inclusive in
 * charted units, `null` on the last band (everything above). Plain JSON on purpose (no Infinity):
 * the monitor card receives this very table, serialised into its document, and colours its tiles
 * from it, so the bedside colours cannot drift from the score.
 */
export type News2Bands = ReadonlyArray<readonly [upTo: number | null, score: News2Score]>;

export interface News2Scale {
  /** Decimals a value is charted to before banding (a monitor's 91.6 % is charted 92 %). */
  decimals: number;
  bands: News2Bands;
}

/** The banded NEWS2 parameters (RCP 2017, chart 1). Consciousness and air/oxygen are not banded. */
export const NEWS2_SCALES = {
  respiratoryRate: {
    decimals: 0,
    bands: [
      [8, 3],
      [11, 1],
      [20, 0],
      [24, 2],
      [null, 3],
    ],
  },
  /** SpO2 scale 1: every patient without hypercapnic respiratory failure (target 94–98 %). */
  spo2Scale1: {
    decimals: 0,
    bands: [
      [91, 3],
      [93, 2],
      [95, 1],
      [null, 0],
    ],
  },
  /** SpO2 scale 2 (target 88–92 %) on air: 93 % and above scores 0. */
  spo2Scale2Air: {
    decimals: 0,
    bands: [
      [83, 3],
      [85, 2],
      [87, 1],
      [null, 0],
    ],
  },
  /** SpO2 scale 2 on oxygen: above 92 % the oxygen is too much and scores again. */
  spo2Scale2Oxygen: {
    decimals: 0,
    bands: [
      [83, 3],
      [85, 2],
      [87, 1],
      [92, 0],
      [94, 1],
      [96, 2],
      [null, 3],
    ],
  },
  systolic: {
    decimals: 0,
    bands: [
      [90, 3],
      [100, 2],
      [110, 1],
      [219, 0],
      [null, 3],
    ],
  },
  heartRate: {
    decimals: 0,
    bands: [
      [40, 3],
      [50, 1],
      [90, 0],
      [110, 1],
      [130, 2],
      [null, 3],
    ],
  },
  /** Temperature keeps one decimal, as charted (38.04 °C is charted 38.0). */
  temperature: {
    decimals: 1,
    bands: [
      [35.0, 3],
      [36.0, 1],
      [38.0, 0],
      [39.0, 1],
      [null, 2],
    ],
  },
} as const satisfies Record<string, News2Scale>;

/**
 * The scale NEWS2 applies to each vital code of the vitals stream. SpO2 is scale 1: nothing in the
 * stream says a patient has hypercapnic failure, and `news2FromLatestVitals` scores it so too.
 */
export const NEWS2_SCALE_BY_VITAL_CODE: Readonly<Partial<Record<VitalCode, News2Scale>>> = {
  [VITAL_CODE.respiratoryRate]: NEWS2_SCALES.respiratoryRate,
  [VITAL_CODE.spo2]: NEWS2_SCALES.spo2Scale1,
  [VITAL_CODE.systolic]: NEWS2_SCALES.systolic,
  [VITAL_CODE.heartRate]: NEWS2_SCALES.heartRate,
  [VITAL_CODE.temperature]: NEWS2_SCALES.temperature,
};

/** The score of one value on one scale; the value is rounded to the charted decimals first. */
export function news2BandScore(scale: News2Scale, value: number): News2Score {
  const factor = 10 ** scale.decimals;
  const charted = Math.round(value * factor) / factor;
  for (const [upTo, score] of scale.bands) if (upTo === null || charted <= upTo) return score;
  throw new RangeError(`no NEWS2 band for ${value}`); // unreachable: the last band has no upper bound
}

/**
 * The band scoring 0, as charted values (`null`: open-ended). For scale 1 SpO2 that is ≥ 96 %; the
 * catalog's "normal" ranges and the monitor's tile captions are these bands.
 */
export function news2ZeroBand(scale: News2Scale): { low: number | null; high: number | null } {
  const i = scale.bands.findIndex(([, score]) => score === 0);
  const zeroBand = scale.bands[i];
  if (!zeroBand) throw new RangeError('scale has no 0-point band');
  const step = 10 ** -scale.decimals;
  const below = scale.bands[i - 1]?.[0] ?? null; // none below the first band
  return {
    low: below === null ? null : Number((below + step).toFixed(scale.decimals)),
    high: zeroBand[0],
  };
}

/**
 * The clinical risk of an aggregate (RCP 2017, chart 2), as data: aggregate bands ascending
 * (`[upTo, risk]`, `upTo` inclusive, `null` on the last), and the "single red parameter" rule (any
 * parameter scoring `redScore` lifts a `low` aggregate to `redRisk`). Plain JSON: the monitor card
 * receives this very table and computes the band of its total on it.
 */
export const NEWS2_RISK = {
  bands: [
    [4, 'low'],
    [6, 'medium'],
    [null, 'high'],
  ],
  redScore: 3,
  redRisk: 'low-medium',
} as const satisfies { bands: ReadonlyArray<readonly [number | null, News2Risk]>; redScore: News2Score; redRisk: News2Risk };

function riskOf(score: number, anyRed: boolean): News2Risk {
  const found = NEWS2_RISK.bands.find(([upTo]) => upTo === null || score <= upTo);
  if (!found) throw new RangeError(`no NEWS2 risk band for ${score}`); // unreachable: the last band has no upper bound
  const band = found[1];
  return band === 'low' && anyRed ? NEWS2_RISK.redRisk : band;
}

/** A banded parameter's score, or its name in `missing` (absent, or not a finite number). */
function scoreBanded(result: News2Result, name: News2Parameter, value: number | undefined, scale: News2Scale): void {
  if (value === undefined || !Number.isFinite(value)) result.missing.push(name);
  else result.parameters[name] = news2BandScore(scale, value);
}

/** The SpO2 scale that applies: scale 2 (hypercapnic failure) on air or on oxygen, else scale 1. */
function spo2Scale(input: News2Input): News2Scale {
  if (input.spo2Scale !== 2) return NEWS2_SCALES.spo2Scale1;
  return input.supplementalOxygen ? NEWS2_SCALES.spo2Scale2Oxygen : NEWS2_SCALES.spo2Scale2Air;
}

/** NEWS2 of one set of observations. No closure or array pass per call: the ingest scores a patient on every NEWS2 input it reads. */
export function news2(input: News2Input): News2Result {
  const result: News2Result = { score: 0, risk: 'low', parameters: {}, missing: [], complete: false };
  const S = NEWS2_SCALES;
  scoreBanded(result, 'respiratoryRate', input.respiratoryRate, S.respiratoryRate);
  scoreBanded(result, 'spo2', input.spo2, spo2Scale(input));
  if (input.supplementalOxygen === undefined) result.missing.push('supplementalOxygen');
  else result.parameters.supplementalOxygen = input.supplementalOxygen ? 2 : 0;
  scoreBanded(result, 'systolic', input.systolic, S.systolic);
  scoreBanded(result, 'heartRate', input.heartRate, S.heartRate);
  if (input.consciousness === undefined) result.missing.push('consciousness');
  else result.parameters.consciousness = input.consciousness === 'A' ? 0 : 3;
  scoreBanded(result, 'temperature', input.temperature, S.temperature);

  let anyRed = false;
  for (const name of NEWS2_PARAMETERS) {
    const points = result.parameters[name];
    if (points === undefined) continue;
    result.score += points;
    if (points === NEWS2_RISK.redScore) anyRed = true;
  }
  result.risk = riskOf(result.score, anyRed);
  result.complete = result.missing.length === 0;
  return result;
}

/** The codes NEWS2 reads from the vitals stream (by name, from their owner @vitalis/schemas). */
export const NEWS2_LOINC = {
  heartRate: VITAL_CODE.heartRate,
  spo2: VITAL_CODE.spo2,
  systolic: VITAL_CODE.systolic,
  respiratoryRate: VITAL_CODE.respiratoryRate,
  temperature: VITAL_CODE.temperature,
  /** Inhaled oxygen flow rate (L/min): any flow above zero means supplemental oxygen. */
  oxygenFlow: OXYGEN_FLOW.code,
} as const;

/** The codes whose latest value NEWS2 reads: a score from `news2FromLatestVitals` changes only when one of these does. */
export const NEWS2_INPUT_CODES: ReadonlySet<string> = new Set(Object.values(NEWS2_LOINC));

/** NEWS2 from the latest value per LOINC code (as the append log or a read model holds them). */
export function news2FromLatestVitals(latest: Readonly<Record<string, number>>): News2Result {
  const flow = latest[NEWS2_LOINC.oxygenFlow];
  return news2({
    heartRate: latest[NEWS2_LOINC.heartRate],
    spo2: latest[NEWS2_LOINC.spo2],
    systolic: latest[NEWS2_LOINC.systolic],
    respiratoryRate: latest[NEWS2_LOINC.respiratoryRate],
    temperature: latest[NEWS2_LOINC.temperature],
    supplementalOxygen: flow === undefined ? undefined : flow > 0,
  });
}
