/**
 * Issue 22 item 4: FHIR topic-based subscriptions (Subscriptions R5 Backport, R4) over real HTTP and
 * WebSocket, with an in-process ingest (a private topic) feeding the live hub: create a
 * Subscription, bind a websocket with $get-ws-binding-token, get the handshake and one
 * event-notification per posted vital with event numbers 1, 2, 3; disconnect, post more, and resume
 * with $events from the last number seen: no gap, no duplicate; $status counts; the alerts topic
 * carries the Flag; another client sees none of it; a patient user only for itself; bad input is a
 * 4xx OperationOutcome; every resource is valid FHIR R4 (HAPI).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client } from 'fhir-kit-client';
import { VITAL_CODE } from '@vitalis/schemas';
import { clientCredentialsToken, registerClient } from '../../helpers/auth';
import { startGateway } from '../../helpers/gateway';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { numeric, startRig, uid, waitFor, type LiveRig } from '../live/support';
import { userTokenFor } from '../mcp/support';

const FHIR_JSON = 'application/fhir+json';
const VITALS_TOPIC = 'https://vitalis.example/fhir/SubscriptionTopic/patient-vitals';
const ALERTS_TOPIC = 'https://vitalis.example/fhir/SubscriptionTopic/patient-vitals-alerts';
const IG = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition';

let rig: LiveRig;
let base: string;
let owner: Record<string, string>;
let other: Record<string, string>;

beforeAll(async () => {
  rig = await startRig('fhir-subs', { SANDBOX_RATE_LIMIT: '1000000' }); // the sandbox's per-address window is shared by the machine
  base = `${rig.gw.url}/fhir/R4`;
  const bearer = async (scopes: Parameters<typeof registerClient>[1]) => ({
    authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, await registerClient(rig.gw.url, scopes))}`,
  });
  owner = await bearer(['read:vitals']);
  other = await bearer(['read:vitals']);
});
afterAll(async () => {
  await rig?.close();
});

async function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  at = base,
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${at}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': FHIR_JSON } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

function subscription(topic: string, filter: string, extra: { heartbeat?: number; content?: string; channelType?: string } = {}) {
  return {
    resourceType: 'Subscription',
    meta: { profile: [`${IG}/backport-subscription`] },
    status: 'requested',
    reason: 'Watch a patient',
    criteria: topic,
    _criteria: { extension: [{ url: `${IG}/backport-filter-criteria`, valueString: filter }] },
    channel: {
      ...(extra.heartbeat ? { extension: [{ url: `${IG}/backport-heartbeat-period`, valueUnsignedInt: extra.heartbeat }] } : {}),
      type: extra.channelType ?? 'websocket',
      payload: FHIR_JSON,
      _payload: { extension: [{ url: `${IG}/backport-payload-content`, valueCode: extra.content ?? 'full-resource' }] },
    },
  };
}

/** The named parameter of a Parameters resource. */
const param = (p: any, name: string) => p.parameter.find((x: any) => x.name === name);
const statusOf = (bundle: any) => bundle.entry[0].resource;
const eventNumbers = (bundle: any) =>
  statusOf(bundle)
    .parameter.filter((x: any) => x.name === 'notification-event')
    .map((x: any) => Number(x.part.find((p: any) => p.name === 'event-number').valueString));

async function bindSocket(id: string, headers: Record<string, string>, at = base) {
  const token = await call('POST', `/Subscription/${id}/$get-ws-binding-token`, headers, { resourceType: 'Parameters' }, at);
  expect(token.status).toBe(200);
  const socket = new WebSocket(param(token.body, 'websocket-url').valueUrl);
  const messages: any[] = [];
  socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(`bind-with-token ${param(token.body, 'token').valueString}`);
  const until = async (pred: (m: any[]) => boolean, what: string) => {
    const deadline = Date.now() + 45_000;
    while (!pred(messages)) {
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; have ${JSON.stringify(messages.slice(-2)).slice(0, 2_000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return messages;
  };
  return { socket, messages, closed, until, tokenParameters: token.body };
}

/**
 * The resources without the IG's profile URLs in meta.profile: the validator runs offline, where the
 * Backport IG's package cannot be loaded (it reports "profile not found"); they are checked against
 * the R4 base definitions, the shape of the IG's R4 representation by the assertions here.
 */
function withoutIgProfiles(value: any): any {
  if (Array.isArray(value)) return value.map(withoutIgProfiles);
  if (!value || typeof value !== 'object') return value;
  const out: any = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'meta' && Array.isArray((v as any).profile)) {
      const profile = (v as any).profile.filter((p: string) => !p.startsWith(IG));
      const rest = { ...(v as any), profile };
      if (profile.length === 0) delete rest.profile;
      if (Object.keys(rest).length) out.meta = rest;
    } else out[k] = withoutIgProfiles(v);
  }
  return out;
}
const expectValidR4 = (resources: unknown) => expectValidFhir(withoutIgProfiles(resources));

const typeOf = (bundle: any) => param(statusOf(bundle), 'type').valueCode;

describe('FHIR Subscriptions (R5 Backport on R4) over the live hub', () => {
  it('numbers the events of a vitals subscription over the websocket, and $events resumes exactly after a disconnect', async () => {
    const patient = `fsub-${uid()}`;
    const created = await call(
      'POST',
      '/Subscription',
      owner,
      subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}&code=http://loinc.org|${VITAL_CODE.heartRate}`, { heartbeat: 1 }),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toContain(FHIR_JSON);
    const sub = created.body;
    expect(sub).toMatchObject({ resourceType: 'Subscription', status: 'active', criteria: VITALS_TOPIC, channel: { type: 'websocket' } });
    expect(created.headers.get('location')).toBe(`${base}/Subscription/${sub.id}`);

    const ws = await bindSocket(sub.id, owner);
    await ws.until((m) => m.some((b) => typeOf(b) === 'handshake'), 'the handshake');
    const handshake = ws.messages.find((b) => typeOf(b) === 'handshake');
    expect(handshake).toMatchObject({ resourceType: 'Bundle', type: 'history' });
    expect(param(statusOf(handshake), 'events-since-subscription-start').valueString).toBe('0');
    expect(param(statusOf(handshake), 'subscription').valueReference.reference).toBe(`${base}/Subscription/${sub.id}`);

    // three heart rates (and an SpO2 the code filter leaves out)
    const t0 = Date.now();
    await rig.send(
      patient,
      [1, 2, 3].map((seq) => numeric(patient, `${patient}-d`, seq, new Date(t0 + seq))),
    );
    await rig.send(patient, [numeric(patient, `${patient}-o`, 1, new Date(t0 + 4), { code: VITAL_CODE.spo2, value: 97, unit: '%' })]);
    await ws.until((m) => m.filter((b) => typeOf(b) === 'event-notification').length >= 3, 'three event notifications');
    const notes = ws.messages.filter((b) => typeOf(b) === 'event-notification');
    expect(notes.flatMap(eventNumbers)).toEqual([1, 2, 3]);
    expect(notes.map((b) => b.entry[1].resource.identifier[0].value)).toEqual([1, 2, 3].map((s) => `${patient}-d/${s}`));
    for (const b of notes)
      expect(b.entry[1]).toMatchObject({
        request: { method: 'POST', url: 'Observation' },
        response: { status: '201' },
        resource: { resourceType: 'Observation', subject: { reference: `Patient/${patient}` } },
      });
    expect(notes.map((b) => param(statusOf(b), 'events-since-subscription-start').valueString)).toEqual(['1', '2', '3']);
    await ws.until((m) => m.some((b) => typeOf(b) === 'heartbeat'), 'a heartbeat');

    // every notification is valid FHIR R4 (the base definitions; the IG's profiles are not loaded offline)
    await expectValidR4([created.body, handshake, ...notes, ws.messages.find((b) => typeOf(b) === 'heartbeat'), ws.tokenParameters]);

    // disconnect; three more arrive meanwhile
    ws.socket.close();
    await ws.closed;
    await rig.send(
      patient,
      [4, 5, 6].map((seq) => numeric(patient, `${patient}-d`, seq, new Date(t0 + 10 + seq))),
    );
    const status = await waitFor(
      () => call('GET', `/Subscription/${sub.id}/$status`, owner),
      (r) => r.status === 200 && param(statusOf(r.body), 'events-since-subscription-start').valueString === '6',
      45_000,
      '$status counting 6 events',
    );
    expect(status.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(param(statusOf(status.body), 'type').valueCode).toBe('query-status');
    expect(param(statusOf(status.body), 'status').valueCode).toBe('active');

    // resume after the last number seen (3): exactly 4, 5, 6
    const resumed = await call('GET', `/Subscription/${sub.id}/$events?eventsSinceNumber=4`, owner);
    expect(resumed.status).toBe(200);
    expect(typeOf(resumed.body)).toBe('query-event');
    expect(eventNumbers(resumed.body)).toEqual([4, 5, 6]);
    expect(resumed.body.entry.slice(1).map((e: any) => e.resource.identifier[0].value)).toEqual([4, 5, 6].map((s) => `${patient}-d/${s}`));
    // the whole history: what the socket delivered and what $events says are the same events under the same numbers
    const all = await call('GET', `/Subscription/${sub.id}/$events?eventsSinceNumber=1&eventsUntilNumber=6`, owner);
    expect(eventNumbers(all.body)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(all.body.entry.slice(1, 4).map((e: any) => e.resource)).toEqual(notes.map((b) => b.entry[1].resource));
    const window = await call('GET', `/Subscription/${sub.id}/$events?eventsSinceNumber=2&eventsUntilNumber=3&content=empty`, owner);
    expect(eventNumbers(window.body)).toEqual([2, 3]);
    expect(window.body.entry).toHaveLength(1);
    await expectValidR4([status.body, resumed.body, all.body, window.body]);

    // a new socket's handshake tells the count, and the next event continues from it
    const again = await bindSocket(sub.id, owner);
    await again.until((m) => m.some((b) => typeOf(b) === 'handshake'), 'the second handshake');
    expect(param(statusOf(again.messages.find((b) => typeOf(b) === 'handshake')), 'events-since-subscription-start').valueString).toBe('6');
    await rig.send(patient, [numeric(patient, `${patient}-d`, 7, new Date(t0 + 20))]);
    await again.until((m) => m.some((b) => typeOf(b) === 'event-notification'), 'event 7');
    expect(again.messages.filter((b) => typeOf(b) === 'event-notification').flatMap(eventNumbers)).toEqual([7]);

    // deleting it closes the bound socket and ends it for good
    const deleted = await call('DELETE', `/Subscription/${sub.id}`, owner);
    expect(deleted.status).toBe(204);
    expect(await again.closed).toBe(1000);
    expect((await call('GET', `/Subscription/${sub.id}`, owner)).status).toBe(404);

    const audit = await rig.pool.query(
      `SELECT DISTINCT action FROM audit_events WHERE resource_type = 'Patient' AND resource_id = $1 ORDER BY action`,
      [patient],
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'fhir.subscription.create',
      'fhir.subscription.delete',
      'vitals.read',
      'vitals.stream',
    ]);
  });

  it('payload id-only and full-resource, end to end (Kafka -> ingest -> hub -> numbered -> websocket and $events)', async () => {
    const patient = `fsub-${uid()}`;
    const filter = `Observation?patient=Patient/${patient}`;
    const full = await call('POST', '/Subscription', owner, subscription(VITALS_TOPIC, filter, { content: 'full-resource' }));
    const idOnly = await call('POST', '/Subscription', owner, subscription(VITALS_TOPIC, filter, { content: 'id-only' }));
    expect([full.status, idOnly.status]).toEqual([201, 201]);
    expect(idOnly.body.channel._payload.extension[0].valueCode).toBe('id-only');
    const [fullWs, idWs] = [await bindSocket(full.body.id, owner), await bindSocket(idOnly.body.id, owner)];
    await fullWs.until((m) => m.some((b) => typeOf(b) === 'handshake'), 'the full-resource handshake');
    await idWs.until((m) => m.some((b) => typeOf(b) === 'handshake'), 'the id-only handshake');

    const t0 = Date.now();
    await rig.send(
      patient,
      [1, 2].map((seq) => numeric(patient, `${patient}-d`, seq, new Date(t0 + seq))),
    );
    const notes = async (ws: typeof fullWs) =>
      (await ws.until((m) => m.filter((b) => typeOf(b) === 'event-notification').length >= 2, 'two notifications')).filter(
        (b) => typeOf(b) === 'event-notification',
      );
    const fullNotes = await notes(fullWs);
    const idNotes = await notes(idWs);
    expect(fullNotes.flatMap(eventNumbers)).toEqual([1, 2]);
    expect(idNotes.flatMap(eventNumbers)).toEqual([1, 2]);

    // full-resource: the Observation, at its read URL; id-only: the same URL, no resource, named as the event's focus
    const fullEntries = fullNotes.map((b) => b.entry[1]);
    const idEntries = idNotes.map((b) => b.entry[1]);
    for (const [i, e] of fullEntries.entries()) {
      expect(e.fullUrl).toBe(`${base}/Observation/${patient}-d.${i + 1}`);
      expect(e.resource).toMatchObject({ resourceType: 'Observation', id: `${patient}-d.${i + 1}` });
    }
    expect(idEntries.map((e) => e.fullUrl)).toEqual(fullEntries.map((e) => e.fullUrl));
    for (const e of idEntries) {
      expect(e.resource).toBeUndefined();
      expect(e).toMatchObject({ request: { method: 'POST', url: 'Observation' }, response: { status: '201' } });
    }
    const focus = (b: any) =>
      param(statusOf(b), 'notification-event').part.find((p: any) => p.name === 'focus').valueReference.reference as string;
    expect(idNotes.map(focus)).toEqual(idEntries.map((e) => e.fullUrl));
    expect(fullNotes.map(focus)).toEqual(fullEntries.map((e) => e.fullUrl));

    // each id-only URL reads back (with the subscriber's token) the very resource the full-resource payload carried
    for (const [i, e] of idEntries.entries()) {
      const read = await fetch(e.fullUrl, { headers: { ...owner, accept: FHIR_JSON } });
      expect(read.status).toBe(200);
      expect(await read.json()).toEqual(fullEntries[i].resource);
    }
    // $events in either content for the same numbers
    const asIds = await call('GET', `/Subscription/${full.body.id}/$events?content=id-only`, owner);
    expect(asIds.status).toBe(200);
    expect(asIds.body.entry.slice(1).map((e: any) => [e.fullUrl, e.resource])).toEqual(idEntries.map((e) => [e.fullUrl, undefined]));
    const asFull = await call('GET', `/Subscription/${idOnly.body.id}/$events?content=full-resource`, owner);
    expect(asFull.body.entry.slice(1).map((e: any) => e.resource)).toEqual(fullEntries.map((e) => e.resource));
    await expectValidR4([...fullNotes, ...idNotes, asIds.body, asFull.body]);
    fullWs.socket.close();
    idWs.socket.close();
  });

  it('the alerts topic notifies the Flag of a raised alert', async () => {
    const patient = `fsub-${uid()}`;
    const created = await call('POST', '/Subscription', owner, subscription(ALERTS_TOPIC, `Flag?patient=Patient/${patient}`));
    expect(created.status).toBe(201);
    // systolic 87 mmHg: sys-low, raised at once (no onset delay), a high-priority Flag
    await rig.send(patient, [numeric(patient, `${patient}-d`, 1, new Date(), { code: '8480-6', value: 87, unit: 'mm[Hg]' })]);
    const events = await waitFor(
      () => call('GET', `/Subscription/${created.body.id}/$events`, owner),
      (r) => r.status === 200 && eventNumbers(r.body).length >= 1,
      45_000,
      'the alert event',
    );
    expect(eventNumbers(events.body)).toEqual([1]);
    expect(events.body.entry[1]).toMatchObject({
      request: { url: 'Flag' },
      resource: { resourceType: 'Flag', status: 'active', subject: { reference: `Patient/${patient}` } },
    });
    expect(events.body.entry[1].resource.extension).toEqual([
      {
        url: 'http://hl7.org/fhir/StructureDefinition/flag-priority',
        valueCodeableConcept: {
          coding: [{ system: 'http://hl7.org/fhir/flag-priority-code', code: 'PH', display: 'High priority' }],
          text: 'high',
        },
      },
    ]);
    await expectValidR4(events.body);
  });

  it("a subscription is its owner's only: another client cannot read, search, use or delete it", async () => {
    const patient = `fsub-${uid()}`;
    const { body: sub } = await call('POST', '/Subscription', owner, subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}`));
    for (const [method, path] of [
      ['GET', `/Subscription/${sub.id}`],
      ['DELETE', `/Subscription/${sub.id}`],
      ['GET', `/Subscription/${sub.id}/$status`],
      ['GET', `/Subscription/${sub.id}/$events`],
      ['POST', `/Subscription/${sub.id}/$get-ws-binding-token`],
    ] as const) {
      const res = await call(method, path, other);
      expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.resourceType).toBe('OperationOutcome');
    }
    const theirs = await call('GET', '/Subscription', other);
    expect((theirs.body.entry ?? []).map((e: any) => e.resource.id)).not.toContain(sub.id);
    const mine = await call('GET', '/Subscription', owner);
    expect(mine.body.entry.map((e: any) => e.resource.id)).toContain(sub.id);
    await expectValidR4(mine.body);
    expect((await call('GET', `/Subscription/${sub.id}`, owner)).status).toBe(200);
  });

  it('a patient user subscribes to its own patient only; a token without read:vitals is refused', async () => {
    const { token } = await userTokenFor(rig.gw.url, 'patient', ['patient/Observation.rs'], `FHIR subscriber ${uid()}`);
    const me = { authorization: `Bearer ${token}` };
    expect((await call('POST', '/Subscription', me, subscription(VITALS_TOPIC, 'Observation?patient=Patient/pat-0001'))).status).toBe(201);
    const elsewhere = await call('POST', '/Subscription', me, subscription(VITALS_TOPIC, `Observation?patient=Patient/fsub-${uid()}`));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.resourceType).toBe('OperationOutcome');
    const writer = {
      authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, await registerClient(rig.gw.url, ['write:vitals']))}`,
    };
    expect((await call('POST', '/Subscription', writer, subscription(VITALS_TOPIC, 'Observation?patient=Patient/pat-0001'))).status).toBe(
      403,
    );
  });

  it('two gateways numbering the same subscription give each event one number', async () => {
    const second = await startGateway({ LIVE_TOPIC: rig.topic });
    try {
      const patient = `fsub-${uid()}`;
      // one client, a token from each gateway (each signs its own): the same owner
      const client = await registerClient(rig.gw.url, ['read:vitals']);
      const here = { authorization: `Bearer ${await clientCredentialsToken(rig.gw.url, client)}` };
      const there = { authorization: `Bearer ${await clientCredentialsToken(second.url, client)}` };
      const { body: sub } = await call('POST', '/Subscription', here, subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}`));
      // bound on the other gateway: it numbers the subscription too, from the same stored position
      const ws = await bindSocket(sub.id, there, `${second.url}/fhir/R4`);
      await ws.until((m) => m.some((b) => typeOf(b) === 'handshake'), 'the handshake');
      const t0 = Date.now();
      await rig.send(
        patient,
        [1, 2, 3, 4, 5].map((seq) => numeric(patient, `${patient}-d`, seq, new Date(t0 + seq))),
      );
      await ws.until((m) => m.filter((b) => typeOf(b) === 'event-notification').length >= 5, 'five notifications on the second gateway');
      const notes = ws.messages.filter((b) => typeOf(b) === 'event-notification');
      expect(notes.flatMap(eventNumbers)).toEqual([1, 2, 3, 4, 5]);
      expect(notes.map((b) => b.entry[1].resource.identifier[0].value)).toEqual([1, 2, 3, 4, 5].map((s) => `${patient}-d/${s}`));
      const fromFirst = await call('GET', `/Subscription/${sub.id}/$events`, here);
      expect(fromFirst.body.entry.slice(1).map((e: any) => e.resource)).toEqual(notes.map((b) => b.entry[1].resource));
      const { rows } = await rig.pool.query(
        `SELECT event_number, live_id FROM fhir_subscription_events WHERE subscription_id = $1 ORDER BY event_number`,
        [sub.id],
      );
      expect(rows.map((r) => Number(r.event_number))).toEqual([1, 2, 3, 4, 5]);
      expect(new Set(rows.map((r) => r.live_id)).size).toBe(5);
      ws.socket.close();
    } finally {
      await second.close();
    }
  });

  it('revoking the access token behind a binding closes the websocket (4401)', async () => {
    const client = await registerClient(rig.gw.url, ['read:vitals']);
    const token = await clientCredentialsToken(rig.gw.url, client);
    const holder = { authorization: `Bearer ${token}` };
    const { body: sub } = await call(
      'POST',
      '/Subscription',
      holder,
      subscription(VITALS_TOPIC, `Observation?patient=Patient/fsub-${uid()}`),
    );
    const ws = await bindSocket(sub.id, holder);
    await ws.until((m) => m.some((b) => typeOf(b) === 'handshake'), 'the handshake');
    const res = await fetch(`${rig.gw.url}/api/auth/revoke`, {
      method: 'POST',
      body: new URLSearchParams({ token, client_id: client.client_id, client_secret: client.client_secret }),
    });
    expect(res.status).toBe(200);
    expect(await ws.closed).toBe(4401);
  });

  it('a sandbox token: a real patient is refused (403, audited), synthetic patients are not offered yet (400)', async () => {
    const sandbox = (await (await fetch(`${rig.gw.url}/api/v1/sandbox`, { method: 'POST' })).json()) as { access_token: string };
    const sbx = { authorization: `Bearer ${sandbox.access_token}` };
    const real = `fsub-${uid()}`;
    const refused = await call('POST', '/Subscription', sbx, subscription(VITALS_TOPIC, `Observation?patient=Patient/${real}`));
    expect(refused.status).toBe(403);
    expect(refused.body.resourceType).toBe('OperationOutcome');
    const { rows } = await rig.pool.query(
      `SELECT action, outcome, detail->>'reason' AS reason FROM audit_events WHERE resource_type = 'Patient' AND resource_id = $1`,
      [real],
    );
    expect(rows).toEqual([{ action: 'fhir.subscription.create', outcome: 'failure', reason: 'sandbox' }]);
    expect((await call('POST', '/Subscription', sbx, subscription(VITALS_TOPIC, 'Observation?patient=Patient/sbx-0001'))).status).toBe(400);
  });

  it('bad input is a 4xx OperationOutcome', async () => {
    const patient = `fsub-${uid()}`;
    const bad = [
      subscription('https://example.org/SubscriptionTopic/unknown', `Observation?patient=Patient/${patient}`),
      subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}`, { channelType: 'rest-hook' }),
      subscription(VITALS_TOPIC, `Observation?code=${VITAL_CODE.heartRate}`),
      subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}&code=http://loinc.org|0000-0`),
      subscription(ALERTS_TOPIC, `Flag?patient=Patient/${patient}`, { content: 'id-only' }), // a Flag has no read URL here
      subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}`, { content: 'full' }),
      subscription(ALERTS_TOPIC, `Observation?patient=Patient/${patient}`),
      { ...subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}`), reason: undefined },
      { resourceType: 'Patient' },
    ];
    for (const body of bad) {
      const res = await call('POST', '/Subscription', owner, body);
      expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(400);
      expect(res.body.resourceType).toBe('OperationOutcome');
    }
    const { body: sub } = await call('POST', '/Subscription', owner, subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}`));
    for (const q of [
      'eventsSinceNumber=abc',
      'eventsSinceNumber=0',
      'eventsSinceNumber=5&eventsUntilNumber=2',
      'content=full',
      'since=1',
    ]) {
      const res = await call('GET', `/Subscription/${sub.id}/$events?${q}`, owner);
      expect(res.status, q).toBe(400);
      expect(res.body.resourceType).toBe('OperationOutcome');
    }
    expect((await call('GET', '/Subscription/not_an_id!', owner)).status).toBe(400);
    // the websocket: a token it never issued is refused (OperationOutcome, then 4401)
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/websocket`);
    const got: any[] = [];
    socket.on('message', (raw) => got.push(JSON.parse(raw.toString())));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('bind-with-token made-up');
    expect(await closed).toBe(4401);
    expect(got[0].resourceType).toBe('OperationOutcome');
  });

  it('a third-party FHIR client (fhir-kit-client) creates, reads, runs $status, $events and $get-ws-binding-token, and deletes', async () => {
    const client = new Client({ baseUrl: base, bearerToken: owner.authorization!.slice('Bearer '.length) });
    const patient = `fsub-${uid()}`;
    const created = (await client.create({
      resourceType: 'Subscription',
      body: subscription(VITALS_TOPIC, `Observation?patient=Patient/${patient}`),
    })) as any;
    expect(created).toMatchObject({ resourceType: 'Subscription', status: 'active' });
    expect(((await client.read({ resourceType: 'Subscription', id: created.id })) as any).criteria).toBe(VITALS_TOPIC);
    const status = (await client.operation({ name: '$status', resourceType: 'Subscription', id: created.id, method: 'GET' })) as any;
    expect(param(statusOf(status), 'events-since-subscription-start').valueString).toBe('0');
    const events = (await client.operation({
      name: '$events',
      resourceType: 'Subscription',
      id: created.id,
      method: 'GET',
      input: { eventsSinceNumber: '1' },
    })) as any;
    expect(events).toMatchObject({ resourceType: 'Bundle', type: 'history' });
    const token = (await client.operation({
      name: '$get-ws-binding-token',
      resourceType: 'Subscription',
      id: created.id,
      input: { resourceType: 'Parameters' },
    })) as any;
    expect(param(token, 'websocket-url').valueUrl).toBe(`${base.replace(/^http/, 'ws')}/websocket`);
    await client.delete({ resourceType: 'Subscription', id: created.id });
    await expect(client.read({ resourceType: 'Subscription', id: created.id })).rejects.toMatchObject({ response: { status: 404 } });
  });

  it('the CapabilityStatement lists the Subscription resource, its operations and the topics', async () => {
    const { body } = await call('GET', '/metadata', {});
    const entry = body.rest[0].resource.find((r: any) => r.type === 'Subscription');
    expect(entry.extension.map((e: any) => e.valueCanonical)).toEqual([VITALS_TOPIC, ALERTS_TOPIC]);
    expect(entry.operation.map((o: any) => o.name)).toEqual(['status', 'events', 'get-ws-binding-token']);
    await expectValidR4(body);
  });
});
