/**
 * Where export files live: a folder of the project by default (EXPORT_STORAGE_DIR, default
 * .data/exports/<database>), shared by the worker that writes them and the gateway that serves
 * them. A file is written under a temporary name and renamed into place when it is complete, so
 * a reader never sees half a file and a worker that dies leaves only a temporary file behind,
 * which the next run of the same part truncates. A commit is durable before the job records it:
 * the file's data is synced before the rename and the folder after it, so a machine that loses
 * power right after never holds a job that names an empty or missing file.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { s3Storage } from './s3-storage';
import type { ExportStorage } from './storage-interface';

export type { ExportStorage } from './storage-interface';

export function folderStorage(root: string): ExportStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(base, key);
    if (!path.startsWith(base + sep)) throw new Error('export storage key outside the storage folder');
    return path;
  };
  return {
    async create(key, writer) {
      const final = pathOf(key);
      const temporary = `${final}.${writer}.partial`;
      await mkdir(dirname(final), { recursive: true });
      const stream = createWriteStream(temporary);
      const closed = () =>
        new Promise<void>((ok, fail) => {
          if (stream.closed) return ok();
          stream.once('error', fail);
          stream.end(() => ok());
        });
      return {
        stream,
        commit: async () => {
          await closed();
          await syncPath(temporary); // fsync reaches the file's data whichever descriptor wrote it
          await rename(temporary, final);
          await syncPath(dirname(final));
        },
        discard: async () => {
          stream.destroy();
          await rm(temporary, { force: true });
        },
      };
    },
    async size(key) {
      try {
        return (await stat(pathOf(key))).size;
      } catch {
        return undefined;
      }
    },
    read: (key, range) => createReadStream(pathOf(key), range ? { start: range.start, end: range.end } : {}),
    removeAll: (prefix) => rm(join(base, prefix), { recursive: true, force: true }),
  };
}

/** fsync of a file (its data on disk) or of a folder (a rename in it on disk). */
async function syncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const DATA_DIR = fileURLToPath(new URL('../../../.data/', import.meta.url));

/** EXPORT_STORAGE_DIR, or the project's .data/exports/<database> (one folder per database, as the audit checkpoints). */
export function exportStorageDir(config: { DATABASE_URL: string; EXPORT_STORAGE_DIR?: string | undefined }): string {
  const database = decodeURIComponent(new URL(config.DATABASE_URL).pathname.slice(1)) || 'postgres';
  return config.EXPORT_STORAGE_DIR ?? join(DATA_DIR, 'exports', database);
}

/** The export settings the storage choice reads (libs/config exportShape). */
export interface ExportStorageConfig {
  DATABASE_URL: string;
  EXPORT_STORAGE_DIR?: string | undefined;
  EXPORT_S3_BUCKET?: string | undefined;
  EXPORT_S3_ENDPOINT: string;
  EXPORT_S3_REGION: string;
  EXPORT_S3_ACCESS_KEY_ID?: string | undefined;
  EXPORT_S3_SECRET_ACCESS_KEY?: string | undefined;
  EXPORT_S3_PREFIX?: string | undefined;
}

/** The one choice: the S3-compatible bucket when EXPORT_S3_BUCKET is set, else the folder. */
export function exportStorage(config: ExportStorageConfig): ExportStorage {
  if (!config.EXPORT_S3_BUCKET) return folderStorage(exportStorageDir(config));
  if (!config.EXPORT_S3_ACCESS_KEY_ID || !config.EXPORT_S3_SECRET_ACCESS_KEY) {
    throw new Error('invalid configuration: EXPORT_S3_ACCESS_KEY_ID and EXPORT_S3_SECRET_ACCESS_KEY: must be set with EXPORT_S3_BUCKET');
  }
  return s3Storage({
    endpoint: config.EXPORT_S3_ENDPOINT,
    bucket: config.EXPORT_S3_BUCKET,
    region: config.EXPORT_S3_REGION,
    accessKeyId: config.EXPORT_S3_ACCESS_KEY_ID,
    secretAccessKey: config.EXPORT_S3_SECRET_ACCESS_KEY,
    prefix: config.EXPORT_S3_PREFIX ?? (decodeURIComponent(new URL(config.DATABASE_URL).pathname.slice(1)) || 'postgres'),
  });
}
