/**
 * The ingest writes an ECG chunk's folded samples into its COPY text with `foldedSamplesText`
 * (digits written from 0.1 µV steps): it must give exactly what `samples.join(',')` gives, so the
 * append log stores the same `real[]` as before, for every step the schema lets through (|potential|
 * <= 20 mV) and beyond, and it must fall back to `join` for anything off the grid.
 */
import { describe, expect, it } from 'vitest';
import { foldedSamples, foldedSamplesText, SAMPLE_STEPS_PER_MV } from '@vitalis/live';

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

  it('falls back to join off the grid, out of range and for non-finite values', () => {
    for (const odd of [[0.00001], [0.1, 0.123456], [100], [-123.4], [Number.NaN], [Number.POSITIVE_INFINITY], [1e-7], [-0]]) {
      expect(foldedSamplesText(odd)).toBe(odd.join(','));
    }
  });
});
