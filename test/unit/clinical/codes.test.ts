/**
 * One owner per vital code: a code is written once, in schemas/src/vitals.ts (`VITAL_CODE`,
 * `OXYGEN_FLOW`), and everything else (NEWS2, alert rules, simulator, catalog, UI cards, clients)
 * names it from there. This scans every TypeScript source under apps/, libs/ and schemas/ and fails
 * on a code in any string, template or number literal outside its owner, including the browser JS
 * and HTML the cards carry as template strings. Comments may cite codes (they do not drive anything).
 *
 * Not scanned, with the reason:
 * - `libs/client-ts/src/generated/`: generated from schemas/openapi.json (the schemas' export).
 * - tests (`test/`, not under these roots): fixtures say which code they send on purpose.
 * - the Python and Go clients: not TypeScript; the Python client's `VITAL_CODES` is pinned to the
 *   owner below, the Go client names no code (its types take any string).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { OXYGEN_FLOW, VITAL_CODE, VITAL_CODES } from '@vitalis/schemas';
import { DIAGNOSTIC_CODE } from '@vitalis/clinical';

const ROOT = join(import.meta.dirname, '../../..');
const SCANNED = ['apps', 'libs', 'schemas'];
const GENERATED = 'libs/client-ts/src/generated/';

/** Each code and the one file allowed to write it. */
const OWNER = 'schemas/src/vitals.ts';
const OWNED_CODES = [...Object.values(VITAL_CODE), OXYGEN_FLOW.code];
/**
 * Any LOINC-shaped code (digits, dash, check digit), so a new code cannot slip in unnamed either.
 * The only other one allowed: LOINC 2708-6, the extra coding the FHIR R4 oxygen saturation profile
 * requires next to 59408-5, which belongs to the FHIR mapping.
 */
const LOINC_SHAPE = /(?<![\w.-])\d{3,5}-\d(?![\w.-])/g;
const OTHER_OWNERS: Record<string, string> = { '2708-6': 'schemas/src/fhir.ts' };
/** Diagnostic tests and results (issue 21) have their own one owner, the diagnostics catalog. */
const DIAGNOSTICS_OWNER = 'libs/clinical/src/diagnostics.ts';
for (const code of Object.values(DIAGNOSTIC_CODE)) OTHER_OWNERS[code] = DIAGNOSTICS_OWNER;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The text of every string, template and numeric literal of a file, with its line. */
function literals(path: string): Array<{ text: string; line: number }> {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: Array<{ text: string; line: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isNumericLiteral(node)) {
      // a raw template's text is its source text (String.raw cards): read what is written
      const text = ts.isTemplateLiteralToken(node) || ts.isNoSubstitutionTemplateLiteral(node) ? (node.rawText ?? node.text) : node.text;
      out.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

function codesIn(text: string): string[] {
  const found = new Set(text.match(LOINC_SHAPE) ?? []);
  for (const code of OWNED_CODES) if (new RegExp(`(?<![\\w.-])${code}(?![\\w.-])`).test(text)) found.add(code);
  return [...found];
}

const files = SCANNED.flatMap((d) => sourceFiles(join(ROOT, d)))
  .map((p) => relative(ROOT, p).split('\\').join('/'))
  .filter((p) => !p.startsWith(GENERATED));

describe('vital codes have one owner', () => {
  it('scans the TypeScript sources (sanity: the owner and the cards are among them)', () => {
    expect(files).toContain(OWNER);
    expect(files).toContain('apps/gateway/src/ui/monitor.ts');
    expect(files.length).toBeGreaterThan(100);
  });

  it('the owner writes every code (the scan would see a code there)', () => {
    const owned = new Set(literals(join(ROOT, OWNER)).flatMap((l) => codesIn(l.text)));
    for (const code of OWNED_CODES) expect(owned.has(code), code).toBe(true);
  });

  it('the diagnostics owner writes every diagnostic code, and none is a vital code', () => {
    const owned = new Set(literals(join(ROOT, DIAGNOSTICS_OWNER)).flatMap((l) => codesIn(l.text)));
    for (const code of Object.values(DIAGNOSTIC_CODE)) expect(owned.has(code), code).toBe(true);
    for (const code of Object.values(DIAGNOSTIC_CODE)) expect(OWNED_CODES as string[], code).not.toContain(code);
  });

  it('no code literal occurs outside its owner module', () => {
    const strays: string[] = [];
    for (const file of files) {
      for (const { text, line } of literals(join(ROOT, file))) {
        for (const code of codesIn(text)) {
          const owner = OTHER_OWNERS[code] ?? OWNER;
          if (file !== owner) strays.push(`${file}:${line} ${code} (owner: ${owner})`);
        }
      }
    }
    expect(strays).toEqual([]);
  });

  it("the Python client's VITAL_CODES list is the owner's", () => {
    const py = readFileSync(join(ROOT, 'libs/client-py/src/vitalis_client/operations.py'), 'utf8');
    const list = /^VITAL_CODES = \[([^\]]*)\]/m.exec(py)?.[1];
    expect(list).toBeDefined();
    expect([...list!.matchAll(/"([^"]+)"/g)].map((m) => m[1])).toEqual([...VITAL_CODES]);
  });
});
