/** A burst recorded to a file replays the same bytes, batch by batch (apps/simulator/src/recording.ts). */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRecording, recordingWriter } from '../../../apps/simulator/src/recording';

const dir = await mkdtemp(join(tmpdir(), 'vitalis-recording-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a burst recording', () => {
  it('gives back every batch: its observation count and each message key and value byte for byte', async () => {
    const file = join(dir, 'burst.bin');
    const writer = recordingWriter(file);
    const big = 'x'.repeat(70_000); // a value longer than a u16 length holds
    const batches = [
      { observations: 7, messages: [{ key: 'pat-1', value: '{"envelope":"vitals.frame.v1","é":"ü"}' }] },
      {
        observations: 2,
        messages: [
          { key: Buffer.from('pat-2'), value: Buffer.from([0, 255, 10]) },
          { key: '', value: big },
        ],
      },
    ];
    for (const b of batches) await writer.send(b.messages, b.observations);
    await writer.close();

    const loaded = loadRecording(file);
    expect(loaded.map((b) => b.observations)).toEqual([7, 2]);
    expect(loaded.map((b) => b.messages.map((m) => [m.key.toString('hex'), m.value.toString('hex')]))).toEqual(
      batches.map((b) => b.messages.map((m) => [Buffer.from(m.key).toString('hex'), Buffer.from(m.value).toString('hex')])),
    );
  });

  it('of no batch loads as none', async () => {
    const file = join(dir, 'empty.bin');
    const writer = recordingWriter(file);
    await writer.close();
    expect(loadRecording(file)).toEqual([]);
  });
});
