/**
 * The code-shape rule (issue 32 item 6): no function over 80 lines and no source file over 400 lines
 * unless a comment says why.
 *
 * - A function (declaration, expression, arrow, method, accessor, constructor) over 80 lines passes
 *   only when a line of its own leading comment — or of the leading comment of what it is the direct
 *   value or argument of: `export function x`, `const x = () =>`, `key: () =>`, the callback of
 *   `app.get(...)` — starts with `Long:` followed by the reason. Nested functions count on their
 *   own, and an outer function counts with the lines of its inner ones.
 * - A file over 400 lines passes only when its first comment block has such a `Long:` line.
 *
 * Every .ts source under apps/, libs/ and schemas/ (not generated/, not declarations) is parsed
 * with the TypeScript compiler API; a failure names each offender with its place and length.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, sources } from './source-imports';

const MAX_FUNCTION_LINES = 80;
const MAX_FILE_LINES = 400;
const TREES = ['apps', 'libs', 'schemas'];

/** A comment line that gives the reason: `Long:` and at least one word, after the comment's own markers. */
const REASON = /^[ \t]*(?:\/\*+|\*|\/\/)?[ \t]*Long:[ \t]*[^\s*]/m;

/** One long function or file without a reason: `key` for the allow-list, `where` for the message. */
interface Offender {
  key: string;
  where: string;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.AccessorDeclaration
  | ts.ConstructorDeclaration;

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isConstructorDeclaration(node)
  );
}

/** The leading comments of a node, as text. */
function leadingComments(text: string, node: ts.Node): string[] {
  return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).map((r) => text.slice(r.pos, r.end));
}

/**
 * The nodes whose leading comment may carry a function's reason: the function itself, then what it
 * is the direct value or argument of, up to the statement, property or class member that holds it.
 */
function hostsOf(fn: FunctionNode): ts.Node[] {
  const hosts: ts.Node[] = [fn];
  let node: ts.Node = fn;
  for (;;) {
    const parent: ts.Node = node.parent;
    const carries =
      ts.isVariableDeclaration(parent) ||
      ts.isVariableDeclarationList(parent) ||
      ts.isParenthesizedExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isSatisfiesExpression(parent) ||
      ts.isAwaitExpression(parent) ||
      (ts.isCallExpression(parent) && parent.arguments.some((argument) => argument === node)) ||
      ts.isStatement(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isExportAssignment(parent);
    if (!carries || ts.isBlock(parent) || ts.isSourceFile(parent)) return hosts;
    hosts.push(parent);
    if (ts.isStatement(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isExportAssignment(parent)) {
      return hosts;
    }
    node = parent;
  }
}

/** A readable name for a function: its own, its variable's or property's, or the call it is an argument of. */
function nameOf(fn: FunctionNode, file: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(fn)) return 'constructor';
  if (fn.name !== undefined) return fn.name.getText(file);
  const parent = fn.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  ) {
    return parent.name.getText(file);
  }
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(file)}(…) callback`;
  if (ts.isReturnStatement(parent)) {
    let outer: ts.Node | undefined = parent.parent;
    while (outer !== undefined && !isFunction(outer)) outer = outer.parent;
    return outer === undefined ? 'returned function' : `${nameOf(outer, file)}'s returned function`;
  }
  return '(anonymous)';
}

/** The number of lines a text spans (a final newline ends the last line, it does not start one). */
const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

/** The long functions and the long file of one source text that carry no `Long:` reason. */
function offendersIn(path: string, text: string): Offender[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: Offender[] = [];
  const fileLines = lineCount(text);
  const header = ts.getLeadingCommentRanges(text, 0)?.[0];
  if (fileLines > MAX_FILE_LINES && (header === undefined || !REASON.test(text.slice(header.pos, header.end)))) {
    out.push({ key: path, where: `${path}: ${fileLines} lines (over ${MAX_FILE_LINES}) without a Long: line in its first comment` });
  }
  const visit = (node: ts.Node): void => {
    if (isFunction(node)) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const lines = file.getLineAndCharacterOfPosition(node.getEnd()).line - start + 1;
      const reasoned = hostsOf(node).some((host) => leadingComments(text, host).some((c) => REASON.test(c)));
      if (lines > MAX_FUNCTION_LINES && !reasoned) {
        const name = nameOf(node, file);
        out.push({
          key: `${path}:${name}`,
          where: `${path}:${start + 1} ${name}: ${lines} lines (over ${MAX_FUNCTION_LINES}) without a Long: line in its leading comment`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** A planted function whose body spans `lines` lines in all. */
const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');

/** The offenders' keys of each planted snippet, each read as a file of its own. */
const offendingKeys = (snippets: readonly string[]) => snippets.flatMap((text) => offendersIn('apps/x/src/a.ts', text).map((o) => o.key));

describe('the checker', () => {
  it('names a long function declaration, arrow, method and route callback', () => {
    const snippets = [
      `export function declared() {\n${body(81)}\n}`,
      `const arrow = () => {\n${body(81)}\n};`,
      `class K {\n  method() {\n${body(81)}\n  }\n}`,
      `app.get('/x', async (req) => {\n${body(81)}\n});`,
      `export function plugin() {\n  return async (app) => {\n${body(81)}\n  };\n}`,
    ];
    expect(offendingKeys(snippets)).toEqual([
      'apps/x/src/a.ts:declared',
      'apps/x/src/a.ts:arrow',
      'apps/x/src/a.ts:method',
      'apps/x/src/a.ts:app.get(…) callback',
      'apps/x/src/a.ts:plugin',
      "apps/x/src/a.ts:plugin's returned function",
    ]);
  });

  it('passes a function of 80 lines and one with a Long: reason on itself or what it is the value or argument of', () => {
    const snippets = [
      `function exact() {\n${body(80)}\n}`,
      `/**\n * A table.\n * Long: one row per code.\n */\nexport function table() {\n${body(90)}\n}`,
      `// Long: a list of routes.\nexport const routes = async (app) => {\n${body(90)}\n};`,
      `// Long: the route's steps in order.\napp.get('/x', async (req) => {\n${body(90)}\n});`,
      `const o = {\n  /** Long: a renderer. */\n  render: () => {\n${body(90)}\n  },\n};`,
      `// Long: a plugin.\nexport default fp(async (app) => {\n${body(90)}\n});`,
      `// Long: the plugin and its routes.\nexport function plugin() {\n  // Long: a list of routes.\n  return async (app) => {\n${body(90)}\n  };\n}`,
    ];
    expect(offendingKeys(snippets)).toEqual([]);
  });

  it("does not take an outer function's reason for an inner one, nor a word that is not the line's start", () => {
    const snippets = [
      `// Long: a list of routes.\nexport function outer() {\n  const inner = () => {\n${body(85)}\n  };\n}`,
      `/** Too Long: not a reason. */\nfunction notReason() {\n${body(85)}\n}`,
      `/** Long:\n */\nfunction emptyReason() {\n${body(85)}\n}`,
    ];
    expect(offendingKeys(snippets)).toEqual(['apps/x/src/a.ts:inner', 'apps/x/src/a.ts:notReason', 'apps/x/src/a.ts:emptyReason']);
  });

  it('names a file over 400 lines unless its first comment has a Long: line', () => {
    const long = Array.from({ length: 401 }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';
    expect(offendersIn('libs/x/src/big.ts', long).map((o) => o.key)).toEqual(['libs/x/src/big.ts']);
    expect(offendersIn('libs/x/src/big.ts', `/**\n * Constants.\n * Long: a table.\n */\n${long}`)).toEqual([]);
    expect(offendersIn('libs/x/src/big.ts', `/** Constants. */\n// Long: a table.\n${long}`).map((o) => o.key)).toEqual([
      'libs/x/src/big.ts',
    ]);
    expect(offendersIn('libs/x/src/ok.ts', long.split('\n').slice(1).join('\n'))).toEqual([]);
  });
});

describe('the sources', () => {
  const offenders = TREES.flatMap((tree) => sources(join(ROOT, tree))).flatMap((file) =>
    offendersIn(relative(ROOT, file), readFileSync(file, 'utf8')),
  );

  it('the sources are read (the scan is not empty)', () => {
    expect(TREES.flatMap((tree) => sources(join(ROOT, tree))).length).toBeGreaterThan(100);
  });

  it(`no function over ${MAX_FUNCTION_LINES} lines and no file over ${MAX_FILE_LINES} lines without a Long: reason`, () => {
    expect(offenders.map((o) => o.where)).toEqual([]);
  });
});
