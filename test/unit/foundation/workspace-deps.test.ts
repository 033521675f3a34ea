/**
 * Every workspace package declares the packages its sources import (issue 20 item 6): a package
 * that works only because the root (or a sibling) happens to install its dependency breaks when
 * it is built or published on its own. Sources are every .ts/.tsx file under a workspace's
 * folder; the tests (test/) belong to the root package.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
const BUILTINS = new Set(builtinModules);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'generated') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`). */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  return BUILTINS.has(name) ? undefined : name;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const m of text.matchAll(IMPORT)) {
    const pkg = packageOf(m[1] ?? m[2] ?? m[3] ?? '');
    if (pkg) found.add(pkg);
  }
  return [...found];
}

describe('workspace packages declare what they import', () => {
  it('the import scanner finds scoped, bare, side-effect and dynamic imports, not builtins or relative ones', () => {
    expect(packageOf('@vitalis/db')).toBe('@vitalis/db');
    expect(packageOf('@modelcontextprotocol/sdk/server/mcp.js')).toBe('@modelcontextprotocol/sdk');
    expect(packageOf('jose')).toBe('jose');
    expect(packageOf('node:crypto')).toBeUndefined();
    expect(packageOf('fs')).toBeUndefined();
    expect(packageOf('./store')).toBeUndefined();
  });

  for (const workspace of rootPkg.workspaces) {
    const dir = join(ROOT, workspace);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    it(`${pkg.name} (${workspace})`, () => {
      const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), pkg.name]);
      const missing: string[] = [];
      for (const file of sources(dir)) {
        for (const name of importedPackages(file)) if (!declared.has(name)) missing.push(`${relative(ROOT, file)}: ${name}`);
      }
      expect(missing).toEqual([]);
    });
  }
});
