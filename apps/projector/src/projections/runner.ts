/**
 * Runs event-store projections with durable checkpoints, and rebuilds them from zero.
 *
 * Exactly-once: each batch is one transaction that (1) locks the projection's checkpoint row
 * (FOR UPDATE: two projector instances never apply the same batch), (2) reads the next events
 * gap-safely (readAll), (3) writes the read-model rows, (4) moves the checkpoint. A crash anywhere
 * rolls all of it back, so on restart the batch is applied again from the old checkpoint, once.
 *
 * Rows are recomputed by folding each touched stream up to the batch's last position (the same
 * pure folds the gateway uses), so a live read model and a rebuilt one are equal by construction.
 * An incremental projection (`incremental: true`, for streams that grow long: a patient's alert
 * stream holds every raise and clear of the stay) receives only the batch's events of each stream
 * and folds them onto the state it reads back from its own table (the rows earlier batches of the
 * same checkpoint wrote, in this transaction): the same fold, without re-reading the history.
 * Exactly-once and rebuild are unchanged (a rebuild reads back from the `<table>_rebuild` copy).
 *
 * Rebuild: replay from 0 into `<table>_rebuild` (a CREATE TABLE ... LIKE copy) under a separate
 * checkpoint, then in one transaction lock the live checkpoint, apply the remaining tail, and swap
 * the tables by rename; readers see the old table or the new one, never a half-built one.
 */
import { must } from '@vitalis/runtime';
import { withTransaction, type Pool, type PoolClient } from '@vitalis/db';
import { headPosition, readAll, readStreams, type StoredEvent } from '@vitalis/eventstore';
import { PROJECTIONS, type Projection } from './definitions';

export interface CatchUpResult {
  events: number;
  batches: number;
  position: number;
}

async function lockCheckpoint(client: PoolClient, name: string): Promise<number> {
  await client.query('INSERT INTO projection_checkpoints (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
  const { rows } = await client.query<{ position: number }>('SELECT position FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [
    name,
  ]);
  return must(rows[0], `the checkpoint row of ${name}, inserted just before`).position;
}

/** Events grouped by stream, each in version order (the batch is in global order, which is version order per stream). */
function byStream(events: StoredEvent[]): Map<string, StoredEvent[]> {
  const out = new Map<string, StoredEvent[]>();
  for (const e of events) {
    const list = out.get(e.streamId);
    if (list) list.push(e);
    else out.set(e.streamId, [e]);
  }
  return out;
}

/** One batch in the caller's transaction; returns how many events it consumed (0 = caught up). */
export async function applyBatch(
  client: PoolClient,
  projection: Projection,
  checkpoint: string,
  table: string,
  batch: number,
): Promise<{ events: number; position: number }> {
  const from = await lockCheckpoint(client, checkpoint);
  const events = await readAll(client, from, batch);
  if (events.length === 0) return { events: 0, position: from };
  const last = must(events.at(-1), 'the last event read (there are some)').globalPosition;
  const owned = events.filter((e) => projection.owns(e.streamId));
  if (owned.length > 0) {
    const history = projection.incremental
      ? byStream(owned)
      : await readStreams(
          client,
          owned.map((e) => e.streamId),
          { upToPosition: last },
        );
    await projection.write(client, table, history, owned);
  }
  await client.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [checkpoint, last]);
  return { events: events.length, position: last };
}

/** Applies batches until the projection has consumed every gap-safe event. */
export async function catchUp(
  pool: Pool,
  projection: Projection,
  options: { batch?: number; checkpoint?: string; table?: string; maxBatches?: number } = {},
): Promise<CatchUpResult> {
  const checkpoint = options.checkpoint ?? projection.name;
  const table = options.table ?? projection.table;
  let events = 0;
  let batches = 0;
  let position: number;
  for (;;) {
    const r = await withTransaction(pool, (c) => applyBatch(c, projection, checkpoint, table, options.batch ?? 500));
    position = r.position;
    if (r.events === 0) break;
    events += r.events;
    batches++;
    if (options.maxBatches !== undefined && batches >= options.maxBatches) break;
  }
  return { events, batches, position };
}

/**
 * Catches up until the projection has passed `position` (e.g. the position of an event just
 * appended), in as many rounds as it takes; gives up after `timeoutMs`.
 */
export async function catchUpTo(pool: Pool, projection: Projection, position: number, timeoutMs = 30_000): Promise<CatchUpResult> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await catchUp(pool, projection);
    if (r.position >= position) return r;
    if (Date.now() > deadline) throw new Error(`projection ${projection.name} did not reach position ${position} (at ${r.position})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const rebuildTable = (projection: Projection) => `${projection.table}_rebuild`;
const rebuildCheckpoint = (projection: Projection) => `${projection.name}:rebuild`;

/** Replays from zero into `<table>_rebuild` (left in place; `rebuild` swaps it in). */
export async function replayIntoShadow(pool: Pool, projection: Projection, batch = 1_000): Promise<CatchUpResult> {
  const shadow = rebuildTable(projection);
  await withTransaction(pool, async (c) => {
    await c.query(`DROP TABLE IF EXISTS ${shadow}`);
    await c.query(`CREATE TABLE ${shadow} (LIKE ${projection.table} INCLUDING ALL)`);
    await c.query('INSERT INTO projection_checkpoints (name, position) VALUES ($1, 0) ON CONFLICT (name) DO UPDATE SET position = 0', [
      rebuildCheckpoint(projection),
    ]);
  });
  return catchUp(pool, projection, { checkpoint: rebuildCheckpoint(projection), table: shadow, batch });
}

/**
 * Rebuilds a projection from zero and swaps the fresh table in atomically. One rebuild per
 * projection at a time (a session advisory lock; a second one fails fast instead of racing on the
 * shadow table). The live projector keeps running meanwhile.
 */
export async function rebuild(pool: Pool, projection: Projection, batch = 1_000): Promise<CatchUpResult> {
  const session = await pool.connect();
  try {
    const { rows } = await session.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtext('vitalis-rebuild:' || $1)) AS ok", [
      projection.name,
    ]);
    if (!must(rows[0], 'the row of pg_try_advisory_lock').ok) throw new Error(`a rebuild of ${projection.name} is already running`);
    return await rebuildLocked(pool, projection, batch);
  } finally {
    await session.query("SELECT pg_advisory_unlock(hashtext('vitalis-rebuild:' || $1))", [projection.name]).catch(() => {});
    session.release();
  }
}

async function rebuildLocked(pool: Pool, projection: Projection, batch: number): Promise<CatchUpResult> {
  const replay = await replayIntoShadow(pool, projection, batch);
  const shadow = rebuildTable(projection);
  const position = await withTransaction(pool, async (c) => {
    // Holding the live checkpoint stops the live projector for the swap; the shadow then takes
    // the tail it has not seen yet, and becomes the live table at its own position.
    await lockCheckpoint(c, projection.name);
    let tail = await applyBatch(c, projection, rebuildCheckpoint(projection), shadow, 100_000);
    while (tail.events > 0) tail = await applyBatch(c, projection, rebuildCheckpoint(projection), shadow, 100_000);
    await c.query(`ALTER TABLE ${projection.table} RENAME TO ${projection.table}_old`);
    await c.query(`ALTER TABLE ${shadow} RENAME TO ${projection.table}`);
    await c.query(`DROP TABLE ${projection.table}_old`);
    await c.query('UPDATE projection_checkpoints SET position = $2, updated_at = now() WHERE name = $1', [projection.name, tail.position]);
    await c.query('DELETE FROM projection_checkpoints WHERE name = $1', [rebuildCheckpoint(projection)]);
    return tail.position;
  });
  return { ...replay, position };
}

/** The event store's head and every projection's checkpoint (the metrics' positions and lag). */
export async function projectionPositions(pool: Pool): Promise<{ head: number; projections: Map<string, number> }> {
  const names = PROJECTIONS.map((p) => p.name);
  const [head, { rows }] = await Promise.all([
    headPosition(pool),
    pool.query<{ name: string; position: number }>('SELECT name, position FROM projection_checkpoints WHERE name = ANY($1)', [names]),
  ]);
  const at = new Map(rows.map((r) => [r.name, r.position]));
  // A projection that has never run is at 0: its lag is the whole store.
  return { head, projections: new Map(names.map((name) => [name, at.get(name) ?? 0])) };
}

export function projectionNamed(name: string): Projection | undefined {
  return PROJECTIONS.find((p) => p.name === name);
}
