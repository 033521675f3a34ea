/**
 * The machine's speed at the time of a run (`make bench` runs it first, as its phase "calibrate"):
 * fixed single-threaded work whose cost depends only on the CPU the host gives this VM, so runs on
 * days when the host is slower can be told apart from code that got slower. Prints µs per JSON
 * round trip of one v1 monitor frame (six numerics and a 1 s 250 Hz ECG chunk in decimal mV, the
 * ingest's commonest record until the v2 frame; kept as the fixed workload) and MB/s of SHA-256 (native code), each the best of five rounds.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { loadAverage } from './proc-cpu';
import { figure } from './report';
import { monitorFrameJson } from './rows';

// the v1 frame (ECG in decimal mV): the same workload as every run before the v2 frame
const frame = monitorFrameJson('pat-0001', 'pat-0001-mon', 0, new Date().toISOString(), 1);
const load = loadAverage();
const best = (rounds: number, run: () => number) => Math.min(...Array.from({ length: rounds }, run));

const ROUND_TRIPS = 5_000;
const jsonUs = best(5, () => {
  const t = performance.now();
  let n = 0;
  for (let i = 0; i < ROUND_TRIPS; i++) n += JSON.stringify(JSON.parse(frame)).length;
  if (n === 0) throw new Error('unreachable');
  return ((performance.now() - t) * 1000) / ROUND_TRIPS;
});
figure({ phase: 'calibrate', name: 'machine speed: JSON parse + stringify of one monitor frame', value: jsonUs, unit: 'µs', load });

const block = Buffer.alloc(64 * 1_048_576, 7);
const shaSeconds = best(5, () => {
  const t = performance.now();
  createHash('sha256').update(block).digest();
  return (performance.now() - t) / 1000;
});
figure({ phase: 'calibrate', name: 'machine speed: SHA-256', value: 64 / shaSeconds, unit: 'MB/s', load });
