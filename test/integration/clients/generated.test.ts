/**
 * The TypeScript client's types are generated, never hand-kept: regenerating them from
 * schemas/openapi.json (itself checked current by test/integration/developer/openapi-export.test.ts)
 * must give exactly the committed libs/client-ts/src/generated/openapi.ts.
 * After a change to the routes: `npm run openapi && npm run generate -w @vitalis/client`
 * (or `UPDATE_GENERATED=1 npx vitest run test/integration/clients/generated.test.ts`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateTypes } from '../../../libs/client-ts/scripts/codegen';

const root = fileURLToPath(new URL('../../../', import.meta.url));

describe('libs/client-ts generated types', () => {
  it('are current with schemas/openapi.json', async () => {
    const document = JSON.parse(await readFile(`${root}schemas/openapi.json`, 'utf8'));
    const file = `${root}libs/client-ts/src/generated/openapi.ts`;
    const generated = await generateTypes(document);
    if (process.env.UPDATE_GENERATED === '1') await writeFile(file, generated);
    expect(generated, 'stale: npm run generate -w @vitalis/client').toBe(await readFile(file, 'utf8'));
  });
});
