/**
 * One write per subscriber per batch (issue 24 item 4): the hub hands each subscriber its share of
 * a channel batch (or of a replay page) at once, the SSE sink writes it in one `res.write`, the
 * WebSocket sink sends it inside one cork of the TCP socket; both parse into the same events.
 * The queue bound still counts messages. Over real sockets: test/integration/live/batched-writes.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createParser } from 'eventsource-parser';
import { sseSink, type SseTarget } from '../../../apps/gateway/src/live/sse';
import { wsSink, type WsTarget } from '../../../apps/gateway/src/live/ws';
import { alert, closeHubs, observation, rig, settle, until } from './support';

afterEach(closeHubs);

/** A response that records each write call. */
class RecordingResponse implements SseTarget {
  readonly writes: string[] = [];
  ended?: string;
  accept = true;
  write(chunk: string): boolean {
    this.writes.push(chunk);
    return this.accept;
  }
  end(chunk: string): void {
    this.ended = chunk;
  }
}

/** A WebSocket and its TCP socket that record sends, corks and uncorks in order. */
function recordingSocket() {
  const log: (string | { send: string })[] = [];
  const socket: WsTarget = {
    readyState: 1,
    OPEN: 1,
    bufferedAmount: 0,
    send: ((text: string) => void log.push({ send: text })) as WsTarget['send'],
  };
  const tcp = { cork: () => void log.push('cork'), uncork: () => void log.push('uncork') };
  return { log, socket, tcp };
}

interface Parsed {
  id?: string;
  type: string;
  data: unknown;
}

const parseSse = (text: string): Parsed[] => {
  const out: Parsed[] = [];
  const parser = createParser({ onEvent: (e) => out.push({ id: e.id, type: e.event ?? 'message', data: JSON.parse(e.data) }) });
  parser.feed(text);
  return out;
};

const parseWs = (texts: string[]): Parsed[] =>
  texts.map((t) => {
    const m = JSON.parse(t) as { type: string; id?: string; data: unknown };
    return { id: m.id, type: m.type, data: m.data };
  });

const sends = (log: (string | { send: string })[]) => log.flatMap((x) => (typeof x === 'string' ? [] : [x.send]));

describe('one write per subscriber per batch', () => {
  it('a batch of N events is one res.write on SSE and one corked group on WebSocket, parsing into the same events in the same order', async () => {
    const { hub, commit } = await rig();
    const res = new RecordingResponse();
    const ws = recordingSocket();
    const noop = () => {};
    const a = hub.subscribe({ patients: ['p1', 'p2'] }, sseSink(res, noop));
    const b = hub.subscribe({ patients: ['p1', 'p2'] }, wsSink(ws.socket, ws.tcp, 's1', { full: noop, close: noop }));
    await Promise.all([a.ready, b.ready]);
    await settle();

    commit(0, [
      observation('p1', 0, 0),
      observation('p2', 0, 1),
      observation('p9', 0, 2),
      observation('p1', 0, 3),
      alert('p1', 0, 3),
      observation('p2', 0, 4),
    ]);
    await until(() => res.writes.length > 0 && ws.log.length > 0, 'the batch');

    expect(res.writes).toHaveLength(1);
    expect(ws.log[0]).toBe('cork');
    expect(ws.log.at(-1)).toBe('uncork');
    expect(ws.log.filter((x) => x === 'cork')).toHaveLength(1);
    expect(ws.log).toHaveLength(5 + 2);

    const overSse = parseSse(res.writes[0]!);
    const overWs = parseWs(sends(ws.log));
    expect(overSse.map((e) => e.id)).toEqual(['0-0', '0-1', '0-3', '0-3.1', '0-4']);
    expect(overSse.map((e) => e.type)).toEqual(['observation', 'observation', 'observation', 'alert', 'observation']);
    expect(overWs).toEqual(overSse);

    // the next batch is the next write
    commit(0, [observation('p2', 0, 5), observation('p1', 0, 6)]);
    await until(() => res.writes.length === 2, 'the second batch');
    expect(parseSse(res.writes[1]!).map((e) => e.id)).toEqual(['0-5', '0-6']);
    expect(ws.log.filter((x) => x === 'cork')).toHaveLength(2);
    expect(parseWs(sends(ws.log)).slice(5)).toEqual(parseSse(res.writes[1]!));
  });

  it('a replay page is one write', async () => {
    const { hub, log } = await rig();
    log.store(...[0, 1, 2, 3, 4].map((o) => observation('p1', 2, o)));
    const res = new RecordingResponse();
    const sub = hub.subscribe(
      { patients: ['p1'], after: '2-0' },
      sseSink(res, () => {}),
    );
    await sub.ready;
    await until(() => res.writes.length > 0, 'the replay');
    await settle();
    expect(res.writes).toHaveLength(1);
    expect(parseSse(res.writes[0]!).map((e) => e.id)).toEqual(['2-1', '2-2', '2-3', '2-4']);
  });

  it('backpressure: after a full write, batches wait and go out in one write on resume(); the bound counts messages', async () => {
    const { hub, commit } = await rig();
    const res = new RecordingResponse();
    const sub = hub.subscribe(
      { patients: ['p1'], maxQueue: 4 },
      sseSink(res, () => {}),
    );
    await sub.ready;
    await settle();
    res.accept = false;
    commit(1, [observation('p1', 1, 0), observation('p1', 1, 1)]);
    expect(res.writes).toHaveLength(1); // taken whole, then the transport said full
    commit(1, [observation('p1', 1, 2)]);
    commit(1, [observation('p1', 1, 3), observation('p1', 1, 4)]);
    expect(res.writes).toHaveLength(1);
    res.accept = true;
    sub.resume();
    expect(res.writes).toHaveLength(2);
    expect(parseSse(res.writes[1]!).map((e) => e.id)).toEqual(['1-2', '1-3', '1-4']);
    expect(sub.lastId).toBe('1-4');

    // full again: 4 messages wait, the 5th overflows the bound -> lagged, closed
    res.accept = false;
    commit(1, [observation('p1', 1, 5)]);
    commit(
      1,
      [6, 7, 8, 9].map((o) => observation('p1', 1, o)),
    );
    expect(res.ended).toBeUndefined();
    commit(1, [observation('p1', 1, 10)]);
    expect(parseSse(res.writes.at(-1)!)).toEqual([{ id: undefined, type: 'lagged', data: expect.objectContaining({ last_id: '1-5' }) }]);
    expect(parseSse(res.ended!)).toEqual([{ id: undefined, type: 'closed', data: { reason: 'lagged' } }]);
  });
});
