/**
 * What the append log's columns store (libs/db migrations 0002, 0021), as JavaScript sees it read
 * back: the one place the published bounds of a stored number come from.
 *  - `value` is `double precision`: every finite number is stored and read back unchanged.
 *  - `sample_period_ms` is `real` (float4): `float4` says what PostgreSQL reads back; a period it
 *    would change (more than float4 precision) is refused at the edge, never rounded.
 *  - an ECG chunk's potentials are absolute, at 0.1 µV (`quantisedPotential`), stored as whole
 *    numbers of steps (`sample_steps bytea`, migration 0036; @vitalis/live `sampleStepsBytes`):
 *    within the published ±10 mV origin and sample, every one is exact. Rows stored before 0036
 *    hold them as `real[]`, which held each exactly too (at most 6 significant digits).
 */

/** The append log stores ECG potentials in steps of 0.1 µV (finer than ECG front ends resolve). */
export const SAMPLE_STEPS_PER_MV = 10_000;

/**
 * The potential the append log stores for one sample: origin + sample rounded to the nearest
 * 0.1 µV step, `Math.round((origin + sample) * 10000) / 10000` in IEEE 754 doubles (a half step
 * rounds toward +∞), and never -0.
 */
export const quantisedPotential = (origin: number, sample: number): number => stepPotential(potentialStep(origin, sample));

/** A whole number of 0.1 µV steps as the potential in mV it reads back as: k / 10,000, never -0. */
export const stepPotential = (k: number): number => k / SAMPLE_STEPS_PER_MV || 0;

/** origin + sample as its whole number of 0.1 µV steps: `quantisedPotential` × 10,000, exactly. */
export const potentialStep = (origin: number, sample: number): number => Math.round((sample + origin) * SAMPLE_STEPS_PER_MV);

/**
 * The most 0.1 µV steps a stored potential counts either way: 200,000 (±20 mV, a ±10 mV origin plus
 * a ±10 mV sample). A v2 frame's `sample_steps` may carry exactly the potentials the log holds.
 */
export const MAX_SAMPLE_STEPS = 200_000;

/**
 * A waveform's stored potentials as whole 0.1 µV steps, folded once (the ingest derives the stored
 * bytes and the live text from them): `potentialStep` of each sample, -0 as 0.
 */
export function waveformSteps(w: { origin: number; samples: readonly number[] }): Int32Array {
  const n = w.samples.length;
  const steps = new Int32Array(n);
  for (let i = 0; i < n; i++) steps[i] = potentialStep(w.origin, w.samples[i] ?? 0);
  return steps;
}

/** Steps as the potentials in mV they read back as (`stepPotential` of each: what every output writes). */
export function stepPotentials(steps: ArrayLike<number>): number[] {
  const n = steps.length;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = stepPotential(steps[i] ?? 0);
  return out;
}

/** A period the `real` column reads back unchanged (what `period_ms` must be): float4(x) === x. */
export const isFloat4Exact = (x: number): boolean => Number.isFinite(x) && float4(x) === x;

/**
 * A number as a `real` column reads it back: rounded to float4, printed by PostgreSQL as the
 * shortest decimal that rounds to the same float4 (PostgreSQL 12+), parsed by node-postgres.
 */
export function float4(x: number): number {
  const v = Math.fround(x);
  if (v === 0 || !Number.isFinite(v)) return v;
  // A decimal of at most 6 significant digits is the shortest one of its float4 (FLT_DIG = 6:
  // no two such decimals share a float4), so it reads back unchanged. The common case for device
  // data; sums (origin + sample) and long decimals take the exact path below.
  if (significantDigits(x) <= 6) return x;
  // Shorter than six digits would have been found above. Per length, the p-digit decimal nearest
  // to v (ties to even, as PostgreSQL's Ryu printer), else its neighbours (the interval of a power
  // of two is narrower below it); the first that rounds back to v is PostgreSQL's answer.
  for (let p = 6; p <= 9; p++) {
    for (const d of nearestDecimals(v, p)) if (Math.fround(d) === v) return d;
  }
  return v; // not reached: nine digits always identify a float4
}

/** The p-significant-digit decimal nearest to v (ties to even), then the one above and the one below it. */
function nearestDecimals(v: number, p: number): number[] {
  const [mantissa, exponent] = v.toExponential(100).split('e') as [string, string]; // exact for a float4
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  let kept = BigInt(digits.slice(0, p));
  const rest = digits.slice(p);
  const beyondHalf = /[1-9]/.test(rest.slice(1));
  const next = rest.charAt(0); // the first digit dropped
  if (next > '5' || (next === '5' && (beyondHalf || kept % 2n === 1n))) kept += 1n;
  const scale = Number(exponent) - (p - 1);
  return [kept, kept + 1n, kept - 1n].map((k) => Number(`${sign}${k}e${scale}`));
}

/** Significant digits of a number's shortest decimal (JS `String`), leading and trailing zeros aside. */
function significantDigits(x: number): number {
  const s = String(x);
  const e = s.indexOf('e');
  const digits = (e < 0 ? s : s.slice(0, e)).replace('-', '').replace('.', '');
  let start = 0;
  let end = digits.length;
  while (start < end && digits[start] === '0') start++;
  while (end > start && digits[end - 1] === '0') end--;
  return end - start;
}
