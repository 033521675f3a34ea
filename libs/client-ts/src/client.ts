/**
 * VitalisClient: one object per caller holding the base URL and a token source. Named methods for
 * the common operations; `request()` reaches every operation of the OpenAPI document, typed.
 */
import { ClientCredentials, Sandbox, revokeToken, type TokenSource } from './auth';
import {
  Transport,
  buildUrl,
  type DeprecationNotice,
  type Empty,
  type Method,
  type PathsFor,
  type RequestOptions,
  type ResponseOf,
} from './http';
import type { components, paths } from './generated/openapi';
import { bulkExport, exportManifest, type ExportManifest, type ExportOptions, type FhirObservation } from './bulk';
import {
  liveVitals,
  subscribeVitals,
  type LiveVitalsEvent,
  type LiveVitalsOptions,
  type Subscription,
  type VitalsObservation,
} from './stream';

export type Health = ResponseOf<'/api/v1/health', 'get'>;
export type Identity = ResponseOf<'/agent/identity', 'get'>;
export type VitalsHistoryQuery = NonNullable<paths['/api/v1/vitals']['get']['parameters']['query']>;
/** JSON answers only: the client asks for application/json (FHIR Bundles are for `Accept: application/fhir+json`). */
export type VitalsHistory = Exclude<ResponseOf<'/api/v1/vitals', 'get'>, { resourceType: 'Bundle' }>;
/** A batch for POST /api/v1/vitals: observations and/or device frames (v1, or v2 with an ECG chunk as whole 0.1 µV steps), at least one of either. */
export type VitalsBatch = NonNullable<paths['/api/v1/vitals']['post']['requestBody']>['content']['application/json'];
/** A device frame (one device's observations at one tick): `vitals.frame.v1` or `vitals.frame.v2`. */
export type VitalsFrame = NonNullable<VitalsBatch['frames']>[number];
export type RawVitalsPage = Extract<VitalsHistory, { data: unknown[]; next: string | null }> & { data: VitalsObservation[] };
export type LatestVitals = Exclude<ResponseOf<'/api/v1/vitals/latest', 'get'>, { resourceType: 'Bundle' }>;
export type BucketVitalsPage = Extract<VitalsHistory, { bucket: string }>;
export type PublishResult = ResponseOf<'/api/v1/vitals', 'post'>;

/**
 * The resources, exactly as the OpenAPI document publishes them (components generated from the
 * zod schemas the gateway serializes with): FHIR R4 resources (validated against the R4 base
 * definitions by the test suite) and the API's own shapes. No open records: a field the server
 * sends is a field here.
 */
type Schemas = components['schemas'];
export type Patient = Schemas['Patient'];
export type AllergyIntolerance = Schemas['AllergyIntolerance'];
/** The latest value of one numeric vital sign (the flat shape of the vitals endpoints). */
export type LatestVital = Schemas['LatestVital'];
export type News2 = Schemas['News2'];
/**
 * GET /api/v1/patients/{id}: FHIR resources side by side (0.2.0; before, the Patient itself carried
 * `allergies` and `vitals`), the same envelope as the MCP tool get_patient. `allergies` for clinical
 * readers, `latest_vitals` and `news2` when they also hold read:vitals.
 */
export type PatientRecord = Schemas['PatientRecord'];
export type Slot = Schemas['Slot'];
export type Schedule = Schemas['Schedule'];
export type Appointment = Schemas['Appointment'];
/** FHIR R4 ServiceRequest (a diagnostic order). */
export type ServiceRequest = Schemas['ServiceRequest'];
/** FHIR R4 DiagnosticReport, its Observations contained. */
export type DiagnosticReport = Schemas['DiagnosticReport'];
/** One result of a critical result: the report's result, its clinical name and the critical limit it crossed. */
export type ResultValue = Schemas['CriticalResultValue'];
/** A report's critical result (open, escalated, or acknowledged: who and when). */
export type CriticalResult = ResponseOf<'/api/v1/diagnostics/reports/{id}/acknowledge', 'post'>;
/** A vital-sign Observation as FHIR R4 (Bundles for `Accept: application/fhir+json`, /fhir/R4). */
/** The If-Match value for a resource read before (its meta.versionId is the stream version the ETag names). */
export const etagOf = (resource: { meta: { versionId: string } }) => `"${resource.meta.versionId}"`;

/** A FHIR searchset Bundle (lists and searches; `link` relation "next" is the next page). */
export interface Bundle<T> {
  resourceType: 'Bundle';
  type: string;
  entry?: { fullUrl: string; resource: T; search?: { mode: 'match' | 'include' } }[];
  link?: { relation: string; url: string }[];
  [field: string]: unknown;
}
/** The URL of the next page of a Bundle, if any. */
export function nextLink(bundle: Bundle<unknown>): string | undefined {
  return bundle.link?.find((l) => l.relation === 'next')?.url;
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
  diagnosticsCatalog: '/api/v1/diagnostics/catalog',
  orders: '/api/v1/diagnostics/orders',
  order: '/api/v1/diagnostics/orders/{id}',
  orderAction: '/api/v1/diagnostics/orders/{id}/{action}',
  reports: '/api/v1/diagnostics/reports',
  report: '/api/v1/diagnostics/reports/{id}',
  reportAction: '/api/v1/diagnostics/reports/{id}/{action}',
  criticalResults: '/api/v1/diagnostics/critical-results',
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
  request<M extends Method, P extends PathsFor<M>>(
    method: M,
    path: P,
    ...options: Empty extends RequestOptions<NonNullable<paths[P][M]>>
      ? [RequestOptions<NonNullable<paths[P][M]>>?]
      : [RequestOptions<NonNullable<paths[P][M]>>]
  ): Promise<ResponseOf<P, M>> {
    return (this.transport.request as (m: M, p: P, o?: unknown) => Promise<ResponseOf<P, M>>)(method, path, options[0]);
  }

  /**
   * FHIR Bulk Data export (docs/export.md): kicks off, polls with backoff, downloads the NDJSON
   * files with this client's token and yields the Observations. `since`: a previous manifest's
   * transactionTime gives exactly what came after.
   */
  export(opts: ExportOptions = {}): AsyncGenerator<FhirObservation> {
    return bulkExport(this.transport, opts);
  }

  /** The kick-off and the wait only: the manifest (transactionTime, files with counts). */
  exportManifest(opts: ExportOptions = {}): Promise<ExportManifest> {
    return exportManifest(this.transport, opts);
  }

  /** An operation not (yet) in the generated document. */
  async call<T>(
    method: string,
    template: string,
    opts: {
      path?: Record<string, string | number>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
      signal?: AbortSignal;
    } = {},
  ): Promise<T> {
    const res = await this.transport.send(
      method,
      buildUrl(this.baseUrl, template, opts.path, opts.query),
      opts.body,
      opts.headers,
      opts.signal,
    );
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
    history: (query: VitalsHistoryQuery, signal?: AbortSignal) =>
      this.request('get', '/api/v1/vitals', { query, signal }) as Promise<VitalsHistory>,
    /** Every raw observation in [from, to), following `next` links page by page. */
    all: async function* (
      this: VitalisClient,
      query: Omit<VitalsHistoryQuery, 'bucket' | 'agg' | 'cursor'>,
    ): AsyncGenerator<VitalsObservation> {
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
    publish: (observations: VitalsObservation[]) => this.request('post', '/api/v1/vitals', { body: { observations } as VitalsBatch }),
    /** Observations and/or device frames in one all-or-nothing batch (a frame is one Kafka record: a monitor's tick). */
    publishBatch: (batch: { observations?: VitalsObservation[]; frames?: VitalsFrame[] }) =>
      this.request('post', '/api/v1/vitals', { body: batch as VitalsBatch }),
    /** Async iterator over live observations with automatic resume. */
    live: (opts: LiveVitalsOptions): AsyncGenerator<LiveVitalsEvent> => liveVitals(this.transport, opts),
    subscribe: (opts: Parameters<typeof subscribeVitals>[1]): Subscription => subscribeVitals(this.transport, opts),
  };

  readonly patients = {
    /** `name`, `birthdate`, `identifier` (`system|value`), `cursor`. */
    search: (query: Record<string, string | number | undefined> = {}) => this.call<Bundle<Patient>>('GET', ROUTES.patients, { query }),
    /** The record `{ view, patient, allergies?, latest_vitals?, news2? }` (what the caller may see). */
    get: (id: string) => this.call<PatientRecord>('GET', ROUTES.patient, { path: { id } }),
    /** The bare FHIR Patient (`Accept: application/fhir+json`). */
    getResource: (id: string) => this.call<Patient>('GET', ROUTES.patient, { path: { id }, headers: { accept: 'application/fhir+json' } }),
    /** A FHIR Patient; the id is minted by the server. */
    register: (patient: Record<string, unknown>) => this.call<Patient>('POST', ROUTES.patients, { body: patient }),
    /** Full replacement; `etag` (from a read) is required: a concurrent change answers 412. */
    update: (id: string, patient: Record<string, unknown>, etag: string) =>
      this.call<Patient>('PUT', ROUTES.patient, { path: { id }, body: patient, headers: { 'if-match': etag } }),
    recordAllergy: (id: string, allergy: Record<string, unknown>) =>
      this.call<Record<string, unknown>>('POST', ROUTES.allergies, { path: { id }, body: allergy }),
    history: (id: string) => this.call<Record<string, unknown>>('GET', ROUTES.patientHistory, { path: { id } }),
  };

  readonly appointments = {
    /** Slots (and booked Appointments): `clinician`, `patient`, `from`, `to`, `status` (free|busy), `cursor`. */
    list: (query: Record<string, string | number | undefined> = {}) =>
      this.call<Bundle<Slot | Appointment | Schedule>>('GET', ROUTES.appointments, { query }),
    get: (id: string) => this.call<Appointment>('GET', ROUTES.appointment, { path: { id } }),
    book: (booking: { slot_id: string; patient_id: string; reason?: string }) =>
      this.call<Appointment>('POST', ROUTES.appointments, { body: booking }),
    cancel: (id: string, reason?: string) =>
      this.call<Appointment>('POST', ROUTES.cancelAppointment, { path: { id }, body: reason ? { reason } : {} }),
    reschedule: (id: string, slotId: string) =>
      this.call<Appointment>('POST', ROUTES.rescheduleAppointment, { path: { id }, body: { slot_id: slotId } }),
  };

  /**
   * Diagnostic workflows (docs/diagnostics.md): doctors order and acknowledge, the lab role posts
   * results, nurses read; a patient user reads its own final reports. `etag` (etagOf(resource))
   * makes a change conditional: a concurrent change answers 412 (ConflictError, status 412); an illegal
   * transition answers 409 (ConflictError, `problem.current_status` names the state).
   */
  readonly diagnostics = {
    catalog: () => this.call<{ tests: Record<string, unknown>[]; results: Record<string, unknown>[] }>('GET', ROUTES.diagnosticsCatalog),
    /** A FHIR ServiceRequest body (intent, priority, code from the catalog, subject, reasonCode). */
    order: (order: Record<string, unknown>) => this.call<ServiceRequest>('POST', ROUTES.orders, { body: order }),
    /** `patient`, `status` (comma-separated), `limit`. */
    orders: (query: { patient?: string; status?: string; limit?: number } = {}) =>
      this.call<Bundle<ServiceRequest>>('GET', ROUTES.orders, { query }),
    getOrder: (id: string) => this.call<ServiceRequest>('GET', ROUTES.order, { path: { id } }),
    cancelOrder: (id: string, opts: { reason?: string; etag?: string } = {}) => this.orderAction(id, 'cancel', opts),
    activateOrder: (id: string, opts: { reason?: string; etag?: string } = {}) => this.orderAction(id, 'activate', opts),
    holdOrder: (id: string, opts: { reason?: string; etag?: string } = {}) => this.orderAction(id, 'hold', opts),
    /** An ECG order fulfilled from the stored telemetry of [from, to) (at most 60 s): a final report with the ECG samples and the vitals at that time. */
    fulfilFromTelemetry: (id: string, window: { from: string; to: string; conclusion?: string }) =>
      this.call<DiagnosticReport>('POST', ROUTES.orderAction, { path: { id, action: 'fulfil-from-telemetry' }, body: window }),
    /** A FHIR DiagnosticReport basedOn an active order; a redelivery (same identifier and content) answers the stored report. */
    postReport: (report: Record<string, unknown>) => this.call<DiagnosticReport>('POST', ROUTES.reports, { body: report }),
    /** `patient`, `order`, `limit`. */
    reports: (query: { patient?: string; order?: string; limit?: number } = {}) =>
      this.call<Bundle<DiagnosticReport>>('GET', ROUTES.reports, { query }),
    getReport: (id: string) => this.call<DiagnosticReport>('GET', ROUTES.report, { path: { id } }),
    /** More results or the next status (registered → partial → preliminary → final); `etag` is required. */
    updateReport: (id: string, report: Record<string, unknown>, etag: string) =>
      this.call<DiagnosticReport>('PUT', ROUTES.report, { path: { id }, body: report, headers: { 'if-match': etag } }),
    amendReport: (
      id: string,
      amendment: { status?: 'amended' | 'corrected'; reason: string; contained: Record<string, unknown>[]; conclusion?: string },
      etag?: string,
    ) =>
      this.call<DiagnosticReport>('POST', ROUTES.reportAction, {
        path: { id, action: 'amend' },
        body: amendment,
        headers: etag ? { 'if-match': etag } : {},
      }),
    cancelReport: (id: string, reason?: string) =>
      this.call<DiagnosticReport>('POST', ROUTES.reportAction, { path: { id, action: 'cancel' }, body: reason ? { reason } : {} }),
    reportHistory: (id: string) =>
      this.call<{
        report_id: string;
        revisions: { revision: number; status: string; at: string; by: string | null; reason: string | null; report: DiagnosticReport }[];
      }>('GET', ROUTES.reportAction, { path: { id, action: 'history' } }),
    acknowledge: (id: string, note?: string) =>
      this.call<CriticalResult>('POST', ROUTES.reportAction, { path: { id, action: 'acknowledge' }, body: note ? { note } : {} }),
    /** Waiting critical results (default), or by state: `acknowledged` is the history (who, when), acknowledged at or after `since`. */
    criticalResults: (query: { patient?: string; state?: string; since?: string; limit?: number } = {}) =>
      this.call<{ count: number; critical_results: CriticalResult[] }>('GET', ROUTES.criticalResults, { query }),
  };

  private orderAction(id: string, action: 'cancel' | 'activate' | 'hold', opts: { reason?: string; etag?: string }) {
    return this.call<ServiceRequest>('POST', ROUTES.orderAction, {
      path: { id, action },
      body: opts.reason ? { reason: opts.reason } : {},
      headers: opts.etag ? { 'if-match': opts.etag } : {},
    });
  }
}
