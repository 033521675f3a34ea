/**
 * The times the UI cards show, for the browser tests' expectations: built by the cards' own rule
 * (apps/gateway/src/ui/cards/shared/time.ts), so an expectation holds across midnight.
 */
import { clock } from '../../apps/gateway/src/ui/cards/shared/time';

/**
 * The time a card shows for `iso`, by the cards' own rule (`shared/time.ts` `clock`: "HH:MM" when
 * today, "29 Nov 23:48" when not): an expectation built from it holds across midnight. The test
 * browser runs in UTC and so does this process (vitest.config.ts sets TZ), so both sides format the
 * same instant alike.
 */
export function shownClock(iso: string, now: number = Date.now()): string {
  if (new Date(now).getTimezoneOffset() !== 0) throw new Error('shownClock: the test process must run in UTC (vitest.config.ts env TZ)');
  return clock(iso, now);
}

/**
 * Any time a card shows, as a RegExp source: 24-hour HH:MM (`seconds`: HH:MM:SS), the date first
 * when not today (an instant a test made a moment before midnight reads "29 Nov 23:59" after it).
 */
export function shownClockPattern(seconds = false): string {
  return `(?:\\d{1,2} [A-Z][a-z]{2}(?: \\d{4})? )?\\d{2}:\\d{2}${seconds ? ':\\d{2}' : ''}`;
}

/** `shownClockPattern()`: any HH:MM time a card shows, the date first when not today. */
export const SHOWN_CLOCK = shownClockPattern();
