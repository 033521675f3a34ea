/**
 * The layering rule (issue 32 item 2, docs/adr/0022-layering.md): the gateway's domains lie below
 * the faces that serve them, only the composition root registers route modules, and no folder
 * imports, directly or around a loop, a folder that imports it back.
 *
 * - A domain folder never imports a face folder or any `routes.ts` (its own included): the faces
 *   (REST routes, FHIR, MCP, live transports, UI, the developer portal) call the domains, never
 *   the other way round.
 * - Only `app.ts` imports a `routes.ts`: what a face needs of a domain (JSON shapes, schemas, FHIR
 *   mappings) lives in a module of the domain that its routes import too.
 * - No cycle between the top-level folders and files of any app's `src`, between the workspace
 *   packages (libs/ and schemas/), or between the top-level folders of a package's `src` (a package
 *   is one unit for the others; its top-level files are its own business).
 * - No cycle between the files of one folder, in any folder of an app's or a package's `src`: what
 *   two files share lives in the lower one or in a small module of its own.
 *
 * A failure names every import that breaks the rule (for a cycle: every import between the
 * folders of the loop), read as text by the scanner workspace-deps.test.ts uses too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, posix, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, packageOf, ROOT, sources, specifiersOf } from './source-imports';

/** The gateway's source folder, its composition root, and its folders by layer. */
const GATEWAY = 'apps/gateway/src';
const COMPOSITION_ROOT = `${GATEWAY}/app.ts`;
const DOMAINS = ['patients', 'appointments', 'diagnostics', 'triage', 'vitals', 'alarms', 'catalog', 'audit'];
const FACES = ['fhir', 'mcp', 'live', 'ui', 'developer'];

/** Repository-relative source file → the specifiers it imports. */
type SourceImports = ReadonlyMap<string, readonly string[]>;

/** One import between two files of the same tree, both repository-relative. */
interface Import {
  from: string;
  to: string;
}

const describeImport = (i: Import) => `${i.from} -> ${i.to}`;

/** The sources under a folder (repository-relative) with what each imports, read from disk. */
function readSources(folder: string): SourceImports {
  return new Map(sources(join(ROOT, folder)).map((file): [string, string[]] => [relative(ROOT, file), importsOf(file)]));
}

/** The file a relative specifier names among `files` (`x`, `x.ts`, `x.tsx`, `x/index.ts`); undefined for a package or a file outside. */
function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => files.has(candidate));
}

/** Every relative import between the given sources. */
function importsWithin(tree: SourceImports): Import[] {
  const files = new Set(tree.keys());
  return [...tree].flatMap(([from, specifiers]) =>
    specifiers.flatMap((specifier) => {
      const to = resolveRelative(from, specifier, files);
      return to === undefined ? [] : [{ from, to }];
    }),
  );
}

/** The unit of a file under `root`: its top-level folder, or the top-level file without its extension. */
function unitOf(root: string, file: string): string {
  const [first, ...rest] = posix.relative(root, file).split('/');
  return rest.length > 0 ? first! : first!.replace(/\.tsx?$/, '');
}

/** The strongly connected sets of more than one unit (Tarjan), each sorted; a cycle is inside one. */
function stronglyConnected(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const set: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      set.push(w);
    } while (w !== v);
    if (set.length > 1) found.push(set.sort());
  };
  const nodes = new Set([...edges.keys(), ...[...edges.values()].flatMap((targets) => [...targets])]);
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return found;
}

/**
 * The cycles between units: one line per import joining two units of the same cycle, as
 * `[unit, unit, ...] a.ts -> b.ts`. `unit` maps a file to its unit; imports inside a unit are not arrows.
 */
function cyclesBetween(imports: readonly Import[], unit: (file: string) => string): string[] {
  const edges = new Map<string, Set<string>>();
  for (const i of imports) {
    const [a, b] = [unit(i.from), unit(i.to)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  }
  return stronglyConnected(edges).flatMap((members) => {
    const inCycle = new Set(members);
    return imports
      .filter((i) => unit(i.from) !== unit(i.to) && inCycle.has(unit(i.from)) && inCycle.has(unit(i.to)))
      .map((i) => `[${members.join(', ')}] ${describeImport(i)}`);
  });
}

/** The cycles between files of the same folder (imports between folders are the rules above). */
function fileCyclesInFolders(imports: readonly Import[]): string[] {
  return cyclesBetween(
    imports.filter((i) => posix.dirname(i.from) === posix.dirname(i.to)),
    (file) => file,
  );
}

const isRoutesModule = (file: string) => /^routes\.tsx?$/.test(basename(file));

/** The folders of a gateway-shaped app by layer, and its composition root (all repository-relative). */
interface Layers {
  root: string;
  compositionRoot: string;
  domains: readonly string[];
  faces: readonly string[];
}

/** Imports that break the layers: a domain importing a face; anyone but the composition root importing a routes module. */
function layerViolations(imports: readonly Import[], layers: Layers): string[] {
  const unit = (file: string) => unitOf(layers.root, file);
  const out: string[] = [];
  for (const i of imports) {
    const [from, to] = [unit(i.from), unit(i.to)];
    if (layers.domains.includes(from) && layers.faces.includes(to)) out.push(`domain ${from} imports face ${to}: ${describeImport(i)}`);
    if (isRoutesModule(i.to) && i.from !== layers.compositionRoot) {
      out.push(`only ${layers.compositionRoot} imports a routes module: ${describeImport(i)}`);
    }
  }
  return out;
}

const GATEWAY_LAYERS: Layers = { root: GATEWAY, compositionRoot: COMPOSITION_ROOT, domains: DOMAINS, faces: FACES };

interface Workspace {
  name: string;
  folder: string;
}
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
const nameOf = (folder: string) => (JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as { name: string }).name;
const workspaceOf = (folder: string): Workspace => ({ folder, name: nameOf(folder) });
const APPS = rootPkg.workspaces.filter((w) => w.startsWith('apps/') && existsSync(join(ROOT, w, 'src')));
const PACKAGES = rootPkg.workspaces.filter((w) => !w.startsWith('apps/')).map(workspaceOf);

/** Imports between workspace packages, as imports from a source file to the package's folder. */
function packageImports(packages: readonly Workspace[], read: (folder: string) => SourceImports): Import[] {
  const folderOf = new Map(packages.map((p): [string, string] => [p.name, p.folder]));
  return packages.flatMap((p) =>
    [...read(p.folder)].flatMap(([from, specifiers]) =>
      specifiers.flatMap((specifier) => {
        const name = packageOf(specifier);
        const to = name === undefined || name === p.name ? undefined : folderOf.get(name);
        return to === undefined ? [] : [{ from, to }];
      }),
    ),
  );
}

describe('the checker', () => {
  const planted = (files: Record<string, string>): SourceImports =>
    new Map(Object.entries(files).map(([file, text]): [string, string[]] => [file, specifiersOf(text)]));
  const layers: Layers = { root: 'apps/x/src', compositionRoot: 'apps/x/src/app.ts', domains: ['orders'], faces: ['fhir'] };

  it('catches a planted cycle and names its imports', () => {
    const tree = planted({
      'apps/x/src/a/one.ts': "import { two } from '../b/two';",
      'apps/x/src/b/two.ts': "export { three } from '../c';",
      'apps/x/src/c/index.ts': "const one = await import('../a/one');",
      'apps/x/src/e.ts': "import { two } from './b/two';",
    });
    expect(cyclesBetween(importsWithin(tree), (f) => unitOf('apps/x/src', f))).toEqual([
      '[a, b, c] apps/x/src/a/one.ts -> apps/x/src/b/two.ts',
      '[a, b, c] apps/x/src/b/two.ts -> apps/x/src/c/index.ts',
      '[a, b, c] apps/x/src/c/index.ts -> apps/x/src/a/one.ts',
    ]);
  });

  it('catches a face importing a routes module and a domain importing a face', () => {
    const tree = planted({
      'apps/x/src/app.ts': "import { orderRoutes } from './orders/routes';",
      'apps/x/src/orders/routes.ts': "import { orderOut } from './json';",
      'apps/x/src/orders/json.ts': "import { fhirReply } from '../fhir/reply';",
      'apps/x/src/fhir/reply.ts': '',
      'apps/x/src/fhir/resources.ts': "import { orderOut } from '../orders/routes';",
    });
    expect(layerViolations(importsWithin(tree), layers)).toEqual([
      'domain orders imports face fhir: apps/x/src/orders/json.ts -> apps/x/src/fhir/reply.ts',
      'only apps/x/src/app.ts imports a routes module: apps/x/src/fhir/resources.ts -> apps/x/src/orders/routes.ts',
    ]);
  });

  it('catches a cycle between the files of one folder, and not one through another folder', () => {
    const tree = planted({
      'apps/x/src/a/one.ts': "import { two } from './two';",
      'apps/x/src/a/two.ts': "import type { One } from './one';",
      'apps/x/src/b/three.ts': "import { four } from '../c/four';",
      'apps/x/src/c/four.ts': "import { three } from '../b/three';",
    });
    expect(fileCyclesInFolders(importsWithin(tree))).toEqual([
      '[apps/x/src/a/one.ts, apps/x/src/a/two.ts] apps/x/src/a/one.ts -> apps/x/src/a/two.ts',
      '[apps/x/src/a/one.ts, apps/x/src/a/two.ts] apps/x/src/a/two.ts -> apps/x/src/a/one.ts',
    ]);
  });

  it('passes a layered tree', () => {
    const tree = planted({
      'apps/x/src/app.ts': "import { orderRoutes } from './orders/routes';\nimport { fhirRoutes } from './fhir/routes';",
      'apps/x/src/orders/routes.ts': "import { orderOut } from './json';",
      'apps/x/src/orders/json.ts': "import { z } from 'zod';",
      'apps/x/src/fhir/routes.ts': "import { orderOut } from '../orders/json';",
    });
    expect(layerViolations(importsWithin(tree), layers)).toEqual([]);
    expect(cyclesBetween(importsWithin(tree), (f) => unitOf('apps/x/src', f))).toEqual([]);
  });
});

describe('the gateway: domains below faces', () => {
  const imports = importsWithin(readSources(GATEWAY));

  it('the layer table names folders that exist', () => {
    for (const folder of [...DOMAINS, ...FACES]) expect(existsSync(join(ROOT, GATEWAY, folder)), folder).toBe(true);
  });

  it('no domain imports a face or a routes module; only app.ts imports a routes module', () => {
    expect(layerViolations(imports, GATEWAY_LAYERS)).toEqual([]);
  });
});

describe('no cycle between folders', () => {
  for (const app of APPS) {
    it(`${app}/src: between its top-level folders and files`, () => {
      const root = `${app}/src`;
      expect(cyclesBetween(importsWithin(readSources(root)), (f) => unitOf(root, f))).toEqual([]);
    });
  }

  it('between the workspace packages', () => {
    const imports = packageImports(PACKAGES, readSources);
    const packageOfFile = (file: string) => PACKAGES.find((p) => file === p.folder || file.startsWith(`${p.folder}/`))?.name ?? file;
    expect(cyclesBetween(imports, packageOfFile)).toEqual([]);
  });

  for (const { name, folder } of PACKAGES.filter((p) => existsSync(join(ROOT, p.folder, 'src')))) {
    it(`${name}: between the top-level folders of its src`, () => {
      const root = `${folder}/src`;
      const inFolder = (file: string) => posix.relative(root, file).includes('/');
      const betweenFolders = importsWithin(readSources(root)).filter((i) => inFolder(i.from) && inFolder(i.to));
      expect(cyclesBetween(betweenFolders, (f) => unitOf(root, f))).toEqual([]);
    });
  }
});

describe('no cycle between the files of a folder', () => {
  const roots = [...APPS, ...PACKAGES.map((p) => p.folder)].map((w) => `${w}/src`).filter((root) => existsSync(join(ROOT, root)));
  for (const root of roots) {
    it(`${root}: in every folder`, () => {
      expect(fileCyclesInFolders(importsWithin(readSources(root)))).toEqual([]);
    });
  }
});
