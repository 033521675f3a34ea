/**
 * The FHIR Bulk Data export worker (docs/export.md, ADR 0014) as projector jobs: `bulk-export`
 * runs queued exports one at a time (and resumes one whose worker died, once its lease ran out),
 * `bulk-export-expiry` removes finished exports past EXPORT_FILE_TTL_SECONDS. Several projectors
 * share the queue (jobs are claimed with SKIP LOCKED). `exports-main.ts` runs only these jobs.
 */
import type { Pool } from '@vitalis/db';
import { expireExports, exportStorage, runNextExport, type ExportStorageConfig } from '@vitalis/export';
import type { Job } from './jobs';

export interface ExportWorkerConfig extends ExportStorageConfig {
  EXPORT_MAX_FILE_BYTES: number;
  EXPORT_FILE_TTL_SECONDS: number;
  EXPORT_LEASE_MS: number;
  EXPORT_POLL_INTERVAL_MS: number;
  EXPORT_WORKER_ONLY_CLIENTS: string;
  NODE_ENV: string;
}

/** The clients whose jobs a worker may claim: every one, or (tests only) the listed ones. */
function onlyClientsOf(config: ExportWorkerConfig): string[] | undefined {
  const only = config.EXPORT_WORKER_ONLY_CLIENTS.split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  if (only.length === 0) return undefined;
  if (config.NODE_ENV === 'production')
    throw new Error('invalid configuration: EXPORT_WORKER_ONLY_CLIENTS: a test-only setting, refused in production');
  return only;
}

/**
 * The jobs, and `stop`: at shutdown, before the runner waits for running jobs, a running export
 * stops at its next chunk or committed file and hands its job back (another worker resumes it from
 * its cursor at once).
 */
export function exportJobs(pool: Pool, config: ExportWorkerConfig): { jobs: Job[]; stop: () => void } {
  const storage = exportStorage(config);
  const shutdown = new AbortController();
  const onlyClients = onlyClientsOf(config);
  const options = {
    ...(onlyClients ? { onlyClients } : {}),
    storage,
    maxFileBytes: config.EXPORT_MAX_FILE_BYTES,
    leaseMs: config.EXPORT_LEASE_MS,
    expiresMs: config.EXPORT_FILE_TTL_SECONDS * 1_000,
    signal: shutdown.signal,
  };
  const jobs: Job[] = [
    {
      name: 'bulk-export',
      intervalMs: config.EXPORT_POLL_INTERVAL_MS,
      run: async () => {
        // every queued job in this run (one after the other), then wait for the next tick
        const runs = [];
        for (let run = await runNextExport(pool, options); run && run.outcome !== 'stopped'; run = await runNextExport(pool, options))
          runs.push(run);
        return runs.length > 0 ? { exports: runs } : undefined;
      },
    },
    {
      name: 'bulk-export-expiry',
      intervalMs: config.EXPORT_POLL_INTERVAL_MS,
      run: async () => {
        const expired = await expireExports(pool, storage);
        return expired > 0 ? { expired } : undefined;
      },
    },
  ];
  return { jobs, stop: () => shutdown.abort() };
}
