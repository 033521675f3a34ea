/**
 * `must` (libs/runtime): a value present by construction passes through unchanged, an absent one
 * fails with an error naming what was expected (never a silent `undefined`).
 */
import { must, MissingValueError } from '@vitalis/runtime';
import { describe, expect, it } from 'vitest';

describe('must', () => {
  it('returns a present value, falsy ones included', () => {
    expect(must('a', 'a letter')).toBe('a');
    expect(must(0, 'a count')).toBe(0);
    expect(must('', 'a string')).toBe('');
    expect(must(false, 'a flag')).toBe(false);
  });

  it('throws a MissingValueError naming what was expected for undefined and null', () => {
    expect(() => must(undefined, 'the first row')).toThrow(new MissingValueError('the first row'));
    expect(() => must(null, 'the slot id')).toThrow('expected the slot id, found none');
  });
});
