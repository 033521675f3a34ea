/**
 * The fan-out channel the hub listens on: raw batch messages (libs/live wire.ts) as the ingest
 * published them, clinical notices (libs/live critical.ts: critical results as the diagnostics
 * service and the escalator published them, bedside alarm lifecycle notices as the alarms service,
 * the escalator and the watchdog did), and a signal when the connection came back after a loss (messages published
 * meanwhile are gone: the hub refills its subscribers from the replay source). The gateway's is
 * Redis pub/sub; the hub's unit tests inject messages through an in-memory one.
 */
import type { Redis } from '@vitalis/redis';
import { CRITICAL_RESULTS_CHANNEL, liveChannel } from '@vitalis/live';

export interface ChannelHandlers {
  /** One published batch, undecoded. */
  message(raw: string): void;
  /** One notice of the clinical channel (a critical result or an alarm's lifecycle), undecoded (no position: it is not replayed; the event store holds it). */
  critical?(raw: string): void;
  /** The connection was re-established: anything published while it was down was lost. */
  reconnected(): void;
}

export interface LiveChannel {
  start(handlers: ChannelHandlers): Promise<void>;
  close(): void;
}

/** SUBSCRIBE vitalis:live:<topic> and the critical-results channel on its own Redis connection (a subscriber connection can do nothing else). */
export const redisLiveChannel = (redis: Redis, topic: string): LiveChannel => {
  let sub: Redis | undefined;
  return {
    async start(handlers) {
      sub = redis.duplicate({ connectionName: 'vitalis-gateway-live', lazyConnect: true, enableOfflineQueue: true });
      sub.on('error', () => {});
      let connectedBefore = false;
      sub.on('ready', () => {
        if (connectedBefore) handlers.reconnected();
        connectedBefore = true;
      });
      sub.on('message', (channel: string, raw: string) =>
        channel === CRITICAL_RESULTS_CHANNEL ? handlers.critical?.(raw) : handlers.message(raw),
      );
      await sub.connect();
      await sub.subscribe(liveChannel(topic), CRITICAL_RESULTS_CHANNEL);
    },
    close() {
      sub?.disconnect();
    },
  };
};
