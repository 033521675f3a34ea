/**
 * An export storage that stops its worker part-way, as a shutdown does: after the worker has
 * committed `files` NDJSON files (each file's stored gzip is not counted) it aborts `stop`, and the
 * worker hands the job back at its next chunk with those files committed. The export tests resume
 * from there and check every row once.
 */
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
