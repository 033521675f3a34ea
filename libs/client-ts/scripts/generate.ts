/**
 * Writes libs/client-ts/src/generated/openapi.ts from schemas/openapi.json (`npm run openapi`
 * exports that document from the gateway's routes). `--check` only compares and exits 1 when the
 * committed file is stale; `--from <file|url>` reads another document (e.g. a running gateway's
 * `http://127.0.0.1:8080/openapi.json`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { generateTypes } from './codegen';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const out = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
const args = process.argv.slice(2);
const fromIndex = args.indexOf('--from');
const from = fromIndex >= 0 ? args[fromIndex + 1] : `${root}schemas/openapi.json`;
if (from === undefined) throw new Error('--from needs a path or an http(s) URL of the OpenAPI document');
const source = from;

const text = /^https?:\/\//.test(source) ? await (await fetch(source)).text() : await readFile(source, 'utf8');
const generated = await generateTypes(JSON.parse(text));
if (args.includes('--check')) {
  const current = await readFile(out, 'utf8').catch(() => '');
  if (current !== generated) {
    console.error(`${out} is stale: run npm run generate -w @vitalis/client`);
    process.exit(1);
  }
  console.log('generated types are current');
} else {
  await writeFile(out, generated);
  console.log(`wrote ${out} from ${source}`);
}
