/**
 * The live hub's rules with an in-memory replay source and an injected channel (no Redis, no
 * PostgreSQL): the fresh start, the replay-to-live handover, gaps, reconnects, backpressure, the
 * queue bound, filters and token expiry. The same rules against the real stores:
 * test/integration/live.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { alert, closeHubs, gate, HR, observation, RecordingSink, rig, settle, SPO2, until } from './support';

afterEach(closeHubs);

describe('a fresh subscription', () => {
  it("starts from the patients' latest positions and gets only what is committed after", async () => {
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
    commit(
      0,
      [0, 1, 2, 3].map((o) => observation('p1', 0, o)),
    );
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
