/**
 * Security finding 3 of issue 18, "The sandbox reads real PHI", over real HTTP: a token from
 * POST /api/v1/sandbox (and any token derived from it) reads synthetic `sbx-` patients and slots
 * only. Every real patient is refused (403, audited with reason `sandbox`) on REST history and
 * latest, SSE, WebSocket and MCP (tools, resources/read, resources/subscribe); the synthetic data
 * has the real shapes, pages exactly, and streams live with an exact Last-Event-ID resume; nobody,
 * not even a device with write:vitals, can write vitals for an `sbx-` id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { headPosition } from '@vitalis/eventstore';
import { decodeCursor } from '@vitalis/live';
import { validateObservation } from '@vitalis/schemas';
import { seedRecords } from '../../../apps/gateway/src/seed-records';
import { catchUpTo } from '../../../apps/projector/src/projections/runner';
import { slotsProjection } from '../../../apps/projector/src/projections/definitions';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { openSse, openWs, streamUrl } from '../live/support';
import { connect } from '../mcp/support';
import { numeric, waitFor } from '../vitals/support';

const EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const JWT_TYPE = 'urn:ietf:params:oauth:token-type:jwt';
const REAL = 'pat-0001'; // a seeded demo patient

let gw: RunningGateway;
beforeAll(async () => {
  // the sandbox's per-address window is shared by every test on this machine
  gw = await startGateway({ SANDBOX_RATE_LIMIT: '1000000' });
  await seedRecords(gw.deps.pool, new Date()); // pat-0001 and the real slots (idempotent)
  await catchUpTo(gw.deps.pool, slotsProjection, await headPosition(gw.deps.pool)); // the real schedule, listed
});
afterAll(async () => {
  await gw?.close();
});

interface SandboxCredentials {
  client_id: string;
  client_secret: string;
  access_token: string;
}

const json = (r: Response): Promise<any> => r.json();
const sandbox = async (): Promise<SandboxCredentials> => json(await fetch(`${gw.url}/api/v1/sandbox`, { method: 'POST' }));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const get = (path: string, token: string) => fetch(`${gw.url}${path}`, { headers: bearer(token) });

const iso = (ms: number) => new Date(ms).toISOString();
/** A past, whole-minute range inside the synthetic history (deterministic: it never changes). */
const pastMinutes = (minutes: number) => {
  const to = Math.floor(Date.now() / 60_000) * 60_000 - 5 * 60_000;
  return { from: iso(to - minutes * 60_000), to: iso(to) };
};

/** The audit rows of a client, newest last. */
async function auditOf(clientId: string) {
  const { rows } = await gw.deps.pool.query<{
    action: string;
    outcome: string;
    resource_id: string | null;
    detail: Record<string, unknown>;
  }>('SELECT action, outcome, resource_id, detail FROM audit_events WHERE actor_client_id = $1 ORDER BY id', [clientId]);
  return rows;
}
const refusals = (rows: Awaited<ReturnType<typeof auditOf>>) =>
  rows
    .filter((r) => r.outcome === 'failure')
    .map((r) => ({ action: r.action, patient: r.resource_id, reason: r.detail.reason, via: r.detail.via }));

describe('a sandbox token never reaches a real patient', () => {
  it('REST history and latest (both paths): 403 problem, one audited refusal each (reason sandbox)', async () => {
    const sbx = await sandbox();
    const { from, to } = pastMinutes(1);
    for (const path of [
      `/api/v1/vitals?patient=${REAL}&from=${from}&to=${to}`,
      `/api/v1/vitals?patient=${REAL}&from=${from}&to=${to}&bucket=1m`,
      `/api/v1/vitals/latest?patient=${REAL}`,
      `/api/v1/patients/${REAL}/vitals/latest`,
    ]) {
      const res = await get(path, sbx.access_token);
      expect(res.status, path).toBe(403);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('www-authenticate'), path).toContain('error="insufficient_scope"');
      expect(await json(res), path).toMatchObject({ status: 403, detail: expect.stringContaining('sbx-') });
    }
    expect(refusals(await auditOf(sbx.client_id))).toEqual([
      { action: 'vitals.read', patient: REAL, reason: 'sandbox', via: 'rest' },
      { action: 'vitals.read', patient: REAL, reason: 'sandbox', via: 'rest' },
      { action: 'vitals.read_latest', patient: REAL, reason: 'sandbox', via: 'rest' },
      { action: 'vitals.read_latest', patient: REAL, reason: 'sandbox', via: 'rest' },
    ]);
  });

  it('SSE: 403 before the stream opens, also for a ward mixing sbx- and real ids; audited', async () => {
    const sbx = await sandbox();
    const alone = await openSse(streamUrl(gw, { patient: REAL }), bearer(sbx.access_token));
    expect(alone.status).toBe(403);
    expect(alone.body).toMatchObject({ status: 403 });
    const ward = await openSse(streamUrl(gw, { patient: `sbx-0001,${REAL}` }), bearer(sbx.access_token));
    expect(ward.status).toBe(403);
    expect(refusals(await auditOf(sbx.client_id))).toEqual([
      { action: 'vitals.stream', patient: REAL, reason: 'sandbox', via: 'sse' },
      { action: 'vitals.stream', patient: REAL, reason: 'sandbox', via: 'sse' },
    ]);
  });

  it('WebSocket: the subscription is refused with a 403 error message and audited; an sbx- one streams', async () => {
    const sbx = await sandbox();
    const ws = await openWs(`${gw.url}/api/v1/vitals/ws`, bearer(sbx.access_token));
    try {
      await ws.waitFor((m) => m.some((x) => x.type === 'ready'), 'ready');
      ws.send({ type: 'subscribe', sub: 'real', patients: [REAL] });
      const [refused] = (await ws.waitFor((m) => m.some((x) => x.type === 'error'), 'the refusal')).filter((x) => x.type === 'error');
      expect(refused).toMatchObject({ sub: 'real', status: 403 });
      ws.send({ type: 'subscribe', sub: 'synthetic', patients: ['sbx-0002'], codes: ['8867-4'] });
      const got = await ws.waitFor((m) => m.filter((x) => x.type === 'observation').length >= 2, 'two synthetic observations');
      const observations = got.filter((x) => x.type === 'observation');
      expect(observations[0]).toMatchObject({ sub: 'synthetic', data: { patient_id: 'sbx-0002', code: '8867-4', unit: '/min' } });
      expect(decodeCursor(observations[0].id)).toBeDefined();
      expect(got.some((x) => x.type === 'observation' && x.sub === 'real')).toBe(false);
    } finally {
      ws.socket.close();
    }
    const rows = await auditOf(sbx.client_id);
    expect(refusals(rows)).toEqual([{ action: 'vitals.stream', patient: REAL, reason: 'sandbox', via: 'websocket' }]);
    expect(rows).toContainEqual(expect.objectContaining({ action: 'vitals.stream', outcome: 'success', resource_id: 'sbx-0002' }));
  });

  it('MCP: the tools, resources/read and resources/subscribe refuse the real patient (audited) and serve sbx- ones', async () => {
    const sbx = await sandbox();
    const c = await connect(gw.url, sbx.access_token);
    const updates: any[] = [];
    c.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n));
    c.client.setNotificationHandler(LoggingMessageNotificationSchema, () => undefined);
    try {
      const { from, to } = pastMinutes(1);
      const latest = await c.client.callTool({ name: 'get_latest_vitals', arguments: { patient_id: REAL } });
      expect(latest.isError).toBe(true);
      expect(JSON.stringify(latest.content)).toMatch(/403/);
      const history = await c.client.callTool({ name: 'get_vitals_history', arguments: { patient_id: REAL, from, to } });
      expect(history.isError).toBe(true);
      await expect(c.client.readResource({ uri: `vitalis://patients/${REAL}/vitals` })).rejects.toThrow(/403|Forbidden/);
      await expect(c.client.subscribeResource({ uri: `vitalis://patients/${REAL}/vitals` })).rejects.toThrow(/403|Forbidden/);

      const synthetic = await c.client.callTool({ name: 'get_latest_vitals', arguments: { patient_id: 'sbx-0003' } });
      expect(synthetic.isError).toBeFalsy();
      expect(synthetic.structuredContent).toMatchObject({ patient_id: 'sbx-0003', count: 6, news2: { score: expect.any(Number) } });
      const read = await c.client.readResource({ uri: 'vitalis://patients/sbx-0003/vitals' });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ patient_id: 'sbx-0003', count: 6 });
      await c.client.subscribeResource({ uri: 'vitalis://patients/sbx-0003/vitals' });
      await waitFor(
        async () => updates.length,
        (n) => n >= 6,
        30_000,
        'synthetic resource updates',
      );
      const live = updates.map((u) => u.params._meta['vitalis/live']);
      expect(live[0]).toMatchObject({ type: 'observation', data: { patient_id: 'sbx-0003' } });
      expect(updates.every((u) => u.params.uri === 'vitalis://patients/sbx-0003/vitals')).toBe(true);
    } finally {
      await c.close();
    }
    const rows = await auditOf(sbx.client_id);
    expect(refusals(rows)).toEqual([
      { action: 'vitals.read_latest', patient: REAL, reason: 'sandbox', via: 'mcp' },
      { action: 'vitals.read', patient: REAL, reason: 'sandbox', via: 'mcp' },
      { action: 'vitals.read_latest', patient: REAL, reason: 'sandbox', via: 'mcp' },
      { action: 'vitals.subscribe', patient: REAL, reason: 'sandbox', via: 'mcp' },
    ]);
    expect(rows.filter((r) => r.outcome === 'success' && r.resource_id === 'sbx-0003').map((r) => r.action)).toEqual([
      'vitals.read_latest',
      'vitals.read_latest',
      'vitals.subscribe',
    ]);
  });

  it('appointments: only synthetic sbx- slots (REST and MCP), never the real schedule; booking stays refused', async () => {
    const sbx = await sandbox();
    const real = await json(
      await get('/api/v1/appointments?limit=5', await clientCredentialsToken(gw.url, await registerClient(gw.url, ['read:appointments']))),
    );
    expect(real.entry.length).toBeGreaterThan(0); // the seeded schedule exists
    const listed = await json(await get('/api/v1/appointments?limit=200', sbx.access_token));
    // FHIR shapes (0.2.0): the Slots (search mode match) and the Schedules they belong to (include).
    const slots = listed.entry.filter((e: any) => e.search?.mode === 'match');
    expect(slots.length).toBe(200);
    const next = listed.link.find((l: any) => l.relation === 'next')?.url;
    expect(next).toMatch(/cursor=/);
    for (const { resource } of slots) {
      expect(resource).toMatchObject({
        resourceType: 'Slot',
        id: expect.stringMatching(/^sbx-/),
        schedule: { reference: expect.stringMatching(/^Schedule\/sbx-/) },
      });
    }
    for (const { resource } of listed.entry.filter((e: any) => e.search?.mode !== 'match')) {
      expect(resource).toMatchObject({
        resourceType: 'Schedule',
        id: expect.stringMatching(/^sbx-/),
        actor: [{ reference: expect.stringMatching(/^Practitioner\/sbx-/) }],
      });
    }
    const page2 = await json(await fetch(next, { headers: bearer(sbx.access_token) }));
    const ids = [...slots, ...page2.entry.filter((e: any) => e.search?.mode === 'match')].map((e: any) => e.resource.id);
    expect(new Set(ids).size).toBe(ids.length); // paging: no duplicate
    expect(page2.entry.every((e: any) => e.resource.id.startsWith('sbx-'))).toBe(true);

    const c = await connect(gw.url, sbx.access_token);
    try {
      const found = await c.client.callTool({ name: 'find_available_slots', arguments: { limit: 50 } });
      expect(found.isError).toBeFalsy();
      const slots = (found.structuredContent as { slots: { slot_id: string; clinician_id: string }[] }).slots;
      expect(slots.length).toBe(50);
      expect(slots.every((s) => s.slot_id.startsWith('sbx-') && s.clinician_id.startsWith('sbx-'))).toBe(true);
    } finally {
      await c.close();
    }
    const book = await fetch(`${gw.url}/api/v1/appointments`, {
      method: 'POST',
      headers: { ...bearer(sbx.access_token), 'content-type': 'application/json' },
      body: JSON.stringify({ slot_id: ids[0], patient_id: 'sbx-0001' }),
    });
    expect(book.status).toBe(403);
  });
});

describe('the synthetic sbx- patients', () => {
  it('history: the real shapes, exact cursor paging, buckets computed from the samples, audited reads', async () => {
    const sbx = await sandbox();
    const { from, to } = pastMinutes(2);
    const whole = await json(await get(`/api/v1/vitals?patient=sbx-0001&from=${from}&to=${to}&limit=1000`, sbx.access_token));
    expect(whole).toMatchObject({ patient_id: 'sbx-0001', count: 720, next: null }); // 120 s x 6 codes
    for (const o of whole.data) expect(validateObservation(o).ok).toBe(true);
    expect(whole.data[0]).toEqual({
      patient_id: 'sbx-0001',
      device_id: 'sbx-monitor-0001',
      seq: expect.any(Number),
      effective_at: `${from.slice(0, 19)}.000000Z`,
      code: '8867-4',
      value: expect.any(Number),
      unit: '/min',
    });

    // paged by 250: the same rows, in the same order, no gap or duplicate
    const paged: any[] = [];
    let url: string | null = `${gw.url}/api/v1/vitals?patient=sbx-0001&from=${from}&to=${to}&limit=250`;
    while (url) {
      const page: any = await json(await fetch(url, { headers: bearer(sbx.access_token) }));
      paged.push(...page.data);
      url = page.next;
    }
    expect(paged).toEqual(whole.data);

    const buckets = await json(await get(`/api/v1/vitals?patient=sbx-0001&from=${from}&to=${to}&bucket=1m&code=8867-4`, sbx.access_token));
    expect(buckets).toMatchObject({ bucket: '1m', source: 'raw', count: 2 });
    const hr = whole.data.filter((o: any) => o.code === '8867-4').map((o: any) => o.value as number);
    const first = hr.slice(0, 60);
    expect(buckets.data[0]).toMatchObject({ code: '8867-4', count: 60, min: Math.min(...first), max: Math.max(...first) });
    expect(buckets.data[0].avg).toBeCloseTo(first.reduce((a: number, b: number) => a + b, 0) / 60, 9);

    const latest = await json(await get('/api/v1/vitals/latest?patient=sbx-0001', sbx.access_token));
    expect(latest.count).toBe(6);
    for (const o of latest.data) expect(validateObservation(o).ok).toBe(true);

    const rows = await auditOf(sbx.client_id);
    expect(rows.filter((r) => r.outcome === 'failure')).toEqual([]);
    expect(rows.filter((r) => r.resource_id === 'sbx-0001').map((r) => r.action)).toEqual([
      ...Array(5).fill('vitals.read'),
      'vitals.read_latest',
    ]); // whole, 3 pages, buckets; latest
  });

  it('SSE: one event per code per second with live ids; Last-Event-ID resumes with no gap or duplicate; ids it never issued are 400', async () => {
    const sbx = await sandbox();
    const url = streamUrl(gw, { patient: 'sbx-0004' });
    const first = await openSse(url, bearer(sbx.access_token));
    expect(first.status).toBe(200);
    const seen = (await first.waitForEvents(8, 'eight synthetic events')).slice(0, 8);
    first.close();
    for (const e of seen) {
      expect(e.event).toBe('observation');
      expect(decodeCursor(e.id!)).toBeDefined();
      expect(validateObservation(e.data).ok).toBe(true);
    }
    // let a few seconds pass unseen, then resume after the 8th event
    const last = seen[7]!;
    await waitFor(
      async () => Date.now(),
      (now) => now > Date.parse(last.data.effective_at) + 3_000,
      10_000,
      'three seconds',
    );
    const resumed = await openSse(url, { ...bearer(sbx.access_token), 'last-event-id': last.id! });
    expect(resumed.status).toBe(200);
    const after = (await resumed.waitForEvents(18, 'the missed seconds')).slice(0, 18);
    resumed.close();
    const all = [...seen, ...after].map((e) => e.data);
    const seqs = all.map((o) => o.seq as number);
    // seq = second * 8 + code index: consecutive, six codes a second, nothing twice
    for (let i = 1; i < seqs.length; i++) {
      const [a, b] = [seqs[i - 1]!, seqs[i]!];
      expect(b === a + 1 || (a % 8 === 5 && b === a + 3), `${a} then ${b}`).toBe(true);
    }
    // what was regenerated on resume is what REST serves for those seconds
    const at = after[0]!.data.effective_at as string;
    const rest = await json(
      await get(
        `/api/v1/vitals?patient=sbx-0004&from=${at}&to=${iso(Date.parse(at) + 1000)}&code=${after[0]!.data.code}`,
        sbx.access_token,
      ),
    );
    expect(rest.data[0]).toEqual(after[0]!.data);

    for (const bad of [
      '99-8',
      `4-${(Math.floor(Date.now() / 1000) + 3_600) * 8}`,
      '4-1000.1',
      `4-${Math.floor(Date.now() / 1000) * 8 + 6}`,
    ]) {
      const refused = await openSse(url, { ...bearer(sbx.access_token), 'last-event-id': bad });
      expect(refused.status, bad).toBe(400);
    }
    const actions = (await auditOf(sbx.client_id)).map((r) => r.action);
    expect(actions.filter((a) => a === 'vitals.replay')).toHaveLength(1);
  });

  it('an id older than the replay window resumes at the window with a replay-truncated notice and the REST gap', async () => {
    const sbx = await sandbox();
    const old = Math.floor(Date.now() / 1000) - 600; // 10 minutes ago; the window is 300 s
    // the id says SpO2 (code index 1) of second `old` was delivered: the first skipped observation is index 2 of that second
    const res = await openSse(streamUrl(gw, { patient: 'sbx-0001', code: '59408-5' }), {
      ...bearer(sbx.access_token),
      'last-event-id': `1-${old * 8 + 1}`,
    });
    expect(res.status).toBe(200);
    const [notice, firstEvent] = await res.waitForEvents(2, 'the notice and an event');
    res.close();
    expect(notice).toMatchObject({
      event: 'replay-truncated',
      data: { window_seconds: 300, gaps: [{ patient_id: 'sbx-0001', from: `${iso(old * 1000).slice(0, 19)}.000000Z` }] },
    });
    const gapEnd = Date.parse(notice!.data.gaps[0].to);
    expect(Date.parse(firstEvent!.data.effective_at)).toBe(gapEnd); // the stream continues right where the gap ends
  });

  it('a synthetic stream closes when its token is revoked', async () => {
    const sbx = await sandbox();
    const stream = await openSse(streamUrl(gw, { patient: 'sbx-0002' }), bearer(sbx.access_token));
    expect(stream.status).toBe(200);
    await stream.waitForEvents(1, 'a first event');
    const revoked = await fetch(`${gw.url}/api/auth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token: sbx.access_token, client_id: sbx.client_id, client_secret: sbx.client_secret }),
    });
    expect(revoked.status).toBe(200);
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ event: 'closed', data: { reason: 'revoked' } });
  });

  it('a non-sandbox reader may not mix sbx- and real ids in one subscription (400)', async () => {
    const nurse = await clientCredentialsToken(gw.url, await registerClient(gw.url, ['read:vitals']));
    const mixed = await openSse(streamUrl(gw, { patient: `sbx-0001,${REAL}` }), bearer(nurse));
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ status: 400, detail: expect.stringContaining('sbx-') });
  });
});

describe('sandbox-ness survives every token derived from a sandbox token', () => {
  it('an exchanged token and a new client_credentials token of the sandbox client are sandbox principals', async () => {
    const sbx = await sandbox();
    const exchanged = await json(
      await fetch(`${gw.url}/api/auth/oauth2/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: EXCHANGE,
          subject_token: sbx.access_token,
          subject_token_type: JWT_TYPE,
          scope: 'read:vitals',
        }),
      }),
    );
    // the sandbox client has no refresh_token grant; its "refresh" is a new client_credentials token
    const renewed = await clientCredentialsToken(gw.url, { client_id: sbx.client_id, client_secret: sbx.client_secret, scope: '' });
    for (const token of [exchanged.access_token as string, renewed]) {
      expect(await json(await get('/agent/identity', token))).toMatchObject({ sandbox: true });
      expect((await get(`/api/v1/vitals/latest?patient=${REAL}`, token)).status).toBe(403);
      expect((await get('/api/v1/vitals/latest?patient=sbx-0001', token)).status).toBe(200);
    }
  });
});

describe('nobody writes for an sbx- id', () => {
  it('a device (write:vitals) posting vitals for sbx-0001 gets 403 problem, audited, nothing published', async () => {
    const device = await registerClient(gw.url, ['write:vitals'], 'bedside-monitor', 'device');
    const token = await clientCredentialsToken(gw.url, device);
    const res = await fetch(`${gw.url}/api/v1/vitals`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ observations: [numeric('sbx-0001', 'smuggler-1', 1, new Date())] }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(await json(res)).toMatchObject({ status: 403, detail: expect.stringContaining('reserved') });
    expect(refusals(await auditOf(device.client_id))).toEqual([
      { action: 'vitals.write', patient: 'sbx-0001', reason: 'sandbox', via: 'rest' },
    ]);
    expect((await auditOf(device.client_id)).filter((r) => r.outcome === 'success' && r.action === 'vitals.write')).toEqual([]);
  });
});
