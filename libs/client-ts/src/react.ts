/**
 * React hooks over a VitalisClient. Put the client in context once (`<VitalisProvider client={api}>`),
 * then read with hooks; each returns `{ data, error, loading, reload }` and cancels its work when
 * the component unmounts or its inputs change. `useVitalsStream` keeps a live subscription open
 * (automatic resume after disconnects) and exposes the received observations and the latest
 * value per code. Written with createElement, no JSX, so it needs no build step.
 */
import { createContext, createElement, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type {
  Appointment,
  Bundle,
  LatestVitals,
  Patient,
  PatientRecord,
  Schedule,
  Slot,
  VitalsHistory,
  VitalsHistoryQuery,
  VitalisClient,
} from './client';
import type { LiveVitalsEvent, VitalsObservation } from './stream';

const ClientContext = createContext<VitalisClient | null>(null);

export function VitalisProvider(props: { client: VitalisClient; children?: ReactNode }) {
  return createElement(ClientContext.Provider, { value: props.client }, props.children);
}

export function useVitalisClient(): VitalisClient {
  const client = useContext(ClientContext);
  if (!client) throw new Error('useVitalisClient: wrap the tree in <VitalisProvider client={...}>');
  return client;
}

export interface Resource<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** One async read keyed by `key` (a stable string of its inputs); null key = nothing to load. */
export function useResource<T>(key: string | null, load: (client: VitalisClient) => Promise<T>): Resource<T> {
  const client = useVitalisClient();
  const [state, setState] = useState<{ key: string | null; data?: T; error?: unknown; loading: boolean }>({ key, loading: key !== null });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    if (key === null) return;
    let live = true;
    setState((s) => ({ key, data: s.key === key ? s.data : undefined, loading: true }));
    loadRef.current(client).then(
      (data) => live && setState({ key, data, loading: false }),
      (error: unknown) => live && setState({ key, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [client, key, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const current = state.key === key;
  return {
    data: current ? state.data : undefined,
    error: current ? state.error : undefined,
    loading: key !== null && (!current || state.loading),
    reload,
  };
}

/**
 * The loader of a hook whose key is null: `useResource` never calls it (a null key loads nothing),
 * so reaching it is a bug in this file, said as such.
 */
const neverLoaded = (hook: string) => (): Promise<never> => Promise.reject(new Error(`${hook}: loader called without its input`));

/** The record { view, patient, allergies?, latest_vitals?, news2? } (0.2.0). */
export function usePatient(id: string | null | undefined): Resource<PatientRecord> {
  return useResource(id ? `patient:${id}` : null, id ? (c) => c.patients.get(id) : neverLoaded('usePatient'));
}

export function usePatientSearch(query: Record<string, string | number | undefined>): Resource<Bundle<Patient>> {
  return useResource(`patients:${JSON.stringify(query)}`, (c) => c.patients.search(query));
}

export function useAppointments(query: Record<string, string | number | undefined> = {}): Resource<Bundle<Slot | Appointment | Schedule>> {
  return useResource(`appointments:${JSON.stringify(query)}`, (c) => c.appointments.list(query));
}

export function useLatestVitals(patient: string | null | undefined): Resource<LatestVitals> {
  return useResource(patient ? `latest:${patient}` : null, patient ? (c) => c.vitals.latest(patient) : neverLoaded('useLatestVitals'));
}

export function useVitalsHistory(query: VitalsHistoryQuery | null): Resource<VitalsHistory> {
  return useResource(
    query ? `history:${JSON.stringify(query)}` : null,
    query ? (c) => c.vitals.history(query) : neverLoaded('useVitalsHistory'),
  );
}

/** Booking and cancelling, with pending/error state; pass `onDone` to e.g. reload a list. */
export function useAppointmentActions(onDone?: (appointment: Appointment) => void) {
  const client = useVitalisClient();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const run = useCallback(
    async (action: () => Promise<Appointment>) => {
      setPending(true);
      setError(undefined);
      try {
        const appointment = await action();
        onDone?.(appointment);
        return appointment;
      } catch (err) {
        setError(err);
        throw err;
      } finally {
        setPending(false);
      }
    },
    [onDone],
  );
  return {
    pending,
    error,
    book: (booking: { slot_id: string; patient_id: string; reason?: string }) => run(() => client.appointments.book(booking)),
    cancel: (id: string, reason?: string) => run(() => client.appointments.cancel(id, reason)),
  };
}

export type StreamStatus = 'idle' | 'connecting' | 'live' | 'reconnecting' | 'closed' | 'error';

export interface VitalsStreamState {
  status: StreamStatus;
  /** The most recent observations, oldest first (at most `keep`). */
  events: LiveVitalsEvent[];
  /** The latest observation per code. */
  latest: Record<string, VitalsObservation>;
  lastEventId: string | undefined;
  error: unknown;
}

/**
 * Live vitals of a patient while the component is mounted. Resumes by itself after disconnects
 * (Last-Event-ID), so `events` has no gap and no duplicate.
 */
export function useVitalsStream(
  patient: string | null | undefined,
  opts: { codes?: string[]; keep?: number; lastEventId?: string } = {},
): VitalsStreamState {
  const client = useVitalisClient();
  const keep = opts.keep ?? 500;
  const codesKey = opts.codes?.join(',') ?? '';
  const [state, setState] = useState<VitalsStreamState>({
    status: 'idle',
    events: [],
    latest: {},
    lastEventId: opts.lastEventId,
    error: undefined,
  });
  useEffect(() => {
    if (!patient) return;
    setState({ status: 'connecting', events: [], latest: {}, lastEventId: opts.lastEventId, error: undefined });
    const sub = client.vitals.subscribe({
      patient,
      codes: codesKey ? codesKey.split(',') : undefined,
      lastEventId: opts.lastEventId,
      onConnect: () => setState((s) => ({ ...s, status: 'live' })),
      onDisconnect: (error) => setState((s) => ({ ...s, status: 'reconnecting', error })),
      onEvent: (e) =>
        setState((s) => ({
          ...s,
          status: 'live',
          events: s.events.length >= keep ? [...s.events.slice(s.events.length - keep + 1), e] : [...s.events, e],
          latest: e.type === 'observation' ? { ...s.latest, [e.observation.code]: e.observation } : s.latest,
          lastEventId: e.id ?? s.lastEventId, // a replay-truncated notice carries no id
        })),
      onError: (error) => setState((s) => ({ ...s, status: 'error', error })),
    });
    return () => {
      sub.close();
      setState((s) => (s.status === 'error' ? s : { ...s, status: 'closed' }));
    };
    // opts.lastEventId is read once per subscription on purpose: later ids come from the stream.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, patient, codesKey, keep]);
  return state;
}
