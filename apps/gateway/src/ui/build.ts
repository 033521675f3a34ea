/**
 * The cards' build step, in memory at gateway start-up (esbuild's JS API, once per process): each
 * card's browser code (cards/<card>/main.ts, TypeScript with the shared runtime and the client's
 * SSE reader) is bundled into one script, its stylesheet (cards/<card>/style.css, importing
 * cards/shared/base.css) into one style, both to be inlined into the card's single HTML document.
 * Nothing is written to disk and nothing is fetched: the document stays self-contained, and the
 * CSP hashes are computed here from the very bytes that are inlined.
 *
 * The script is the bundle (ES module format, so its top-level names stay private) wrapped in one
 * function whose only other local is the card's data, a JSON literal (`var DATA = {…};`): what the
 * server knows and the card must not restate (vital codes, the NEWS2 table, labels).
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { buildSync, type BuildOptions } from 'esbuild';
import { scriptData } from './vitals';

/** Where the browser sources live; also esbuild's working directory, so the output names files relative to it (deterministic bytes). */
export const CARDS_DIR = fileURLToPath(new URL('./cards/', import.meta.url));

const COMMON: BuildOptions = {
  absWorkingDir: CARDS_DIR,
  bundle: true,
  write: false,
  platform: 'browser',
  target: ['es2022'],
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'silent',
};

function only(entry: string, options: BuildOptions): string {
  const result = buildSync({ ...COMMON, ...options, entryPoints: [entry] });
  const [file] = result.outputFiles ?? [];
  if (!file) throw new Error(`card build: ${entry} produced no output`);
  return file.text;
}

/**
 * A browser module bundled on its own, unwrapped (ES module text; tests run parts of a card, e.g.
 * the monitor's tile alarm, exactly as the card's script carries them).
 */
export function bundleModule(entry: string): string {
  return only(entry, { format: 'esm' });
}

/** A card's inline script: the bundle of `entry` (relative to cards/), with `data` as its `DATA`. */
export function bundleScript(entry: string, data?: unknown): string {
  const code = bundleModule(entry);
  const dataLine = data === undefined ? '' : `  var DATA = ${scriptData(data)};\n`;
  return `(function () {\n  'use strict';\n${dataLine}${code}})();\n`;
}

/** A card's inline style: `entry` (relative to cards/) with its @imports resolved, minified. */
export function bundleStyle(entry: string): string {
  return only(entry, { minify: true }).trimEnd();
}

/** A CSP source expression for an inline element's text: `'sha256-<base64>'` of its UTF-8 bytes. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
