/**
 * The device watchdog's decider (apps/projector device-watchdog.ts): a raise is refused while a
 * device-disconnected alarm is open, a clear only for the open alarm's own device with a reading
 * newer than its silence began, and each event carries the id derived from it (a retry cannot
 * append it twice).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_ALARM_SETTINGS } from '@vitalis/clinical';
import { ALARM_EVENTS, foldAlarms } from '@vitalis/records';
import { decideDisconnect, disconnectRaise, type DeviceSeen } from '../../../apps/projector/src/device-watchdog';

const seen: DeviceSeen = {
  patientId: 'p-1',
  deviceId: 'mon-1',
  lastAt: new Date('2026-01-01T10:00:00Z'),
  lastStoredAt: new Date('2026-01-01T10:00:01Z'),
};
const raise = disconnectRaise(DEFAULT_ALARM_SETTINGS, seen, new Date('2026-01-01T10:01:00Z'));
const raised = foldAlarms([{ type: ALARM_EVENTS.raised, data: raise as unknown as Record<string, unknown>, streamVersion: 1 }]);

describe('decideDisconnect', () => {
  it('raises on a stream with no open device-disconnected alarm, with the alarm id as the event id', () => {
    const d = decideDisconnect({ type: 'raise', raise }, foldAlarms([]));
    expect(d).toEqual({ ok: true, events: [{ eventId: raise.alert_id, type: ALARM_EVENTS.raised, data: raise }] });
  });

  it('refuses a second raise while one is open', () => {
    expect(decideDisconnect({ type: 'raise', raise }, raised)).toEqual({ ok: false, error: { kind: 'already-open' } });
  });

  it("clears the open alarm for its own device's newer reading, and nothing else", () => {
    const back = { deviceId: 'mon-1', lastAt: new Date('2026-01-01T10:05:00Z') };
    const d = decideDisconnect({ type: 'clear', patientId: 'p-1', reading: back }, raised);
    expect(d.ok && d.events[0]?.type).toBe(ALARM_EVENTS.cleared);
    expect(d.ok && d.events[0]?.eventId).toMatch(/\S/);
    const other = { type: 'clear' as const, patientId: 'p-1', reading: { ...back, deviceId: 'mon-2' } };
    expect(decideDisconnect(other, raised)).toEqual({ ok: false, error: { kind: 'not-open' } });
    const stale = { type: 'clear' as const, patientId: 'p-1', reading: { ...back, lastAt: seen.lastAt } };
    expect(decideDisconnect(stale, raised)).toEqual({ ok: false, error: { kind: 'not-open' } });
    expect(decideDisconnect({ type: 'clear', patientId: 'p-1', reading: back }, foldAlarms([]))).toEqual({
      ok: false,
      error: { kind: 'not-open' },
    });
  });
});
