/**
 * The live path writes an ECG chunk's folded samples with `foldedSamplesText` (digits written from
 * 0.1 µV steps; `encodeBatch`, `eventJson`): it must give exactly JSON's text of the array (which
 * is `samples.join(',')` for finite numbers) for every step the schema lets through (|potential|
 * <= 20 mV) and beyond, and fall back to JSON.stringify for anything off the grid.
 */
import { describe, expect, it } from 'vitest';
import { foldedSamples, foldedSamplesText, SAMPLE_STEPS_PER_MV, storedObservation } from '@vitalis/live';
import { ECG_LEAD_II, MAX_SAMPLE_STEPS, stepPotentials, type VitalsObservation } from '@vitalis/schemas';

/** The samples the ingest publishes for a chunk of whole steps: made from the steps by `storedObservation`, written from them. */
function publishedSamples(steps: Int32Array): number[] {
  const o = { patient_id: 'p', device_id: 'd', seq: 1, effective_at: '2026-12-01T00:00:00Z', code: ECG_LEAD_II.code, unit: 'mV' };
  const chunk = { ...o, waveform: { origin: 0, period_ms: 4, samples: stepPotentials(steps) } } as VitalsObservation;
  return (storedObservation(chunk, steps) as { waveform: { samples: number[] } }).waveform.samples;
}

describe('foldedSamplesText', () => {
  it('equals join for every 0.1 µV step within ±25 mV', () => {
    const limit = 25 * SAMPLE_STEPS_PER_MV;
    for (let from = -limit; from <= limit; from += 2_500) {
      const chunk = Array.from({ length: 2_500 }, (_, i) => (from + i) / SAMPLE_STEPS_PER_MV);
      expect(foldedSamplesText(chunk)).toBe(chunk.join(','));
    }
  });

  it('equals join for folded waveforms (origin added) and the largest steps it writes', () => {
    const samples = Array.from({ length: 250 }, (_, i) => Math.sin(i / 7) * 1.37 + (i % 3) * 0.00017);
    for (const origin of [0, -0.5, 0.12345, 3]) {
      const folded = foldedSamples({ origin, samples });
      expect(foldedSamplesText(folded)).toBe(folded.join(','));
    }
    expect(foldedSamplesText([99.9999, -99.9999, 0.0001, -0.0001, 10, -10])).toBe('99.9999,-99.9999,0.0001,-0.0001,10,-10');
    expect(foldedSamplesText([])).toBe('');
  });

  it("is JSON's text off the grid, out of range and for non-finite values (join's for finite ones)", () => {
    for (const odd of [[0.00001], [0.1, 0.123456], [100], [-123.4], [1e-7], [-0], [1e21]]) {
      expect(foldedSamplesText(odd)).toBe(odd.join(','));
      expect(foldedSamplesText(odd)).toBe(JSON.stringify(odd).slice(1, -1));
    }
    for (const odd of [[Number.NaN], [Number.POSITIVE_INFINITY], [1, Number.NEGATIVE_INFINITY]]) {
      expect(foldedSamplesText(odd)).toBe(JSON.stringify(odd).slice(1, -1));
    }
  });

  it("writes samples made from whole steps (the ingest's) from the steps: join for every step the schema takes, and beyond", () => {
    for (let from = -MAX_SAMPLE_STEPS; from <= MAX_SAMPLE_STEPS; from += 2_500) {
      const samples = publishedSamples(Int32Array.from({ length: 2_500 }, (_, i) => from + i));
      expect(foldedSamplesText(samples)).toBe(samples.join(','));
    }
    for (const steps of [[999_999, -999_999, 1, -1, 0], [1_000_000], [-1_000_000, 5], []]) {
      const samples = publishedSamples(Int32Array.from(steps));
      expect(foldedSamplesText(samples)).toBe(JSON.stringify(samples).slice(1, -1));
    }
  });
});
