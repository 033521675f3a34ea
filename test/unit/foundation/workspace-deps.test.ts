/**
 * Every workspace package declares the packages its sources import (issue 20 item 6): a package
 * that works only because the root (or a sibling) happens to install its dependency breaks when
 * it is built or published on its own. Sources are every .ts/.tsx file under a workspace's
 * folder; the tests (test/) belong to the root package.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, packageOf, ROOT, sources } from './source-imports';

const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };

function importedPackages(file: string): string[] {
  return [
    ...new Set(
      importsOf(file)
        .map(packageOf)
        .filter((name): name is string => name !== undefined),
    ),
  ];
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
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    it(`${pkg.name} (${workspace})`, () => {
      const declared = new Set([
        ...Object.keys(pkg.dependencies ?? {}),
        ...Object.keys(pkg.devDependencies ?? {}),
        ...Object.keys(pkg.peerDependencies ?? {}),
        pkg.name,
      ]);
      const missing: string[] = [];
      for (const file of sources(dir)) {
        for (const name of importedPackages(file)) if (!declared.has(name)) missing.push(`${relative(ROOT, file)}: ${name}`);
      }
      expect(missing).toEqual([]);
    });
  }
});
