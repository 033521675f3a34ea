/**
 * Every relative link in the repository's Markdown resolves: the file or folder exists and, for a
 * `#fragment` into a Markdown file, a heading with that GitHub anchor is in it. Docs move (the root
 * README was split into docs/); a link left pointing at the old place fails here, not in a reader's
 * browser. Links inside code (fenced blocks, `spans`) and absolute URLs are not checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Folders that are not the project's own documents (dependencies, generated output); hidden
 *  folders (.git, .data, .venv, tool caches) are skipped too. */
const SKIPPED_DIRS = new Set(['node_modules', 'artifacts', 'dist', 'coverage']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : markdownFiles(path);
    return entry.isFile() && entry.name.endsWith('.md') ? [path] : [];
  });
}

/**
 * The text outside fenced code blocks, line by line (line numbers kept); inline code spans are
 * dropped too unless `keepSpans` (a heading's anchor includes its code spans' text).
 */
function proseLines(markdown: string, keepSpans = false): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = null;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return keepSpans ? line.replace(/`/g, '') : line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** Link targets: inline `[text](target "title")`, images, and reference definitions `[x]: target`. */
function linkTargets(line: string): string[] {
  const targets: string[] = [];
  for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!.replace(/^<|>$/g, ''));
  const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
  if (definition) targets.push(definition[1]!);
  return targets;
}

/** GitHub's heading anchors: lower-cased, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown, true)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

function brokenLinks(file: string, markdown: string, anchorsOf: (path: string) => Set<string>): BrokenLink[] {
  const broken: BrokenLink[] = [];
  proseLines(markdown).forEach((line, index) => {
    for (const target of linkTargets(line)) {
      if (isExternal(target)) continue;
      const [rawPath = '', fragment] = target.split('#', 2);
      const path = rawPath === '' ? file : resolve(dirname(file), decodeURIComponent(rawPath));
      const at = { file: relative(root, file), line: index + 1, target };
      if (!existsSync(path)) {
        broken.push({ ...at, reason: 'no such file or folder' });
      } else if (
        fragment &&
        path.endsWith('.md') &&
        statSync(path).isFile() &&
        !anchorsOf(path).has(decodeURIComponent(fragment).toLowerCase())
      ) {
        broken.push({ ...at, reason: `no heading #${fragment} in ${relative(root, path)}` });
      }
    }
  });
  return broken;
}

describe('markdown link checker', () => {
  it('skips code, reads inline links and reference definitions', () => {
    const md = ['see [a](docs/a.md) and `[b](nope.md)`', '```', '[c](nope.md)', '```', '[d]: ./d.md "D"'].join('\n');
    expect(proseLines(md).flatMap(linkTargets)).toEqual(['docs/a.md', './d.md']);
  });

  it('makes GitHub anchors from headings', () => {
    const anchors = headingAnchors('# Quick start\n## `make test`: the suite\n## Quick start\n```\n# not a heading\n```');
    expect([...anchors]).toEqual(['quick-start', 'make-test-the-suite', 'quick-start-1']);
  });
});

describe('documentation links', () => {
  it('every relative link in every Markdown file resolves', () => {
    const cache = new Map<string, Set<string>>();
    const anchorsOf = (path: string) => {
      if (!cache.has(path)) cache.set(path, headingAnchors(readFileSync(path, 'utf8')));
      return cache.get(path)!;
    };
    const files = markdownFiles(root);
    expect(files.length).toBeGreaterThan(10);
    const broken = files.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8'), anchorsOf));
    expect(broken.map((b) => `${b.file}:${b.line}: ${b.target} (${b.reason})`)).toEqual([]);
  });
});
