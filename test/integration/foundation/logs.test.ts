/**
 * No PHI, tokens or secrets in the gateway's logs (issue 18, finding 10). A gateway logging at
 * trace level into a stream the test reads serves a patient search by name, birth date and
 * identifier, token requests (secret in the body and in a Basic header), a request with a cookie
 * and a live SSE subscription with a stray `access_token` query parameter; then the captured log
 * is searched for every one of those values.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { registerClient } from '../../helpers/auth';

const lines: string[] = [];
const capture = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});
const log = () => lines.join('');

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway({ LOG_LEVEL: 'trace' }, { logDestination: capture });
});
afterAll(async () => gw?.close());

describe('gateway logs', () => {
  it('carry the route pattern and query names, never query values, tokens, secrets or cookies', async () => {
    const tag = randomUUID().slice(0, 8);
    const client = await registerClient(gw.url, ['read:patients', 'read:vitals'], 'logs-test');
    const tokenRes = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.client_id, client_secret: client.client_secret }),
    });
    expect(tokenRes.status).toBe(200);
    const token = ((await tokenRes.json()) as { access_token: string }).access_token;
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const basicRes = await fetch(`${gw.url}/api/auth/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(basicRes.status).toBe(200);
    const secondToken = ((await basicRes.json()) as { access_token: string }).access_token;
    const auth = { authorization: `Bearer ${token}` };

    const name = `Zebediah${tag}`;
    const birthdate = '1931-02-03';
    const mrn = `MRN-${tag}`;
    const search = await fetch(
      `${gw.url}/api/v1/patients?name=${name}&birthdate=${birthdate}&identifier=${encodeURIComponent(`urn:vitalis:mrn|${mrn}`)}`,
      { headers: { ...auth, cookie: `session=cookie-${tag}` } },
    );
    expect(search.status).toBe(200);
    // A refused search logs its error too: the bad value must not appear either.
    const badDate = `1931-13-${tag}`;
    expect((await fetch(`${gw.url}/api/v1/patients?birthdate=${badDate}`, { headers: auth })).status).toBe(400);
    // A query value sent without a name.
    expect((await fetch(`${gw.url}/api/v1/patients?Smith${tag}`, { headers: auth })).status).toBeLessThan(500);

    // Live SSE with a token also (wrongly) put in the URL: no route accepts access_token in a query.
    const controller = new AbortController();
    const stream = await fetch(`${gw.url}/api/v1/vitals/stream?patient=pat-${tag}&access_token=${secondToken}`, {
      headers: auth,
      signal: controller.signal,
    });
    controller.abort();
    await stream.body?.cancel().catch(() => undefined);

    await expect.poll(() => log().includes('/api/v1/vitals/stream')).toBe(true);
    const text = log();
    for (const secret of [name, birthdate, mrn, badDate, `Smith${tag}`, token, secondToken, client.client_secret, basic, `cookie-${tag}`]) {
      expect(text, `the log contains ${secret.slice(0, 12)}…`).not.toContain(secret);
    }
    // What a request line does carry: the route pattern and the query names.
    expect(text).toContain('"route":"/api/v1/patients"');
    expect(text).toContain('"route":"/api/v1/vitals/stream"');
    expect(text).toContain('/api/v1/patients?name=[redacted]&birthdate=[redacted]&identifier=[redacted]');
  });
});
