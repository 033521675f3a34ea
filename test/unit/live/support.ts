/**
 * The live hub without Redis or PostgreSQL, for unit tests: an in-memory append log (a replay
 * source), an injected channel, a recording sink, and a rig that commits-then-publishes batches
 * the way the ingest does.
 */
import { encodeBatch, isAfter, type AlertData, type Cursor, type LiveEvent } from '@vitalis/live';
import { createLogger } from '@vitalis/log';
import { VITAL_CODE, type VitalsObservation } from '@vitalis/schemas';
import type { ChannelHandlers, LiveChannel } from '../../../apps/gateway/src/vitals/live-channel';
import { LiveHub, type CloseReason, type LiveMessage, type LiveSink, type SubscribeOptions } from '../../../apps/gateway/src/vitals/hub';
import type { ReplaySource } from '../../../apps/gateway/src/vitals/replay';

export const HR = VITAL_CODE.heartRate;
export const SPO2 = VITAL_CODE.spo2;

export const observation = (patient: string, partition: number, offset: number, code: string = HR): LiveEvent => ({
  kind: 'observation',
  partition,
  offset,
  k: 0,
  patient_id: patient,
  data: {
    patient_id: patient,
    device_id: 'dev-1',
    seq: offset,
    code,
    effective_at: '2026-01-01T00:00:00.000Z',
    value: 60 + offset,
    unit: '/min',
  } as unknown as VitalsObservation,
});

export const alert = (patient: string, partition: number, offset: number, k = 1): LiveEvent => ({
  kind: 'alert',
  partition,
  offset,
  k,
  patient_id: patient,
  type: 'VitalsAlertRaised',
  data: {
    alert_id: `a-${offset}`,
    rule: 'hr-high',
    state: 'raised',
    patient_id: patient,
    priority: 'high',
    severity: 'high',
    kind: 'physiological',
    latching: true,
    label: 'Heart rate high',
    message: 'Heart rate high: 150 /min (≥ 131 /min for 5 s)',
    value: 150,
    due_at: null,
  } as unknown as AlertData,
});

/** The append log in memory: what a page after a cursor returns, with hooks to hold a read. */
export class MemoryLog implements ReplaySource {
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

  async page(q: {
    patients: string[];
    codes?: string[];
    alerts: boolean;
    after: Cursor;
    limit: number;
  }): Promise<{ events: LiveEvent[]; more: boolean }> {
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
export class MemoryChannel implements LiveChannel {
  handlers?: ChannelHandlers;
  async start(handlers: ChannelHandlers): Promise<void> {
    this.handlers = handlers;
  }
  close(): void {
    this.handlers = undefined;
  }
  publish(partition: number, first: number, last: number, events: LiveEvent[]): void {
    this.handlers!.message(encodeBatch({ v: 1, partition, first, last, events }).toString());
  }
  reconnect(): void {
    this.handlers!.reconnected();
  }
}

/** A sink that records what it was handed; `accept` says whether the transport took it. */
export class RecordingSink implements LiveSink {
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

export const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
};

export async function until(pred: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!pred() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
  if (!pred()) throw new Error(`never happened: ${what}`);
}

/** Lets the hub's pending promise chains run (replay pages, flushes). */
export const settle = () => new Promise((r) => setTimeout(r, 10));

const hubs: LiveHub[] = [];
/** Closes the hubs the tests started (call from afterEach). */
export async function closeHubs(): Promise<void> {
  for (const h of hubs.splice(0)) await h.close();
}

export async function rig(
  options: {
    maxQueue?: number;
    replayPageSize?: number;
    tokenCheckMs?: number;
    revokedAmong?: (ids: string[]) => Promise<Set<string>>;
  } = {},
) {
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
