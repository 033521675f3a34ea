import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, isAfter, type Cursor } from '@vitalis/live';

describe('live stream ids (cursor vectors)', () => {
  it('round-trips single-partition and ward ids, sorted by partition', () => {
    const c: Cursor = new Map([
      [7, { offset: 88, k: 0 }],
      [3, { offset: 1042, k: 1 }],
    ]);
    expect(encodeCursor(c)).toBe('3-1042.1_7-88');
    expect(decodeCursor('3-1042.1_7-88')).toEqual(
      new Map([
        [3, { offset: 1042, k: 1 }],
        [7, { offset: 88, k: 0 }],
      ]),
    );
    expect(decodeCursor('0-5')).toEqual(new Map([[0, { offset: 5, k: 0 }]]));
  });

  it('refuses what it did not issue', () => {
    for (const bad of ['', 'x', '3-', '-1', '3-1_3-2', '3-1.', '3-1 ', '3-99999999999999999', 'a-1', '3-1__4-2'])
      expect(decodeCursor(bad)).toBeUndefined();
    expect(decodeCursor(Array.from({ length: 300 }, (_, i) => `${i}-1`).join('_'))).toBeUndefined();
  });

  it('orders observation then its alerts, partition by partition', () => {
    const c: Cursor = new Map([[3, { offset: 10, k: 0 }]]);
    expect(isAfter(c, 3, { offset: 10, k: 0 })).toBe(false);
    expect(isAfter(c, 3, { offset: 10, k: 1 })).toBe(true);
    expect(isAfter(c, 3, { offset: 9, k: 5 })).toBe(false);
    expect(isAfter(c, 3, { offset: 11, k: 0 })).toBe(true);
    expect(isAfter(c, 4, { offset: 0, k: 0 })).toBe(true);
  });
});
