/**
 * A burst's device bytes recorded to a file and read back (burst.ts `recordTo`, `replayFrom`). The
 * file is a sequence of batches, each: u32 observations, u32 messages, then per message u16 key
 * length, the key, u32 value length, the value (big-endian). Replaying sends these bytes as they
 * are (Buffers, no JSON), so the producer's cost without the encoding can be measured beside it.
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { VitalsMessage } from '@vitalis/kafka';

export interface RecordedBatch {
  messages: { key: Buffer; value: Buffer }[];
  observations: number;
}

const asBuffer = (v: VitalsMessage['key'] | VitalsMessage['value']): Buffer =>
  v === null || v === undefined ? Buffer.alloc(0) : Buffer.isBuffer(v) ? v : Buffer.from(v);

/** A burst sink that appends each batch to `file` (created afresh). */
export function recordingWriter(file: string): {
  send(messages: VitalsMessage[], observations: number): Promise<void>;
  close(): Promise<void>;
} {
  const fd = openSync(file, 'w');
  return {
    send: async (messages, observations) => {
      const parts: Buffer[] = [];
      const head = Buffer.alloc(8);
      head.writeUInt32BE(observations, 0);
      head.writeUInt32BE(messages.length, 4);
      parts.push(head);
      for (const m of messages) {
        const key = asBuffer(m.key);
        const value = asBuffer(m.value);
        const lengths = Buffer.alloc(6);
        lengths.writeUInt16BE(key.length, 0);
        lengths.writeUInt32BE(value.length, 2);
        parts.push(lengths.subarray(0, 2), key, lengths.subarray(2), value);
      }
      writeSync(fd, Buffer.concat(parts));
    },
    close: async () => closeSync(fd),
  };
}

/** The batches of a recording, their keys and values views of the file's bytes (no copies). */
export function loadRecording(file: string): RecordedBatch[] {
  const bytes = readFileSync(file);
  const batches: RecordedBatch[] = [];
  let at = 0;
  /** The next `n` bytes, after a length prefix of `width` bytes. */
  const field = (width: 2 | 4) => {
    const n = width === 2 ? bytes.readUInt16BE(at) : bytes.readUInt32BE(at);
    at += width + n;
    return bytes.subarray(at - n, at);
  };
  while (at < bytes.length) {
    const observations = bytes.readUInt32BE(at);
    const count = bytes.readUInt32BE(at + 4);
    at += 8;
    const messages = new Array<{ key: Buffer; value: Buffer }>(count);
    for (let i = 0; i < count; i++) {
      const key = field(2);
      messages[i] = { key, value: field(4) };
    }
    batches.push({ messages, observations });
  }
  return batches;
}
