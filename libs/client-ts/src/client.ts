/**
 * VitalisClient: one object per caller holding the base URL and a token source. Named methods for
 * the common operations; `request()` reaches every operation of the OpenAPI document, typed.
 */
import { ClientCredentials, Sandbox, revokeToken, type TokenSource } from './auth';
import { Transport, buildUrl, type DeprecationNotice, type Empty, type Method, type PathsFor, type RequestOptions, type ResponseOf } from './http';
import type { paths } from './generated/openapi';
import { liveVitals, subscribeVitals, type LiveVitalsEvent, type LiveVitalsOptions, type Subscription, type VitalsObservation } from './stream';

export type Health = ResponseOf<'/api/v1/health', 'get'>;
export type Identity = ResponseOf<'/agent/identity', 'get'>;
export type VitalsHistoryQuery = NonNullable<paths['/api/v1/vitals']['get']['parameters']['query']>;
/** JSON answers only: the client asks for application/json (FHIR Bundles are for `Accept: application/fhir+json`). */
export type VitalsHistory = Exclude<ResponseOf<'/api/v1/vitals', 'get'>, { resourceType: 'Bundle' }>;
type PublishBody = NonNullable<paths['/api/v1/vitals']['post']['requestBody']>['content']['application/json'];
export type RawVitalsPage = Extract<VitalsHistory, { data: unknown[]; next: string | null }> & { data: VitalsObservation[] };
export type LatestVitals = Exclude<ResponseOf<'/api/v1/vitals/latest', 'get'>, { resourceType: 'Bundle' }>;
export type BucketVitalsPage = Extract<VitalsHistory, { bucket: string }>;
export type PublishResult = ResponseOf<'/api/v1/vitals', 'post'>;

/**
 * Patients and appointments (issue 5) answer FHIR R4 shapes. Kept as open records here until their
 * schemas are in the generated document; `request()` gives the generated types once they are.
 */
export interface Patient {
  resourceType: 'Patient';
  id: string;
  [field: string]: unknown;
}
export interface Slot {
  resourceType: 'Slot';
  id: string;
  status: 'free' | 'busy' | string;
  [field: string]: unknown;
}
export interface Appointment {
  resourceType: 'Appointment';
  id: string;
  status: 'booked' | 'cancelled' | string;
  [field: string]: unknown;
}
/** A FHIR searchset Bundle (lists and searches; `link` rel="next" carries the cursor). */
export interface Bundle<T> {
  resourceType: 'Bundle';
  type: string;
  entry?: { resource: T }[];
  link?: { relation: string; url: string }[];
  [field: string]: unknown;
}
/** Back-compat alias. */
export type Page<T> = Bundle<T>;

/** The resources of a Bundle, optionally of one resourceType. */
export function resources<T extends { resourceType: string }>(bundle: Bundle<T>, type?: T['resourceType']): T[] {
  return (bundle.entry ?? []).map((e) => e.resource).filter((r) => type === undefined || r.resourceType === type);
}

/** Route templates outside the generated document (filled as other features land). */
export const ROUTES = {
  patients: '/api/v1/patients',
  patient: '/api/v1/patients/{id}',
  allergies: '/api/v1/patients/{id}/allergies',
  patientHistory: '/api/v1/patients/{id}/history',
  appointments: '/api/v1/appointments',
  appointment: '/api/v1/appointments/{id}',
  cancelAppointment: '/api/v1/appointments/{id}/cancel',
  rescheduleAppointment: '/api/v1/appointments/{id}/reschedule',
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
  request<M extends Method, P extends PathsFor<M>>(method: M, path: P, ...options: Empty extends RequestOptions<NonNullable<paths[P][M]>> ? [RequestOptions<NonNullable<paths[P][M]>>?] : [RequestOptions<NonNullable<paths[P][M]>>]): Promise<ResponseOf<P, M>> {
    return (this.transport.request as (m: M, p: P, o?: unknown) => Promise<ResponseOf<P, M>>)(method, path, options[0]);
  }

  /** An operation not (yet) in the generated document. */
  async call<T>(method: string, template: string, opts: { path?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<T> {
    const res = await this.transport.send(method, buildUrl(this.baseUrl, template, opts.path, opts.query), opts.body, opts.headers, opts.signal);
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
    latest: (patientId: string) => this.request('get', '/api/v1/vitals/latest', { query: { patient: patientId } }) as Promise<LatestVitals>,
    // Loosely typed on purpose: the server checks every item and answers 422 naming each invalid index (ValidationError).
    publish: (observations: VitalsObservation[]) => this.request('post', '/api/v1/vitals', { body: { observations } as PublishBody }),
    /** Async iterator over live observations with automatic resume. */
    live: (opts: LiveVitalsOptions): AsyncGenerator<LiveVitalsEvent> => liveVitals(this.transport, opts),
    subscribe: (opts: Parameters<typeof subscribeVitals>[1]): Subscription => subscribeVitals(this.transport, opts),
  };

  readonly patients = {
    /** `name`, `birthdate`, `identifier` (`system|value`), `cursor`. */
    search: (query: Record<string, string | number | undefined> = {}) => this.call<Bundle<Patient>>('GET', ROUTES.patients, { query }),
    get: (id: string) => this.call<Patient>('GET', ROUTES.patient, { path: { id } }),
    /** A FHIR Patient; the id is minted by the server. */
    register: (patient: Record<string, unknown>) => this.call<Patient>('POST', ROUTES.patients, { body: patient }),
    /** Full replacement; `etag` (from a read) is required: a concurrent change answers 412. */
    update: (id: string, patient: Record<string, unknown>, etag: string) => this.call<Patient>('PUT', ROUTES.patient, { path: { id }, body: patient, headers: { 'if-match': etag } }),
    recordAllergy: (id: string, allergy: Record<string, unknown>) => this.call<Record<string, unknown>>('POST', ROUTES.allergies, { path: { id }, body: allergy }),
    history: (id: string) => this.call<Record<string, unknown>>('GET', ROUTES.patientHistory, { path: { id } }),
  };

  readonly appointments = {
    /** Slots (and booked Appointments): `clinician`, `patient`, `from`, `to`, `status` (free|busy), `cursor`. */
    list: (query: Record<string, string | number | undefined> = {}) => this.call<Bundle<Slot | Appointment>>('GET', ROUTES.appointments, { query }),
    get: (id: string) => this.call<Appointment>('GET', ROUTES.appointment, { path: { id } }),
    book: (booking: { slot_id: string; patient_id?: string; reason?: string }) => this.call<Appointment>('POST', ROUTES.appointments, { body: booking }),
    cancel: (id: string, reason?: string) => this.call<Appointment>('POST', ROUTES.cancelAppointment, { path: { id }, body: reason ? { reason } : {} }),
    reschedule: (id: string, slotId: string) => this.call<Appointment>('POST', ROUTES.rescheduleAppointment, { path: { id }, body: { slot_id: slotId } }),
  };
}
