/**
 * NEWS2, the Royal College of Physicians' National Early Warning Score 2 (December 2017).
 * A pure function of the latest observations: each parameter scores 0–3 by band, the bands
 * being inclusive on a continuous scale (a temperature of 38.05 °C scores like 38.0), and the
 * aggregate plus any single "red" score of 3 give the clinical risk.
 *
 * Missing parameters score nothing and are listed in `missing`: a bedside monitor measures five
 * of the seven, so a score from monitor data alone is a lower bound and says so (`complete`).
 */

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

export type News2Parameter = 'respiratoryRate' | 'spo2' | 'supplementalOxygen' | 'systolic' | 'heartRate' | 'consciousness' | 'temperature';

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

/** [upper bound inclusive, score] bands, ascending; the last band catches everything above. */
type Bands = ReadonlyArray<readonly [number, number]>;

const RESPIRATION: Bands = [[8, 3], [11, 1], [20, 0], [24, 2], [Infinity, 3]];
const SPO2_SCALE_1: Bands = [[91, 3], [93, 2], [95, 1], [Infinity, 0]];
const SPO2_SCALE_2_AIR: Bands = [[83, 3], [85, 2], [87, 1], [Infinity, 0]];
const SPO2_SCALE_2_OXYGEN: Bands = [[83, 3], [85, 2], [87, 1], [92, 0], [94, 1], [96, 2], [Infinity, 3]];
const SYSTOLIC: Bands = [[90, 3], [100, 2], [110, 1], [219, 0], [Infinity, 3]];
const PULSE: Bands = [[40, 3], [50, 1], [90, 0], [110, 1], [130, 2], [Infinity, 3]];
const TEMPERATURE: Bands = [[35.0, 3], [36.0, 1], [38.0, 0], [39.0, 1], [Infinity, 2]];

/**
 * Integer-charted parameters are rounded first (a monitor's 91.6% is charted 92%); temperature
 * keeps one decimal, as charted.
 */
function band(bands: Bands, value: number, decimals = 0): number {
  const factor = 10 ** decimals;
  const charted = Math.round(value * factor) / factor;
  for (const [upper, score] of bands) if (charted <= upper) return score;
  throw new RangeError(`no NEWS2 band for ${value}`); // unreachable: the last band is Infinity
}

function riskOf(score: number, anyRed: boolean): News2Risk {
  if (score >= 7) return 'high';
  if (score >= 5) return 'medium';
  return anyRed ? 'low-medium' : 'low';
}

export function news2(input: News2Input): News2Result {
  const parameters: Partial<Record<News2Parameter, number>> = {};
  const missing: News2Parameter[] = [];
  const score = (name: News2Parameter, value: number | undefined, compute: (v: number) => number): void => {
    if (value === undefined || !Number.isFinite(value)) missing.push(name);
    else parameters[name] = compute(value);
  };

  score('respiratoryRate', input.respiratoryRate, (v) => band(RESPIRATION, v));
  score('spo2', input.spo2, (v) => {
    if (input.spo2Scale !== 2) return band(SPO2_SCALE_1, v);
    return band(input.supplementalOxygen ? SPO2_SCALE_2_OXYGEN : SPO2_SCALE_2_AIR, v);
  });
  if (input.supplementalOxygen === undefined) missing.push('supplementalOxygen');
  else parameters.supplementalOxygen = input.supplementalOxygen ? 2 : 0;
  score('systolic', input.systolic, (v) => band(SYSTOLIC, v));
  score('heartRate', input.heartRate, (v) => band(PULSE, v));
  if (input.consciousness === undefined) missing.push('consciousness');
  else parameters.consciousness = input.consciousness === 'A' ? 0 : 3;
  score('temperature', input.temperature, (v) => band(TEMPERATURE, v, 1));

  const values = Object.values(parameters);
  const total = values.reduce((sum, v) => sum + v, 0);
  return { score: total, risk: riskOf(total, values.includes(3)), parameters, missing, complete: missing.length === 0 };
}

/** LOINC codes NEWS2 reads from the vitals stream. */
export const NEWS2_LOINC = {
  heartRate: '8867-4',
  spo2: '59408-5',
  systolic: '8480-6',
  respiratoryRate: '9279-1',
  temperature: '8310-5',
  /** Inhaled oxygen flow rate (L/min): any flow above zero means supplemental oxygen. */
  oxygenFlow: '3151-8',
} as const;

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
