/**
 * The shutdown sequence every app runs on SIGTERM (an orchestrator) or SIGINT (a terminal):
 *  1. readiness flips to 503 (`draining`);
 *  2. wait `drainMs` (READINESS_DRAIN_SECONDS) so load balancers and the kubelet see it and stop
 *     sending new work; skipped on SIGINT, where nothing routes by readiness;
 *  3. the app's steps in order: stop taking work and hand live subscribers a reconnect hint,
 *     finish in-flight work (requests, batches and their offset commits), close connections;
 *  4. exit 0.
 * All of it within `graceMs` (SHUTDOWN_GRACE_SECONDS) from the signal, else exit 1; a second
 * signal exits at once. The orchestrator's own grace (terminationGracePeriodSeconds) must be longer.
 */
import type { Logger } from '@vitalis/log';

export type Closer = () => Promise<unknown>;

export interface ShutdownStep {
  name: string;
  run: Closer;
}

export interface ShutdownPlan {
  logger: Logger;
  /** The gate that turns 503 first (probes.ts createReadiness). */
  readiness?: { drain: () => void };
  drainMs: number;
  graceMs: number;
  steps: ShutdownStep[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Steps 1 to 3 (no exit): true when every step succeeded. */
export async function runShutdown(plan: ShutdownPlan, signal: string): Promise<boolean> {
  const { logger } = plan;
  const started = Date.now();
  plan.readiness?.drain();
  const drainMs = signal === 'SIGINT' ? 0 : plan.drainMs;
  logger.info({ signal, drainMs, graceMs: plan.graceMs }, 'shutting down: not ready any more');
  if (drainMs > 0) await sleep(drainMs);
  let clean = true;
  for (const step of plan.steps) {
    const at = Date.now();
    try {
      await step.run();
      logger.debug({ step: step.name, ms: Date.now() - at }, 'shutdown step done');
    } catch (err) {
      clean = false;
      logger.error({ err, step: step.name }, 'error during shutdown');
    }
  }
  logger.info({ ms: Date.now() - started, clean }, 'shutdown complete');
  return clean;
}

/** Installs the sequence on SIGTERM and SIGINT; exits the process when done. */
export function onShutdown(plan: ShutdownPlan): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    const timer = setTimeout(() => {
      plan.logger.error({ graceMs: plan.graceMs }, 'shutdown took longer than the grace period, exiting');
      process.exit(1);
    }, plan.graceMs);
    timer.unref();
    await runShutdown(plan, signal);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
