/**
 * One share of live.bench.ts's subscribers, in a worker thread of its own. Real subscribers are
 * thousands of separate clients; run on the producer's event loop they would time each other's
 * arrivals (a burst parsed for one socket delays the clock read of the next), and the harness,
 * not the gateway, would make the tail. Each worker reads the clock on its own loop.
 *
 * Per subscriber (one patient each, or a clinician's ward of 16-32 in the ward scenario) and per
 * patient it checks what the run must prove: every observation arrives once and in order (the
 * producer numbers each patient's observations 0, 1, 2, ...). It also counts the SSE reads (socket
 * chunks) that carried events: events per read shows the gateway's batched writes.
 *
 * Messages from the parent: 'measure' (start/stop recording latencies), 'report' (post the
 * figures), 'close'. To the parent: 'ready', periodic 'progress' counts, the 'report'.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import WebSocket from 'ws';

export interface SubscriberShare {
  port: number;
  token: string;
  /** What each subscriber watches (one patient, or a ward), over SSE, then over WebSocket. */
  sse: string[][];
  ws: string[][];
  /** Room for this many latency samples. */
  capacity: number;
}

export type FromParent = { type: 'measure'; on: boolean } | { type: 'report' } | { type: 'close' };
export type ToParent =
  | { type: 'ready' }
  | { type: 'progress'; delivered: number }
  | {
      type: 'report';
      delivered: number;
      duplicates: number;
      outOfOrder: number;
      lagged: number;
      sseEvents: number;
      sseReads: number;
      latencies: Float64Array;
    }
  | { type: 'error'; message: string };

const share = workerData as SubscriberShare;
const port = parentPort!;
const n = share.sse.length + share.ws.length;
/** Last seq received per subscriber, per patient (absent: none yet). */
const lastSeq = Array.from({ length: n }, () => new Map<string, number>());
let latencies = new Float64Array(Math.max(1, share.capacity));
let nLat = 0;
let delivered = 0;
let duplicates = 0;
let outOfOrder = 0;
let lagged = 0;
let measuring = false;
let sseEvents = 0;
let sseReads = 0;

const SEQ = '"seq":';
const AT = '"effective_at":"';
const PATIENT = '"patient_id":"';

/** Reads patient_id, seq and effective_at out of the observation's JSON without parsing all of it. */
function onObservation(i: number, json: string, receivedAt: number): void {
  const s = json.indexOf(SEQ) + SEQ.length;
  const seq = Number.parseInt(json.slice(s, json.indexOf(',', s)), 10);
  const a = json.indexOf(AT) + AT.length;
  const at = Date.parse(json.slice(a, json.indexOf('"', a)));
  const p = json.indexOf(PATIENT) + PATIENT.length;
  const patient = json.slice(p, json.indexOf('"', p));
  const last = lastSeq[i]!.get(patient) ?? -1;
  if (seq <= last) {
    duplicates++;
    return;
  }
  if (seq !== last + 1) outOfOrder++;
  lastSeq[i]!.set(patient, seq);
  delivered++;
  if (measuring && nLat < latencies.length) latencies[nLat++] = receivedAt - at;
}

function openSse(i: number, patients: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: share.port,
      path: `/api/v1/vitals/stream?patient=${patients.join(',')}&alerts=false`,
      agent: false,
      headers: { authorization: `Bearer ${share.token}`, accept: 'text/event-stream' },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE ${res.statusCode}`));
      res.setEncoding('utf8');
      let buf = '';
      res.on('data', (chunk: string) => {
        const now = Date.now();
        buf += chunk;
        let end: number;
        let events = 0;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          if (frame.includes('event: observation')) {
            events++;
            onObservation(i, frame.slice(frame.indexOf('data: ') + 6), now);
          } else if (frame.includes('event: lagged')) lagged++;
          else if (frame.includes('vitalis live vitals')) resolve();
        }
        if (events > 0 && measuring) {
          sseEvents += events;
          sseReads++;
        }
      });
    });
    req.end();
  });
}

const sockets: WebSocket[] = [];
function openWs(i: number, patients: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${share.port}/api/v1/vitals/ws`, { headers: { authorization: `Bearer ${share.token}` } });
    sockets.push(ws);
    ws.once('error', reject);
    ws.on('message', (raw) => {
      const now = Date.now();
      const text = raw.toString();
      if (text.startsWith('{"type":"observation"')) onObservation(i, text, now);
      else if (text.startsWith('{"type":"subscribed"')) resolve();
      else if (text.startsWith('{"type":"lagged"')) lagged++;
    });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'subscribe', sub: 's', patients, alerts: false })));
  });
}

async function connect(): Promise<void> {
  const all = [...share.sse.map((p) => ({ p, ws: false })), ...share.ws.map((p) => ({ p, ws: true }))];
  for (let i = 0; i < all.length; i += 50) {
    await Promise.all(all.slice(i, i + 50).map(({ p, ws }, j) => (ws ? openWs(i + j, p) : openSse(i + j, p))));
  }
}

const progress = setInterval(() => port.postMessage({ type: 'progress', delivered } satisfies ToParent), 200);

port.on('message', (m: FromParent) => {
  if (m.type === 'measure') measuring = m.on;
  else if (m.type === 'report') {
    const out = latencies.slice(0, nLat);
    latencies = new Float64Array(1);
    port.postMessage(
      { type: 'report', delivered, duplicates, outOfOrder, lagged, sseEvents, sseReads, latencies: out } satisfies ToParent,
      [out.buffer],
    );
  } else if (m.type === 'close') {
    clearInterval(progress);
    for (const ws of sockets) ws.terminate();
    process.exit(0);
  }
});

connect().then(
  () => port.postMessage({ type: 'ready' } satisfies ToParent),
  (err: Error) => port.postMessage({ type: 'error', message: err.message } satisfies ToParent),
);
