/**
 * Writes schemas/vitals-observation.schema.json from the zod schema (the zod schema is the source
 * of truth; the JSON Schema is for device vendors and non-TypeScript clients).
 * Run: node --import tsx schemas/scripts/export-json-schema.ts   (--check: exit 1 if the file is stale)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { vitalsObservationSchema } from '../src/vitals';

export const JSON_SCHEMA_PATH = fileURLToPath(new URL('../vitals-observation.schema.json', import.meta.url));

export function renderJsonSchema(): string {
  const schema = z.toJSONSchema(vitalsObservationSchema, { target: 'draft-2020-12', io: 'input' });
  const document = { ...schema, $id: 'https://vitalis.example/schemas/vitals-observation.schema.json' };
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rendered = renderJsonSchema();
  if (process.argv.includes('--check')) {
    const current = await readFile(JSON_SCHEMA_PATH, 'utf8').catch(() => '');
    if (current !== rendered) {
      process.stderr.write(`${JSON_SCHEMA_PATH} is stale: run node --import tsx schemas/scripts/export-json-schema.ts\n`);
      process.exit(1);
    }
  } else {
    await writeFile(JSON_SCHEMA_PATH, rendered);
    process.stdout.write(`wrote ${JSON_SCHEMA_PATH}\n`);
  }
}
