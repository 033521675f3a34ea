import { describe, expect, it } from 'vitest';
import { AlertEngine } from '../../../apps/ingest/src/live/rules';
import { assertMayAccessVitals as assertMayWatch } from '../../../apps/gateway/src/vitals/service';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const spo2 = (value: number, s: number) => ({ patient_id: 'p', code: '59408-5', value, at: t0 + s * 1000 });
const states = (e: AlertEngine, inputs: ReturnType<typeof spo2>[]) => inputs.flatMap((i) => e.evaluate(i).map((d) => `${d.rule}:${d.state}`));

describe('alert rules', () => {
  it('SpO2 < 90 % raises only after 10 s continuously low, and clears at >= 92 %', () => {
    const e = new AlertEngine();
    expect(states(e, [spo2(89, 0), spo2(88, 5), spo2(88, 9.9)])).toEqual([]);
    expect(states(e, [spo2(87, 10)])).toEqual(['spo2-low:raised']);
    expect(states(e, [spo2(86, 15), spo2(91, 16)])).toEqual([]); // still active, 91 is inside the hysteresis
    expect(states(e, [spo2(92, 17)])).toEqual(['spo2-low:cleared']);
  });

  it('a single normal reading restarts the 10 s window', () => {
    const e = new AlertEngine();
    expect(states(e, [spo2(89, 0), spo2(95, 6), spo2(89, 7), spo2(89, 12)])).toEqual([]);
    expect(states(e, [spo2(89, 17)])).toEqual(['spo2-low:raised']);
  });

  it('heart rate > 130 raises, <= 120 clears; patients are independent', () => {
    const e = new AlertEngine();
    const hr = (patient_id: string, value: number) => e.evaluate({ patient_id, code: '8867-4', value, at: t0 }).map((d) => `${d.rule}:${d.state}`);
    expect(hr('a', 131)).toEqual(['hr-high:raised']);
    expect(hr('b', 125)).toEqual([]);
    expect(hr('a', 125)).toEqual([]);
    expect(hr('a', 120)).toEqual(['hr-high:cleared']);
  });

  it('NEWS2 >= 7 from the latest values raises (high severity), <= 4 clears', () => {
    const e = new AlertEngine();
    const obs = (code: string, value: number) => e.evaluate({ patient_id: 'n', code, value, at: t0 }).map((d) => `${d.rule}:${d.state}`);
    expect(obs('9279-1', 26)).toEqual([]); // RR >= 25: 3
    expect(obs('8480-6', 88)).toEqual([]); // systolic <= 90: 3 → 6
    expect(obs('8310-5', 39.5)).toEqual(['news2-high:raised']); // temp >= 39.1: 2 → 8
    expect(obs('9279-1', 16)).toEqual([]); // → 5
    expect(obs('8480-6', 120)).toEqual(['news2-high:cleared']); // → 2
  });
});

describe('who may watch', () => {
  const base = { clientId: 'c', subject: 's', scopes: ['read:vitals' as const], roles: ['nurse' as const], tokenId: 'j', expiresAt: 0, authMethod: 'client_secret' as const, derivedFrom: [], sandbox: false };
  it('a patient user only their own id; clinicians and machines any', () => {
    expect(() => assertMayWatch({ ...base, patientId: 'me' }, ['me'])).not.toThrow();
    expect(() => assertMayWatch({ ...base, patientId: 'me' }, ['me', 'other'])).toThrow(/own vitals/);
    expect(() => assertMayWatch(base, ['a', 'b'])).not.toThrow();
  });
});
