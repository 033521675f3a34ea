/**
 * Pure, deterministic signal generators (no I/O, seeded randomness), shared by the bedside
 * simulator (apps/simulator) and the gateway's synthetic sandbox patients (apps/gateway/src/vitals/synthetic.ts),
 * so the unit tests can pin their behaviour.
 *
 * A patient has a baseline (heart rate, SpO2, blood pressure, respiratory rate, temperature) and,
 * if deteriorating, an onset time and a duration over which SpO2 falls, heart rate and respiratory
 * rate rise and blood pressure drops (a sepsis / respiratory failure picture an early-warning score
 * should catch). The ECG is a synthetic PQRST complex (sum of Gaussians, after McSharry et al. 2003)
 * at the current heart rate, sampled at 250 Hz.
 */
import { NUMERIC_VITALS, VITAL_CODE, type NumericVitalCode } from '@vitalis/schemas';

const C = VITAL_CODE;

/** Small, fast, seedable PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Standard normal from a uniform source (Box-Muller). */
export function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export interface PatientProfile {
  patientId: string;
  heartRate: number;
  spo2: number;
  systolic: number;
  diastolic: number;
  respiratoryRate: number;
  temperature: number;
  /** Deterioration: starts at onsetMs (epoch ms) and reaches full effect after durationMs. */
  deterioration?: { onsetMs: number; durationMs: number };
}

export function makeProfile(
  patientId: string,
  seed: number,
  deteriorating: boolean,
  startMs: number,
  onsetAfterMs = 60_000,
  durationMs = 10 * 60_000,
): PatientProfile {
  const r = rng(seed);
  const jitter = (mean: number, spread: number) => mean + (r() * 2 - 1) * spread;
  return {
    patientId,
    heartRate: jitter(74, 10),
    spo2: jitter(97.5, 1),
    systolic: jitter(122, 10),
    diastolic: jitter(78, 6),
    respiratoryRate: jitter(15, 2),
    temperature: jitter(36.8, 0.3),
    ...(deteriorating ? { deterioration: { onsetMs: startMs + onsetAfterMs, durationMs } } : {}),
  };
}

/** 0 before onset, rising smoothly to 1 at onset + duration. */
export function deteriorationProgress(profile: PatientProfile, atMs: number): number {
  const d = profile.deterioration;
  if (!d || atMs <= d.onsetMs) return 0;
  const x = Math.min(1, (atMs - d.onsetMs) / d.durationMs);
  return x * x * (3 - 2 * x); // smoothstep
}

const clamp = (v: number, code: NumericVitalCode) => Math.min(NUMERIC_VITALS[code].max, Math.max(NUMERIC_VITALS[code].min, v));
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The underlying (noise-free) value of each vital at a time. */
export function trend(profile: PatientProfile, atMs: number): Record<NumericVitalCode, number> {
  const p = deteriorationProgress(profile, atMs);
  const breathing = Math.sin((2 * Math.PI * atMs) / 60_000); // slow physiological drift, one-minute period
  return {
    [C.heartRate]: profile.heartRate + 55 * p + 2 * breathing,
    [C.spo2]: profile.spo2 - 12 * p,
    [C.systolic]: profile.systolic - 30 * p + 3 * breathing,
    [C.diastolic]: profile.diastolic - 18 * p + 2 * breathing,
    [C.respiratoryRate]: profile.respiratoryRate + 14 * p,
    [C.temperature]: profile.temperature + 1.6 * p,
  };
}

const NOISE: Record<NumericVitalCode, [sd: number, digits: number]> = {
  [C.heartRate]: [1.5, 0],
  [C.spo2]: [0.4, 0],
  [C.systolic]: [2, 0],
  [C.diastolic]: [1.5, 0],
  [C.respiratoryRate]: [0.6, 0],
  [C.temperature]: [0.03, 1],
};

/** One noisy, device-rounded, range-clamped reading. */
export function sampleVital(profile: PatientProfile, code: NumericVitalCode, atMs: number, random: () => number): number {
  const [sd, digits] = NOISE[code];
  return clamp(round(trend(profile, atMs)[code] + sd * gaussian(random), digits), code);
}

// ---- ECG -------------------------------------------------------------------------------------

/** PQRST waves as Gaussians: [phase (fraction of the RR interval from the R peak), amplitude mV, width]. */
const PQRST: [phase: number, amplitude: number, width: number][] = [
  [-0.2, 0.12, 0.025], // P
  [-0.035, -0.12, 0.01], // Q
  [0, 1.2, 0.012], // R
  [0.035, -0.25, 0.01], // S
  [0.3, 0.3, 0.05], // T
];

/** ECG potential (mV) at `phase` in [0, 1) of the beat (0 = R peak). */
export function ecgAtPhase(phase: number): number {
  let v = 0;
  for (const [center, amplitude, width] of PQRST) {
    // wrap the distance so waves near the ends of the cycle are continuous
    let d = phase - center;
    d -= Math.round(d);
    v += amplitude * Math.exp(-(d * d) / (2 * width * width));
  }
  return v;
}

export const ECG_HZ = 250;
export const ECG_PERIOD_MS = 1000 / ECG_HZ;

/**
 * `count` samples starting at `startMs` at 250 Hz, for a heart rate `bpm`. `beatPhase` carries the
 * phase between chunks so consecutive chunks join without a seam; returns the phase after the chunk.
 */
export function ecgChunk(count: number, bpm: number, beatPhase: number, random: () => number): { samples: number[]; phase: number } {
  const samples = new Array<number>(count);
  const phasePerSample = bpm / 60 / ECG_HZ;
  let phase = beatPhase;
  for (let i = 0; i < count; i++) {
    samples[i] = Math.round((ecgAtPhase(phase) + 0.01 * gaussian(random)) * 1000) / 1000;
    phase = (phase + phasePerSample) % 1;
  }
  return { samples, phase };
}

/** Counts R peaks (local maxima above 0.6 mV) in a sampled trace. */
export function countRPeaks(samples: number[]): number {
  let peaks = 0;
  // a window of three sliding over the trace; NaN before the first two samples compares false, so
  // the first and the last sample are never peaks
  let [before, x] = [NaN, NaN];
  for (const after of samples) {
    if (x > 0.6 && x >= before && x > after) peaks++;
    [before, x] = [x, after];
  }
  return peaks;
}
