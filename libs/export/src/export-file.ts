/**
 * An export file being written (worker-run.ts): its NDJSON and, beside it, the same bytes gzipped,
 * both fed block by block as the run encodes lines. The gzip is compressed once, here, by zlib on
 * libuv's thread pool (beside the worker's own thread, not in it), instead of on every download:
 * the gateway serves a download that accepts gzip from the stored `.gz` (export-file route). The
 * gzip is committed before the NDJSON, and the NDJSON before the job records the file, so a file a
 * manifest lists always has its gzip; a worker that dies leaves two temporary files behind.
 */
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ExportStorage } from './storage-interface';

/**
 * zlib's level for the stored gzip. On this project's 2-core machine level 1 compresses FHIR NDJSON
 * about twice as fast as level 6 (310 against 154 MB/s of one core) for a little less ratio, which
 * keeps compression off the export's critical path (docs/benchmarks.md, "Export").
 */
const EXPORT_GZIP_LEVEL = 1;

/** When `stream` has taken `bytes` in (written to storage; compressed, for the gzip): its write callback. */
const written = (stream: Writable, bytes: Buffer): Promise<void> =>
  new Promise((resolve, reject) => stream.write(bytes, (err) => (err ? reject(err) : resolve())));

/** Where a file's gzip is stored: the file's key and `.gz`. */
export const gzipKeyOf = (key: string): string => `${key}.gz`;

export interface ExportFileWriter {
  /**
   * Appends bytes to the NDJSON and its gzip; returns once the bytes of the write before are in
   * both: one block is written and compressed while the run encodes the next (waiting for each
   * block's own write left the run idle for about a quarter of an export, docs/benchmarks.md "Export").
   */
  write(bytes: Buffer): Promise<void>;
  /** Finishes the gzip, then commits it and the NDJSON (durable, in place). */
  commit(): Promise<void>;
  /** Drops both (the job was lost or the worker stops). */
  discard(): Promise<void>;
}

export async function openExportFile(storage: ExportStorage, key: string, writer: string): Promise<ExportFileWriter> {
  const ndjson = await storage.create(key, writer);
  const gz = await storage.create(gzipKeyOf(key), writer);
  const gzip = createGzip({ level: EXPORT_GZIP_LEVEL });
  const compressed = pipeline(gzip, gz.stream);
  compressed.catch(() => undefined); // awaited at commit; until then an error surfaces through gzip's own
  ndjson.stream.on('error', () => undefined); // a failed write fails through its callback (inFlight), not as an unhandled 'error'
  let inFlight: Promise<unknown> = Promise.resolve();
  return {
    async write(bytes) {
      const before = inFlight;
      inFlight = Promise.all([written(ndjson.stream, bytes), written(gzip, bytes)]);
      inFlight.catch(() => undefined); // thrown by the next write or the commit, which await it
      await before;
    },
    async commit() {
      await inFlight;
      gzip.end();
      await compressed;
      await gz.commit();
      await ndjson.commit();
    },
    async discard() {
      gzip.destroy();
      await Promise.all([gz.discard(), ndjson.discard()]);
    },
  };
}
