/**
 * The React hooks of @vitalis/client rendered for real (react-test-renderer in node, React 19)
 * against a real gateway: data arrives through the hooks, errors surface typed, the live stream
 * hook follows a patient across a forced disconnect, and unmounting closes the subscription.
 */
import { createElement } from 'react';
import TestRenderer, { act, type ReactTestRenderer } from 'react-test-renderer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientCredentials, ForbiddenError, VitalisClient, resources } from '@vitalis/client';
import {
  VitalisProvider,
  type Resource,
  useAppointments,
  useLatestVitals,
  usePatient,
  useVitalsHistory,
  useVitalsStream,
  type VitalsStreamState,
} from '@vitalis/client/react';
import { countStored, waitFor } from '../vitals/support';
import { createTestSlots, heartRate, patientBody, startClientStack, startProxy, uid, type ClientStack } from './support';

// Updates arrive from real network I/O, not from test-driven events: only mount, unmount and
// reload run inside act(); React is told so, so it neither warns about the rest nor about those.
const reactEnv = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
function inAct(fn: () => void) {
  reactEnv.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    act(fn);
  } finally {
    reactEnv.IS_REACT_ACT_ENVIRONMENT = false;
  }
}

let stack: ClientStack;
let api: VitalisClient;

beforeAll(async () => {
  stack = await startClientStack('react');
  api = VitalisClient.withClientCredentials(stack.gw.url, stack.client.client_id, stack.client.client_secret);
});
afterAll(async () => {
  await stack?.close();
});

/** Renders `useHook` inside a provider; `current()` is the hook's latest return value. */
function renderHook<T>(client: VitalisClient, useHook: () => T): { current: () => T; unmount: () => void; renderer: ReactTestRenderer } {
  let latest: T;
  function Probe() {
    latest = useHook();
    return null;
  }
  let renderer!: ReactTestRenderer;
  inAct(() => {
    renderer = TestRenderer.create(createElement(VitalisProvider, { client }, createElement(Probe)));
  });
  return { current: () => latest, unmount: () => inAct(() => renderer.unmount()), renderer };
}

const settled = <T>(r: () => Resource<T>) =>
  waitFor(
    async () => r(),
    (s) => !s.loading,
    30_000,
    'hook settled',
  );

describe('React hooks', () => {
  it('useLatestVitals and useVitalsHistory load real data; reload refetches', async () => {
    const patient = `pat-react-${uid()}`;
    // yesterday, on the hour: inside the gateway's device-clock window, on a minute boundary
    const base = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 86_400_000);
    await api.vitals.publish(
      Array.from({ length: 3 }, (_, i) => heartRate(patient, `${patient}-mon`, i + 1, new Date(base.getTime() + i * 1000))),
    );
    await waitFor(
      () => countStored(stack.pool, { patient }),
      (c) => c.rows === 3,
      45_000,
      'stored',
    );

    const latest = renderHook(api, () => useLatestVitals(patient));
    expect(latest.current().loading).toBe(true);
    const loaded = await settled(latest.current);
    expect(loaded.error).toBeUndefined();
    expect(loaded.data!.data).toEqual([expect.objectContaining({ code: '8867-4', seq: 3 })]);

    await api.vitals.publish([heartRate(patient, `${patient}-mon`, 4, new Date(base.getTime() + 3000))]);
    await waitFor(
      () => countStored(stack.pool, { patient }),
      (c) => c.rows === 4,
      45_000,
      'stored',
    );
    inAct(() => latest.current().reload());
    await waitFor(
      async () => latest.current(),
      (s) => !s.loading && s.data?.data[0]?.seq === 4,
      30_000,
      'reloaded',
    );
    latest.unmount();

    const query = { patient, from: base.toISOString(), to: new Date(base.getTime() + 60_000).toISOString() };
    const history = renderHook(api, () => useVitalsHistory(query));
    const page = await settled(history.current);
    expect((page.data as { data: { seq: number }[] }).data.map((o) => o.seq)).toEqual([1, 2, 3, 4]);
    history.unmount();
  });

  it('errors surface typed: a client without read:vitals gets a ForbiddenError', async () => {
    const narrow = new VitalisClient({
      baseUrl: stack.gw.url,
      auth: new ClientCredentials(stack.gw.url, {
        clientId: stack.client.client_id,
        clientSecret: stack.client.client_secret,
        scope: 'read:appointments',
      }),
    });
    const patient = `pat-react-${uid()}`;
    const hook = renderHook(narrow, () => useLatestVitals(patient));
    const done = await settled(hook.current);
    expect(done.error).toBeInstanceOf(ForbiddenError);
    expect(done.data).toBeUndefined();
    hook.unmount();
  });

  it('usePatient and useAppointments read real records', async () => {
    const clinician = await createTestSlots(stack.gw, 1);
    const { id } = await api.patients.register(patientBody('React'));
    const patient = renderHook(api, () => usePatient(id));
    expect((await settled(patient.current)).data?.patient.id).toBe(id);
    patient.unmount();
    const query = { clinician };
    const slots = renderHook(api, () => useAppointments(query));
    expect(resources((await settled(slots.current)).data!, 'Slot')).toHaveLength(1);
    slots.unmount();
  });

  it('useVitalsStream: every observation once, in order, across a forced disconnect; unmount closes', async () => {
    const proxy = await startProxy(stack.gw.address);
    try {
      const live = new VitalisClient({
        baseUrl: proxy.url,
        auth: new ClientCredentials(stack.gw.url, { clientId: stack.client.client_id, clientSecret: stack.client.client_secret }),
      });
      const patient = `pat-react-live-${uid()}`;
      const hook = renderHook(live, () => useVitalsStream(patient));
      await waitFor(
        async () => hook.current().status,
        (s) => s === 'live',
        30_000,
        'stream live',
      );
      await api.vitals.publish(Array.from({ length: 6 }, (_, i) => heartRate(patient, `${patient}-mon`, i + 1)));
      await waitFor(
        async () => hook.current().events.length,
        (n) => n >= 3,
        45_000,
        'first events',
      );
      expect(proxy.dropAll()).toBeGreaterThan(0);
      await api.vitals.publish(Array.from({ length: 6 }, (_, i) => heartRate(patient, `${patient}-mon`, i + 7)));
      const state: VitalsStreamState = await waitFor(
        async () => hook.current(),
        (s) => s.events.length >= 12,
        45_000,
        'all events',
      );
      expect(state.events.map((e) => (e.type === 'observation' ? e.observation.seq : -1))).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      expect(state.latest['8867-4']?.seq).toBe(12);
      hook.unmount();
    } finally {
      await proxy.close();
    }
  });
});
