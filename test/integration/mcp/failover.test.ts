/**
 * A session taken over by another gateway instance (two real gateways on the same Kafka topic,
 * PostgreSQL and Redis; one shut down, or simply bypassed): the stream resumes there with
 * Last-Event-ID, the live subscription reopens right after the last event sent (what was produced
 * in between comes from the append log), the previous holder drops its copy, and the takeover is
 * as strictly authenticated as any request of the session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { numeric, startRig, uid, waitFor, type LiveRig } from '../live/support';
import { liveEvents, openStream, rawInitialize, rpc, rpcResult, tokenFor, userTokenFor } from './support';

const PUBLIC = 'http://vitalis-mcp-failover.test'; // one issuer/audience for both instances
let rig: LiveRig;
let a: RunningGateway;
let b: RunningGateway;
let token: string;
let aClosed = false;

beforeAll(async () => {
  rig = await startRig('mcp-failover');
  [a, b] = await Promise.all([
    startGateway({ LIVE_TOPIC: rig.topic, PUBLIC_BASE_URL: PUBLIC }),
    startGateway({ LIVE_TOPIC: rig.topic, PUBLIC_BASE_URL: PUBLIC }),
  ]);
  token = (await tokenFor(a.address, ['read:vitals'], 'mcp-failover')).token;
});
afterAll(async () => {
  if (!aClosed) await a?.close();
  await b?.close();
  await rig?.close();
});

const observations = (patient: string, from: number, n: number) =>
  Array.from({ length: n }, (_, i) => numeric(patient, `${patient}-dev`, from + i, new Date(Date.now() + i)));

describe('MCP session takeover', () => {
  it('a session whose gateway shut down resumes on another: replay by Last-Event-ID, subscription reopened without gap or duplicate', async () => {
    const patient = `pat-mcpf-${uid()}`;
    const uri = `vitalis://patients/${patient}/vitals`;
    const auth = { authorization: `Bearer ${token}` };
    const sid = await rawInitialize(a.address, auth);
    const h = { ...auth, 'mcp-session-id': sid };
    const first = await openStream(a.address, h);
    expect((await rpcResult(await rpc(a.address, { id: 2, method: 'resources/subscribe', params: { uri } }, h))).result).toEqual({});
    await rig.send(patient, observations(patient, 0, 3));
    await first.waitUntil((ev) => liveEvents(ev.map((e) => e.message)).length === 3, 'the first 3 on instance A');
    const cursor = first.events.filter((e) => e.message?.method === 'notifications/resources/updated').at(-1)!.id!;
    first.close();

    aClosed = true;
    await a.close(); // instance A goes away; nobody is subscribed while the next 5 are produced
    await rig.send(patient, observations(patient, 3, 5));
    await waitFor(
      async () =>
        (await rig.pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0].n as number,
      (n) => n === 8,
    );

    const second = await openStream(b.address, { ...h, 'last-event-id': cursor });
    expect(second.status).toBe(200);
    expect(b.app.mcpSessions.get(sid)).toBeDefined();
    await second.waitUntil((ev) => liveEvents(ev.map((e) => e.message)).length >= 5, 'the 5 produced during the failover');
    await rig.send(patient, observations(patient, 8, 2));
    await second.waitUntil((ev) => liveEvents(ev.map((e) => e.message)).length >= 7, 'then live on instance B');
    expect(liveEvents(second.events.map((e) => e.message)).map((e) => e.data.seq)).toEqual([3, 4, 5, 6, 7, 8, 9]);

    // the session is fully usable on B
    const who = await rpcResult(await rpc(b.address, { id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } }, h));
    expect(who.result.structuredContent.scopes).toEqual(['read:vitals']);
    second.close();
  });

  it("takeover needs the session's own client too: the same user through another client takes nothing over", async () => {
    const c = await startGateway({ LIVE_TOPIC: rig.topic, PUBLIC_BASE_URL: PUBLIC });
    try {
      const viaA = await userTokenFor(c.address, 'doctor', ['read:vitals'], 'MCP host A');
      const viaB = await userTokenFor(c.address, 'doctor', ['read:vitals'], 'MCP host B');
      const sid = await rawInitialize(c.address, { authorization: `Bearer ${viaA.token}` });
      const otherClient = await rpc(
        b.address,
        { id: 2, method: 'tools/list' },
        { authorization: `Bearer ${viaB.token}`, 'mcp-session-id': sid },
      );
      expect(otherClient.status).toBe(403);
      await otherClient.body?.cancel();
      expect(b.app.mcpSessions.get(sid)).toBeUndefined(); // nothing was taken over

      const own = await rpcResult(
        await rpc(
          b.address,
          { id: 3, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
          { authorization: `Bearer ${viaA.token}`, 'mcp-session-id': sid },
        ),
      );
      expect(own.result.structuredContent).toMatchObject({ sub: 'usr-demo-doctor', client_id: viaA.clientId });
      expect(b.app.mcpSessions.get(sid)?.binding).toEqual({ subject: 'usr-demo-doctor', clientId: viaA.clientId });
      // and on the instance that took it over, the other client is refused as well
      const again = await rpc(b.address, { id: 4, method: 'tools/list' }, { authorization: `Bearer ${viaB.token}`, 'mcp-session-id': sid });
      expect(again.status).toBe(403);
      await again.body?.cancel();
    } finally {
      await c.close();
    }
  });

  it("takeover needs the session's own subject; a bypassed holder drops its copy", async () => {
    const c = await startGateway({ LIVE_TOPIC: rig.topic, PUBLIC_BASE_URL: PUBLIC });
    try {
      const auth = { authorization: `Bearer ${token}` };
      const sid = await rawInitialize(c.address, auth);
      const h = { ...auth, 'mcp-session-id': sid };
      expect(c.app.mcpSessions.get(sid)).toBeDefined();

      const stranger = (await tokenFor(b.address, ['read:vitals'], 'mcp-failover-stranger')).token;
      const foreign = await rpc(b.address, { id: 2, method: 'tools/list' }, { authorization: `Bearer ${stranger}`, 'mcp-session-id': sid });
      expect(foreign.status).toBe(403);
      await foreign.body?.cancel();
      const anonymous = await rpc(b.address, { id: 2, method: 'tools/list' }, { 'mcp-session-id': sid });
      expect(anonymous.status).toBe(401);
      await anonymous.body?.cancel();
      expect(b.app.mcpSessions.get(sid)).toBeUndefined(); // nothing was taken over

      const listed = await rpcResult(await rpc(b.address, { id: 3, method: 'tools/list' }, h));
      expect(listed.result.tools.length).toBe(20); // 11 + the 5 diagnostics tools + list_alarms, acknowledge_alarm, get_pipeline_status, record_allergy
      expect(b.app.mcpSessions.get(sid)).toBeDefined();
      await waitFor(
        async () => c.app.mcpSessions.get(sid),
        (s) => s === undefined,
        45_000,
        'the previous holder to drop its copy',
      );
      // and it does not take the session back: requests keep working on B
      expect((await rpc(b.address, { id: 4, method: 'ping' }, h)).status).toBe(200);
    } finally {
      await c.close();
    }
  });
});
