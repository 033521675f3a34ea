import { describe, expect, it } from 'vitest';
import { VITAL_CODE } from '@vitalis/schemas';
import {
  DEFAULT_ALARM_CONDITIONS,
  alarmSettings,
  escalationDueAt,
  freshness,
  limitConditionHolds,
  news2,
  NEWS2_SCALE_BY_VITAL_CODE,
  news2BandScore,
  parseAlarmSettings,
  type LimitCondition,
} from '@vitalis/clinical';

const limit = (rule: keyof typeof DEFAULT_ALARM_CONDITIONS) => DEFAULT_ALARM_CONDITIONS[rule] as LimitCondition;

describe('alarm conditions come from the NEWS2 bands', () => {
  it.each([
    ['spo2-low', 91, true],
    ['spo2-low', 92, false],
    ['spo2-low', 91.4, true],
    ['spo2-low', 91.5, false],
    ['hr-high', 131, true],
    ['hr-high', 130, false],
    ['hr-low', 40, true],
    ['hr-low', 41, false],
    ['hr-low', 131, false],
    ['hr-high', 35, false],
    ['rr-high', 25, true],
    ['rr-high', 24, false],
    ['rr-low', 8, true],
    ['rr-low', 9, false],
    ['sys-low', 90, true],
    ['sys-low', 91, false],
    ['sys-high', 220, true],
    ['sys-high', 219, false],
    ['temp-high', 39.1, true],
    ['temp-high', 39.0, false],
    ['temp-low', 35.0, true],
    ['temp-low', 35.1, false],
    ['temp-low', 39.5, false],
  ] as const)('%s at %d holds: %s', (rule, value, holds) => {
    expect(limitConditionHolds(limit(rule), value)).toBe(holds);
  });

  it('a limit condition holds exactly where its parameter scores its score on its side, across the whole range', () => {
    for (const c of Object.values(DEFAULT_ALARM_CONDITIONS)) {
      if (c.source !== 'limit') continue;
      const scale = NEWS2_SCALE_BY_VITAL_CODE[c.code]!;
      for (let v = 20; v <= 250; v += 0.1) {
        const score = news2BandScore(scale, v);
        if (score < c.score) expect(limitConditionHolds(c, v), `${c.rule} ${v}`).toBe(false);
      }
    }
    // the patient: HR 137, SpO2 85, BP 87/50, RR 27 — four red parameters, NEWS2 ≥ 12
    expect(
      ['hr-high', 'spo2-low', 'sys-low', 'rr-high'].map((r) =>
        limitConditionHolds(limit(r as 'hr-high'), { 'hr-high': 137, 'spo2-low': 85, 'sys-low': 87, 'rr-high': 27 }[r]!),
      ),
    ).toEqual([true, true, true, true]);
    expect(news2({ respiratoryRate: 27, spo2: 85, systolic: 87, heartRate: 137, temperature: 37 }).score).toBeGreaterThanOrEqual(12);
  });

  it('every priority is used, and every technical alarm is a disconnect', () => {
    const priorities = new Set(Object.values(DEFAULT_ALARM_CONDITIONS).map((c) => c.priority));
    expect([...priorities].sort()).toEqual(['high', 'low', 'medium']);
    expect(
      Object.values(DEFAULT_ALARM_CONDITIONS)
        .filter((c) => c.kind === 'technical')
        .map((c) => c.rule),
    ).toEqual(['device-disconnected']);
  });
});

describe('site overrides', () => {
  it('apply to the named condition only', () => {
    const s = parseAlarmSettings(
      JSON.stringify({
        conditions: { 'spo2-low': { onset_delay_s: 15, latching: false } },
        escalation_s: { high: 30, low: 600 },
        escalate_to: 'rapid response team',
        stale_after_s: { [VITAL_CODE.systolic]: 300 },
      }),
    );
    expect(s.conditions['spo2-low']).toMatchObject({ onsetDelaySeconds: 15, latching: false, priority: 'high', code: VITAL_CODE.spo2 });
    expect(s.conditions['hr-high']).toEqual(DEFAULT_ALARM_CONDITIONS['hr-high']);
    expect(s.escalationSeconds).toEqual({ high: 30, medium: 180, low: 600 });
    expect(s.escalateTo).toBe('rapid response team');
    expect(s.staleAfterSeconds[VITAL_CODE.systolic]).toBe(300);
    expect(s.staleAfterSeconds[VITAL_CODE.heartRate]).toBe(10);
  });

  it.each([
    ['not json', '{', /not JSON/],
    ['an unknown rule', JSON.stringify({ conditions: { 'spo2-lo': { latching: true } } }), /conditions/],
    ['an unknown key', JSON.stringify({ conditions: { 'spo2-low': { delay: 3 } } }), /conditions/],
    ['a negative delay', JSON.stringify({ conditions: { 'spo2-low': { onset_delay_s: -1 } } }), /onset_delay_s/],
    ['an unknown priority', JSON.stringify({ conditions: { 'hr-high': { priority: 'urgent' } } }), /priority/],
    ['an unknown vital code', JSON.stringify({ stale_after_s: { '1234-5': 10 } }), /stale_after_s/],
  ])('refuses %s', (_, raw, message) => {
    expect(() => parseAlarmSettings(raw)).toThrow(message);
  });

  it('unset or empty means the defaults', () => {
    expect(parseAlarmSettings(undefined)).toEqual(alarmSettings());
    expect(parseAlarmSettings('  ')).toEqual(alarmSettings());
  });
});

describe('freshness and escalation times', () => {
  const s = alarmSettings();
  it("a value is stale past its code's threshold", () => {
    const at = '2026-11-29T10:00:00.000Z';
    expect(freshness(s, VITAL_CODE.heartRate, at, Date.parse(at) + 10_000)).toEqual({ age_s: 10, stale: false, stale_after_s: 10 });
    expect(freshness(s, VITAL_CODE.heartRate, at, Date.parse(at) + 10_001).stale).toBe(true);
    expect(freshness(s, VITAL_CODE.systolic, at, Date.parse(at) + 16 * 60_000)).toMatchObject({ age_s: 960, stale: true });
  });
  it('escalation is due per priority; low never escalates by default', () => {
    expect(escalationDueAt(s, 'high', '2026-11-29T10:00:00.000Z')).toBe('2026-11-29T10:01:00.000Z');
    expect(escalationDueAt(s, 'medium', '2026-11-29T10:00:00.000Z')).toBe('2026-11-29T10:03:00.000Z');
    expect(escalationDueAt(s, 'low', '2026-11-29T10:00:00.000Z')).toBeNull();
  });
});
