/**
 * The Bulk Data export's file download (`$export-file/{id}/{file}`): an NDJSON file of the
 * manifest (`<Type>-<n>.ndjson`; organized by patient `file-<n>.ndjson`) with the token that kicked
 * the export off; `Range: bytes=a-b` (206; 416 outside the file), gzip when asked without a Range;
 * audited export.download. The manifest's error file (`OperationOutcome-1.ndjson`) is the job's
 * messages as one OperationOutcome, rendered from the job.
 */
import { createGzip } from 'node:zlib';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { notFound, problemOf } from '@vitalis/http';
import { must } from '@vitalis/runtime';
import { exportFiles, findExportJob, gzipKeyOf, type ExportMessage, type ExportStorage } from '@vitalis/export';
import type { GatewayDeps } from '../../deps';
import { audit } from '../../access/caller';
import { callerOf } from '../../access/http';
import { FHIR_BASE_PATH } from '../base';
import type { FhirApp } from '../register';
import { outcomes } from '../schemas';
import { ERROR_FILE, NDJSON, ownerOf } from './export-shared';

const fileParams = z.object({
  id: z.uuid(),
  file: z
    .string()
    .regex(/^[A-Za-z]{1,64}-\d{1,6}\.ndjson$/)
    .describe('<Type>-<n>.ndjson (organized by patient: file-<n>.ndjson; the error file: OperationOutcome-1.ndjson)'),
});

/** A job's messages as the one line of its OperationOutcome file. */
const errorFileOf = (messages: readonly ExportMessage[]) => `${JSON.stringify({ resourceType: 'OperationOutcome', issue: messages })}\n`;

/** Registers `GET $export-file/{id}/{file}`. */
export function registerExportFile(app: FhirApp, deps: GatewayDeps, storage: ExportStorage): void {
  const { pool } = deps;
  app.get(
    `${FHIR_BASE_PATH}/$export-file/:id/:file`,
    {
      config: { auth: { scopes: ['read:vitals'] } },
      schema: {
        tags: ['fhir'],
        summary: 'Download a bulk export file',
        description:
          'An NDJSON file of the manifest (application/fhir+ndjson), with the token that kicked the export off. Range: bytes=a-b (206; 416 outside the file). Accept-Encoding: gzip without Range: gzipped. Audited.',
        params: fileParams,
        headers: z.looseObject({ range: z.string().max(100).optional() }),
        response: {
          200: z.string().describe('NDJSON: one FHIR resource per line'),
          206: z.string().describe('The requested byte range'),
          ...outcomes(401, 403, 404, 416),
        },
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const job = await findExportJob(pool, req.params.id, ownerOf(caller));
      if (job && req.params.file === ERROR_FILE && job.messages.length > 0 && job.status !== 'failed') {
        // raw, as the files are: the route's response serializer would quote a string body
        const body = errorFileOf(job.messages);
        reply.hijack();
        reply.raw.writeHead(200, {
          'content-type': NDJSON,
          'cache-control': 'no-store',
          'x-request-id': req.id,
          'content-length': String(Buffer.byteLength(body)),
        });
        reply.raw.end(body);
        return;
      }
      const [, type, n] = must(/^([A-Za-z]+)-(\d+)\.ndjson$/.exec(req.params.file), 'an export file name the schema checked');
      // a file of a running job is served once committed (a partial manifest lists it)
      const file = job ? (await exportFiles(pool, job.id)).find((f) => f.part === Number(n) && f.type === type) : undefined;
      const size = file ? await storage.size(file.storage_key) : undefined;
      if (!job || !file || size === undefined)
        throw notFound('There is no such export file (the export may have been cancelled or expired).');
      const range = byteRange(req.headers.range, size);
      await audit(pool, caller, {
        action: 'export.download',
        scope: 'read:vitals',
        resourceType: file.type === 'file' ? 'Patient' : file.type,
        detail: { job: job.id, file: req.params.file, count: file.count, range: range ? `${range.start}-${range.end}` : null },
      });
      reply.hijack();
      await sendFile(reply.raw, storage, file.storage_key, size, range, String(req.headers['accept-encoding'] ?? ''), req.id).catch(
        (err: unknown) => {
          req.log.warn({ err }, 'export download cut short');
          reply.raw.destroy();
        },
      );
    },
  );
}

/**
 * Sends one export file on the raw response: a Range (206), the stored gzip when the client
 * accepts gzip (compressed on the fly for a file written before workers stored gzips), or the
 * file as it is.
 */
async function sendFile(
  res: ServerResponse,
  storage: ExportStorage,
  key: string,
  size: number,
  range: { start: number; end: number } | undefined,
  acceptEncoding: string,
  requestId: string,
): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': NDJSON,
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
    'x-request-id': requestId,
    vary: 'accept-encoding',
  };
  if (range) {
    res.writeHead(206, {
      ...headers,
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
      'content-length': String(range.end - range.start + 1),
    });
    return pipeline(storage.read(key, range), res);
  }
  if (!/\bgzip\b/.test(acceptEncoding)) {
    res.writeHead(200, { ...headers, 'content-length': String(size) });
    return pipeline(storage.read(key), res);
  }
  const stored = gzipKeyOf(key);
  const gzipped = await storage.size(stored);
  if (gzipped === undefined) {
    res.writeHead(200, { ...headers, 'content-encoding': 'gzip' });
    return pipeline(storage.read(key), createGzip(), res);
  }
  res.writeHead(200, { ...headers, 'content-encoding': 'gzip', 'content-length': String(gzipped) });
  return pipeline(storage.read(stored), res);
}

/** One `Range: bytes=...` (a-b, a-, -n) within `size`, undefined without one; 416 outside the file. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (header === undefined) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  const unsatisfiable = () =>
    problemOf('range-not-satisfiable', `The file has ${size} bytes; one range bytes=a-b within it is served.`, undefined, {
      'content-range': `bytes */${size}`,
    });
  if (!m || (m[1] === '' && m[2] === '')) throw unsatisfiable();
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) throw unsatisfiable();
  return { start, end };
}
