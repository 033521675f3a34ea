/**
 * Isolating the rows the database refuses in a batch it refused, in a bounded number of writes.
 *
 * A batch is written in one statement; when PostgreSQL refuses the data itself (SQLSTATE class 22
 * or 23), the batch is split until every refused row stands alone, and every other row is written:
 *  - when the error names the row (COPY's `line N` context), the rows before it are written in one
 *    statement and the rows after it in one: 2 statements per refused row, whatever the batch's size
 *    (3 when the error could come from another row than the one named — a unique or foreign key,
 *    checked later than its line —: the named row is then written alone, to prove it);
 *  - otherwise by bisection: the failing part is halved, each half written; a half that fails is
 *    halved again. One refused row among n costs between log2(n) and 2·log2(n) statements
 *    (13 to 26 for 5,000 rows), not n.
 * A good row is never declared refused: a row is refused only when written alone it fails (or,
 * bisecting, when the other half of a failing part was written and it is the one row left, which is
 * then tried alone too). `between` runs before each write: the ingest heartbeats there, so the
 * consumer group keeps the member while it isolates.
 *
 * Pure over `attempt`: the ingest runs every attempt in a savepoint of one transaction
 * (store.ts writeRowsIsolating); the unit test counts the attempts with an in-memory `attempt`.
 */
export interface IsolateSteps<T> {
  /** Writes `part` (all or nothing); throws what the database threw. */
  attempt: (part: T[]) => Promise<void>;
  /** The error means "this data is wrong", not "the database is unwell" (those are thrown on). */
  isRefusal: (err: unknown) => boolean;
  /** For an error `attempt(part)` threw: the index in `part` of the row it names, when it names one. */
  culprit?: (err: unknown, part: T[]) => number | undefined;
  /**
   * The row `culprit` names is certainly refused (an error raised by that row alone, as a CHECK or a
   * malformed value is): not written alone to prove it. Otherwise it is.
   */
  certain?: (err: unknown) => boolean;
  /** Before each write (a heartbeat). */
  between?: () => Promise<void>;
}

export interface Isolated<T> {
  refused: { item: T; err: unknown }[];
  /** Writes made while isolating (the failed write of the whole batch before it not counted). */
  attempts: number;
}

/** `items` were refused as a whole with `failure`: writes all but the refused ones, returns those. */
export async function isolate<T>(items: T[], failure: unknown, steps: IsolateSteps<T>): Promise<Isolated<T>> {
  const refused: Isolated<T>['refused'] = [];
  let attempts = 0;
  /** Writes `part`; the refusal it met, or undefined when it was written. */
  const write = async (part: T[]): Promise<unknown> => {
    if (part.length === 0) return undefined;
    await steps.between?.();
    attempts += 1;
    try {
      await steps.attempt(part);
      return undefined;
    } catch (err) {
      if (!steps.isRefusal(err)) throw err;
      return err;
    }
  };
  /** `part` failed with `err` (`own`: err came from writing exactly `part`, so its row index applies). */
  const split = async (part: T[], err: unknown, own: boolean): Promise<void> => {
    for (;;) {
      if (part.length === 1) {
        // Alone and known bad from its own write: refused. Inherited from a bigger part: prove it.
        const alone = own ? err : await write(part);
        if (alone !== undefined) refused.push(...part.map((item) => ({ item, err: alone }))); // the one item
        return;
      }
      const at = own ? steps.culprit?.(err, part) : undefined;
      if (at !== undefined && Number.isInteger(at) && at >= 0 && at < part.length) {
        const before = part.slice(0, at);
        const eBefore = await write(before);
        if (eBefore !== undefined) await split(before, eBefore, true);
        const suspect = part.slice(at, at + 1);
        const eSuspect = steps.certain?.(err) ? err : await write(suspect);
        if (eSuspect !== undefined) refused.push(...suspect.map((item) => ({ item, err: eSuspect }))); // the one item
        part = part.slice(at + 1);
        err = await write(part);
        if (err === undefined) return;
        own = true;
        continue;
      }
      const mid = part.length >> 1;
      const left = part.slice(0, mid);
      const right = part.slice(mid);
      const eLeft = await write(left);
      if (eLeft === undefined) {
        // The left half went in: what failed is in the right half (err named its first bad row).
        part = right;
        own = false;
        continue;
      }
      await split(left, eLeft, true);
      err = await write(right);
      if (err === undefined) return;
      part = right;
      own = true;
    }
  };
  await split(items, failure, true);
  return { refused, attempts };
}

/**
 * The row a COPY error names: PostgreSQL's context `COPY <table>, line N[, column …]: …` (1-based;
 * in the binary format the ingest writes, N counts tuples, one per row). Undefined for any other error (an INSERT, a statement after the COPY).
 */
export function copyLineOf(err: unknown, tables: readonly string[]): number | undefined {
  const where = (err as { where?: unknown }).where;
  if (typeof where !== 'string') return undefined;
  const [, table, line] = /(?:^|\n)COPY ([a-z_]+), line (\d+)\b/.exec(where) ?? [];
  if (table === undefined || !tables.includes(table)) return undefined;
  return Number(line) - 1;
}
