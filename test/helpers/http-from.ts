/**
 * HTTP from another client address. The gateway counts per-address limits by the socket's address
 * (by default it trusts no proxy header: TRUST_PROXY unset), and on Linux all of 127.0.0.0/8 is loopback: a request whose socket
 * is bound to, say, 127.23.5.9 reaches the gateway on 127.0.0.1 from that address. Tests of
 * per-address limits use a fresh random address each run, so the counters (in the shared Redis)
 * of another test, another run or another engineer's suite are never theirs.
 */
import { request } from 'node:http';

/** A random loopback address other than 127.0.0.1. */
export function randomLoopbackAddress(): string {
  const byte = () => Math.floor(Math.random() * 254) + 1;
  return `127.${byte()}.${byte()}.${byte()}`;
}

export interface FromInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
}

/** `fetch`-like, from `localAddress`: redirects are not followed; the answer is a standard Response. */
export function fetchFrom(localAddress: string, url: string, init: FromInit = {}): Promise<Response> {
  const body = init.body === undefined ? undefined : String(init.body);
  const headers: Record<string, string> = { ...init.headers };
  if (init.body instanceof URLSearchParams && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        const status = res.statusCode ?? 0;
        const nullBody = [101, 204, 205, 304].includes(status);
        resolve(new Response(nullBody ? null : Buffer.concat(chunks), { status, headers: h }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
