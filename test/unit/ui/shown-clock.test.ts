import { describe, expect, it } from 'vitest';
import { shownClock, shownClockPattern } from '../../helpers/shown-clock';

// The browser tests' expected times: the cards' rule in the test browser's zone (UTC), so a test
// that runs just after midnight expects "29 Nov 23:48" for a value taken 32 minutes earlier.
describe('shownClock (browser tests)', () => {
  const justAfterMidnight = Date.parse('2026-11-30T00:20:00Z');

  it('is HH:MM on the same UTC day and the date first on an earlier one', () => {
    expect(shownClock('2026-11-30T00:05:59Z', justAfterMidnight)).toBe('00:05');
    expect(shownClock('2026-11-29T23:48:10Z', justAfterMidnight)).toBe('29 Nov 23:48');
    expect(shownClock('2025-12-31T23:59:00Z', justAfterMidnight)).toBe('31 Dec 2025 23:59');
  });

  it('its pattern takes every form the cards show, and no 12-hour clock', () => {
    const clock = new RegExp(`^${shownClockPattern()}$`);
    for (const shown of ['00:05', '29 Nov 23:48', '31 Dec 2025 23:59']) expect(shown).toMatch(clock);
    for (const other of ['12:05 AM', '9:05', '29 November 23:48']) expect(other).not.toMatch(clock);
    expect('23:48:10').toMatch(new RegExp(`^${shownClockPattern(true)}$`));
  });
});
