/**
 * The series dictionary (migration 0037, docs/adr/0036) as the ingest writes it: every stored row
 * carries the integer key of its (patient_id, code), which the series index is built on. Keys come
 * from `vitals_series_assign` only (it adds the pairs not seen yet), and a pair's key never changes,
 * so a process may keep the keys it was given: `SeriesKeys` does, and asks the database only for the
 * pairs it has not seen (a new patient or a new code: once each).
 */
import type { Queryable } from './store-records';
import type { StoredRow } from './store-rows';

type KeysByPatient = Map<string, Map<string, number>>;

/** The keys of the pairs of `rows`, those not in the dictionary yet added to it, in one statement on `db`. */
async function assignedKeys(db: Queryable, rows: readonly StoredRow[]): Promise<KeysByPatient> {
  const patients: string[] = [];
  const codes: string[] = [];
  for (const r of rows) {
    patients.push(r.patient_id);
    codes.push(r.code);
  }
  const { rows: found } = await db.query<{ patient_id: string; code: string; series_id: number }>(
    'SELECT patient_id, code, series_id FROM vitals_series_assign($1::text[], $2::text[])',
    [patients, codes],
  );
  const keys: KeysByPatient = new Map();
  for (const f of found) setKey(keys, f.patient_id, f.code, f.series_id);
  return keys;
}

function setKey(keys: KeysByPatient, patient: string, code: string, key: number): void {
  let codes = keys.get(patient);
  if (!codes) keys.set(patient, (codes = new Map()));
  codes.set(code, key);
}

/** Sets each row's `series_id` from `keys`; the rows whose pair is not there. */
function fillFrom(keys: KeysByPatient, rows: readonly StoredRow[]): StoredRow[] {
  const missing: StoredRow[] = [];
  for (const r of rows) {
    const key = keys.get(r.patient_id)?.get(r.code);
    if (key === undefined) missing.push(r);
    else r.series_id = key;
  }
  return missing;
}

function fillAll(keys: KeysByPatient, rows: readonly StoredRow[]): void {
  const [unkeyed] = fillFrom(keys, rows);
  // vitals_series_assign returns a key for every pair it is given: a row left without one is a bug.
  if (unkeyed) throw new Error(`vitals_series_assign returned no key for a pair of ${rows.length} rows`);
}

/**
 * Runs `write` with every row keyed: the rows that lack a key get one in the caller's transaction
 * (the path of a write whose rows did not come through `SeriesKeys`: tools, tests, a bench's own
 * writer), and lose it again afterwards, whatever happens: the transaction may yet roll back and
 * take the pairs it added with it, and a row written again must not carry a key that was never
 * committed.
 */
export async function withSeriesKeys<T>(client: Queryable, rows: readonly StoredRow[], write: () => Promise<T>): Promise<T> {
  const unkeyed = rows.filter((r) => r.series_id === undefined);
  if (unkeyed.length === 0) return write();
  try {
    fillAll(await assignedKeys(client, unkeyed), unkeyed);
    return await write();
  } finally {
    for (const r of unkeyed) r.series_id = undefined;
  }
}

/**
 * A process's keys. `assign` sets every row's `series_id`, asking the database (each time in a
 * statement of its own, committed before the rows' transaction begins, so a key kept here always
 * exists) only for the pairs not kept yet. At `maxKeys` it forgets them all and starts again:
 * patients come and go, and a key is one statement away.
 */
export class SeriesKeys {
  readonly #pool: Queryable;
  readonly #maxKeys: number;
  #keys: KeysByPatient = new Map();
  #count = 0;

  constructor(pool: Queryable, maxKeys = 200_000) {
    this.#pool = pool;
    this.#maxKeys = maxKeys;
  }

  /** How many keys are kept. */
  get size(): number {
    return this.#count;
  }

  async assign(rows: readonly StoredRow[]): Promise<void> {
    const missing = fillFrom(this.#keys, rows);
    if (missing.length === 0) return;
    const found = await assignedKeys(this.#pool, missing);
    fillAll(found, missing);
    if (this.#count >= this.#maxKeys) this.#forget();
    for (const [patient, codes] of found) {
      for (const [code, key] of codes) {
        if (this.#keys.get(patient)?.has(code)) continue;
        setKey(this.#keys, patient, code, key);
        this.#count += 1;
      }
    }
  }

  #forget(): void {
    this.#keys = new Map();
    this.#count = 0;
  }
}
