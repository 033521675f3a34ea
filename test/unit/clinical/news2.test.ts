import { describe, expect, it } from 'vitest';
import { ESI_LEVELS, isEsiLevel, news2, news2FromLatestVitals, NEWS2_INPUT_CODES, type News2Input } from '@vitalis/clinical';
import { OXYGEN_FLOW, VITAL_CODE } from '@vitalis/schemas';

/** A healthy adult on air, alert: every parameter scores 0. */
const normal: News2Input = {
  respiratoryRate: 16,
  spo2: 98,
  supplementalOxygen: false,
  systolic: 120,
  heartRate: 72,
  consciousness: 'A',
  temperature: 37,
};

describe('NEWS2 bands (RCP 2017 chart)', () => {
  const cases: Array<[string, News2Input, number]> = [
    ['respiration 8', { respiratoryRate: 8 }, 3],
    ['respiration 9', { respiratoryRate: 9 }, 1],
    ['respiration 11', { respiratoryRate: 11 }, 1],
    ['respiration 12', { respiratoryRate: 12 }, 0],
    ['respiration 20', { respiratoryRate: 20 }, 0],
    ['respiration 21', { respiratoryRate: 21 }, 2],
    ['respiration 24', { respiratoryRate: 24 }, 2],
    ['respiration 25', { respiratoryRate: 25 }, 3],
    ['SpO2 91', { spo2: 91 }, 3],
    ['SpO2 92', { spo2: 92 }, 2],
    ['SpO2 93', { spo2: 93 }, 2],
    ['SpO2 94', { spo2: 94 }, 1],
    ['SpO2 95', { spo2: 95 }, 1],
    ['SpO2 96', { spo2: 96 }, 0],
    ['SpO2 91.6 is charted 92', { spo2: 91.6 }, 2],
    ['oxygen', { supplementalOxygen: true }, 2],
    ['systolic 90', { systolic: 90 }, 3],
    ['systolic 91', { systolic: 91 }, 2],
    ['systolic 100', { systolic: 100 }, 2],
    ['systolic 101', { systolic: 101 }, 1],
    ['systolic 110', { systolic: 110 }, 1],
    ['systolic 111', { systolic: 111 }, 0],
    ['systolic 219', { systolic: 219 }, 0],
    ['systolic 220', { systolic: 220 }, 3],
    ['pulse 40', { heartRate: 40 }, 3],
    ['pulse 41', { heartRate: 41 }, 1],
    ['pulse 50', { heartRate: 50 }, 1],
    ['pulse 51', { heartRate: 51 }, 0],
    ['pulse 90', { heartRate: 90 }, 0],
    ['pulse 91', { heartRate: 91 }, 1],
    ['pulse 110', { heartRate: 110 }, 1],
    ['pulse 111', { heartRate: 111 }, 2],
    ['pulse 130', { heartRate: 130 }, 2],
    ['pulse 131', { heartRate: 131 }, 3],
    ['new confusion', { consciousness: 'C' }, 3],
    ['unresponsive', { consciousness: 'U' }, 3],
    ['temperature 35.0', { temperature: 35.0 }, 3],
    ['temperature 35.1', { temperature: 35.1 }, 1],
    ['temperature 36.0', { temperature: 36.0 }, 1],
    ['temperature 36.1', { temperature: 36.1 }, 0],
    ['temperature 38.0', { temperature: 38.0 }, 0],
    ['temperature 38.04 is charted 38.0', { temperature: 38.04 }, 0],
    ['temperature 38.1', { temperature: 38.1 }, 1],
    ['temperature 39.0', { temperature: 39.0 }, 1],
    ['temperature 39.1', { temperature: 39.1 }, 2],
  ];
  it.each(cases)('%s scores %i', (_name, change, expected) => {
    expect(news2({ ...normal, ...change }).score).toBe(expected);
  });

  it('SpO2 scale 2 (hypercapnic) scores 88–92 as 0 and high saturations on oxygen as a risk', () => {
    expect(news2({ ...normal, spo2Scale: 2, spo2: 88 }).parameters.spo2).toBe(0);
    expect(news2({ ...normal, spo2Scale: 2, spo2: 87 }).parameters.spo2).toBe(1);
    expect(news2({ ...normal, spo2Scale: 2, spo2: 83 }).parameters.spo2).toBe(3);
    expect(news2({ ...normal, spo2Scale: 2, spo2: 98 }).parameters.spo2).toBe(0); // on air
    expect(news2({ ...normal, spo2Scale: 2, spo2: 93, supplementalOxygen: true }).parameters.spo2).toBe(1);
    expect(news2({ ...normal, spo2Scale: 2, spo2: 96, supplementalOxygen: true }).parameters.spo2).toBe(2);
    expect(news2({ ...normal, spo2Scale: 2, spo2: 97, supplementalOxygen: true }).parameters.spo2).toBe(3);
  });
});

describe('NEWS2 risk', () => {
  it('0 is low and complete', () => {
    expect(news2(normal)).toEqual({
      score: 0,
      risk: 'low',
      parameters: { respiratoryRate: 0, spo2: 0, supplementalOxygen: 0, systolic: 0, heartRate: 0, consciousness: 0, temperature: 0 },
      missing: [],
      complete: true,
    });
  });
  it('a single red parameter makes an aggregate of 3 low-medium', () => {
    expect(news2({ ...normal, consciousness: 'V' })).toMatchObject({ score: 3, risk: 'low-medium' });
  });
  it('4 without a red parameter is low', () => {
    expect(news2({ ...normal, respiratoryRate: 22, heartRate: 115 })).toMatchObject({ score: 4, risk: 'low' });
  });
  it('5–6 is medium, 7 and above high', () => {
    expect(news2({ ...normal, respiratoryRate: 22, heartRate: 115, temperature: 38.5 })).toMatchObject({ score: 5, risk: 'medium' });
    // A deteriorating septic patient: RR 26 (3), SpO2 91 (3), oxygen (2), SBP 95 (2), HR 125 (2), alert, 39.2 °C (2).
    expect(
      news2({
        respiratoryRate: 26,
        spo2: 91,
        supplementalOxygen: true,
        systolic: 95,
        heartRate: 125,
        consciousness: 'A',
        temperature: 39.2,
      }),
    ).toMatchObject({ score: 14, risk: 'high', complete: true });
  });
});

describe('NEWS2 from the vitals stream', () => {
  it('reads LOINC codes and lists what a monitor does not measure', () => {
    const result = news2FromLatestVitals({ '8867-4': 135, '59408-5': 89, '8480-6': 88, '9279-1': 27, '8310-5': 37.2, '8462-4': 50 });
    expect(result.parameters).toEqual({ heartRate: 3, spo2: 3, systolic: 3, respiratoryRate: 3, temperature: 0 });
    expect(result).toMatchObject({ score: 12, risk: 'high', complete: false });
    expect(result.missing.sort()).toEqual(['consciousness', 'supplementalOxygen']);
  });
  it('an oxygen flow above zero counts as supplemental oxygen', () => {
    expect(news2FromLatestVitals({ '3151-8': 2 }).parameters.supplementalOxygen).toBe(2);
    expect(news2FromLatestVitals({ '3151-8': 0 }).parameters.supplementalOxygen).toBe(0);
  });
  it('changes only when a code of NEWS2_INPUT_CODES changes (the ingest keeps a score until one does)', () => {
    // a healthy adult on air (every parameter 0 points); then each code in turn at 1, which scores wherever NEWS2 reads it
    const C = VITAL_CODE;
    const latest = {
      [C.heartRate]: 72,
      [C.spo2]: 98,
      [C.systolic]: 120,
      [C.diastolic]: 80,
      [C.respiratoryRate]: 16,
      [C.temperature]: 37,
      [C.ecgLeadII]: 0.5,
      [OXYGEN_FLOW.code]: 0,
    };
    const before = news2FromLatestVitals(latest);
    expect(before.score).toBe(0);
    for (const code of Object.keys(latest)) {
      const moved = news2FromLatestVitals({ ...latest, [code]: 1 });
      expect([code, moved.score > 0]).toEqual([code, NEWS2_INPUT_CODES.has(code)]);
    }
    expect(NEWS2_INPUT_CODES.size).toBe(6);
  });
  it('ignores non-finite values rather than scoring them', () => {
    expect(news2({ heartRate: Number.NaN }).missing).toContain('heartRate');
  });
});

describe('ESI', () => {
  it('has five levels', () => {
    expect(ESI_LEVELS).toEqual([1, 2, 3, 4, 5]);
    expect(isEsiLevel(3)).toBe(true);
    expect(isEsiLevel(0)).toBe(false);
    expect(isEsiLevel('1')).toBe(false);
  });
});
