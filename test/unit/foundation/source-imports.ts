/**
 * The import scanner the foundation tests share (workspace-deps.test.ts, layering.test.ts): the
 * TypeScript sources of a folder and the module specifiers each one imports (static, side-effect,
 * re-export and dynamic imports), read as text so no module is loaded.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';

/** The repository's root folder. */
export const ROOT = join(import.meta.dirname, '../../..');
const BUILTINS = new Set(builtinModules);

/** Every .ts/.tsx source under `dir` (not declarations, dependencies, hidden or generated folders). */
export function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'generated') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The specifiers a source text imports, in order, each once. */
export function specifiersOf(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(IMPORT)) {
    const specifier = m[1] ?? m[2] ?? m[3];
    if (specifier) found.add(specifier);
  }
  return [...found];
}

/** The specifiers a source file imports. */
export const importsOf = (file: string): string[] => specifiersOf(readFileSync(file, 'utf8'));

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`). */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? undefined : name;
}
