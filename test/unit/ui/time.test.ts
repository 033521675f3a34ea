import { describe, expect, it } from 'vitest';
import { age, clock, clockSeconds, isStale } from '../../../apps/gateway/src/ui/cards/shared/time';

// Local wall-clock instants (the cards show the browser's time zone), whatever TZ the run has.
const local = (y: number, mo: number, d: number, h: number, mi: number, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();
const iso = (ms: number) => new Date(ms).toISOString();

describe('cards/shared/time', () => {
  const now = local(2026, 3, 14, 15, 30, 45);

  it('clock is 24-hour HH:MM with a leading zero, the date first only when not today', () => {
    expect(clock(iso(local(2026, 3, 14, 9, 5)), now)).toBe('09:05');
    expect(clock(iso(local(2026, 3, 14, 21, 7)), now)).toBe('21:07');
    expect(clock(iso(local(2026, 3, 14, 0, 0)), now)).toBe('00:00');
    expect(clock(iso(local(2026, 3, 13, 23, 59)), now)).toBe('13 Mar 23:59');
    expect(clock(iso(local(2025, 12, 31, 8, 1)), now)).toBe('31 Dec 2025 08:01');
    expect(clockSeconds(iso(local(2026, 3, 14, 9, 5, 7)), now)).toBe('09:05:07');
    expect(clock('not a time', now)).toBe('—');
  });

  it('age is the largest whole unit, never negative', () => {
    expect(age(iso(now - 12_400), now)).toBe('12 s');
    expect(age(iso(now - 59_999), now)).toBe('59 s');
    expect(age(iso(now - 60_000), now)).toBe('1 min');
    expect(age(iso(now - 16 * 60_000 - 5_000), now)).toBe('16 min');
    expect(age(iso(now - 3 * 3_600_000 - 1), now)).toBe('3 h');
    expect(age(iso(now - 2 * 86_400_000 - 1), now)).toBe('2 d');
    expect(age(iso(now + 5_000), now)).toBe('0 s');
    expect(age('', now)).toBe('—');
  });

  it("isStale compares the age with the code's threshold; unknown codes use the shortest, unknown times are stale", () => {
    const table = { a: 10, b: 900 };
    expect(isStale('a', iso(now - 10_000), table, now)).toBe(false);
    expect(isStale('a', iso(now - 10_001), table, now)).toBe(true);
    expect(isStale('b', iso(now - 600_000), table, now)).toBe(false);
    expect(isStale('zzz', iso(now - 11_000), table, now)).toBe(true);
    expect(isStale('zzz', iso(now - 11_000), {}, now)).toBe(false);
    expect(isStale('a', 'nope', table, now)).toBe(true);
  });
});
