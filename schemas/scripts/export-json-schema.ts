/**
 * Writes schemas/vitals-observation.schema.json, schemas/vitals-frame.schema.json (a device frame,
 * ADR 0015) and schemas/vitals-frame-v2.schema.json (a frame with ECG steps, ADR 0029) from the zod schemas (the zod schemas are the source of truth; the JSON Schemas are for
 * device vendors and non-TypeScript clients).
 * Run: node --import tsx schemas/scripts/export-json-schema.ts   (--check: exit 1 if the file is stale)
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { vitalsObservationSchema } from '../src/vitals';
import { vitalsFrameSchema, vitalsFrameV2Schema } from '../src/vitals-records';

export const JSON_SCHEMA_PATH = fileURLToPath(new URL('../vitals-observation.schema.json', import.meta.url));

export function renderJsonSchema(): string {
  const schema = z.toJSONSchema(vitalsObservationSchema, { target: 'draft-2020-12', io: 'input' });
  const document = { ...schema, $id: 'https://vitalis.example/schemas/vitals-observation.schema.json' };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const FRAME_JSON_SCHEMA_PATH = fileURLToPath(new URL('../vitals-frame.schema.json', import.meta.url));

export function renderFrameJsonSchema(): string {
  const schema = z.toJSONSchema(vitalsFrameSchema, { target: 'draft-2020-12', io: 'input' });
  const document = { ...schema, $id: 'https://vitalis.example/schemas/vitals-frame.schema.json' };
  return `${JSON.stringify(document, null, 2)}\n`;
}

export const FRAME_V2_JSON_SCHEMA_PATH = fileURLToPath(new URL('../vitals-frame-v2.schema.json', import.meta.url));

export function renderFrameV2JsonSchema(): string {
  const schema = z.toJSONSchema(vitalsFrameV2Schema, { target: 'draft-2020-12', io: 'input' });
  const document = { ...schema, $id: 'https://vitalis.example/schemas/vitals-frame-v2.schema.json' };
  return `${JSON.stringify(document, null, 2)}\n`;
}

const FILES = [
  { path: JSON_SCHEMA_PATH, render: renderJsonSchema },
  { path: FRAME_JSON_SCHEMA_PATH, render: renderFrameJsonSchema },
  { path: FRAME_V2_JSON_SCHEMA_PATH, render: renderFrameV2JsonSchema },
];

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const { path, render } of FILES) {
    const rendered = render();
    if (process.argv.includes('--check')) {
      const current = await readFile(path, 'utf8').catch(() => '');
      if (current !== rendered) {
        process.stderr.write(`${path} is stale: run node --import tsx schemas/scripts/export-json-schema.ts\n`);
        process.exit(1);
      }
    } else {
      await writeFile(path, rendered);
      process.stdout.write(`wrote ${path}\n`);
    }
  }
}
