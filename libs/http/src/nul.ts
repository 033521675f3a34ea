/**
 * The NUL character (U+0000) is valid in JSON strings, form fields and query strings, but
 * PostgreSQL refuses it in text and jsonb: a request carrying one would fail at the database (a
 * 500) after part of its work. The problem plugin refuses it up front, for every route, with a 400
 * naming where it is. Keys are checked too (jsonb refuses them as well).
 */

/** Where the first NUL of `value` is, as path segments (`['name', 0, 'family']`), or undefined. */
export function findNul(value: unknown): (string | number)[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? [] : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string' && (typeof item !== 'object' || item === null)) continue; // numbers: the common case (ECG samples)
      const at = findNul(item);
      if (at) return [i, ...at];
    }
    return undefined;
  }
  for (const key in value) {
    if (key.includes('\u0000')) return [key];
    const at = findNul((value as Record<string, unknown>)[key]);
    if (at) return [key, ...at];
  }
  return undefined;
}

/** `body.name.0.family`, the path style of validation errors (a NUL in a key is shown escaped). */
export const nulPathText = (context: string, at: (string | number)[]): string =>
  [context, ...at.map((s) => (typeof s === 'number' ? String(s) : JSON.stringify(s).slice(1, -1)))].join('.');
