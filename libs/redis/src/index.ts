import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

export interface RedisOptions {
  url: string;
  /** Name shown in CLIENT LIST, to tell gateways from workers. */
  name?: string;
}

/**
 * A Redis connection that fails fast instead of queueing commands forever while the server is
 * down: callers (revocation checks, rate limits, health) must get an error they can act on.
 */
export function createRedis({ url, name = 'vitalis' }: RedisOptions): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  redis.on('error', () => {}); // reconnects on its own; commands surface the error to callers
  return redis;
}
