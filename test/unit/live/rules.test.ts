import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALARM_CONDITIONS,
  DEFAULT_ALARM_SETTINGS,
  limitConditionHolds,
  parseAlarmSettings,
  type LimitCondition,
} from '@vitalis/clinical';
import { parseConfig } from '@vitalis/config';
import { VITAL_CODE, type VitalsObservation } from '@vitalis/schemas';
import { AlertEngine, evaluatedConditions, limitEdge, type RuleInput } from '../../../apps/ingest/src/live/rules';
import { alertData } from '../../../apps/ingest/src/live/stage';
import { ingestAlarms, ingestConfigShape } from '../../../apps/ingest/src/config';
import { assertMayAccessVitals as assertMayWatch } from '../../../apps/gateway/src/vitals/service';

const C = VITAL_CODE;
const t0 = Date.parse('2026-01-01T00:00:00Z');
const at = (s: number) => t0 + s * 1000;
const obs = (code: string, value: number, s: number, patient_id = 'p'): RuleInput => ({ patient_id, code, value, at: at(s) });
const spo2 = (value: number, s: number) => obs(C.spo2, value, s);
/** rule:state of each decision, in order. */
const states = (e: AlertEngine, inputs: RuleInput[]) => inputs.flatMap((i) => e.evaluate(i).map((d) => `${d.rule}:${d.state}`));

/** A value on each side of a limit condition's edge: one where it holds, one where it does not. */
function valuesOf(c: LimitCondition): { holding: number; normal: number } {
  const edge = limitEdge(c)!;
  const normals: Record<string, number> = {
    [C.spo2]: 97,
    [C.heartRate]: 75,
    [C.respiratoryRate]: 16,
    [C.systolic]: 125,
    [C.temperature]: 37,
  };
  const normal = normals[c.code]!;
  return { holding: edge.value, normal };
}

describe('alarm conditions on the stream (the settings drive the engine)', () => {
  it("evaluates every limit and NEWS2 condition of the table, never the watchdog's disconnect", () => {
    const rules = evaluatedConditions(DEFAULT_ALARM_SETTINGS).map((c) => c.rule);
    expect(rules).toEqual(
      Object.values(DEFAULT_ALARM_CONDITIONS)
        .filter((c) => c.source !== 'disconnect')
        .map((c) => c.rule),
    );
    expect(rules).not.toContain('device-disconnected');
    expect(rules.length).toBe(10);
  });

  it('the limit in a message is where the condition starts holding (read from the NEWS2 scale)', () => {
    for (const c of evaluatedConditions(DEFAULT_ALARM_SETTINGS)) {
      if (c.source !== 'limit') continue;
      const edge = limitEdge(c)!;
      const step = c.code === C.temperature ? 0.1 : 1;
      expect(limitConditionHolds(c, edge.value), `${c.rule} at ${edge.value}`).toBe(true);
      const inside = Number((edge.op === '≤' ? edge.value + step : edge.value - step).toFixed(1));
      expect(limitConditionHolds(c, inside), `${c.rule} at ${inside}`).toBe(false);
    }
    expect(limitEdge(DEFAULT_ALARM_CONDITIONS['spo2-low'] as LimitCondition)).toEqual({ op: '≤', value: 91 });
    expect(limitEdge(DEFAULT_ALARM_CONDITIONS['hr-high'] as LimitCondition)).toEqual({ op: '≥', value: 131 });
    expect(limitEdge(DEFAULT_ALARM_CONDITIONS['temp-high'] as LimitCondition)).toEqual({ op: '≥', value: 39.1 });
  });

  it.each(
    evaluatedConditions(DEFAULT_ALARM_SETTINGS)
      .filter((c): c is LimitCondition => c.source === 'limit')
      .map((c) => [c.rule, c] as const),
  )(
    '%s raises only once it has held for its onset delay, with its priority, kind, latching and label, and clears once it has ended for its end delay',
    (_, c) => {
      const e = new AlertEngine();
      const { holding, normal } = valuesOf(c);
      const delay = c.onsetDelaySeconds;
      const only = (inputs: RuleInput[]) => inputs.flatMap((i) => e.evaluate(i)).filter((d) => d.rule === c.rule);
      if (delay > 0) {
        // held for less than the delay, then a normal value: nothing; the wait starts again
        expect(only([obs(c.code, holding, 0), obs(c.code, holding, delay - 0.5), obs(c.code, normal, delay)])).toEqual([]);
        expect(only([obs(c.code, holding, delay + 1), obs(c.code, holding, 2 * delay + 0.5), obs(c.code, normal, 99)])).toEqual([]);
      }
      const raised = only([obs(c.code, holding, 100), obs(c.code, holding, 100 + delay)]);
      expect(raised).toEqual([
        {
          rule: c.rule,
          state: 'raised',
          priority: c.priority,
          kind: 'physiological',
          latching: c.latching,
          label: c.label,
          value: holding,
          message: expect.stringContaining(`${limitEdge(c)!.op} ${limitEdge(c)!.value}`),
        },
      ]);
      expect(only([obs(c.code, holding, 200)])).toEqual([]); // still active: raised once
      expect(c.endDelaySeconds).toBeGreaterThan(0);
      expect(only([obs(c.code, normal, 201), obs(c.code, normal, 201 + c.endDelaySeconds - 0.5)])).toEqual([]); // absent, not for long enough
      expect(only([obs(c.code, normal, 201 + c.endDelaySeconds)]).map((d) => d.state)).toEqual(['cleared']);
      expect(only([obs(c.code, normal, 300)])).toEqual([]);
    },
  );

  it('SpO2 ≤ 91 % raises after 10 s continuously low, with the value and limit in the message; ≥ 92 % clears it', () => {
    const e = new AlertEngine();
    expect(states(e, [spo2(89, 0), spo2(88, 5), spo2(88, 9.9)])).toEqual([]);
    const [raise] = e.evaluate(spo2(88, 12));
    expect(raise).toMatchObject({
      rule: 'spo2-low',
      state: 'raised',
      priority: 'high',
      latching: true,
      label: 'SpO2 low',
      value: 88,
      message: 'SpO2 low: 88 % (≤ 91 % for 12 s)',
    });
    expect(states(e, [spo2(86, 15), spo2(91, 16)])).toEqual([]); // still low: 91 scores 3
    expect(states(e, [spo2(92, 17), spo2(94, 26)])).toEqual([]); // absent for 9 s: its 10 s end delay runs
    const [clear] = e.evaluate(spo2(93, 27));
    expect(clear).toMatchObject({ rule: 'spo2-low', state: 'cleared', value: 93, message: 'SpO2 low ended: 93 % (alarm at ≤ 91 %)' });
  });

  it('a single normal reading restarts the onset wait', () => {
    const e = new AlertEngine();
    expect(states(e, [spo2(89, 0), spo2(95, 6), spo2(89, 7), spo2(89, 12)])).toEqual([]);
    expect(states(e, [spo2(89, 17)])).toEqual(['spo2-low:raised']);
  });

  it('a condition with no onset delay raises at once (systolic ≤ 90, in mmHg)', () => {
    const e = new AlertEngine();
    const [d] = e.evaluate(obs(C.systolic, 87, 0));
    expect(d).toMatchObject({ rule: 'sys-low', state: 'raised', priority: 'high', message: 'Systolic pressure low: 87 mmHg (≤ 90 mmHg)' });
    // a cuff reads every few minutes: the first reading above the limit starts the end wait, the next one ends it
    expect(states(e, [obs(C.systolic, 91, 600)])).toEqual([]);
    expect(states(e, [obs(C.systolic, 96, 900)])).toEqual(['sys-low:cleared']);
  });

  it('a value hovering at a limit (systolic 90, 91, 90, … every second) raises one alarm and keeps it', () => {
    const e = new AlertEngine();
    const hovering = Array.from({ length: 600 }, (_, s) => obs(C.systolic, s % 2 === 0 ? 90 : 91, s));
    expect(states(e, hovering)).toEqual(['sys-low:raised']);
    // above the limit for its end delay: it ends, once
    expect(
      states(
        e,
        Array.from({ length: 11 }, (_, i) => obs(C.systolic, 91, 600 + i)),
      ),
    ).toEqual(['sys-low:cleared']);
  });

  it('one reading back inside the condition restarts the end wait', () => {
    const e = new AlertEngine();
    expect(
      states(e, [
        obs(C.systolic, 85, 0),
        obs(C.systolic, 95, 1),
        obs(C.systolic, 95, 9),
        obs(C.systolic, 89, 10),
        obs(C.systolic, 95, 11),
        obs(C.systolic, 95, 20),
      ]),
    ).toEqual(['sys-low:raised']);
    expect(states(e, [obs(C.systolic, 95, 21)])).toEqual(['sys-low:cleared']);
  });

  it('an end delay of 0 (VITALIS_ALARMS end_delay_s) ends at the first reading outside the condition; the disconnect alarm has none', () => {
    const e = new AlertEngine(parseAlarmSettings(JSON.stringify({ conditions: { 'sys-low': { end_delay_s: 0 } } })));
    expect(states(e, [obs(C.systolic, 85, 0), obs(C.systolic, 91, 1)])).toEqual(['sys-low:raised', 'sys-low:cleared']);
    expect(() => parseAlarmSettings(JSON.stringify({ conditions: { 'device-disconnected': { end_delay_s: 5 } } }))).toThrow(
      /device-disconnected.end_delay_s: device-disconnected has no end delay/,
    );
  });

  it('priorities come from the table: high, medium and low', () => {
    const e = new AlertEngine();
    const priority = (code: string, value: number, rule: string) =>
      e.evaluate(obs(code, value, 0, `p-${rule}`)).find((d) => d.rule === rule)?.priority;
    expect(priority(C.systolic, 230, 'sys-high')).toBe('medium');
    expect(priority(C.temperature, 39.5, 'temp-high')).toBe('low');
    expect(priority(C.systolic, 80, 'sys-low')).toBe('high');
  });

  it('NEWS2 ≥ 7 from the latest values raises (high, latching), ≤ 4 clears, 5-6 keeps it', () => {
    const e = new AlertEngine();
    const news = (code: string, value: number, s = 0) => states(e, [obs(code, value, s, 'n')]).filter((x) => x.startsWith('news2'));
    expect(news(C.respiratoryRate, 23)).toEqual([]); // RR 21-24: 2
    expect(news(C.systolic, 95)).toEqual([]); // systolic 91-100: 2 → 4
    expect(news(C.heartRate, 125)).toEqual([]); // HR 111-130: 2 → 6
    const raised = e.evaluate(obs(C.temperature, 39.5, 0, 'n')).find((d) => d.rule === 'news2-high'); // temp ≥ 39.1: 2 → 8
    expect(raised).toMatchObject({ state: 'raised', priority: 'high', latching: true, value: 8 });
    expect(raised!.message).toBe('NEWS2 high: 8 (≥ 7, high risk, missing SpO2, air or oxygen, consciousness)');
    expect(news(C.heartRate, 100)).toEqual([]); // HR 91-110: 1 → 7
    expect(news(C.systolic, 105)).toEqual([]); // 1 → 6: still raised (hysteresis)
    expect(news(C.respiratoryRate, 16, 1)).toEqual([]); // 0 → 4: absent, its end delay runs
    expect(news(C.respiratoryRate, 16, 11)).toEqual(['news2-high:cleared']);
  });

  it("the issue's patient (HR 137, SpO2 85, BP 87/50, RR 27) raises hr-high, spo2-low (after 10 s), sys-low, rr-high and news2-high", () => {
    const e = new AlertEngine();
    const second = (s: number) => [obs(C.heartRate, 137, s), obs(C.spo2, 85, s), obs(C.respiratoryRate, 27, s)];
    // the cuff reads once, the monitor every second
    expect(states(e, [obs(C.systolic, 87, 0), obs(C.diastolic, 50, 0)])).toEqual(['sys-low:raised']);
    const raised: string[] = [];
    for (let s = 0; s <= 10; s++) raised.push(...states(e, second(s)).map((x) => `${s}s ${x}`));
    expect(raised).toEqual(['0s news2-high:raised', '5s hr-high:raised', '10s spo2-low:raised', '10s rr-high:raised']);
    expect(states(e, second(11))).toEqual([]);
  });

  it('a site override (VITALIS_ALARMS: a longer SpO2 delay) changes when SpO2 raises', () => {
    const site = new AlertEngine(
      parseAlarmSettings(JSON.stringify({ conditions: { 'spo2-low': { onset_delay_s: 30, priority: 'medium' } } })),
    );
    const plain = new AlertEngine();
    const low = [0, 10, 20, 29].map((s) => spo2(88, s));
    expect(states(plain, low)).toEqual(['spo2-low:raised']);
    expect(states(site, low)).toEqual([]);
    const [d] = site.evaluate(spo2(88, 30));
    expect(d).toMatchObject({ rule: 'spo2-low', state: 'raised', priority: 'medium', message: 'SpO2 low: 88 % (≤ 91 % for 30 s)' });
  });

  it("restores active alarms (the ingest's rules only) and clears them, never raising twice; patients are independent", () => {
    const e = new AlertEngine();
    e.restore('a', ['hr-high', 'device-disconnected', 'no-such-rule']);
    expect(states(e, [obs(C.heartRate, 140, 0, 'a'), obs(C.heartRate, 140, 10, 'a')])).toEqual([]);
    expect(states(e, [obs(C.heartRate, 140, 0, 'b'), obs(C.heartRate, 140, 5, 'b')])).toEqual(['hr-high:raised']);
    expect(states(e, [obs(C.heartRate, 120, 11, 'a')])).toEqual([]);
    expect(states(e, [obs(C.heartRate, 120, 21, 'a')])).toEqual(['hr-high:cleared']);
    expect(e.sweep(0, Date.now() + 1)).toBe(1); // a: nothing active any more; b: hr-high still active
  });
});

describe("alert data (the ingest's raise event)", () => {
  const o = {
    patient_id: 'p1',
    device_id: 'd1',
    seq: 7,
    code: C.spo2,
    effective_at: '2026-01-01T00:00:12.000Z',
    value: 88,
    unit: '%',
  } as unknown as VitalsObservation;
  const decision = (priority: 'high' | 'medium' | 'low', state: 'raised' | 'cleared' = 'raised') =>
    ({
      rule: 'spo2-low',
      state,
      priority,
      kind: 'physiological',
      latching: true,
      label: 'SpO2 low',
      message: 'SpO2 low: 88 % (≤ 91 % for 12 s)',
      value: 88,
    }) as const;

  it("carries priority (and severity, the same), kind, latching, label, due_at and the Flag's flag-priority extension", () => {
    const d = alertData(DEFAULT_ALARM_SETTINGS, o, 3, 1042, decision('high'));
    expect(d).toMatchObject({
      rule: 'spo2-low',
      state: 'raised',
      priority: 'high',
      severity: 'high',
      kind: 'physiological',
      latching: true,
      label: 'SpO2 low',
      due_at: '2026-01-01T00:01:12.000Z',
    });
    expect(d.flag).toMatchObject({
      resourceType: 'Flag',
      status: 'active',
      extension: [
        {
          url: 'http://hl7.org/fhir/StructureDefinition/flag-priority',
          valueCodeableConcept: { coding: [{ system: 'http://hl7.org/fhir/flag-priority-code', code: 'PH', display: 'High priority' }] },
        },
      ],
    });
    expect(
      (alertData(DEFAULT_ALARM_SETTINGS, o, 3, 1042, decision('medium')).flag as any).extension[0].valueCodeableConcept.coding[0].code,
    ).toBe('PM');
    const low = alertData(DEFAULT_ALARM_SETTINGS, o, 3, 1042, decision('low'));
    expect((low.flag as any).extension[0].valueCodeableConcept.coding[0].code).toBe('PL');
    expect(low.due_at).toBeNull(); // low priority never escalates
  });

  it('a clear has no due time and an inactive Flag', () => {
    const d = alertData(DEFAULT_ALARM_SETTINGS, o, 3, 1043, decision('high', 'cleared'));
    expect(d).not.toHaveProperty('due_at');
    expect(d.flag).toMatchObject({ status: 'inactive', period: { end: o.effective_at } });
  });
});

describe('the ingest reads VITALIS_ALARMS', () => {
  it("applies a site's document, and refuses a bad one naming the variable", () => {
    const config = parseConfig(ingestConfigShape, {
      VITALIS_ALARMS: JSON.stringify({ conditions: { 'spo2-low': { onset_delay_s: 20 } } }),
    });
    expect(ingestAlarms(config).conditions['spo2-low'].onsetDelaySeconds).toBe(20);
    expect(ingestAlarms(parseConfig(ingestConfigShape, {}))).toEqual(DEFAULT_ALARM_SETTINGS);
    expect(() => parseConfig(ingestConfigShape, { VITALIS_ALARMS: '{' })).toThrow(/VITALIS_ALARMS: .*not JSON/);
    expect(() =>
      parseConfig(ingestConfigShape, { VITALIS_ALARMS: JSON.stringify({ conditions: { 'spo2-low': { onset_delay_s: -1 } } }) }),
    ).toThrow(/VITALIS_ALARMS: .*onset_delay_s/);
  });
});

describe('who may watch', () => {
  const base = {
    clientId: 'c',
    subject: 's',
    scopes: ['read:vitals' as const],
    roles: ['nurse' as const],
    tokenId: 'j',
    expiresAt: 0,
    authMethod: 'client_secret' as const,
    derivedFrom: [],
    sandbox: false,
  };
  it('a patient user only their own id; clinicians and machines any', () => {
    expect(() => assertMayWatch({ ...base, patientId: 'me' }, ['me'])).not.toThrow();
    expect(() => assertMayWatch({ ...base, patientId: 'me' }, ['me', 'other'])).toThrow(/own vitals/);
    expect(() => assertMayWatch(base, ['a', 'b'])).not.toThrow();
  });
});
