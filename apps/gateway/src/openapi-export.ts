/**
 * `npm run openapi`: writes the OpenAPI document to schemas/openapi.json (sorted keys, 2-space
 * indent, trailing newline) so clients and reviewers can read the API without a running server.
 * The gateway is built with its real dependencies from the environment (as `make run` configures
 * them; the route plugins load keys from PostgreSQL and connect to Redis) but never listens, with
 * one canonical base URL so the file does not depend on where it was generated. A test asserts
 * the committed file equals a fresh generation.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '@vitalis/config';
import { createPool } from '@vitalis/db';
import { createKafka } from '@vitalis/kafka';
import { createLogger } from '@vitalis/log';
import { createRedis } from '@vitalis/redis';
import { buildGateway } from './app';
import { RemoteKeySets, keySetFetchPolicy } from './remote-key-sets';
import { gatewayConfigShape, withBaseUrl } from './config';
import { gatewayMetrics } from './metrics';

/** Repository-relative; the test and the script agree on it. */
export const OPENAPI_FILE = fileURLToPath(new URL('../../../schemas/openapi.json', import.meta.url));
/** The base URL written into the exported document (`make run`'s default). */
export const CANONICAL_BASE_URL = 'http://127.0.0.1:8080';

type Env = Record<string, string | undefined>;

/** The document as the committed file holds it. */
export async function generateOpenapi(env: Env = process.env): Promise<string> {
  const parsed = parseConfig(gatewayConfigShape, {
    NODE_ENV: 'development',
    ...env,
    PUBLIC_BASE_URL: CANONICAL_BASE_URL,
    DEMO_USERS_ENABLED: 'false',
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
  });
  const config = withBaseUrl(parsed);
  const logger = createLogger('openapi-export', config.LOG_LEVEL);
  const pool = createPool({ url: config.DATABASE_URL, max: 2, application: 'vitalis-openapi-export' });
  const redis = createRedis({ url: config.REDIS_URL, name: 'vitalis-openapi-export' });
  try {
    await redis.connect();
    const kafka = createKafka({ brokers: config.KAFKA_BROKERS, clientId: 'vitalis-openapi-export', logger });
    const app = await buildGateway({
      config,
      pool,
      redis,
      kafka,
      logger,
      keySets: new RemoteKeySets(keySetFetchPolicy(config), logger),
      metrics: gatewayMetrics({ pool, redis }),
    });
    try {
      await app.ready();
      return `${JSON.stringify(app.swagger(), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    redis.disconnect();
    await pool.end();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await generateOpenapi();
  await writeFile(OPENAPI_FILE, text);
  const doc = JSON.parse(text) as { paths: Record<string, object> };
  const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(`wrote ${OPENAPI_FILE}: ${Object.keys(doc.paths).length} paths, ${operations} operations`);
}
