/**
 * The monitor's ledger and poll window (cards/monitor/ledger.ts, the card's own code, imported
 * directly): each observation applied once by its stored identity, whatever source offers it again;
 * each poll starting a little before the newest time the polls read, not after the newest value the
 * card has seen (which once skipped what was stored after a newer value); identities forgotten only
 * where no later read reaches.
 */
import { describe, expect, it } from 'vitest';
import {
  LEDGER_HORIZON_MS,
  ObservationLedger,
  POLL_AHEAD_MS,
  POLL_FIRST_LOOKBACK_MS,
  POLL_OVERLAP_MS,
  forgetBeforeMs,
  newestTime,
  pollWindow,
} from '../../../apps/gateway/src/ui/cards/monitor/ledger';

const t0 = Date.parse('2026-12-01T10:00:00.000Z');
const obs = (device: string, seq: number, ms: number) => ({ device_id: device, seq, effective_at: new Date(t0 + ms).toISOString() });

describe('the ledger: each observation once', () => {
  it('admits an identity once, however often and in whatever order it is offered', () => {
    const ledger = new ObservationLedger();
    const a = obs('dev-1', 1, 1_000),
      b = obs('dev-1', 2, 4),
      c = obs('dev-2', 1, 1_000);
    expect([a, b, c].map((o) => ledger.admit(o))).toEqual([true, true, true]);
    expect([c, b, a].map((o) => ledger.admit(o))).toEqual([false, false, false]);
    expect(ledger.size).toBe(3);
  });

  it('keys on the time as an instant: the same instant written another way is the same observation', () => {
    const ledger = new ObservationLedger();
    expect(ledger.admit({ device_id: 'd', seq: 7, effective_at: '2026-12-01T10:00:00.000Z' })).toBe(true);
    expect(ledger.admit({ device_id: 'd', seq: 7, effective_at: '2026-12-01T11:00:00+01:00' })).toBe(false);
    // the same device and sequence number at another time is another stored observation
    expect(ledger.admit({ device_id: 'd', seq: 7, effective_at: '2026-12-01T10:00:01.000Z' })).toBe(true);
  });

  it('admits nothing without a time', () => {
    expect(new ObservationLedger().admit({ device_id: 'd', seq: 1, effective_at: 'not a time' })).toBe(false);
  });

  it('forgets only identities older than the time it is given', () => {
    const ledger = new ObservationLedger();
    for (const o of [obs('d', 1, 0), obs('d', 2, 5_000), obs('d', 3, 10_000)]) ledger.admit(o);
    ledger.forgetBefore(t0 + 5_000);
    expect(ledger.size).toBe(2);
    expect(ledger.admit(obs('d', 2, 5_000))).toBe(false);
    expect(ledger.admit(obs('d', 1, 0))).toBe(true);
  });
});

describe('the poll window', () => {
  const now = t0 + 60_000;

  it('starts the first poll a little before now and reads ahead of now (device clocks)', () => {
    expect(pollWindow(null, now)).toEqual({
      from: new Date(now - POLL_FIRST_LOOKBACK_MS).toISOString(),
      to: new Date(now + POLL_AHEAD_MS).toISOString(),
    });
  });

  it('starts every later poll the overlap before the newest time the polls read, so a value stored after a newer one is read', () => {
    const newest = t0 + 58_000;
    const { from } = pollWindow(newest, now);
    expect(Date.parse(from)).toBe(newest - POLL_OVERLAP_MS);
    // an SpO2 one second older than an ECG chunk already read, stored after it, is in the next window
    expect(Date.parse(from)).toBeLessThan(newest - 1_000);
  });

  it('takes the newest time of what a poll read, never older than before', () => {
    expect(newestTime([], null)).toBeNull();
    expect(newestTime([obs('d', 1, 4), obs('d', 2, 1_000), obs('d', 3, 2)], null)).toBe(t0 + 1_000);
    expect(newestTime([obs('d', 1, 4)], t0 + 1_000)).toBe(t0 + 1_000);
    expect(newestTime([{ device_id: 'd', seq: 1, effective_at: 'x' }], null)).toBeNull();
  });

  it('lets the ledger forget a minute behind the newest time, never past where the next poll starts', () => {
    expect(forgetBeforeMs(now, null)).toBe(now - LEDGER_HORIZON_MS);
    expect(forgetBeforeMs(now, now - 5_000)).toBe(now - LEDGER_HORIZON_MS);
    expect(forgetBeforeMs(now, now - LEDGER_HORIZON_MS - 1)).toBe(now - LEDGER_HORIZON_MS - 1);
  });
});
