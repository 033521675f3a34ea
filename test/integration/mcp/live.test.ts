/**
 * Live vitals over MCP, end to end: observations produced to Kafka, stored by a real ingest worker
 * whose live stage publishes to Redis, fanned out by the gateway's hub to MCP sessions that
 * subscribed with resources/subscribe, as notifications/resources/updated on the session's SSE
 * stream (the SDK's own Client), resumable with Last-Event-ID from the Redis event store. Also the
 * vitals tools and the vitals resource on the same ingested data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { numeric, startRig, uid, waitFor, type LiveRig } from '../live/support';
import { connect, liveEvents, openStream, rawInitialize, rpc, rpcResult, tokenFor, type Connected } from './support';

let rig: LiveRig;
let token: string;

beforeAll(async () => {
  rig = await startRig('mcp-live');
  token = (await tokenFor(rig.gw.url, ['read:vitals', 'read:patients'], 'mcp-live-test')).token;
});
afterAll(async () => {
  await rig?.close();
});

const stored = (patient: string, n: number) =>
  waitFor(
    async () =>
      (await rig.pool.query('SELECT count(*)::int AS n FROM vitals_observations WHERE patient_id = $1', [patient])).rows[0].n as number,
    (c) => c >= n,
    45_000,
    `${n} stored rows of ${patient}`,
  );

const heartRates = (patient: string, from: number, n: number, base = Date.now()) =>
  Array.from({ length: n }, (_, i) => numeric(patient, `${patient}-dev`, from + i, new Date(base + (from + i) * 1000)));

/** The SDK client with handlers collecting resource updates and log messages. */
async function subscriber(): Promise<Connected & { updates: any[]; logs: any[] }> {
  const c = await connect(rig.gw.url, token);
  const updates: any[] = [];
  const logs: any[] = [];
  c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n));
  c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n));
  return Object.assign(c, { updates, logs });
}

describe('vitals tools and resource on ingested data', () => {
  it('get_latest_vitals, get_vitals_history (raw and bucketed) and resources/read vitalis://patients/{id}/vitals', async () => {
    const patient = `pat-mcpv-${uid()}`;
    const dev = `${patient}-d1`; // (device_id, seq, effective_at) is the idempotency key: unique per run
    // Half a second off the minute: the range is not rollup-aligned, so buckets come from the append log
    // (rollups of a past day may already be closed when this late data arrives).
    const base = Date.UTC(2026, 10, 20, 8, 0, 0) + 500;
    const at = (s: number) => new Date(base + s * 1000);
    await rig.send(patient, [
      numeric(patient, dev, 1, at(0), { value: 72 }),
      numeric(patient, dev, 2, at(30), { value: 80 }),
      numeric(patient, dev, 3, at(70), { value: 90 }),
      numeric(patient, dev, 4, at(75), { code: '59408-5', value: 97, unit: '%' }),
    ]);
    await stored(patient, 4);
    const c = await connect(rig.gw.url, token);
    try {
      const latest = await c.client.callTool({ name: 'get_latest_vitals', arguments: { patient_id: patient } });
      const sc = latest.structuredContent as any;
      expect(sc).toMatchObject({
        patient_id: patient,
        count: 2,
        resource_uri: `vitalis://patients/${patient}/vitals`,
        news2: { score: expect.any(Number) },
      });
      expect(sc.observations.map((o: any) => [o.code, o.value])).toEqual(
        expect.arrayContaining([
          ['8867-4', 90],
          ['59408-5', 97],
        ]),
      );
      expect((latest.content as any)[0].text).toContain('Heart rate 90');

      const raw = await c.client.callTool({
        name: 'get_vitals_history',
        arguments: { patient_id: patient, code: '8867-4', from: at(0).toISOString(), to: at(120).toISOString(), limit: 2 },
      });
      const page1 = raw.structuredContent as any;
      expect(page1.observations.map((o: any) => o.value)).toEqual([72, 80]);
      expect(page1.next_cursor).toEqual(expect.any(String));
      const page2 = (
        await c.client.callTool({
          name: 'get_vitals_history',
          arguments: {
            patient_id: patient,
            code: '8867-4',
            from: at(0).toISOString(),
            to: at(120).toISOString(),
            limit: 2,
            cursor: page1.next_cursor,
          },
        })
      ).structuredContent as any;
      expect(page2).toMatchObject({ count: 1, next_cursor: null });
      expect(page2.observations[0].value).toBe(90);

      const buckets = (
        await c.client.callTool({
          name: 'get_vitals_history',
          arguments: { patient_id: patient, code: '8867-4', from: at(0).toISOString(), to: at(120).toISOString(), bucket: '1m' },
        })
      ).structuredContent as any;
      expect(buckets.buckets.map((b: any) => [b.count, b.min, b.max])).toEqual([
        [2, 72, 80],
        [1, 90, 90],
      ]);

      const tooLong = await c.client.callTool({
        name: 'get_vitals_history',
        arguments: { patient_id: patient, from: '2026-01-01T00:00:00Z', to: '2026-03-01T00:00:00Z' },
      });
      expect(tooLong.isError).toBe(true);
      expect((tooLong.content as any)[0].text).toContain('at most 31 days');
      const wrongCursor = await c.client.callTool({
        name: 'get_vitals_history',
        arguments: { patient_id: patient, from: at(0).toISOString(), to: at(60).toISOString(), cursor: page1.next_cursor },
      });
      expect(wrongCursor.isError).toBe(true);

      const { contents } = await c.client.readResource({ uri: `vitalis://patients/${patient}/vitals` });
      expect(contents[0]!.mimeType).toBe('application/json');
      expect(JSON.parse((contents[0] as any).text)).toMatchObject({ patient_id: patient, count: 2 });

      const audit = await rig.pool.query<{ action: string }>(
        "SELECT action FROM audit_events WHERE resource_id = $1 AND action LIKE 'vitals.%' ORDER BY id",
        [patient],
      );
      expect(audit.rows.map((r) => r.action)).toEqual([
        'vitals.read_latest',
        'vitals.read',
        'vitals.read',
        'vitals.read',
        'vitals.read_latest',
      ]);
    } finally {
      await c.close();
    }
  });
});

describe('resources/subscribe', () => {
  it('delivers observations and alerts produced through Kafka as notifications/resources/updated, in order; unsubscribe releases the hub subscription', async () => {
    const patient = `pat-mcps-${uid()}`;
    const other = `pat-mcps-${uid()}`;
    const uri = `vitalis://patients/${patient}/vitals`;
    const c = await subscriber();
    try {
      const hubBefore = rig.gw.app.liveHub.stats.subscribers;
      await c.client.subscribeResource({ uri });
      expect(rig.gw.app.liveHub.stats.subscribers).toBe(hubBefore + 1);
      await rig.send(other, heartRates(other, 0, 3)); // not subscribed: never delivered
      await rig.send(patient, heartRates(patient, 0, 5));
      // systolic ≤ 90 mmHg: sys-low, a condition without an onset delay, raised by this one observation
      await rig.send(patient, [numeric(patient, `${patient}-dev`, 5, new Date(), { code: '8480-6', value: 87, unit: 'mm[Hg]' })]);
      await waitFor(
        async () => liveEvents(c.updates),
        (ev) => ev.some((e) => e.type === 'alert'),
        45_000,
        'the sys-low alert',
      );
      const events = liveEvents(c.updates);
      expect(events.every((e) => e.uri === uri)).toBe(true);
      const observations = events.filter((e) => e.type === 'observation');
      expect(observations.map((e) => e.data.seq)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(observations.every((e) => e.data.patient_id === patient)).toBe(true);
      const alert = events.find((e) => e.type === 'alert')!;
      expect(alert).toMatchObject({ event: 'VitalsAlertRaised', data: { rule: 'sys-low', state: 'raised', priority: 'high', value: 87 } });
      expect(events.indexOf(alert)).toBeGreaterThan(events.findIndex((e) => e.data.seq === 5)); // right after the observation that raised it
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

      const subscribedAudit = await rig.pool.query(
        "SELECT outcome FROM audit_events WHERE resource_id = $1 AND action = 'vitals.subscribe'",
        [patient],
      );
      expect(subscribedAudit.rows).toEqual([{ outcome: 'success' }]);

      await c.client.unsubscribeResource({ uri });
      expect(rig.gw.app.liveHub.stats.subscribers).toBe(hubBefore);
    } finally {
      await c.close();
    }
  });

  it('refuses to subscribe to something that is not a patient vitals resource', async () => {
    const c = await subscriber();
    try {
      await expect(c.client.subscribeResource({ uri: 'ui://vitalis/emergency-triage-board' })).rejects.toThrow(/Only vitalis:\/\/patients/);
      await expect(c.client.subscribeResource({ uri: 'vitalis://patients/bad id!/vitals' })).rejects.toThrow(/Only vitalis:\/\/patients/);
    } finally {
      await c.close();
    }
  });

  it('resumes with Last-Event-ID: a stream reopened after a disconnect gets exactly what it missed, in order, then live', async () => {
    const patient = `pat-mcpr-${uid()}`;
    const uri = `vitalis://patients/${patient}/vitals`;
    const auth = { authorization: `Bearer ${token}` };
    const sid = await rawInitialize(rig.gw.url, auth);
    const h = { ...auth, 'mcp-session-id': sid };
    const first = await openStream(rig.gw.url, h);
    expect(first.status).toBe(200);
    const sub = await rpcResult(await rpc(rig.gw.url, { id: 2, method: 'resources/subscribe', params: { uri } }, h));
    expect(sub.result).toEqual({});

    await rig.send(patient, heartRates(patient, 0, 3));
    await first.waitUntil((ev) => liveEvents(ev.map((e) => e.message)).length === 3, 'the first 3 observations');
    const cursor = first.events.filter((e) => e.message?.method === 'notifications/resources/updated').at(-1)!.id!;
    expect(cursor).toBeTruthy();
    first.close();

    // missed while disconnected: stored in the event store as they happen
    await rig.send(patient, heartRates(patient, 3, 20));
    await stored(patient, 23);
    const session = rig.gw.app.mcpSessions.get(sid)!;
    await waitFor(
      async () => (await rig.redis.xlen(`vitalis:mcp:ev:${sid}:_GET_stream`)) as number,
      (n) => n >= 23,
      45_000,
      '23 notifications in the event store',
    );
    expect(session.openStreams).toBe(0);

    const second = await openStream(rig.gw.url, { ...h, 'last-event-id': cursor });
    expect(second.status).toBe(200);
    await second.waitUntil((ev) => liveEvents(ev.map((e) => e.message)).length >= 20, 'the 20 missed');
    await rig.send(patient, heartRates(patient, 23, 2));
    await second.waitUntil((ev) => liveEvents(ev.map((e) => e.message)).length >= 22, 'the 2 live after the replay');
    const seqs = liveEvents(second.events.map((e) => e.message)).map((e) => e.data.seq);
    expect(seqs).toEqual(Array.from({ length: 22 }, (_, i) => i + 3));
    second.close();

    const stranger = await tokenFor(rig.gw.url, ['read:vitals'], 'mcp-live-stranger');
    const foreign = await openStream(rig.gw.url, {
      authorization: `Bearer ${stranger.token}`,
      'mcp-session-id': sid,
      'last-event-id': cursor,
    });
    expect(foreign.status).toBe(403); // another subject cannot replay this session's stream
    foreign.close();
  });

  it('a revoked token ends its subscriptions (the client is told with a log message); closing the session releases them', async () => {
    const mine = await tokenFor(rig.gw.url, ['read:vitals'], 'mcp-live-revoke');
    const c = await connect(rig.gw.url, mine.token);
    const logs: any[] = [];
    c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n));
    const before = rig.gw.app.liveHub.stats.subscribers;
    try {
      await c.client.subscribeResource({ uri: `vitalis://patients/pat-mcpx-${uid()}/vitals` });
      await c.client.subscribeResource({ uri: `vitalis://patients/pat-mcpy-${uid()}/vitals` });
      expect(rig.gw.app.liveHub.stats.subscribers).toBe(before + 2);
      expect(
        (await fetch(`${rig.gw.url}/api/auth/revoke`, { method: 'POST', body: new URLSearchParams({ token: mine.token }) })).status,
      ).toBe(200);
      await waitFor(
        async () => logs.length,
        (n) => n >= 2,
        45_000,
        'the two closed-subscription messages',
      );
      expect(logs.map((l) => l.params.data.closed)).toEqual(['revoked', 'revoked']);
      expect(rig.gw.app.liveHub.stats.subscribers).toBe(before);
    } finally {
      await c.close();
    }

    const c2 = await connect(rig.gw.url, token);
    await c2.client.subscribeResource({ uri: `vitalis://patients/pat-mcpz-${uid()}/vitals` });
    expect(rig.gw.app.liveHub.stats.subscribers).toBe(before + 1);
    await c2.transport.terminateSession(); // DELETE
    expect(rig.gw.app.liveHub.stats.subscribers).toBe(before);
    await c2.close();
  });
});
