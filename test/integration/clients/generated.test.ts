/**
 * The TypeScript client's types are generated, never hand-kept: regenerating them from
 * schemas/openapi.json must give exactly the committed libs/client-ts/src/generated/openapi.ts.
 * Until schemas/openapi.json exists in the tree (issue 8 exports it), the gateway's own document
 * is the source: GET /openapi.json where served, else the swagger plugin's document.
 * After a merge that changes routes: `UPDATE_GENERATED=1 npx vitest run test/integration/clients/generated.test.ts`
 * rewrites the file from that same source (or `npm run generate -w @vitalis/client` once schemas/openapi.json exists).
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypes } from '../../../libs/client-ts/scripts/codegen';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const exported = `${root}schemas/openapi.json`;
let gw: RunningGateway | undefined;

beforeAll(async () => {
  if (!existsSync(exported)) gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

/** The gateway's document; the interim one with its known defect (a record schema spread into query parameters) dropped. */
async function liveDocument(): Promise<unknown> {
  if (gw!.app.hasRoute({ method: 'GET', url: '/openapi.json' })) return (await fetch(`${gw!.url}/openapi.json`)).json();
  await gw!.app.ready();
  const doc = structuredClone(gw!.app.swagger()) as { paths: Record<string, Record<string, { parameters?: { schema?: unknown }[] }>> };
  for (const item of Object.values(doc.paths)) {
    for (const op of Object.values(item)) if (op.parameters) op.parameters = op.parameters.filter((p) => typeof p.schema === 'object');
  }
  return doc;
}

describe('libs/client-ts generated types', () => {
  it('are current with the OpenAPI document', async () => {
    const document = existsSync(exported) ? JSON.parse(await readFile(exported, 'utf8')) : await liveDocument();
    const file = `${root}libs/client-ts/src/generated/openapi.ts`;
    const generated = await generateTypes(document);
    if (process.env.UPDATE_GENERATED === '1') await writeFile(file, generated);
    expect(generated, 'stale: UPDATE_GENERATED=1 npx vitest run test/integration/clients/generated.test.ts').toBe(await readFile(file, 'utf8'));
  });
});
