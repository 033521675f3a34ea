/**
 * The monitor's alarm panel in words (cards/monitor/alarm-text.ts) and a critical result as a
 * clinician reads it (cards/shared/critical-result.ts): the card's own code, imported directly
 * (pure functions of the server's records and `now`), with the tables the served card carries.
 * Priority in words, the state with who and when on a 24-hour clock, a technical alarm said as
 * such, the order of the rows, "Potassium 6.8 mmol/L (critical > 6.0)".
 */
import { describe, expect, it } from 'vitest';
import {
  alarmDetail,
  alarmStateLines,
  byPriority,
  conditionSince,
  criticalOrder,
  criticalStateLine,
  needsAcknowledgement,
  PRIORITY_WORD,
  raisedLine,
  type AlarmRecord,
} from '../../../apps/gateway/src/ui/cards/monitor/alarm-text';
import {
  criticalWhat,
  interpretationText,
  reportStatusText,
  resultText,
  type CriticalResult,
} from '../../../apps/gateway/src/ui/cards/shared/critical-result';
import { MONITOR_SCRIPT_DATA } from '../../../apps/gateway/src/ui/monitor';

const now = new Date(2026, 10, 29, 14, 10, 30).getTime(); // local wall clock: the card shows the browser's zone
const at = (h: number, m: number, s = 0) => new Date(2026, 10, 29, h, m, s).toISOString();

const alarm = (o: Partial<AlarmRecord> = {}): AlarmRecord => ({
  alarm_id: 'a1',
  rule: 'spo2-low',
  label: 'SpO2 low',
  kind: 'physiological',
  priority: 'high',
  latching: true,
  state: 'raised',
  message: 'SpO2 low: 85 % (≤ 91 % for 12 s)',
  value: 85,
  device_id: 'mon-7',
  raised_at: at(14, 3),
  due_at: at(14, 4),
  condition_ended_at: null,
  acknowledged_at: null,
  acknowledged_by: null,
  note: null,
  escalated_at: null,
  escalated_to: null,
  resolved_at: null,
  ...o,
});

describe('an alarm in words', () => {
  it('says its priority in words (IEC 60601-1-8 high, medium, low)', () => {
    expect(PRIORITY_WORD).toEqual({ high: 'High', medium: 'Medium', low: 'Low' });
  });

  it('says when it was raised (24-hour) and how long ago', () => {
    expect(raisedLine(alarm(), now)).toBe('Raised 14:03 · 7 min ago');
    expect(raisedLine(alarm({ raised_at: at(14, 10, 18) }), now)).toBe('Raised 14:10 · 12 s ago');
  });

  it('raised: not acknowledged, and when it escalates (a low one never does)', () => {
    expect(alarmStateLines(alarm({ raised_at: at(14, 10), due_at: at(14, 11) }), now)).toEqual([
      'Not acknowledged · escalates 14:11 if not acknowledged',
    ]);
    expect(alarmStateLines(alarm({ priority: 'low', due_at: null }), now)).toEqual(['Not acknowledged']);
    // past its due time, before the escalator has run: overdue, never "escalates" at a time gone by
    expect(alarmStateLines(alarm(), now)).toEqual(['Not acknowledged · escalation due since 14:04']);
    expect(needsAcknowledgement(alarm())).toBe(true);
  });

  it('acknowledged: by whom (the display name, else the user id) and when, with the note', () => {
    const by = { user: 'usr-demo-nurse', name: 'Demo Nurse', client_id: 'cli_1' };
    expect(
      alarmStateLines(
        alarm({ state: 'acknowledged', acknowledged_at: at(14, 5, 40), acknowledged_by: by, note: 'repositioned the probe' }),
        now,
      ),
    ).toEqual(['Acknowledged by Demo Nurse at 14:05', 'Note: repositioned the probe']);
    expect(
      alarmStateLines(alarm({ state: 'acknowledged', acknowledged_at: at(14, 5), acknowledged_by: { ...by, name: null } }), now)[0],
    ).toBe('Acknowledged by usr-demo-nurse at 14:05');
    expect(needsAcknowledgement(alarm({ state: 'acknowledged' }))).toBe(false);
  });

  it('latched: the condition ended, still to acknowledge', () => {
    const a = alarm({ state: 'latched', condition_ended_at: at(14, 6) });
    expect(alarmStateLines(a, now)).toEqual(['Latched — condition ended 14:06, acknowledge to clear']);
    expect(needsAcknowledgement(a)).toBe(true);
  });

  it('a latched alarm whose condition came back says so: one alarm, how often, and since when', () => {
    const a = alarm({ state: 'raised', due_at: null, recurrences: 2, condition_since: at(14, 8, 30) });
    expect(alarmStateLines(a, now)).toEqual(['Not acknowledged', 'Came back 2 times before acknowledgement, last at 14:08']);
    expect(
      alarmStateLines(alarm({ state: 'latched', condition_ended_at: at(14, 9), recurrences: 1, condition_since: at(14, 8) }), now),
    ).toEqual(['Latched — condition ended 14:09, acknowledge to clear', 'Came back once before acknowledgement, last at 14:08']);
    const t = alarm({
      rule: 'device-disconnected',
      kind: 'technical',
      device_id: 'mon-7',
      raised_at: at(14, 2, 10),
      condition_since: at(14, 7, 10),
      recurrences: 1,
    });
    expect(alarmDetail(t, now)).toBe('No data from monitor mon-7 since 14:07');
    expect(raisedLine(t, now)).toBe('Last data 14:07 · 3 min ago');
  });

  it('the condition began at its latest return, or at the raise for a row without condition_since', () => {
    expect(conditionSince(alarm({ raised_at: '2026-01-01T10:00:00Z', condition_since: '2026-01-01T10:07:00Z' }))).toBe(
      '2026-01-01T10:07:00Z',
    );
    expect(conditionSince(alarm({ raised_at: '2026-01-01T10:00:00Z', condition_since: undefined }))).toBe('2026-01-01T10:00:00Z');
  });

  it('escalated: to whom and when (and no longer "escalates …")', () => {
    expect(alarmStateLines(alarm({ escalated_at: at(14, 4, 2), escalated_to: 'charge nurse' }), now)).toEqual([
      'Not acknowledged',
      'Escalated to charge nurse at 14:04',
    ]);
  });

  it('a time not today carries its date', () => {
    expect(raisedLine(alarm({ raised_at: new Date(2026, 10, 28, 23, 44).toISOString() }), now)).toBe('Raised 28 Nov 23:44 · 14 h ago');
  });

  it("a technical alarm (the monitor stopped sending) says since when, in the browser's clock; a physiological one the server's message", () => {
    const t = alarm({
      rule: 'device-disconnected',
      kind: 'technical',
      label: 'No data from the monitor',
      priority: 'medium',
      message: 'No data from monitor mon-7 since 13:02:10 UTC',
      raised_at: at(14, 2, 10),
    });
    expect(alarmDetail(t, now)).toBe('No data from monitor mon-7 since 14:02');
    expect(raisedLine(t, now)).toBe('Last data 14:02 · 8 min ago');
    expect(alarmDetail(alarm(), now)).toBe('SpO2 low: 85 % (≤ 91 % for 12 s)');
  });

  it('highest priority first, then the newest raise', () => {
    const list = [
      alarm({ alarm_id: 'low', priority: 'low', raised_at: at(14, 9) }),
      alarm({ alarm_id: 'high-old', priority: 'high', raised_at: at(14, 1) }),
      alarm({ alarm_id: 'medium', priority: 'medium', raised_at: at(14, 8) }),
      alarm({ alarm_id: 'high-new', priority: 'high', raised_at: at(14, 7) }),
    ];
    expect(list.sort(byPriority).map((a) => a.alarm_id)).toEqual(['high-new', 'high-old', 'medium', 'low']);
  });
});

describe('a critical result as a clinician reads it', () => {
  const T = MONITOR_SCRIPT_DATA;
  const potassium = {
    code: '2823-3',
    name: 'Potassium',
    display: 'Potassium [Moles/volume] in Serum or Plasma',
    value: 6.8,
    unit: 'mmol/L',
    interpretation: 'HH',
    crossed: { side: 'high' as const, limit: 6 },
  };
  const critical = (o: Partial<CriticalResult> = {}): CriticalResult => ({
    critical_id: 'c1',
    report_id: 'r1',
    report_status: 'preliminary',
    state: 'open',
    results: [potassium],
    raised_at: at(14, 3),
    due_at: at(14, 18),
    ...o,
  });

  it("names the analyte, its value, unit and the limit crossed (with the value's decimals), the interpretation in words", () => {
    expect(resultText(T, potassium)).toBe('Potassium 6.8 mmol/L (critical > 6.0)');
    expect(resultText(T, { code: 'x', name: 'Sodium', value: 118, unit: 'mmol/L', crossed: { side: 'low', limit: 120 } })).toBe(
      'Sodium 118 mmol/L (critical < 120)',
    );
    expect(resultText(T, { code: 'x', display: 'Hemoglobin [Mass/volume] in Blood', value: 5.9, unit: 'g/dL' })).toBe(
      'Hemoglobin 5.9 g/dL',
    );
    expect(resultText(T, { code: 'x', name: 'ECG impression', text: 'ST elevation' })).toBe('ECG impression: ST elevation');
    expect(interpretationText(T, potassium)).toBe('critical high');
    expect(reportStatusText('preliminary')).toBe('Preliminary report');
    expect(criticalWhat(T, critical())).toBe('Potassium 6.8 mmol/L (critical > 6.0)');
  });

  it('says raised and due, escalated, or who acknowledged it and when', () => {
    expect(criticalStateLine(critical(), now)).toBe('Raised 14:03 · escalates 14:18 if not acknowledged');
    expect(criticalStateLine(critical({ state: 'escalated', escalated_at: at(14, 18) }), now)).toBe('Raised 14:03 · escalated 14:18');
    expect(criticalStateLine(critical({ due_at: at(14, 9) }), now)).toBe('Raised 14:03 · escalation due since 14:09');
    expect(
      criticalStateLine(
        critical({
          state: 'acknowledged',
          acknowledged_at: at(14, 5),
          acknowledged_by: 'usr-demo-doctor',
          acknowledged_by_name: 'Dr. Demo Doctor',
        }),
        now,
      ),
    ).toBe('Acknowledged by Dr. Demo Doctor at 14:05 · raised 14:03');
  });

  it('escalated first, then open oldest first, then the acknowledged newest first', () => {
    const list = [
      critical({ critical_id: 'ack-old', state: 'acknowledged', acknowledged_at: at(14, 4) }),
      critical({ critical_id: 'open-new', raised_at: at(14, 9) }),
      critical({ critical_id: 'ack-new', state: 'acknowledged', acknowledged_at: at(14, 8) }),
      critical({ critical_id: 'escalated', state: 'escalated', raised_at: at(13, 50) }),
      critical({ critical_id: 'open-old', raised_at: at(14, 1) }),
    ];
    expect(list.sort(criticalOrder).map((c) => c.critical_id)).toEqual(['escalated', 'open-old', 'open-new', 'ack-new', 'ack-old']);
  });
});
