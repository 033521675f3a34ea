/**
 * `must(value, what)`: the value when it is there, a thrown error naming what was expected when it
 * is not. For a value present by construction (a regex group that always takes part, a row an
 * INSERT ... RETURNING always returns, a map entry set just before) where the type cannot show it:
 * a broken invariant fails loudly with its name instead of travelling on as `undefined`.
 */

/** The error `must` throws: a value the code relies on was absent. */
export class MissingValueError extends Error {
  constructor(what: string) {
    super(`expected ${what}, found none`);
    this.name = 'MissingValueError';
  }
}

/** Returns `value` unless it is `undefined` or `null`; then throws a `MissingValueError` naming `what`. */
export function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new MissingValueError(what);
  return value;
}
