/**
 * CPU and memory of the processes a bench drives, read from /proc (never inferred from rates):
 * one process's CPU seconds, every process whose command line matches (PostgreSQL's backends,
 * Kafka's JVM, Redis), the machine's busy share, and the load average a phase starts at. Shared by
 * the benches (live.bench.ts, export.bench.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';

export const rssOf = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
};

/** CPU seconds (user + system) a process has used so far. */
export const cpuOf = (pid: number | 'self') => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
};

/** CPU seconds used so far by each process whose command line matches (PostgreSQL's backends, Kafka's JVM, Redis), by pid. */
export const cpuOfMatching = (pattern: RegExp) => {
  const byPid = new Map<number, number>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (pattern.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) byPid.set(Number(pid), cpuOf(Number(pid)));
    } catch {
      // gone meanwhile
    }
  }
  return byPid;
};
/**
 * CPU seconds used between two readings, per process: a process born meanwhile counts whole, one
 * that exited meanwhile (a pooled PostgreSQL backend closed as idle) is left out rather than
 * subtracting the CPU it used before the run.
 */
export const cpuUsedBetween = (before: Map<number, number>, after: Map<number, number>) => {
  let used = 0;
  for (const [pid, now] of after) used += now - (before.get(pid) ?? 0);
  return used;
};
export const SERVERS = { postgres: /^postgres|\/postgres\0/, kafka: /kafka\.Kafka/, redis: /^redis-server|\/redis-server/ } as const;
export type ServerName = keyof typeof SERVERS;
export const serversCpu = () =>
  Object.fromEntries(Object.entries(SERVERS).map(([name, re]) => [name, cpuOfMatching(re)])) as Record<ServerName, Map<number, number>>;

/** Machine-wide CPU jiffies (busy, total) from /proc/stat: how saturated the whole box was. */
export const machineCpu = () => {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0); // guest time is already in user
  return { busy: total - idle, total };
};

/** The 1-minute load average now (benches record it before each phase: a busy machine skews every figure). */
export const loadAverage = (): number => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
