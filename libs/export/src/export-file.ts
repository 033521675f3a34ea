/**
 * An export file being written (worker-run.ts): its NDJSON and, beside it, the same bytes gzipped,
 * both fed block by block as the run encodes lines. The gzip is compressed once, here, by zlib on
 * libuv's thread pool (beside the worker's own thread, not in it), instead of on every download:
 * the gateway serves a download that accepts gzip from the stored `.gz` (export-file route). The
 * gzip is committed before the NDJSON, and the NDJSON before the job records the file, so a file a
 * manifest lists always has its gzip; a worker that dies leaves two temporary files behind.
 */
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { ExportStorage } from './storage-interface';

/**
 * zlib's level for the stored gzip. On this project's 2-core machine level 1 compresses FHIR NDJSON
 * about twice as fast as level 6 (310 against 154 MB/s of one core) for a little less ratio, which
 * keeps compression off the export's critical path (docs/benchmarks.md, "Export").
 */
const EXPORT_GZIP_LEVEL = 1;

/** Where a file's gzip is stored: the file's key and `.gz`. */
export const gzipKeyOf = (key: string): string => `${key}.gz`;

export interface ExportFileWriter {
  /** Appends bytes to the NDJSON and its gzip, with backpressure on both. */
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
  return {
    async write(bytes) {
      const ndjsonFull = !ndjson.stream.write(bytes);
      const gzipFull = !gzip.write(bytes);
      await Promise.all([ndjsonFull ? once(ndjson.stream, 'drain') : undefined, gzipFull ? once(gzip, 'drain') : undefined]);
    },
    async commit() {
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
