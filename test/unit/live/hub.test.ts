/**
 * The live hub's rules with an in-memory replay source and an injected channel (no Redis, no
 * PostgreSQL): the fresh start, the replay-to-live handover, gaps, reconnects, backpressure, the
 * queue bound, filters and token expiry. The same rules against the real stores:
 * test/integration/live.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeBatch, isAfter, type AlertData, type Cursor, type LiveEvent } from '@vitalis/live';
import { createLogger } from '@vitalis/log';
import { VITAL_CODE, type VitalsObservation } from '@vitalis/schemas';
import type { ChannelHandlers, LiveChannel } from '../../../apps/gateway/src/live/channel';
import { LiveHub, type CloseReason, type LiveMessage, type LiveSink, type SubscribeOptions } from '../../../apps/gateway/src/live/hub';
import type { ReplaySource } from '../../../apps/gateway/src/live/replay';

const HR = VITAL_CODE.heartRate;
const SPO2 = VITAL_CODE.spo2;

const observation = (patient: string, partition: number, offset: number, code: string = HR): LiveEvent => ({
  kind: 'observation',
  partition,
  offset,
  k: 0,
  patient_id: patient,
  data: { patient_id: patient, device_id: 'dev-1', seq: offset, code, effective_at: '2026-01-01T00:00:00.000Z', value: 60 + offset, unit: '/min' } as unknown as VitalsObservation,
});

const alert = (patient: string, partition: number, offset: number, k = 1): LiveEvent => ({
  kind: 'alert',
  partition,
  offset,
  k,
  patient_id: patient,
  type: 'VitalsAlertRaised',
  data: { alert_id: `a-${offset}`, rule: 'hr-high', state: 'raised', patient_id: patient, severity: 'high', message: 'high', value: 150 } as unknown as AlertData,
});

/** The append log in memory: what a page after a cursor returns, with hooks to hold a read. */
class MemoryLog implements ReplaySource {
  readonly events: LiveEvent[] = [];
  /** Awaited before a page is read (the page then sees what was stored meanwhile). */
  beforeRead?: () => Promise<void>;
  /** Awaited after a page was read, before it is returned (events stored meanwhile are not in it). */
  afterRead?: () => Promise<void>;
  pages = 0;

  store(...events: LiveEvent[]): void {
    this.events.push(...events);
    this.events.sort((a, b) => a.partition - b.partition || a.offset - b.offset || a.k - b.k);
  }

  async latest(patients: string[]): Promise<Cursor> {
    const partitions = new Set(this.events.filter((e) => patients.includes(e.patient_id)).map((e) => e.partition));
    const cursor: Cursor = new Map();
    for (const e of this.events) if (partitions.has(e.partition) && e.k === 0) cursor.set(e.partition, { offset: e.offset, k: 0 });
    return cursor;
  }

  async page(q: { patients: string[]; codes?: string[]; alerts: boolean; after: Cursor; limit: number }): Promise<{ events: LiveEvent[]; more: boolean }> {
    this.pages += 1;
    await this.beforeRead?.();
    const rows = this.events.filter(
      (e) =>
        q.patients.includes(e.patient_id) &&
        isAfter(q.after, e.partition, e) &&
        (e.kind === 'alert' ? q.alerts : !q.codes?.length || q.codes.includes(e.data.code)),
    );
    await this.afterRead?.();
    return { events: rows.slice(0, q.limit), more: rows.length > q.limit };
  }
}

/** The fan-out channel in memory: the test publishes batches and signals reconnects. */
class MemoryChannel implements LiveChannel {
  handlers?: ChannelHandlers;
  async start(handlers: ChannelHandlers): Promise<void> {
    this.handlers = handlers;
  }
  close(): void {
    this.handlers = undefined;
  }
  publish(partition: number, first: number, last: number, events: LiveEvent[]): void {
    this.handlers!.message(encodeBatch({ v: 1, partition, first, last, events }));
  }
  reconnect(): void {
    this.handlers!.reconnected();
  }
}

/** A sink that records what it was handed; `accept` says whether the transport took it. */
class RecordingSink implements LiveSink {
  readonly messages: LiveMessage[] = [];
  closed?: CloseReason;
  accept = true;
  send(msg: LiveMessage): boolean {
    this.messages.push(msg);
    return this.accept;
  }
  close(reason: CloseReason): void {
    this.closed = reason;
  }
  /** The ids of the events handed over (observations and alerts). */
  get ids(): string[] {
    return this.messages.flatMap((m) => (m.type === 'observation' || m.type === 'alert' ? [m.id] : []));
  }
}

const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
};

async function until(pred: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!pred() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  if (!pred()) throw new Error(`never happened: ${what}`);
}

/** Lets the hub's pending promise chains run (replay pages, flushes). */
const settle = () => new Promise((r) => setTimeout(r, 10));

const hubs: LiveHub[] = [];
afterEach(async () => {
  for (const h of hubs.splice(0)) await h.close();
});

async function rig(options: { maxQueue?: number; replayPageSize?: number; tokenCheckMs?: number; revokedAmong?: (ids: string[]) => Promise<Set<string>> } = {}) {
  const log = new MemoryLog();
  const channel = new MemoryChannel();
  const hub = new LiveHub({ replay: log, channel, logger: createLogger('test-live-hub', 'silent'), ...options });
  await hub.start();
  hubs.push(hub);
  /** Stores the events (committed) then publishes them as one batch, as the ingest does. */
  const commit = (partition: number, events: LiveEvent[], range?: { first: number; last: number }) => {
    log.store(...events);
    channel.publish(partition, range?.first ?? events[0]!.offset, range?.last ?? events[events.length - 1]!.offset, events);
  };
  const open = async (opts: SubscribeOptions, sink = new RecordingSink()) => {
    const sub = hub.subscribe(opts, sink);
    await sub.ready;
    await settle();
    return { sub, sink };
  };
  return { log, channel, hub, commit, open };
}

describe('a fresh subscription', () => {
  it('starts from the patients\' latest positions and gets only what is committed after', async () => {
    const { log, commit, open } = await rig();
    log.store(observation('p1', 0, 0), observation('p1', 0, 1), observation('p2', 0, 2));
    const { sink } = await open({ patients: ['p1'] });
    expect(sink.messages).toEqual([]);
    commit(0, [observation('p1', 0, 3), observation('p2', 0, 4), observation('p1', 0, 5)]);
    await until(() => sink.ids.length === 2, 'two live events');
    expect(sink.ids).toEqual(['0-3', '0-5']);
  });
});

describe('resume after a cursor', () => {
  it('replays exactly the missed events, page by page, then goes live', async () => {
    const { log, commit, open } = await rig({ replayPageSize: 2 });
    log.store(...[0, 1, 2, 3, 4, 5, 6].map((o) => observation('p1', 1, o)));
    const { sink } = await open({ patients: ['p1'], after: '1-2' });
    await until(() => sink.ids.length === 4, 'the replay');
    expect(sink.ids).toEqual(['1-3', '1-4', '1-5', '1-6']);
    commit(1, [observation('p1', 1, 7)]);
    await until(() => sink.ids.length === 5, 'the live event');
    expect(sink.ids).toEqual(['1-3', '1-4', '1-5', '1-6', '1-7']);
  });

  it('live events arriving while the page is read (and in it) are delivered once', async () => {
    const { log, commit, hub } = await rig();
    log.store(...[0, 1, 2, 3].map((o) => observation('p1', 0, o)));
    const held = gate();
    log.beforeRead = () => held.opened;
    const sink = new RecordingSink();
    const sub = hub.subscribe({ patients: ['p1'], after: '0-1' }, sink);
    await sub.ready;
    // committed and published while the replay waits to read: the page will hold them too
    commit(0, [observation('p1', 0, 4), observation('p1', 0, 5)]);
    commit(0, [observation('p1', 0, 6)]);
    expect(sink.messages).toEqual([]);
    held.open();
    await until(() => sink.ids.length >= 5, 'replay + buffer');
    await settle();
    expect(sink.ids).toEqual(['0-2', '0-3', '0-4', '0-5', '0-6']);
  });

  it('live events arriving after the page was read (not in it) come from the buffer, with no gap', async () => {
    const { log, commit, hub } = await rig();
    log.store(...[0, 1, 2, 3].map((o) => observation('p1', 0, o)));
    const held = gate();
    log.afterRead = () => held.opened;
    const sink = new RecordingSink();
    const sub = hub.subscribe({ patients: ['p1'], after: '0-1' }, sink);
    await sub.ready;
    await until(() => log.pages === 1, 'the page read');
    commit(0, [observation('p1', 0, 4), observation('p1', 0, 5)]);
    held.open();
    await until(() => sink.ids.length >= 4, 'replay + buffer');
    await settle();
    expect(sink.ids).toEqual(['0-2', '0-3', '0-4', '0-5']);
    commit(0, [observation('p1', 0, 6)]);
    await until(() => sink.ids.length === 5, 'live');
    expect(sink.ids.at(-1)).toBe('0-6');
  });
});

describe('the channel', () => {
  it('a gap (next.first > previous.last + 1) refills the subscriber from the replay source', async () => {
    const { log, channel, commit, open, hub } = await rig();
    const { sink } = await open({ patients: ['p1'] });
    commit(2, [observation('p1', 2, 0)]);
    await until(() => sink.ids.length === 1, 'first');
    log.store(observation('p1', 2, 1), observation('p1', 2, 2)); // committed; their message is lost
    commit(2, [observation('p1', 2, 3)]);
    await until(() => sink.ids.length === 4, 'the refill');
    await settle();
    expect(sink.ids).toEqual(['2-0', '2-1', '2-2', '2-3']);
    expect(hub.stats.gaps).toBe(1);
    // contiguous batches are no gap
    channel.publish(2, 4, 4, []);
    expect(hub.stats.gaps).toBe(1);
  });

  it('a reconnect refills every subscriber', async () => {
    const { log, channel, commit, open, hub } = await rig();
    const a = await open({ patients: ['p1'] });
    const b = await open({ patients: ['p2'] });
    commit(0, [observation('p1', 0, 0)]);
    commit(1, [observation('p2', 1, 0)]);
    await until(() => a.sink.ids.length === 1 && b.sink.ids.length === 1, 'live');
    log.store(observation('p1', 0, 1), observation('p2', 1, 1), observation('p2', 1, 2)); // published while disconnected
    channel.reconnect();
    await until(() => a.sink.ids.length === 2 && b.sink.ids.length === 3, 'the refill');
    expect(a.sink.ids).toEqual(['0-0', '0-1']);
    expect(b.sink.ids).toEqual(['1-0', '1-1', '1-2']);
    expect(hub.stats.resyncs).toBe(2);
  });
});

describe('backpressure', () => {
  it('a sink that returns false gets nothing more until resume(), then everything in order', async () => {
    const { commit, open } = await rig();
    const { sub, sink } = await open({ patients: ['p1'] });
    sink.accept = false;
    commit(0, [observation('p1', 0, 0)]);
    commit(0, [observation('p1', 0, 1), observation('p1', 0, 2)]);
    expect(sink.ids).toEqual(['0-0']);
    expect(sub.lastId).toBe('0-0');
    sink.accept = true;
    sub.resume();
    expect(sink.ids).toEqual(['0-0', '0-1', '0-2']);
    expect(sub.lastId).toBe('0-2');
  });

  it('a queue past its bound sends `lagged` with the last id handed over, and closes', async () => {
    const { commit, open, hub } = await rig();
    const { sink } = await open({ patients: ['p1'], maxQueue: 3 });
    sink.accept = false;
    commit(0, [0, 1, 2, 3].map((o) => observation('p1', 0, o)));
    expect(sink.closed).toBeUndefined();
    commit(0, [observation('p1', 0, 4)]);
    expect(sink.closed).toBe('lagged');
    const lagged = sink.messages.at(-1)!;
    expect(lagged).toMatchObject({ type: 'lagged', last_id: '0-0' });
    expect(JSON.parse(lagged.json)).toMatchObject({ last_id: '0-0' });
    expect(hub.stats.subscribers).toBe(0);
  });
});

describe('filters', () => {
  it('codes: only the asked codes', async () => {
    const { commit, open } = await rig();
    const { sink } = await open({ patients: ['p1'], codes: [SPO2] });
    commit(0, [observation('p1', 0, 0, HR), observation('p1', 0, 1, SPO2), observation('p1', 0, 2, HR)]);
    await until(() => sink.ids.length === 1, 'spo2');
    expect(sink.messages.map((m) => m.type === 'observation' && m.data.code)).toEqual([SPO2]);
  });

  it('alerts on by default (right after the observation that raised them), off when asked', async () => {
    const { commit, open } = await rig();
    const on = await open({ patients: ['p1'] });
    const off = await open({ patients: ['p1'], alerts: false });
    commit(0, [observation('p1', 0, 5), alert('p1', 0, 5), observation('p1', 0, 6)]);
    await until(() => on.sink.ids.length === 3 && off.sink.ids.length === 2, 'both');
    expect(on.sink.messages.map((m) => m.type)).toEqual(['observation', 'alert', 'observation']);
    expect(on.sink.ids).toEqual(['0-5', '0-5.1', '0-6']);
    expect(off.sink.messages.map((m) => m.type)).toEqual(['observation', 'observation']);
    expect(off.sink.ids).toEqual(['0-5', '0-6']);
  });
});

describe('the token', () => {
  it('an expired token closes the stream (expired), a revoked one (revoked)', async () => {
    const revoked = new Set<string>();
    const { open } = await rig({ tokenCheckMs: 5, revokedAmong: async (ids) => new Set(ids.filter((id) => revoked.has(id))) });
    const soon = Math.floor(Date.now() / 1000) + 1;
    const expiring = await open({ patients: ['p1'], token: { id: 't-expiring', expiresAt: soon } });
    const kept = await open({ patients: ['p1'], token: { id: 't-kept', expiresAt: soon + 3_600 } });
    const exchanged = await open({ patients: ['p1'], token: { id: 't-child', expiresAt: soon + 3_600, derivedFrom: ['t-parent'] } });
    await until(() => expiring.sink.closed !== undefined, 'expiry');
    expect(expiring.sink.closed).toBe('expired');
    revoked.add('t-parent');
    await until(() => exchanged.sink.closed !== undefined, 'revocation');
    expect(exchanged.sink.closed).toBe('revoked');
    expect(kept.sink.closed).toBeUndefined();
  });
});
