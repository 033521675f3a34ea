/**
 * FHIR Bulk Data export (docs/export.md): kick off with `Prefer: respond-async`, poll the status
 * URL with backoff (the server's Retry-After, doubling up to `maxDelayMs`), stream each NDJSON file
 * with the same token and yield its FHIR Observations line by line (a file is never held whole).
 */
import type { components } from './generated/openapi';
import type { Transport } from './http';

export interface ExportOptions {
  /** A Group (ward, cohort); without it every patient the token may read. */
  group?: string;
  /** Patient-level kick-off (/Patient/$export) instead of the system level. */
  patients?: boolean;
  /** A previous manifest's transactionTime: exactly what was written after it. */
  since?: string;
  until?: string;
  /** `Observation?code=...&date=...` (several: OR). */
  typeFilter?: string | string[];
  maxWaitMs?: number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
}

/** The Bulk Data manifest and an exported Observation: the OpenAPI's component types (one source). */
export type ExportManifest = components['schemas']['BulkExportManifest'];
export type FhirObservation = components['schemas']['FhirObservation'];

function kickOffUrl(baseUrl: string, o: ExportOptions): string {
  const path =
    o.group !== undefined
      ? `/fhir/R4/Group/${encodeURIComponent(o.group)}/$export`
      : o.patients
        ? '/fhir/R4/Patient/$export'
        : '/fhir/R4/$export';
  const url = new URL(baseUrl + path);
  url.searchParams.set('_type', 'Observation');
  url.searchParams.set('_outputFormat', 'application/fhir+ndjson');
  if (o.since !== undefined) url.searchParams.set('_since', o.since);
  if (o.until !== undefined) url.searchParams.set('_until', o.until);
  for (const f of o.typeFilter === undefined ? [] : Array.isArray(o.typeFilter) ? o.typeFilter : [o.typeFilter])
    url.searchParams.append('_typeFilter', f);
  return url.toString();
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((ok, fail) => {
    const t = setTimeout(ok, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        fail(signal.reason as Error);
      },
      { once: true },
    );
  });

/** Kicks off and waits for the manifest. */
export async function exportManifest(transport: Transport, o: ExportOptions = {}): Promise<ExportManifest> {
  const kick = await transport.send(
    'GET',
    kickOffUrl(transport.baseUrl, o),
    undefined,
    { prefer: 'respond-async', accept: 'application/fhir+json' },
    o.signal,
  );
  await kick.body?.cancel();
  const status = kick.headers.get('content-location');
  if (!status) throw new Error('the kick-off answered without Content-Location');
  const deadline = Date.now() + (o.maxWaitMs ?? 3_600_000);
  let delay = o.firstDelayMs ?? 250;
  const maxDelay = o.maxDelayMs ?? 10_000;
  for (;;) {
    const res = await transport.send('GET', status, undefined, {}, o.signal);
    if (res.status === 200) return (await res.json()) as ExportManifest;
    await res.body?.cancel();
    if (Date.now() > deadline) throw new Error(`the export at ${status} did not finish in time`);
    const retryAfter = Number(res.headers.get('retry-after'));
    await sleep(Math.min(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : delay, delay, maxDelay), o.signal);
    delay = Math.min(delay * 2, maxDelay);
  }
}

/** Every resource of the manifest's files, streamed. */
export async function* exportedResources(
  transport: Transport,
  manifest: ExportManifest,
  signal?: AbortSignal,
): AsyncGenerator<FhirObservation> {
  for (const output of manifest.output) {
    const res = await transport.send('GET', output.url, undefined, { accept: 'application/fhir+ndjson' }, signal);
    const decoder = new TextDecoder();
    let rest = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = rest.indexOf('\n')) >= 0) {
        const line = rest.slice(0, nl);
        rest = rest.slice(nl + 1);
        if (line) yield JSON.parse(line) as FhirObservation;
      }
    }
    rest += decoder.decode();
    if (rest.trim()) yield JSON.parse(rest) as FhirObservation;
  }
}

/** Kick-off, polling and download in one: yields the exported Observations. */
export async function* bulkExport(transport: Transport, o: ExportOptions = {}): AsyncGenerator<FhirObservation> {
  yield* exportedResources(transport, await exportManifest(transport, o), o.signal);
}
