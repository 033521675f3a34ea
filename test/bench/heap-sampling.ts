/**
 * BENCH_HEAP_PROF=<dir>: loaded into an app the bench starts (`--import`, pipeline.ts profileFlags),
 * samples every allocation, including objects the garbage collector has already freed (Node's own
 * `--heap-prof` keeps only what is still alive at exit, so it cannot say what makes the garbage),
 * and writes the profile (`.heapprofile`, Chrome DevTools' format) to that folder when the app exits.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';

const dir = process.env.BENCH_HEAP_PROF;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('HeapProfiler.startSampling', {
    samplingInterval: 32_768,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  process.once('exit', () => {
    // An in-process session answers synchronously, so the profile is written before the process ends.
    session.post('HeapProfiler.stopSampling', (err, result) => {
      if (!err) writeFileSync(join(dir, `Heap.${process.pid}.heapprofile`), JSON.stringify(result.profile));
    });
  });
}
