/**
 * An export storage that stops its worker part-way, as a shutdown does: after the worker has
 * committed `files` NDJSON files (each file's stored gzip is not counted) it aborts `stop`, and the
 * worker hands the job back at its next chunk with those files committed. The export tests resume
 * from there and check every row once.
 */
import { Writable } from 'node:stream';
import type { ExportStorage } from '@vitalis/export';

export function stoppingAfter(storage: ExportStorage, files: number, stop: AbortController): ExportStorage {
  let commits = 0;
  return {
    ...storage,
    create: async (key, writer) => {
      const file = await storage.create(key, writer);
      return {
        ...file,
        commit: async () => {
          await file.commit();
          if (!key.endsWith('.gz') && ++commits === files) stop.abort();
        },
      };
    },
  };
}

/**
 * An export storage whose disk fills up: once the worker has written `bytes` of NDJSON (its files'
 * gzips not counted), every further NDJSON write fails with ENOSPC, through the stream, part-way
 * through a file, as a full disk fails a write stream. The export tests check that the run fails
 * (no hang, no crash) and that the next run resumes from its last committed file.
 */
export function fullAfter(storage: ExportStorage, bytes: number): ExportStorage {
  let written = 0;
  return {
    ...storage,
    create: async (key, writer) => {
      const file = await storage.create(key, writer);
      if (key.endsWith('.gz')) return file;
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          written += chunk.length;
          if (written > bytes) return done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
          file.stream.write(chunk, done);
        },
        final(done) {
          file.stream.end(done);
        },
      });
      return { ...file, stream: stream as unknown as typeof file.stream };
    },
  };
}
