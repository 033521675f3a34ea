/**
 * A TCP forwarder on a fixed local port that a test can take down and bring back: `stop()` closes
 * the listener and cuts every open connection (the dependency looks unreachable, as in an outage),
 * `start()` listens on the same port again. The shared servers are never touched.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** host:port the client under test connects to. */
  readonly hostPort: string;
  readonly port: number;
  stop: () => Promise<void>;
  start: () => Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    const s = createServer((down) => {
      const up = connect(targetPort, targetHost);
      for (const sock of [down, up]) {
        sockets.add(sock);
        sock.on('close', () => sockets.delete(sock));
        sock.on('error', () => sock.destroy());
      }
      down.pipe(up);
      up.pipe(down);
      down.on('close', () => up.destroy());
      up.on('close', () => down.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  await listen();
  return {
    get hostPort() {
      return `127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    stop: async () => {
      const s = server;
      server = undefined;
      for (const sock of sockets) sock.destroy();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    start: async () => {
      if (!server) await listen();
    },
  };
}
