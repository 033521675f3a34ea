/**
 * The figures a bench records for `make bench` (test/bench/run.ts): every figure goes to stdout as
 * the bench's own line and, when the runner set BENCH_FIGURES_FILE, as one JSON line to that file;
 * the runner prints them as one table at the end and keeps them all in a JSON file, so runs can be
 * compared. A figure may carry its goal (the issue's goal line): the table says met or not met.
 */
import { appendFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { cpuOf, cpuUsedBetween, loadAverage, machineCpu, serversCpu, type ServerName } from './proc-cpu';

export interface Goal {
  /** The figure must be at least (>=), at most (<=) or below (<) the target. */
  op: '>=' | '<=' | '<';
  target: number;
}

export interface Figure {
  /** The phase (copy, producer, drain, e2e, live, export, ...). */
  phase: string;
  /** What was measured, e.g. "indexed COPY, numeric rows". */
  name: string;
  value: number;
  unit: string;
  goal?: Goal;
  /** The load average (1 min) when the phase started. */
  load?: number;
}

/** Whether a figure meets its goal (undefined: it has none; a figure that could not be measured meets none). */
export function metGoal(f: Pick<Figure, 'value' | 'goal'>): boolean | undefined {
  if (!f.goal) return undefined;
  if (!Number.isFinite(f.value)) return false;
  const { op, target } = f.goal;
  return op === '>=' ? f.value >= target : op === '<=' ? f.value <= target : f.value < target;
}

export const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
export const out = (line: string) => process.stdout.write(`${line}\n`);

/** Records a figure: one stdout line (with its goal and whether it is met) and, under the runner, one JSON line. */
export function figure(f: Figure): void {
  const shown = Math.abs(f.value) >= 100 || !Number.isFinite(f.value) ? fmt(f.value) : f.value.toFixed(2);
  const goal = f.goal ? ` (goal ${f.goal.op} ${f.goal.target.toLocaleString('en-US')}: ${metGoal(f) ? 'met' : 'not met'})` : '';
  out(`  [${f.phase}] ${f.name}: ${shown} ${f.unit}${goal}${f.load === undefined ? '' : `; load average ${f.load.toFixed(2)} before`}`);
  const file = process.env.BENCH_FIGURES_FILE;
  if (file) appendFileSync(file, `${JSON.stringify(f)}\n`);
}

/** The apps a phase measures, by component name: a pid, 'self' (this process) or several pids (ingest instances). */
export type Apps = Record<string, number | 'self' | number[] | undefined>;

interface CpuReading {
  at: number;
  load: number;
  apps: Record<string, number>;
  servers: Record<ServerName, Map<number, number>>;
  machine: { busy: number; total: number };
}

const appCpu = (pid: Apps[string]) => (pid === undefined ? 0 : Array.isArray(pid) ? pid.reduce((s, p) => s + cpuOf(p), 0) : cpuOf(pid));

/**
 * CPU per component over a phase, read from /proc: `start` before the phase (it records the load
 * average too), then `perObservation` after it with the observations the phase moved, while the
 * apps are still running (a process that exited has no /proc entry; a producer that exits first
 * reports its own CPU through `extra`).
 */
export function cpuMeter(apps: Apps) {
  const read = (): CpuReading => ({
    at: Date.now(),
    load: loadAverage(),
    apps: Object.fromEntries(Object.entries(apps).map(([name, pid]) => [name, appCpu(pid)])),
    servers: serversCpu(),
    machine: machineCpu(),
  });
  const before = read();
  return {
    load: before.load,
    /** µs of CPU per observation per component (apps, PostgreSQL, Kafka, Redis), and the machine's busy share. */
    perObservation(observations: number, extra: Record<string, number> = {}) {
      const after = read();
      const seconds: Record<string, number> = {};
      for (const name of Object.keys(apps)) seconds[name] = after.apps[name]! - before.apps[name]!;
      for (const name of Object.keys(after.servers) as ServerName[])
        seconds[name] = cpuUsedBetween(before.servers[name], after.servers[name]);
      Object.assign(seconds, extra);
      const us = Object.fromEntries(Object.entries(seconds).map(([name, s]) => [name, (s * 1e6) / Math.max(1, observations)]));
      const busy = (after.machine.busy - before.machine.busy) / Math.max(1, after.machine.total - before.machine.total);
      return { us, busy, wallSeconds: (after.at - before.at) / 1000 };
    },
  };
}

/** Records the CPU-per-observation figures of a phase (one per component) and the machine's busy share. */
export function cpuFigures(phase: string, what: string, cpu: { us: Record<string, number>; busy: number }, load: number): void {
  for (const [component, us] of Object.entries(cpu.us))
    figure({ phase, name: `${what}: ${component} CPU per observation`, value: us, unit: 'µs', load });
  figure({ phase, name: `${what}: machine busy`, value: cpu.busy * 100, unit: `% of ${cpus().length} cores`, load });
}
