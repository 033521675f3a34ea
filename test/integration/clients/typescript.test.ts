/**
 * @vitalis/client (libs/client-ts) against a real gateway: every OAuth flow it implements, typed
 * calls and typed problem errors, vitals history/latest after a publish through Kafka, and (once
 * those routes are served) patients, appointments and live vitals across a forced disconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ClientCredentials,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  OAuthError,
  RefreshingTokens,
  StaticToken,
  UnauthorizedError,
  ValidationError,
  VitalisClient,
  authorizationUrl,
  createPkce,
  exchangeCode,
  randomState,
  registerClient as registerWithClient,
  resources,
  type DeprecationNotice,
  type LiveVitalsEvent,
  type RawVitalsPage,
  type TokenSet,
  type VitalsFrame,
} from '@vitalis/client';
import { expectValidFhir } from '../../helpers/fhir-validator';
import { REDIRECT_URI, registerCodeClient, signInAndConsent } from '../auth/support';
import { countStored, waitFor } from '../vitals/support';
import { createTestSlots, heartRate, patientBody, startClientStack, startProxy, uid, type ClientStack } from './support';

let stack: ClientStack;
let api: VitalisClient;

beforeAll(async () => {
  stack = await startClientStack('ts');
  api = VitalisClient.withClientCredentials(stack.gw.url, stack.client.client_id, stack.client.client_secret);
});
afterAll(async () => {
  await stack?.close();
});

describe('authentication', () => {
  it('client credentials: one token reused across calls, identity names the client', async () => {
    let tokenRequests = 0;
    const counting: typeof fetch = (input, init) => {
      tokenRequests++;
      return fetch(input, init);
    };
    const auth = new ClientCredentials(stack.gw.url, {
      clientId: stack.client.client_id,
      clientSecret: stack.client.client_secret,
      fetch: counting,
    });
    const own = new VitalisClient({ baseUrl: stack.gw.url, auth });
    const [identity] = await Promise.all([own.identity(), own.identity(), own.health()]);
    expect(JSON.stringify(identity)).toContain(stack.client.client_id);
    expect((await own.health()).status).toMatch(/^(ok|degraded)$/);
    expect(tokenRequests).toBe(1);
  });

  it('a revoked token is replaced transparently on the next call', async () => {
    await api.identity();
    await api.revokeToken();
    const identity = await api.identity();
    expect(JSON.stringify(identity)).toContain(stack.client.client_id);
  });

  it('narrowed scopes: a call outside them is a ForbiddenError naming insufficient_scope', async () => {
    const narrow = new VitalisClient({
      baseUrl: stack.gw.url,
      auth: new ClientCredentials(stack.gw.url, {
        clientId: stack.client.client_id,
        clientSecret: stack.client.client_secret,
        scope: ['read:appointments'],
      }),
    });
    const err = await narrow.vitals.latest(`pat-ts-${uid()}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
    expect((err as ForbiddenError).status).toBe(403);
    expect((err as ForbiddenError).kind).toBe('insufficient-scope');
    expect((err as ForbiddenError).challenge).toMatch(/error="insufficient_scope"/);
  });

  it('a bad token is an UnauthorizedError with the spec problem body', async () => {
    const bad = new VitalisClient({ baseUrl: stack.gw.url, auth: new StaticToken('not-a-token') });
    const err = (await bad.identity().catch((e: unknown) => e)) as UnauthorizedError;
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.problem).toMatchObject({ type: `${stack.gw.url}/errors/unauthorized`, title: 'Unauthorized', status: 401 });
    expect(err.challenge).toMatch(/^Bearer realm="vitalis"/);
  });

  it('wrong client secret is an OAuthError invalid_client', async () => {
    const wrong = VitalisClient.withClientCredentials(stack.gw.url, stack.client.client_id, 'wrong-secret');
    const err = (await wrong
      .health()
      .then(() => wrong.identity())
      .catch((e: unknown) => e)) as OAuthError;
    expect(err).toBeInstanceOf(OAuthError);
    expect(err.error).toBe('invalid_client');
  });

  it('sandbox: credentials without registration, read-only demo scopes', async () => {
    const sandbox = VitalisClient.sandbox(stack.gw.url);
    const identity = JSON.stringify(await sandbox.identity());
    expect(identity).toContain('read:vitals');
    const err = await sandbox.vitals.publish([heartRate('pat-x', 'dev-x', 1)]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ForbiddenError);
  });

  it('authorization code + PKCE (S256) for a user, then refresh rotation', async () => {
    const app = await registerCodeClient(stack.gw.url, ['read:vitals', 'read:patients']);
    const pkce = await createPkce();
    expect(pkce.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const state = randomState();
    const url = authorizationUrl(stack.gw.url, {
      clientId: app.client_id,
      redirectUri: REDIRECT_URI,
      scope: ['read:vitals', 'read:patients'],
      state,
      challenge: pkce.challenge,
    });
    const { location } = await signInAndConsent(url, 'nurse');
    const tokens = await exchangeCode(stack.gw.url, location, {
      clientId: app.client_id,
      clientSecret: app.client_secret,
      redirectUri: REDIRECT_URI,
      verifier: pkce.verifier,
      expectedState: state,
    });
    expect(tokens.refresh_token).toBeTruthy();

    const rotated: TokenSet[] = [];
    const auth = new RefreshingTokens(stack.gw.url, tokens, {
      clientId: app.client_id,
      clientSecret: app.client_secret,
      onTokens: (t) => rotated.push(t),
    });
    const user = new VitalisClient({ baseUrl: stack.gw.url, auth });
    expect(JSON.stringify(await user.identity())).toContain('nurse');
    auth.invalidate(); // as if the access token expired: the next call refreshes
    expect(JSON.stringify(await user.identity())).toContain('nurse');
    expect(rotated).toHaveLength(1);
    expect(rotated[0]!.refresh_token).not.toBe(tokens.refresh_token);

    // A state mismatch is refused before any code is redeemed.
    await expect(
      exchangeCode(stack.gw.url, location, {
        clientId: app.client_id,
        redirectUri: REDIRECT_URI,
        verifier: pkce.verifier,
        expectedState: 'other',
      }),
    ).rejects.toThrow(/state/);
  });

  it('dynamic registration through the client', async () => {
    const reg = await registerWithClient(stack.gw.url, {
      client_name: `ts-reg-${uid()}`,
      grant_types: ['client_credentials'],
      response_types: ['token'],
      token_endpoint_auth_method: 'client_secret_post',
      scope: 'read:vitals',
    });
    expect(reg.client_id).toBeTruthy();
    expect(reg.client_secret).toBeTruthy();
  });
});

describe('vitals', () => {
  const patient = `pat-ts-${uid()}`;
  const device = `${patient}-mon`;
  // yesterday, on the hour: inside the gateway's device-clock window, on a minute boundary
  const base = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000);

  it('publish → Kafka → stored; history (typed, all pages) and latest', async () => {
    const observations = Array.from({ length: 5 }, (_, i) => heartRate(patient, device, i + 1, new Date(base.getTime() + i * 1000)));
    const accepted = await api.vitals.publish(observations);
    expect(accepted.accepted).toBe(5);
    await waitFor(
      () => countStored(stack.pool, { patient }),
      (c) => c.rows === 5,
      45_000,
      'published vitals stored',
    );

    const range = { patient, from: base.toISOString(), to: new Date(base.getTime() + 60_000).toISOString() };
    const seen: number[] = [];
    for await (const o of api.vitals.all({ ...range, limit: 2 })) seen.push(o.seq);
    expect(seen).toEqual([1, 2, 3, 4, 5]);

    // An unaligned range: answered from the append log, not from rollups (which a projector may not have caught up on).
    const unaligned = { patient, from: new Date(base.getTime() - 1000).toISOString(), to: new Date(base.getTime() + 59_000).toISOString() };
    const buckets = await api.vitals.history({ ...unaligned, bucket: '1m', agg: 'min,max,count' });
    expect(buckets.data).toEqual([expect.objectContaining({ code: '8867-4', min: 61, max: 65, count: 5 })]);

    const latest = await api.vitals.latest(patient);
    expect(latest.data).toEqual([expect.objectContaining({ code: '8867-4', seq: 5 })]);
  });

  it('bad input is a typed ValidationError with the problem body', async () => {
    const err = (await api.vitals.history({ patient, from: 'yesterday', to: 'today' }).catch((e: unknown) => e)) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.status).toBe(400);
    expect(err.problem.type).toMatch(/\/errors\/[a-z-]+$/);
    const refused = (await api.vitals
      .publish([{ ...heartRate(patient, device, 9), unit: 'bpm' }])
      .catch((e: unknown) => e)) as ValidationError;
    expect(refused).toBeInstanceOf(ValidationError);
    expect(refused.status).toBe(422);
  });

  it('a monitor frame (v2: the ECG as whole 0.1 µV steps) and an observation in one batch: stored, read back as sent', async () => {
    const monitor = `pat-ts-frame-${uid()}`;
    const at = new Date(base.getTime() + 30_000).toISOString();
    const steps = [-200_000, -1, 0, 1, 12_345, 200_000];
    const frame: VitalsFrame = {
      envelope: 'vitals.frame.v2',
      patient_id: monitor,
      device_id: `${monitor}-mon`,
      effective_at: at,
      observations: [
        { seq: 1, code: '8867-4', value: 71.25, unit: '/min' },
        { seq: 2, code: '131330', unit: 'mV', waveform: { period_ms: 4, sample_steps: steps } },
      ],
    };
    const accepted = await api.vitals.publishBatch({
      frames: [frame],
      observations: [heartRate(monitor, `${monitor}-spot`, 1, new Date(at))],
    });
    expect(accepted.accepted).toBe(3);
    await waitFor(
      () => countStored(stack.pool, { patient: monitor }),
      (c) => c.rows === 3,
      45_000,
      'the frame and the observation stored',
    );
    const page = (await api.vitals.history({
      patient: monitor,
      from: base.toISOString(),
      to: new Date(base.getTime() + 60_000).toISOString(),
    })) as RawVitalsPage;
    const ecg = page.data.find((o) => o.code === '131330');
    expect(ecg?.waveform?.samples).toEqual(steps.map((s) => s / 10_000));
    expect(page.data.filter((o) => o.code === '8867-4').map((o) => o.value)).toEqual(expect.arrayContaining([71.25, 61]));

    const bad = (await api.vitals
      .publishBatch({
        frames: [{ ...frame, observations: [{ seq: 3, code: '131330', unit: 'mV', waveform: { period_ms: 4, sample_steps: [0.5] } }] }],
      })
      .catch((e: unknown) => e)) as ValidationError;
    expect(bad).toBeInstanceOf(ValidationError);
    expect(bad.problem.errors).toEqual([expect.objectContaining({ frame: 0, path: 'observations.0.waveform.sample_steps.0' })]);
  });
});

describe('live vitals (SSE, Last-Event-ID resume)', () => {
  it('receives every observation exactly once, in order, across a forced disconnect', async () => {
    const proxy = await startProxy(stack.gw.address);
    try {
      const live = new VitalisClient({
        baseUrl: proxy.url,
        auth: new ClientCredentials(stack.gw.url, { clientId: stack.client.client_id, clientSecret: stack.client.client_secret }),
      });
      const patient = `pat-ts-live-${uid()}`;
      const device = `${patient}-mon`;
      const received: LiveVitalsEvent[] = [];
      let connects = 0;
      let connected!: () => void;
      let firstConnect = new Promise<void>((r) => (connected = r));
      const sub = live.vitals.subscribe({
        patient,
        onEvent: (e) => received.push(e),
        onConnect: () => {
          connects++;
          connected();
        },
      });
      await firstConnect;
      await api.vitals.publish(Array.from({ length: 10 }, (_, i) => heartRate(patient, device, i + 1)));
      await waitFor(
        async () => received.length,
        (n) => n >= 5,
        45_000,
        'first live observations',
      );
      firstConnect = new Promise<void>((r) => (connected = r));
      expect(proxy.dropAll()).toBeGreaterThan(0);
      await api.vitals.publish(Array.from({ length: 10 }, (_, i) => heartRate(patient, device, i + 11)));
      await waitFor(
        async () => received.length,
        (n) => n >= 20,
        45_000,
        'all live observations after the disconnect',
      );
      sub.close();
      await sub.done;
      expect(connects).toBeGreaterThanOrEqual(2);
      expect(received.map((e) => (e.type === 'observation' ? e.observation.seq : -1))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(new Set(received.map((e) => e.id)).size).toBe(20);
    } finally {
      await proxy.close();
    }
  });
});

describe('patients and appointments', () => {
  it('registers and reads a patient, books and cancels an appointment', async () => {
    const clinician = await createTestSlots(stack.gw, 2);
    const registered = await api.patients.register(patientBody('Ts'));
    const record = await api.patients.get(registered.id);
    const { patient } = record;
    expect(patient).toMatchObject({ resourceType: 'Patient', id: registered.id });
    expect(await api.patients.getResource(registered.id)).toEqual(patient);

    const listing = await api.appointments.list({ clinician, status: 'free' });
    const slots = resources(listing, 'Slot');
    expect(slots).toHaveLength(2);
    expect(resources(listing, 'Schedule').map((s) => s.id)).toEqual([clinician]);
    // what the client hands the application is valid FHIR R4 (independent validator)
    await expectValidFhir([patient, listing]);
    const booked = await api.appointments.book({ slot_id: slots[0]!.id, patient_id: patient.id, reason: 'client library test' });
    expect(booked).toMatchObject({ resourceType: 'Appointment', status: 'booked' });
    const taken = await api.appointments.book({ slot_id: slots[0]!.id, patient_id: patient.id }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(ConflictError);
    expect((await api.appointments.cancel(booked.id, 'client library test')).status).toBe('cancelled');
    const gone = await api.appointments.cancel(booked.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
  });
});

describe('deprecation (spec section 9)', () => {
  it('tells the application about a deprecated endpoint it calls (Deprecation, Sunset, Link)', async () => {
    const notices: DeprecationNotice[] = [];
    const watched = new VitalisClient({
      baseUrl: stack.gw.url,
      auth: new ClientCredentials(stack.gw.url, { clientId: stack.client.client_id, clientSecret: stack.client.client_secret }),
      onDeprecation: (n) => notices.push(n),
    });
    await watched.call('GET', '/api/v1/patients/{id}/vitals/latest', { path: { id: `pat-ts-${uid()}` } });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.sunset).toBe('Fri, 31 Dec 2027 23:59:59 GMT');
    expect(notices[0]!.link).toContain('rel="deprecation"');
    await watched.health();
    expect(notices).toHaveLength(1);
  });
});
