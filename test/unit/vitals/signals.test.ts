import { describe, expect, it } from 'vitest';
import { NUMERIC_VITALS, validateObservation } from '@vitalis/schemas';
import { countRPeaks, deteriorationProgress, ECG_HZ, ecgAtPhase, ecgChunk, makeProfile, rng, sampleVital, trend } from '@vitalis/clinical';
import { demoPatientId, seqSeed } from '../../../apps/simulator/src/signals';

const T0 = Date.UTC(2026, 2, 1, 10, 0, 0);

describe('simulator signal generators', () => {
  it('is deterministic per seed', () => {
    const a = rng(1);
    const b = rng(1);
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
    expect(rng(2)()).not.toBe(rng(1)());
  });

  it('stable demo ids and restart-safe, increasing seq seeds', () => {
    expect([demoPatientId(0), demoPatientId(19)]).toEqual(['pat-0001', 'pat-0020']);
    expect(seqSeed(T0 + 1)).toBeGreaterThan(seqSeed(T0) + 999); // a restart a millisecond later starts above 1000 sends
    expect(Number.isSafeInteger(seqSeed(Date.UTC(2100, 0, 1)))).toBe(true);
  });

  it('stable patients stay in normal ranges; every sample is schema-valid', () => {
    const profile = makeProfile('pat-0001', 1, false, T0);
    const random = rng(3);
    for (let s = 0; s < 600; s += 7) {
      const at = T0 + s * 1000;
      for (const code of Object.keys(NUMERIC_VITALS) as (keyof typeof NUMERIC_VITALS)[]) {
        const value = sampleVital(profile, code, at, random);
        const r = validateObservation({
          patient_id: 'pat-0001',
          device_id: 'd',
          seq: s,
          effective_at: new Date(at).toISOString(),
          code,
          value,
          unit: NUMERIC_VITALS[code].unit,
        });
        expect(r.ok).toBe(true);
      }
      expect(trend(profile, at)['59408-5']).toBeGreaterThan(95);
      expect(trend(profile, at)['8867-4']).toBeLessThan(95);
    }
  });

  it('deteriorating patients: SpO2 falls, heart rate and respiratory rate rise over minutes after onset', () => {
    const profile = makeProfile('pat-0002', 2, true, T0, 60_000, 10 * 60_000);
    expect(deteriorationProgress(profile, T0)).toBe(0);
    expect(deteriorationProgress(profile, T0 + 60_000 + 5 * 60_000)).toBeCloseTo(0.5, 5);
    expect(deteriorationProgress(profile, T0 + 60 * 60_000)).toBe(1);
    const before = trend(profile, T0);
    const after = trend(profile, T0 + 11 * 60_000);
    expect(after['59408-5']).toBeLessThan(before['59408-5'] - 10);
    expect(after['8867-4']).toBeGreaterThan(before['8867-4'] + 40);
    expect(after['9279-1']).toBeGreaterThan(before['9279-1'] + 10);
  });

  it('synthesises a PQRST ECG: R peak at phase 0, one R peak per beat at the heart rate, chunks join', () => {
    expect(ecgAtPhase(0)).toBeGreaterThan(1);
    expect(ecgAtPhase(0.5)).toBeLessThan(0.2);
    const random = rng(4);
    const first = ecgChunk(ECG_HZ * 5, 60, 0.5, random);
    const second = ecgChunk(ECG_HZ * 5, 60, first.phase, random);
    const all = [...first.samples, ...second.samples];
    expect(all).toHaveLength(2_500);
    expect(countRPeaks(all)).toBe(10); // 60 bpm for 10 s
    expect(countRPeaks(ecgChunk(ECG_HZ * 10, 120, 0.5, random).samples)).toBe(20);
    expect(Math.max(...all)).toBeLessThan(10);
    expect(Math.min(...all)).toBeGreaterThan(-10);
  });
});
