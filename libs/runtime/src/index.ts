/**
 * Process lifecycle shared by every app: on SIGTERM/SIGINT run the closers in order (stop taking
 * work, finish in-flight work, close connections), then exit. A second signal, or closers taking
 * longer than the grace period, exits at once.
 */
import type { Logger } from '@vitalis/log';

export type Closer = () => Promise<unknown>;

export function onShutdown(logger: Logger, closers: Closer[], graceMs = 10_000): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) process.exit(1);
    closing = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ graceMs }, 'shutdown took too long, exiting');
      process.exit(1);
    }, graceMs);
    timer.unref();
    for (const close of closers) {
      await close().catch((err) => logger.error({ err }, 'error during shutdown'));
    }
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

/** Reads the package version of the running app (for health documents and logs). */
export const VITALIS_VERSION = '0.2.0';
