/**
 * An https server on a loopback address that plays a client's (or an issuer's) jwks_uri and
 * counts every TCP connection and every request per path, so a test can prove that the gateway
 * did or did not reach it. Its certificate is self-signed, made by openssl for the test run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  key: string;
  cert: string;
  /** The certificate as a file (the gateway's JWKS_FETCH_CA_FILE). */
  certFile: string;
  remove: () => void;
}

/** A P-256 certificate valid for 127.0.0.1, ::1 and localhost. */
export function selfSignedCertificate(): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'vitalis-jwks-tls-'));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=vitalis-test-jwks',
      '-addext',
      'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return {
    key: readFileSync(keyFile, 'utf8'),
    cert: readFileSync(certFile, 'utf8'),
    certFile,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** What a path answers: a document, or a custom handler (slow, huge, ...). */
export type Route = { keys: object[] } | ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void);

export class KeySetServer {
  connections = 0;
  private readonly requests = new Map<string, number>();
  readonly routes = new Map<string, Route>();
  private readonly sockets = new Set<Socket>();
  private server!: Server;
  port = 0;

  constructor(private readonly tls: Certificate) {}

  async listen(host: string, port = 0): Promise<this> {
    this.server = createServer({ key: this.tls.key, cert: this.tls.cert }, (req, res) => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      this.requests.set(path, (this.requests.get(path) ?? 0) + 1);
      const route = this.routes.get(path);
      if (!route) return void res.writeHead(404).end();
      if (typeof route === 'function') return route(req, res);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: route.keys }));
    });
    this.server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  /** Requests that reached `path` (after TLS and HTTP parsing). */
  requestsTo(path: string): number {
    return this.requests.get(path) ?? 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
