/**
 * One PROBLEMS table (issue 32 item 6): every problem kind the server answers is defined once, in
 * libs/http/src/problem.ts, with its status and title; handlers build problems with `problemOf` or
 * a named factory. This checks the table's entries, the framework kinds derived from it, and
 * scans apps/ and libs/ for a `new HttpProblem(` anywhere else than problem.ts and the files that
 * subclass HttpProblem (a subclass constructs through `super` and may re-resolve itself).
 */
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_KINDS, PROBLEMS, problemBody, problemForStatus, problemOf, type ProblemKind, type ProblemSpec } from '@vitalis/http';
import { ROOT, sources } from '../foundation/source-imports';

const entries = Object.entries(PROBLEMS) as [ProblemKind, ProblemSpec][];

describe('PROBLEMS', () => {
  it.each(entries)('%s has an error status, a title and a line for the catalogue', (kind, spec) => {
    expect(kind).toMatch(/^[a-z]+(?:-[a-z0-9]+)*$/);
    expect(spec.status).toBeGreaterThanOrEqual(400);
    expect(spec.status).toBeLessThanOrEqual(599);
    expect(spec.title.trim()).not.toBe('');
    expect(spec.when.trim()).not.toBe('');
  });

  it('marks at most one framework kind per status', () => {
    const statuses = entries.filter(([, spec]) => spec.framework).map(([, spec]) => spec.status);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(FRAMEWORK_KINDS.size).toBe(statuses.length);
  });

  it('problemOf takes the status and title from the table', () => {
    const p = problemOf('range-not-satisfiable', 'outside', undefined, { 'content-range': 'bytes */3' });
    expect(problemBody('https://x', p)).toEqual({
      type: 'https://x/errors/range-not-satisfiable',
      title: 'Range Not Satisfiable',
      status: 416,
      detail: 'outside',
    });
    expect(p.headers).toEqual({ 'content-range': 'bytes */3' });
    expect(problemOf('unprocessable', 'd', { errors: [] }).extensions).toEqual({ errors: [] });
  });

  it('problemForStatus answers the framework kind of a status, else internal (5xx) or bad-request with that status', () => {
    const seen = (status: number) => {
      const p = problemForStatus(status, 'd');
      return [p.status, p.kind, p.title];
    };
    expect(seen(400)).toEqual([400, 'bad-request', 'Bad Request']);
    expect(seen(403)).toEqual([403, 'forbidden', 'Forbidden']);
    expect(seen(429)).toEqual([429, 'rate-limited', 'Too Many Requests']);
    expect(seen(431)).toEqual([431, 'headers-too-large', 'Request Header Fields Too Large']);
    expect(seen(500)).toEqual([500, 'internal', 'Internal Server Error']);
    expect(seen(502)).toEqual([502, 'internal', 'Internal Server Error']);
    expect(seen(409)).toEqual([409, 'bad-request', 'Bad Request']);
  });
});

describe('no problem built inline', () => {
  const files = [...sources(join(ROOT, 'apps')), ...sources(join(ROOT, 'libs'))].map((p) => ({
    path: relative(ROOT, p).split(sep).join('/'),
    text: readFileSync(p, 'utf8'),
  }));
  const subclassing = (text: string) => /\bextends HttpProblem\b/.test(text);

  it('finds the subclass files it exempts', () => {
    expect(files.filter((f) => subclassing(f.text)).map((f) => f.path)).toContain('apps/gateway/src/access/refusal.ts');
  });

  it('builds every HttpProblem through PROBLEMS (problemOf or a named factory), outside problem.ts and its subclasses', () => {
    const inline = files
      .filter((f) => f.path !== 'libs/http/src/problem.ts' && !subclassing(f.text))
      .flatMap((f) =>
        f.text
          .split('\n')
          .map((line, i) => ({ line, at: `${f.path}:${i + 1}` }))
          .filter(({ line }) => line.includes('new HttpProblem(')),
      )
      .map(({ at }) => at);
    expect(inline, 'use problemOf(kind, detail, ...) from @vitalis/http (add the kind to PROBLEMS)').toEqual([]);
  });
});
