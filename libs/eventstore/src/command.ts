/**
 * The one command handler of the event-sourced records (ADR 0024), in the shape of Emmett's
 * DeciderCommandHandler: read the stream, fold it, decide (a pure function: command + state →
 * events or an explicit refusal), append at the version read, audit. The decider is the domain's
 * (@vitalis/records); the audit and the other writes of a command are the caller's callbacks, so
 * this module knows no domain, no HTTP and no caller.
 *
 * Order of the checks, the same for every domain: a refusal of kind `not-found` first (the record
 * is absent, whatever version the caller expected), then an expected version (If-Match) the stream
 * is not at, then the decider's other refusals. A version conflict at the append (another writer
 * committed in between) is read and decided again, at most `retries` times, and only when the
 * caller named no version (its version is then the lock) and the handler owns the transaction.
 */
import { withTransaction, type Pool, type PoolClient } from '@vitalis/db';
import { append, ConcurrencyError, readStream, type EventMetadata, type NewEvent, type Queryable, type StoredEvent } from './store';

/** What a decider answers: the events a command produces, or why it is refused. */
export type Decision<Event, Refusal> = { ok: true; events: Event[] } | { ok: false; error: Refusal };

/** An event as a decider produces it (typed data; the store keeps it as JSON), with its id when the decider derives one (a retry then cannot append it twice). */
export interface DecidedEvent {
  type: string;
  data: object;
  eventId?: string;
}

/** A domain's decider: its initial state, a pure evolve (it must not change the state it is given) and a pure decide. */
export interface Decider<State, Command, Event extends DecidedEvent, Refusal extends { kind: string }> {
  initialState: () => State;
  evolve: (state: State, event: StoredEvent) => State;
  decide: (command: Command, state: State) => Decision<Event, Refusal>;
}

/** The handler's own refusals: the caller's version is not the stream's, or the stream kept changing. */
export type VersionConflict =
  { kind: 'version-mismatch'; expected: number; actual: number } | { kind: 'concurrent-change'; attempts: number };

/** A state and the stream version it was folded at. */
export interface Loaded<State> {
  state: State;
  version: number;
}

/** An appended command: the state it was decided on, the state after, the events as decided and as stored. */
export interface Appended<State, Event> {
  before: State;
  state: State;
  decided: Event[];
  stored: StoredEvent[];
  version: number;
}

export type CommandOutcome<State, Event, Refusal> =
  ({ ok: true } & Appended<State, Event>) | { ok: false; error: Refusal | VersionConflict; state: State };

export interface HandleOptions<State, Event, Refusal> {
  /** The events' metadata (who, which client, which request, which scope). */
  metadata: EventMetadata;
  /** The version the caller read (If-Match): the stream must be at it, and a conflict is never retried. */
  expectedVersion?: number | undefined;
  /** How many times a version conflict is read and decided again (default 0: the first conflict is the answer). */
  retries?: number | undefined;
  /** Where the state comes from (default: the stream, folded with the decider). */
  load?: ((db: Queryable) => Promise<Loaded<State>>) | undefined;
  /** Writes that must come before the events in their transaction (reservations: their locks before the store's). */
  beforeAppend?: ((tx: PoolClient, decided: { state: State; events: Event[] }) => Promise<void>) | undefined;
  /** Writes that follow the events in their transaction (another stream the command completes). */
  afterAppend?: ((tx: PoolClient, appended: Appended<State, Event>) => Promise<void>) | undefined;
  /** The success's audit row, last in the events' transaction: a row that cannot be written rolls the command back. */
  recorded?: ((tx: PoolClient, appended: Appended<State, Event>) => Promise<void>) | undefined;
  /** Called once for a refusal, after nothing was written (the caller audits the refusals it records). */
  refused?: ((error: Refusal | VersionConflict, state: State) => Promise<void>) | undefined;
}

/** A transaction the caller opened: the command runs in it once, and a conflict is thrown (the caller rolls back). */
export interface InTransaction {
  transaction: PoolClient;
}

export const inTransaction = (client: PoolClient): InTransaction => ({ transaction: client });

/**
 * A decision at the stream's version, in the order of the checks (see the header): the events to
 * append, or the refusal the caller gets.
 */
export function settle<Event, Refusal extends { kind: string }>(
  decision: Decision<Event, Refusal>,
  expected: number | undefined,
  version: number,
): Decision<Event, Refusal | VersionConflict> {
  if (!decision.ok && decision.error.kind === 'not-found') return decision;
  if (expected !== undefined && expected !== version) return { ok: false, error: { kind: 'version-mismatch', expected, actual: version } };
  return decision;
}

/** The stream folded with the decider, and the version of its last event (0: no stream yet). */
export async function loadStream<State>(
  db: Queryable,
  fold: { initialState: () => State; evolve: (state: State, event: StoredEvent) => State },
  streamId: string,
): Promise<Loaded<State>> {
  const events = await readStream(db, streamId);
  return { state: events.reduce(fold.evolve, fold.initialState()), version: events[events.length - 1]?.streamVersion ?? 0 };
}

const toNewEvent = (e: DecidedEvent): NewEvent => ({ eventId: e.eventId, type: e.type, data: e.data as Record<string, unknown> });

/**
 * Handles one command on one stream: load, decide, settle, then, in one transaction, the writes
 * before, the append at the version loaded, the writes after and the audit row. On a pool each
 * attempt is its own transaction; in the caller's transaction (`inTransaction`) there is one
 * attempt and a version conflict is thrown as ConcurrencyError. Anything else a callback throws
 * rolls the transaction back and is thrown to the caller.
 */
export async function handleCommand<State, Command, Event extends DecidedEvent, Refusal extends { kind: string }>(
  db: Pool | InTransaction,
  decider: Decider<State, Command, Event, Refusal>,
  streamId: string,
  command: Command,
  options: HandleOptions<State, Event, Refusal>,
): Promise<CommandOutcome<State, Event, Refusal>> {
  const within = 'transaction' in db ? db.transaction : undefined;
  const reader: Queryable = within ?? (db as Pool);
  const write = <T>(work: (tx: PoolClient) => Promise<T>): Promise<T> => (within ? work(within) : withTransaction(db as Pool, work));
  const load = options.load ?? ((q: Queryable) => loadStream(q, decider, streamId));
  const retries = within || options.expectedVersion !== undefined ? 0 : (options.retries ?? 0);
  const refuse = async (error: Refusal | VersionConflict, state: State): Promise<CommandOutcome<State, Event, Refusal>> => {
    await options.refused?.(error, state);
    return { ok: false, error, state };
  };
  for (let attempt = 1; ; attempt++) {
    const { state, version } = await load(reader);
    const settled = settle(decider.decide(command, state), options.expectedVersion, version);
    if (!settled.ok) return refuse(settled.error, state);
    try {
      const appended = await write(async (tx) => {
        await options.beforeAppend?.(tx, { state, events: settled.events });
        const r = await append(tx, streamId, version, settled.events.map(toNewEvent), options.metadata);
        const after = r.events.reduce(decider.evolve, state);
        const done: Appended<State, Event> = { before: state, state: after, decided: settled.events, stored: r.events, version: r.version };
        await options.afterAppend?.(tx, done);
        await options.recorded?.(tx, done);
        return done;
      });
      return { ok: true, ...appended };
    } catch (err) {
      if (!(err instanceof ConcurrencyError) || within) throw err;
      if (attempt <= retries) continue;
      return refuse({ kind: 'concurrent-change', attempts: attempt }, state);
    }
  }
}
