import { describe, expect, it } from 'vitest';
import { ALARM_EVENTS, decideAlarm, foldAlarms, type FoldableAlarmEvent } from '@vitalis/records';

let version = 0;
const ev = (type: string, data: Record<string, unknown>): FoldableAlarmEvent => ({ type, data, streamVersion: ++version });
const raise = (id: string, rule: string, at: string, extra: Record<string, unknown> = {}) =>
  ev(ALARM_EVENTS.raised, {
    alert_id: id,
    rule,
    state: 'raised',
    patient_id: 'p1',
    priority: 'high',
    kind: 'physiological',
    latching: true,
    message: `${rule}`,
    value: 1,
    due_at: '2026-11-29T10:01:00.000Z',
    triggered_by: { device_id: 'd1', effective_at: at },
    ...extra,
  });
const clear = (rule: string, at: string) =>
  ev(ALARM_EVENTS.cleared, {
    alert_id: `c-${at}`,
    rule,
    state: 'cleared',
    patient_id: 'p1',
    message: '',
    value: 0,
    triggered_by: { device_id: 'd1', effective_at: at },
  });
const nurse = { user: 'u-nurse', name: 'Nora Nurse', client_id: 'ward-app' };

describe('the alarm lifecycle fold', () => {
  it('raised -> acknowledged -> resolved when the condition ends', () => {
    const s = foldAlarms([
      raise('a1', 'spo2-low', '2026-11-29T10:00:00Z'),
      ev(ALARM_EVENTS.acknowledged, { alert_id: 'a1', patient_id: 'p1', rule: 'spo2-low', by: nurse, at: '2026-11-29T10:00:20.000Z' }),
    ]);
    expect(s.alarms.get('a1')).toMatchObject({
      state: 'acknowledged',
      acknowledgedBy: nurse,
      acknowledgedAt: '2026-11-29T10:00:20.000Z',
      resolvedAt: null,
    });
    const after = foldAlarms([
      raise('a1', 'spo2-low', '2026-11-29T10:00:00Z'),
      ev(ALARM_EVENTS.acknowledged, { alert_id: 'a1', patient_id: 'p1', rule: 'spo2-low', by: nurse, at: '2026-11-29T10:00:20.000Z' }),
      clear('spo2-low', '2026-11-29T10:01:00Z'),
    ]);
    expect(after.alarms.get('a1')).toMatchObject({
      state: 'resolved',
      resolvedAt: '2026-11-29T10:01:00Z',
      conditionEndedAt: '2026-11-29T10:01:00Z',
    });
    expect(after.open.size).toBe(0);
  });

  it('a latching alarm whose condition ended stays latched until acknowledged; a non-latching one resolves', () => {
    const latched = foldAlarms([raise('a1', 'hr-high', '2026-11-29T10:00:00Z'), clear('hr-high', '2026-11-29T10:00:30Z')]);
    expect(latched.alarms.get('a1')).toMatchObject({ state: 'latched', resolvedAt: null });
    const acked = foldAlarms([
      raise('a1', 'hr-high', '2026-11-29T10:00:00Z'),
      clear('hr-high', '2026-11-29T10:00:30Z'),
      ev(ALARM_EVENTS.acknowledged, { alert_id: 'a1', patient_id: 'p1', rule: 'hr-high', by: nurse, at: '2026-11-29T10:02:00.000Z' }),
    ]);
    expect(acked.alarms.get('a1')).toMatchObject({ state: 'resolved', resolvedAt: '2026-11-29T10:02:00.000Z' });
    const plain = foldAlarms([
      raise('a2', 'rr-high', '2026-11-29T10:00:00Z', { latching: false, priority: 'medium' }),
      clear('rr-high', '2026-11-29T10:00:30Z'),
    ]);
    expect(plain.alarms.get('a2')).toMatchObject({ state: 'resolved', priority: 'medium' });
  });

  it('a clear closes the open alarm of its rule only', () => {
    const s = foldAlarms([
      raise('a1', 'hr-high', '2026-11-29T10:00:00Z'),
      raise('b1', 'spo2-low', '2026-11-29T10:00:05Z'),
      clear('hr-high', '2026-11-29T10:00:30Z'),
    ]);
    expect(s.alarms.get('a1')!.state).toBe('latched');
    expect(s.alarms.get('b1')!.state).toBe('raised');
    expect([...s.open]).toEqual([['spo2-low', 'b1']]);
    expect([...s.latched]).toEqual([['hr-high', 'a1']]);
  });

  it('a latched alarm whose condition comes back is the same alarm again (raise, due time and escalation kept), however often', () => {
    const events = [
      raise('a1', 'sys-low', '2026-11-29T10:00:00Z'),
      ev(ALARM_EVENTS.escalated, {
        alert_id: 'a1',
        patient_id: 'p1',
        rule: 'sys-low',
        to: 'charge nurse',
        at: '2026-11-29T10:01:00.000Z',
        priority: 'high',
      }),
    ];
    for (let i = 1; i <= 5; i++) {
      events.push(
        clear('sys-low', `2026-11-29T10:0${i}:10Z`),
        raise(`a1-again-${i}`, 'sys-low', `2026-11-29T10:0${i}:30Z`, { value: 80 + i, message: `Systolic ${80 + i}` }),
      );
    }
    const s = foldAlarms(events);
    expect([...s.alarms.keys()]).toEqual(['a1']);
    expect(s.alarms.get('a1')).toMatchObject({
      state: 'raised',
      raisedAt: '2026-11-29T10:00:00Z',
      conditionSince: '2026-11-29T10:05:30Z',
      recurrences: 5,
      dueAt: '2026-11-29T10:01:00.000Z',
      escalatedTo: 'charge nurse',
      conditionEndedAt: null,
      resolvedAt: null,
      value: 85,
      message: 'Systolic 85',
    });
    expect(s.open.get('sys-low')).toBe('a1');
    expect(s.latched.size).toBe(0);
  });

  it('once acknowledged (resolved), or when it does not latch, the next raise of the rule is a new alarm', () => {
    const acked = foldAlarms([
      raise('a1', 'hr-high', '2026-11-29T10:00:00Z'),
      clear('hr-high', '2026-11-29T10:00:30Z'),
      ev(ALARM_EVENTS.acknowledged, { alert_id: 'a1', patient_id: 'p1', rule: 'hr-high', by: nurse, at: '2026-11-29T10:01:00.000Z' }),
      raise('a2', 'hr-high', '2026-11-29T10:05:00Z'),
    ]);
    expect(acked.alarms.get('a1')!.state).toBe('resolved');
    expect(acked.alarms.get('a2')).toMatchObject({ state: 'raised', recurrences: 0, conditionSince: '2026-11-29T10:05:00Z' });
    expect(acked.open.get('hr-high')).toBe('a2');
    const plain = foldAlarms([
      raise('b1', 'rr-high', '2026-11-29T10:00:00Z', { latching: false }),
      clear('rr-high', '2026-11-29T10:00:30Z'),
      raise('b2', 'rr-high', '2026-11-29T10:05:00Z', { latching: false }),
    ]);
    expect(plain.alarms.get('b1')!.state).toBe('resolved');
    expect(plain.alarms.get('b2')!.state).toBe('raised');
  });

  it("a raise while the rule's alarm is open replaces the open one (the older stays raised)", () => {
    const s = foldAlarms([raise('a1', 'hr-high', '2026-11-29T10:00:00Z'), raise('a2', 'hr-high', '2026-11-29T10:00:10Z')]);
    expect(s.open.get('hr-high')).toBe('a2');
    expect(s.alarms.get('a1')!.state).toBe('raised');
  });

  it('reads raises written before priorities existed (severity only)', () => {
    const s = foldAlarms([
      ev(ALARM_EVENTS.raised, {
        alert_id: 'old',
        rule: 'hr-high',
        state: 'raised',
        patient_id: 'p1',
        severity: 'medium',
        message: 'HR',
        value: 140,
        triggered_by: { device_id: 'd', effective_at: '2026-11-01T00:00:00Z' },
      }),
    ]);
    expect(s.alarms.get('old')).toMatchObject({ priority: 'medium', latching: false, dueAt: null, kind: 'physiological', state: 'raised' });
  });
});

describe('the alarm decider', () => {
  const open = () => foldAlarms([raise('a1', 'spo2-low', '2026-11-29T10:00:00Z')]).alarms.get('a1');

  it('acknowledges once, naming the user', () => {
    const d = decideAlarm({ type: 'acknowledge', by: nurse, now: '2026-11-29T10:00:20.000Z', note: 'probe refitted' }, open());
    expect(d).toEqual({
      ok: true,
      events: [
        {
          type: ALARM_EVENTS.acknowledged,
          data: { alert_id: 'a1', patient_id: 'p1', rule: 'spo2-low', by: nurse, at: '2026-11-29T10:00:20.000Z', note: 'probe refitted' },
        },
      ],
    });
    const acked = foldAlarms([
      raise('a1', 'spo2-low', '2026-11-29T10:00:00Z'),
      ev(ALARM_EVENTS.acknowledged, { alert_id: 'a1', patient_id: 'p1', rule: 'spo2-low', by: nurse, at: '2026-11-29T10:00:20.000Z' }),
    ]).alarms.get('a1');
    expect(decideAlarm({ type: 'acknowledge', by: nurse, now: '2026-11-29T10:00:30.000Z' }, acked)).toEqual({
      ok: false,
      error: { kind: 'already-acknowledged', by: nurse, at: '2026-11-29T10:00:20.000Z' },
    });
    expect(decideAlarm({ type: 'acknowledge', by: nurse, now: '2026-11-29T10:00:30.000Z' }, undefined)).toEqual({
      ok: false,
      error: { kind: 'not-found' },
    });
  });

  it('refuses to acknowledge a resolved alarm', () => {
    const resolved = foldAlarms([
      raise('a1', 'rr-high', '2026-11-29T10:00:00Z', { latching: false }),
      clear('rr-high', '2026-11-29T10:00:30Z'),
    ]).alarms.get('a1');
    expect(decideAlarm({ type: 'acknowledge', by: nurse, now: '2026-11-29T10:01:00.000Z' }, resolved)).toEqual({
      ok: false,
      error: { kind: 'resolved', at: '2026-11-29T10:00:30Z' },
    });
  });

  it('escalates an unacknowledged alarm once, only when due', () => {
    expect(decideAlarm({ type: 'escalate', to: 'charge nurse', now: '2026-11-29T10:00:59.999Z' }, open())).toEqual({
      ok: false,
      error: { kind: 'not-due', dueAt: '2026-11-29T10:01:00.000Z' },
    });
    const d = decideAlarm({ type: 'escalate', to: 'charge nurse', now: '2026-11-29T10:01:00.000Z' }, open());
    expect(d).toEqual({
      ok: true,
      events: [
        {
          type: ALARM_EVENTS.escalated,
          data: {
            alert_id: 'a1',
            patient_id: 'p1',
            rule: 'spo2-low',
            to: 'charge nurse',
            at: '2026-11-29T10:01:00.000Z',
            priority: 'high',
          },
        },
      ],
    });
    const escalated = foldAlarms([
      raise('a1', 'spo2-low', '2026-11-29T10:00:00Z'),
      ev(ALARM_EVENTS.escalated, {
        alert_id: 'a1',
        patient_id: 'p1',
        rule: 'spo2-low',
        to: 'charge nurse',
        at: '2026-11-29T10:01:00.000Z',
        priority: 'high',
      }),
    ]).alarms.get('a1')!;
    expect(escalated).toMatchObject({ state: 'raised', escalatedTo: 'charge nurse' });
    expect(decideAlarm({ type: 'escalate', to: 'charge nurse', now: '2026-11-29T10:02:00.000Z' }, escalated).ok).toBe(false);
    // an escalated alarm can still be acknowledged
    expect(decideAlarm({ type: 'acknowledge', by: nurse, now: '2026-11-29T10:02:00.000Z' }, escalated).ok).toBe(true);
    // a latched (condition ended, unacknowledged) alarm still escalates
    const latched = foldAlarms([raise('a1', 'spo2-low', '2026-11-29T10:00:00Z'), clear('spo2-low', '2026-11-29T10:00:30Z')]).alarms.get(
      'a1',
    );
    expect(decideAlarm({ type: 'escalate', to: 'charge nurse', now: '2026-11-29T10:01:00.000Z' }, latched).ok).toBe(true);
  });
});

describe('events the fold cannot read', () => {
  it('change nothing and stop nothing (a raise without its data, an acknowledgement without who)', () => {
    const s = foldAlarms([
      ev(ALARM_EVENTS.raised, { rule: 'hr-high' }),
      raise('a1', 'spo2-low', '2026-11-29T10:00:00Z'),
      ev(ALARM_EVENTS.acknowledged, { alert_id: 'a1', at: '2026-11-29T10:00:20.000Z' }),
      ev(ALARM_EVENTS.cleared, { rule: 'spo2-low' }),
    ]);
    expect([...s.alarms.keys()]).toEqual(['a1']);
    expect(s.alarms.get('a1')).toMatchObject({ state: 'raised', acknowledgedAt: null, conditionEndedAt: null });
    expect(s.version).toBe(version);
  });
});
