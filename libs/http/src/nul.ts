/**
 * The NUL character (U+0000) is valid in JSON strings, form fields and query strings, but
 * PostgreSQL refuses it in text and jsonb: a request carrying one would fail at the database (a
 * 500) after part of its work. So does jsonb an unpaired UTF-16 surrogate (a JSON escape such as
 * `"\ud800"`). The problem plugin refuses both up front, for every route, with a 400 naming where
 * it is (`findUnstorable`). Keys are checked too (jsonb refuses them as well).
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

/** A UTF-16 surrogate without its pair: JSON can escape one (`"\\ud800"`), UTF-8 cannot carry it, jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be stored as sent (PostgreSQL text and jsonb), or undefined. */
function unstorable(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'must not contain an unpaired UTF-16 surrogate (U+D800 to U+DFFF)';
  return undefined;
}

/**
 * Where the first string (or key) PostgreSQL cannot store as sent is — a NUL (text and jsonb refuse
 * it) or an unpaired surrogate (jsonb refuses it; UTF-8 cannot encode it) — and why; or undefined.
 */
export function findUnstorable(value: unknown): { at: (string | number)[]; message: string } | undefined {
  if (typeof value === 'string') {
    const message = unstorable(value);
    return message ? { at: [], message } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'string' && (typeof item !== 'object' || item === null)) continue; // numbers: the common case (ECG samples)
      const found = findUnstorable(item);
      if (found) return { at: [i, ...found.at], message: found.message };
    }
    return undefined;
  }
  for (const key in value) {
    const bad = unstorable(key);
    if (bad) return { at: [key], message: bad };
    const found = findUnstorable((value as Record<string, unknown>)[key]);
    if (found) return { at: [key, ...found.at], message: found.message };
  }
  return undefined;
}

/** `body.name.0.family`, the path style of validation errors (a NUL in a key is shown escaped). */
export const nulPathText = (context: string, at: (string | number)[]): string =>
  [context, ...at.map((s) => (typeof s === 'number' ? String(s) : JSON.stringify(s).slice(1, -1)))].join('.');
