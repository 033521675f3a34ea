/**
 * What an export storage does (the folder of storage.ts, the bucket of s3-storage.ts): its own
 * module, so the two implementations and the factory that picks one (storage.ts exportStorage)
 * share it without importing each other.
 */
import type { WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';

export interface ExportStorage {
  /** A writer for `key`'s next content (a temporary file until `commit`). */
  create(key: string, writer: string): Promise<{ stream: WriteStream; commit: () => Promise<void>; discard: () => Promise<void> }>;
  /** Size in bytes, or undefined when missing. */
  size(key: string): Promise<number | undefined>;
  /** The bytes [start, end] (inclusive) of `key`. */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Removes every file under `prefix` (a job's folder). */
  removeAll(prefix: string): Promise<void>;
}
