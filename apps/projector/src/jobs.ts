/**
 * The projector is a list of jobs run on intervals: each job runs alone (a slow run is never
 * overlapped by the next), failures are logged and retried on the next tick, and stop() waits
 * for running jobs to finish. The event-store projections (issue 5) are added as more jobs.
 */
import type { Logger } from '@vitalis/log';

export interface Job {
  name: string;
  intervalMs: number;
  /** Returns a small summary for the log (or undefined to stay quiet). */
  run: () => Promise<Record<string, unknown> | undefined>;
}

export interface JobRunner {
  stop: () => Promise<void>;
  /** Runs every job once now (tests, benchmarks). */
  runOnce: () => Promise<void>;
  /** Runs the named jobs now unless already running (e.g. woken by a NOTIFY). */
  runNow: (names: string[]) => void;
}

export function runJobs(jobs: Job[], logger: Logger): JobRunner {
  let stopped = false;
  const running = new Map<string, Promise<void>>();
  const timers: NodeJS.Timeout[] = [];

  const execute = (job: Job): Promise<void> => {
    const current = running.get(job.name);
    if (current) return current;
    const started = Date.now();
    const promise = job
      .run()
      .then(
        (summary) => {
          if (summary) logger.info({ job: job.name, ms: Date.now() - started, ...summary }, 'job done');
        },
        (err) => logger.error({ err, job: job.name }, 'job failed; retrying on the next tick'),
      )
      .finally(() => running.delete(job.name));
    running.set(job.name, promise);
    return promise;
  };

  for (const job of jobs) {
    void execute(job);
    const timer = setInterval(() => {
      if (!stopped) void execute(job);
    }, job.intervalMs);
    timers.push(timer);
  }

  return {
    runOnce: async () => {
      await Promise.all(jobs.map(execute));
    },
    runNow: (names) => {
      if (stopped) return;
      for (const job of jobs) if (names.includes(job.name)) void execute(job);
    },
    stop: async () => {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await Promise.all(running.values());
    },
  };
}
