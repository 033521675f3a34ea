/**
 * schemas/openapi.json is the committed export of GET /openapi.json (npm run openapi). When a
 * route or schema changes without a re-export, this fails and says what to run.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { CANONICAL_BASE_URL, generateOpenapi, OPENAPI_FILE } from '../../../apps/gateway/src/openapi-export';
import { testEnv } from '../../helpers/env';

describe('schemas/openapi.json', () => {
  it('is current', async () => {
    const fresh = await generateOpenapi({
      ...process.env,
      DATABASE_URL: testEnv.DATABASE_URL,
      REDIS_URL: testEnv.REDIS_URL,
      KAFKA_BROKERS: testEnv.KAFKA_BROKERS.join(','),
    });
    const committed = await readFile(OPENAPI_FILE, 'utf8');
    expect(committed === fresh, 'schemas/openapi.json is stale: run npm run openapi').toBe(true);
  });

  it('is a valid OpenAPI 3.1 document for the canonical base URL, with sorted keys', async () => {
    const doc = JSON.parse(await readFile(OPENAPI_FILE, 'utf8')) as { servers: { url: string }[]; paths: Record<string, unknown> };
    expect(doc.servers).toEqual([{ url: CANONICAL_BASE_URL }]);
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual([...paths].sort());
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });
});
