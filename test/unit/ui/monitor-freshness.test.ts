/**
 * What the monitor says about the age of its data (cards/monitor/freshness.ts, the card's own
 * code, imported directly: pure functions of the latest value time per code and `now`), judged on
 * the thresholds the card document carries (the default alarm settings, or a site's): a tile's age
 * and stale mark, the badge ("Live" only while data arrives and a value is fresh; "Stale · last
 * data … ago", then "No data since HH:MM" after the device-disconnect delay), the NEWS2 line.
 */
import { describe, expect, it } from 'vitest';
import { parseAlarmSettings } from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';
import { dataFreshness, news2Line, valueAge } from '../../../apps/gateway/src/ui/cards/monitor/freshness';
import { MONITOR_SCRIPT_DATA, monitorScriptData } from '../../../apps/gateway/src/ui/monitor';

const C = VITAL_CODE;
const DATA = MONITOR_SCRIPT_DATA;
const now = new Date(2026, 10, 29, 10, 18, 30).getTime(); // local wall clock: the card shows the browser's zone
const ago = (s: number) => new Date(now - s * 1_000).toISOString();
const hhmm = (s: number) => {
  const d = new Date(now - s * 1_000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

describe('a tile: its value age, stale past its code threshold', () => {
  it('says the age in seconds, minutes, hours', () => {
    expect(valueAge(DATA, C.heartRate, ago(4), now)).toEqual({ age: '4 s', stale: false });
    expect(valueAge(DATA, C.heartRate, ago(16 * 60), now)).toEqual({ age: '16 min', stale: true });
    expect(valueAge(DATA, C.temperature, ago(3 * 3600), now)).toEqual({ age: '3 h', stale: true });
  });

  it('judges each code on its own threshold (heart rate 10 s, blood pressure 15 min)', () => {
    expect(valueAge(DATA, C.heartRate, ago(10), now).stale).toBe(false);
    expect(valueAge(DATA, C.heartRate, ago(11), now).stale).toBe(true);
    expect(valueAge(DATA, C.systolic, ago(11), now).stale).toBe(false);
    expect(valueAge(DATA, C.systolic, ago(901), now).stale).toBe(true);
  });

  it("follows a site's threshold, not one of the card's own", () => {
    const site = monitorScriptData(parseAlarmSettings(JSON.stringify({ stale_after_s: { [C.heartRate]: 60 } })));
    expect(valueAge(site, C.heartRate, ago(45), now).stale).toBe(false);
    expect(valueAge(DATA, C.heartRate, ago(45), now).stale).toBe(true);
  });
});

describe('the badge: Live only while fresh data arrives', () => {
  it('waits before any value', () => {
    expect(dataFreshness(DATA, {}, now)).toEqual({ state: 'waiting', text: 'Waiting for data', newestAt: null });
  });

  it('is Live while data arrives and one value is younger than its threshold', () => {
    expect(dataFreshness(DATA, { [C.heartRate]: ago(3), [C.temperature]: ago(7200) }, now).text).toBe('Live');
    // a blood pressure taken 25 s ago is current (15 min), the heart rate 20 s old is not (10 s)
    expect(dataFreshness(DATA, { [C.heartRate]: ago(20), [C.systolic]: ago(25) }, now).state).toBe('live');
  });

  it('is not Live when the monitor stopped sending, even while an intermittent value is within its own threshold', () => {
    // the stall: everything 16 min old; the temperature (30 min) and a 5-minute-old pressure (15 min) are still current values
    const seen = { [C.heartRate]: ago(16 * 60), [C.temperature]: ago(16 * 60), [C.systolic]: ago(300) };
    expect(valueAge(DATA, C.temperature, seen[C.temperature]!, now).stale).toBe(false);
    expect(dataFreshness(DATA, seen, now)).toEqual({ state: 'nodata', text: `No data since ${hhmm(300)}`, newestAt: ago(300) });
  });

  it('says Stale with the age of the last data when none is fresh, within the device-disconnect delay', () => {
    expect(dataFreshness(DATA, { [C.heartRate]: ago(20), [C.spo2]: ago(25) }, now)).toEqual({
      state: 'stale',
      text: 'Stale · last data 20 s ago',
      newestAt: ago(20),
    });
  });

  it('says No data since HH:MM (24-hour) when nothing at all arrived for the device-disconnect delay', () => {
    const seen = { [C.heartRate]: ago(16 * 60), [C.spo2]: ago(16 * 60 + 2), [C.systolic]: ago(16 * 60 + 5) };
    expect(dataFreshness(DATA, seen, now)).toEqual({ state: 'nodata', text: `No data since ${hhmm(16 * 60)}`, newestAt: ago(16 * 60) });
    expect(dataFreshness(DATA, { [C.heartRate]: ago(31) }, now).state).toBe('nodata');
  });

  it("takes the delay from the site's device-disconnect setting", () => {
    const site = monitorScriptData(parseAlarmSettings(JSON.stringify({ conditions: { 'device-disconnected': { onset_delay_s: 120 } } })));
    expect(dataFreshness(site, { [C.heartRate]: ago(90) }, now)).toMatchObject({ state: 'stale', text: 'Stale · last data 1 min ago' });
  });
});

describe('the NEWS2 line', () => {
  const total = { score: 12, risk: 'high' as const, codes: [C.heartRate, C.spo2, C.systolic, C.respiratoryRate] };

  it('says the total, its band and the age of its oldest input, with that input time', () => {
    const fresh = { [C.heartRate]: ago(2), [C.spo2]: ago(3), [C.systolic]: ago(120), [C.respiratoryRate]: ago(4) };
    expect(news2Line(DATA, total, fresh, now)).toEqual({
      score: 12,
      risk: 'high',
      text: 'NEWS2 12 · high · from values up to 2 min old',
      detail: `oldest input ${hhmm(120)}`,
      stale: [],
    });
  });

  it("names its stale inputs, in the tiles' order whatever order they arrived in", () => {
    const old = { [C.heartRate]: ago(16 * 60), [C.spo2]: ago(16 * 60), [C.systolic]: ago(16 * 60), [C.respiratoryRate]: ago(2) };
    const line = news2Line(DATA, { ...total, codes: [C.systolic, C.respiratoryRate, C.spo2, C.heartRate] }, old, now);
    expect(line.text).toBe('NEWS2 12 · high · from values up to 16 min old');
    expect(line.stale).toEqual(['HR', 'SpO₂', 'Sys']);
    expect(line.detail).toBe(`oldest input ${hhmm(16 * 60)} · stale: HR, SpO₂, Sys`);
  });
});
