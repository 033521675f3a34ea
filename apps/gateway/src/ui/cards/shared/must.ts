/**
 * `must(value, what)` for the cards: the value when it is there, an error naming what was expected
 * when it is not. The browser copy of libs/runtime's `must` (the cards' bundle takes no Node
 * package): for an element the card's own markup holds, a table entry its data always has.
 */
export function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`expected ${what}, found none`);
  return value;
}
