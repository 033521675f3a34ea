/**
 * The words of the cards' "Data delayed" banner (cards/shared/delay-message.ts, the file the cards
 * bundle): shown only when the gateway says the pipeline is delayed, naming the newest stored
 * reading's age when it is old, the waiting devices when only some partitions are stuck.
 */
import { describe, expect, it } from 'vitest';
import { delayMessage } from '../../../apps/gateway/src/ui/cards/shared/delay-message';

const now = Date.parse('2026-11-29T12:00:00Z');
const ago = (s: number) => new Date(now - s * 1_000).toISOString();

describe('delayMessage', () => {
  it('says nothing unless the gateway says delayed (ok, unknown, nothing read)', () => {
    expect(delayMessage({ status: 'ok', delayed: false, newest_observation_at: ago(3_600) }, now)).toBeNull();
    expect(delayMessage({ status: 'unknown', delayed: false }, now)).toBeNull();
    expect(delayMessage(null, now)).toBeNull();
  });

  it("names the newest stored reading's age when it is old", () => {
    expect(
      delayMessage({ status: 'delayed', delayed: true, newest_observation_at: ago(16 * 60 + 5), newest_observation_age_s: 965 }, now),
    ).toBe('Data delayed — the newest stored reading is 16 min old; vitals on this screen may not be current');
    // MCP results without the time: the server's age
    expect(delayMessage({ status: 'stalled', delayed: true, newest_observation_age_s: 7_300 }, now)).toBe(
      'Data delayed — the newest stored reading is 2 h old; vitals on this screen may not be current',
    );
  });

  it("a stalled partition while the others store: some devices' readings wait", () => {
    expect(
      delayMessage({ status: 'stalled', delayed: true, delayed_s: 420, newest_observation_at: ago(2), newest_observation_age_s: 2 }, now),
    ).toBe('Data delayed — readings from some devices have been waiting for 7 min to be stored; vitals on this screen may not be current');
  });

  it('nothing stored at all', () => {
    expect(delayMessage({ status: 'delayed', delayed: true, newest_observation_at: null, newest_observation_age_s: null }, now)).toBe(
      'Data delayed — no reading is being stored; vitals on this screen may not be current',
    );
  });
});
