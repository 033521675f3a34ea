/**
 * TRUST_PROXY over real HTTP: behind an ingress controller every request's socket is the
 * controller's, so per-address limits must count the client address it forwards. With the
 * proxy's address trusted, the OAuth address limit and the audit rows use the X-Forwarded-For
 * address, read from the right past the trusted hops only: a client cannot pick its address by
 * prepending one, and a socket that is not a trusted proxy is counted as itself whatever header it
 * sends. Off by default: the socket's address, header or not. Random loopback addresses play the
 * proxies and other sockets (test/helpers/http-from.ts), random 10.x addresses the clients.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@vitalis/config';
import { gatewayConfigShape } from '../../../apps/gateway/src/config';
import { registerClient, type RegisteredClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { fetchFrom, randomLoopbackAddress } from '../../helpers/http-from';

const TOKEN = '/api/auth/oauth2/token';
const LIMITS = { OAUTH_ADDRESS_RATE_LIMIT: '2', OAUTH_RATE_WINDOW_SECONDS: '3600' };
const byte = () => Math.floor(Math.random() * 254) + 1;
const clientAddress = () => `10.${byte()}.${byte()}.${byte()}`;

/** A token request with a wrong secret (401 within the budget, 429 past it), from `socket`, forwarding `xff`. */
async function attempt(gw: RunningGateway, client: RegisteredClient, socket: string, xff?: string): Promise<number> {
  const res = await fetchFrom(socket, `${gw.url}${TOKEN}`, {
    method: 'POST',
    headers: xff === undefined ? {} : { 'x-forwarded-for': xff },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: 'not-the-secret' }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The refused token requests the audit trail recorded from any of `addresses`, in order. */
async function auditedAddresses(gw: RunningGateway, addresses: string[]): Promise<string[]> {
  const { rows } = await gw.deps.pool.query<{ ip: string }>(
    "SELECT host(ip) AS ip FROM audit_events WHERE action = 'token.refused' AND host(ip) = ANY($1::text[]) ORDER BY id",
    [addresses],
  );
  return rows.map((r) => r.ip);
}

describe('TRUST_PROXY: the client address behind an ingress', () => {
  const proxy = randomLoopbackAddress();
  const outerProxy = randomLoopbackAddress();
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({ ...LIMITS, TRUST_PROXY: `${proxy}, ${outerProxy}` });
  });
  afterAll(async () => gw?.close());

  it('through a trusted proxy, the forwarded client address is counted and audited, each client apart', async () => {
    const client = await registerClient(gw.url, ['read:appointments'], 'trust-proxy-forwarded', 'patient');
    const [first, second] = [clientAddress(), clientAddress()];
    expect([
      await attempt(gw, client, proxy, first),
      await attempt(gw, client, proxy, first),
      await attempt(gw, client, proxy, first),
    ]).toEqual([401, 401, 429]);
    // another client behind the same proxy has a budget of its own
    expect(await attempt(gw, client, proxy, second)).toBe(401);
    expect(await auditedAddresses(gw, [proxy, first, second])).toEqual([first, first, second]);
  });

  it('a client cannot choose its address: X-Forwarded-For is read from the right, past the trusted hops only', async () => {
    const client = await registerClient(gw.url, ['read:appointments'], 'trust-proxy-spoof', 'patient');
    const real = clientAddress();
    // the client sends its own (made-up) header; the proxy appends the address it saw
    const madeUp = [clientAddress(), clientAddress(), clientAddress()];
    const statuses = [];
    for (const own of madeUp) statuses.push(await attempt(gw, client, proxy, `${own}, ${real}`));
    expect(statuses).toEqual([401, 401, 429]);
    // two trusted proxies in a row: the outer one's address is a hop, not the client
    const behindTwo = clientAddress();
    expect(await attempt(gw, client, proxy, `${behindTwo}, ${outerProxy}`)).toBe(401);
    expect(await auditedAddresses(gw, [proxy, outerProxy, real, behindTwo, ...madeUp])).toEqual([real, real, behindTwo]);
  });

  it('a socket that is not a trusted proxy is counted as itself, whatever it forwards', async () => {
    const client = await registerClient(gw.url, ['read:appointments'], 'trust-proxy-untrusted', 'patient');
    const direct = randomLoopbackAddress();
    const forwarded = [clientAddress(), clientAddress(), clientAddress()];
    const statuses = [];
    for (const xff of forwarded) statuses.push(await attempt(gw, client, direct, xff));
    expect(statuses).toEqual([401, 401, 429]);
    expect(await auditedAddresses(gw, [direct, ...forwarded])).toEqual([direct, direct]);
  });
});

describe('TRUST_PROXY unset (the default)', () => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway(LIMITS);
  });
  afterAll(async () => gw?.close());

  it("no proxy header is trusted: the socket's address is counted and audited", async () => {
    const client = await registerClient(gw.url, ['read:appointments'], 'trust-proxy-off', 'patient');
    const socket = randomLoopbackAddress();
    const forwarded = [clientAddress(), clientAddress(), clientAddress()];
    const statuses = [];
    for (const xff of forwarded) statuses.push(await attempt(gw, client, socket, xff));
    expect(statuses).toEqual([401, 401, 429]);
    expect(await auditedAddresses(gw, [socket, ...forwarded])).toEqual([socket, socket]);
  });

  it('the setting takes addresses and CIDR ranges only, never every address', () => {
    const parse = (TRUST_PROXY: string) => parseConfig(gatewayConfigShape, { NODE_ENV: 'test', TRUST_PROXY }).TRUST_PROXY;
    expect(parseConfig(gatewayConfigShape, { NODE_ENV: 'test' }).TRUST_PROXY).toEqual([]);
    expect(parse(' 10.0.0.0/8, 192.0.2.7 ,fd00::/8, loopback')).toEqual(['10.0.0.0/8', '192.0.2.7', 'fd00::/8', 'loopback']);
    expect(() => parse('true')).toThrow(/TRUST_PROXY: must be comma-separated IP addresses or CIDR ranges/);
    expect(() => parse('10.0.0.0/33')).toThrow(/TRUST_PROXY: must be comma-separated IP addresses or CIDR ranges/);
    expect(() => parse('10.0.0.1, 0.0.0.0/0')).toThrow(/TRUST_PROXY: must not trust every address/);
    expect(() => parse('::/0')).toThrow(/TRUST_PROXY: must not trust every address/);
  });
});
