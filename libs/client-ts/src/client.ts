/**
 * VitalisClient: one object per caller holding the base URL and a token source. Named methods for
 * the common operations; `request()` reaches every operation of the OpenAPI document, typed.
 */
import { ClientCredentials, Sandbox, revokeToken, type TokenSource } from './auth';
import { Transport, buildUrl, type DeprecationNotice, type Method, type PathsFor, type RequestOptions, type ResponseOf } from './http';
import type { paths } from './generated/openapi';
import { liveVitals, subscribeVitals, type LiveVitalsEvent, type LiveVitalsOptions, type Subscription, type VitalsObservation } from './stream';

export type Health = ResponseOf<'/api/v1/health', 'get'>;
export type Identity = ResponseOf<'/agent/identity', 'get'>;
export type VitalsHistoryQuery = NonNullable<paths['/api/v1/vitals']['get']['parameters']['query']>;
/** JSON answers only: the client asks for application/json (FHIR Bundles are for `Accept: application/fhir+json`). */
export type VitalsHistory = Exclude<ResponseOf<'/api/v1/vitals', 'get'>, { resourceType: 'Bundle' }>;
export type RawVitalsPage = Extract<VitalsHistory, { data: unknown[]; next: string | null }> & { data: VitalsObservation[] };
export type LatestVitals = Exclude<ResponseOf<'/api/v1/patients/{id}/vitals/latest', 'get'>, { resourceType: 'Bundle' }>;
export type BucketVitalsPage = Extract<VitalsHistory, { bucket: string }>;
export type PublishResult = ResponseOf<'/api/v1/vitals', 'post'>;

/**
 * Patients and appointments (i5). Kept as open records until their schemas are in the OpenAPI
 * document; then these become generated types like the ones above.
 */
export interface Patient {
  id: string;
  [field: string]: unknown;
}
export interface Appointment {
  id: string;
  status: string;
  [field: string]: unknown;
}
export interface Slot {
  [field: string]: unknown;
}
export interface Page<T> {
  data: T[];
  next?: string | null;
  [field: string]: unknown;
}

/** Route templates outside the generated document (filled as other features land). */
export const ROUTES = {
  patients: '/api/v1/patients',
  patient: '/api/v1/patients/{id}',
  allergies: '/api/v1/patients/{id}/allergies',
  appointments: '/api/v1/appointments',
  appointment: '/api/v1/appointments/{id}',
  cancelAppointment: '/api/v1/appointments/{id}/cancel',
} as const;

export interface ClientOptions {
  baseUrl: string;
  auth?: TokenSource;
  fetch?: typeof fetch;
  /** Told about every deprecated endpoint the client calls (Deprecation / Sunset headers). */
  onDeprecation?: (notice: DeprecationNotice) => void;
}

export class VitalisClient {
  readonly transport: Transport;
  constructor(opts: ClientOptions) {
    this.transport = new Transport(opts);
  }

  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** A backend agent: client credentials (scopes optional: the client's registered ones by default). */
  static withClientCredentials(baseUrl: string, clientId: string, clientSecret: string, scope?: string | string[]): VitalisClient {
    return new VitalisClient({ baseUrl, auth: new ClientCredentials(baseUrl, { clientId, clientSecret, scope }) });
  }

  /** Evaluation without registration: sandbox credentials (read-only demo scopes). */
  static sandbox(baseUrl: string): VitalisClient {
    return new VitalisClient({ baseUrl, auth: new Sandbox(baseUrl) });
  }

  /** Any operation of the API, typed from the generated OpenAPI types. */
  request<M extends Method, P extends PathsFor<M>>(method: M, path: P, ...options: {} extends RequestOptions<NonNullable<paths[P][M]>> ? [RequestOptions<NonNullable<paths[P][M]>>?] : [RequestOptions<NonNullable<paths[P][M]>>]): Promise<ResponseOf<P, M>> {
    return (this.transport.request as (m: M, p: P, o?: unknown) => Promise<ResponseOf<P, M>>)(method, path, options[0]);
  }

  /** An operation not (yet) in the generated document. */
  async call<T>(method: string, template: string, opts: { path?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown; signal?: AbortSignal } = {}): Promise<T> {
    const res = await this.transport.send(method, buildUrl(this.baseUrl, template, opts.path, opts.query), opts.body, {}, opts.signal);
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }

  health(): Promise<Health> {
    return this.request('get', '/api/v1/health');
  }

  identity(): Promise<Identity> {
    return this.request('get', '/agent/identity');
  }

  /** Revokes the current access token (RFC 7009); the next call fetches a new one. */
  async revokeToken(): Promise<void> {
    const auth = this.transport.auth;
    if (!auth) return;
    await revokeToken(this.baseUrl, await auth.token());
    auth.invalidate();
  }

  readonly vitals = {
    history: (query: VitalsHistoryQuery, signal?: AbortSignal) => this.request('get', '/api/v1/vitals', { query, signal }) as Promise<VitalsHistory>,
    /** Every raw observation in [from, to), following `next` links page by page. */
    all: async function* (this: VitalisClient, query: Omit<VitalsHistoryQuery, 'bucket' | 'agg' | 'cursor'>): AsyncGenerator<VitalsObservation> {
      let page = (await this.request('get', '/api/v1/vitals', { query })) as RawVitalsPage;
      for (;;) {
        yield* page.data;
        if (!page.next) return;
        const res = await this.transport.send('GET', page.next);
        page = (await res.json()) as RawVitalsPage;
      }
    }.bind(this),
    latest: (patientId: string) => this.request('get', '/api/v1/patients/{id}/vitals/latest', { path: { id: patientId } }) as Promise<LatestVitals>,
    publish: (observations: VitalsObservation[]) => this.request('post', '/api/v1/vitals', { body: { observations } }),
    /** Async iterator over live observations with automatic resume. */
    live: (opts: LiveVitalsOptions): AsyncGenerator<LiveVitalsEvent> => liveVitals(this.transport, opts),
    subscribe: (opts: Parameters<typeof subscribeVitals>[1]): Subscription => subscribeVitals(this.transport, opts),
  };

  readonly patients = {
    search: (query: Record<string, string | number | undefined> = {}) => this.call<Page<Patient>>('GET', ROUTES.patients, { query }),
    get: (id: string) => this.call<Patient>('GET', ROUTES.patient, { path: { id } }),
    register: (patient: Record<string, unknown>) => this.call<Patient>('POST', ROUTES.patients, { body: patient }),
    update: (id: string, changes: Record<string, unknown>) => this.call<Patient>('PATCH', ROUTES.patient, { path: { id }, body: changes }),
    allergies: (id: string) => this.call<Page<Record<string, unknown>>>('GET', ROUTES.allergies, { path: { id } }),
  };

  readonly appointments = {
    /** Available slots (and, for a patient, their bookings). */
    list: (query: Record<string, string | number | undefined> = {}) => this.call<Page<Slot>>('GET', ROUTES.appointments, { query }),
    get: (id: string) => this.call<Appointment>('GET', ROUTES.appointment, { path: { id } }),
    book: (booking: Record<string, unknown>) => this.call<Appointment>('POST', ROUTES.appointments, { body: booking }),
    cancel: (id: string, reason?: string) => this.call<Appointment>('POST', ROUTES.cancelAppointment, { path: { id }, body: reason ? { reason } : {} }),
  };
}
