/** The resume rules (pure): which positions the stream can never have issued, and the window bound. */
import { describe, expect, it } from 'vitest';
import { RECORD_END_K, type Cursor } from '@vitalis/live';
import { boundCursor, unissuedReason, type PartitionFacts } from '../../../apps/gateway/src/vitals/resume';

const facts = (f: Partial<PartitionFacts>): PartitionFacts => ({
  partition: 3,
  head: 100,
  floor: 10,
  holds: true,
  windowStart: null,
  ...f,
});
const cursor = (entries: [number, number, number?][]): Cursor => new Map(entries.map(([p, offset, k]) => [p, { offset, k: k ?? 0 }]));

describe('positions the stream never issued', () => {
  it('a partition where nothing was stored, an offset beyond the latest stored one, an offset inside the retained log that no range holds', () => {
    expect(unissuedReason(0, facts({ head: null, floor: null, holds: false }))).toBe('partition 3 holds nothing this stream issued');
    expect(unissuedReason(101, facts({}))).toBe('offset 101 is beyond the latest position of partition 3');
    expect(unissuedReason(50, facts({ holds: false }))).toBe('offset 50 of partition 3 was never stored');
  });

  it('a stored offset, the head itself, and an offset older than the retained log (old, not forged) pass', () => {
    expect(unissuedReason(50, facts({}))).toBeUndefined();
    expect(unissuedReason(100, facts({}))).toBeUndefined();
    expect(unissuedReason(10, facts({}))).toBeUndefined();
    expect(unissuedReason(3, facts({ holds: false }))).toBeUndefined();
  });
});

describe('the replay window', () => {
  it('moves each watched partition the client is behind on (or has no entry for) up to the window start, and says which', () => {
    const client = cursor([
      [3, 40, 1],
      [7, 90],
    ]);
    const { after, behind } = boundCursor(
      client,
      new Map([
        [3, 50],
        [7, 80],
        [9, 5],
      ]),
    );
    // a window start is a stored range's end: after everything of that record (a frame's observations share its offset)
    expect(after).toEqual(
      cursor([
        [3, 50, RECORD_END_K],
        [7, 90],
        [9, 5, RECORD_END_K],
      ]),
    );
    expect(behind).toEqual([3, 9]);
    expect(client).toEqual(
      cursor([
        [3, 40, 1],
        [7, 90],
      ]),
    ); // the client's own cursor is left alone
  });

  it('leaves a client at or past the window start, a partition wholly inside the window, and unwatched entries as they are', () => {
    const client = cursor([
      [3, 50],
      [4, 2],
      [8, 1],
    ]);
    expect(
      boundCursor(
        client,
        new Map([
          [3, 50],
          [4, null],
        ]),
      ),
    ).toEqual({ after: client, behind: [] });
  });
});
