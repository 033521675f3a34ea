/**
 * One access policy (issue 30): no module decides what a caller may reach from its token's
 * scopes, roles, patient or sandbox flag except apps/gateway/src/access/policy.ts. Scans every .ts
 * file of apps/gateway/src for a read of those fields on a principal (`principal`, `who`,
 * `caller.principal`, `req.principal`, or a local name bound to one) and fails on any outside the
 * owners: the policy itself and the auth layer (apps/gateway/src/auth/), which mints, verifies and
 * narrows tokens but decides no patient data. Echoing the token back to its holder (an identity
 * answer, a stream's ready message) is not a decision; those lines are listed below with why.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const GATEWAY = join(ROOT, 'apps', 'gateway', 'src');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(relative(ROOT, path).split(sep).join('/'));
  }
  return out;
}

const OWNERS = (file: string) => file === 'apps/gateway/src/access/policy.ts' || file.startsWith('apps/gateway/src/auth/');

/** Lines that show the holder its own token (no decision), by file and the text they contain. */
const ECHOES: [file: string, text: string, why: string][] = [
  ['apps/gateway/src/mcp/tools/identity.ts', 'scopes: p.scopes', 'the whoami tool shows the token to its holder'],
  ['apps/gateway/src/mcp/tools/identity.ts', 'roles: p.roles', 'the whoami tool shows the token to its holder'],
  ['apps/gateway/src/mcp/tools/identity.ts', 'patient_id: p.patientId', 'the whoami tool shows the token to its holder'],
  ['apps/gateway/src/mcp/tools/identity.ts', "p.scopes.join(' ')", 'the whoami tool shows the token to its holder'],
  ['apps/gateway/src/mcp/index.ts', 'scopes: principal.scopes', "the MCP session's auth info (the SDK's AuthInfo)"],
  ['apps/gateway/src/live/ws.ts', 'scopes: principal.scopes', "the WebSocket's ready message tells the client what its token holds"],
];

const FIELDS = '(?:scopes|roles|patientId|sandbox)';

/** Names bound to a principal in a file: parameters typed Principal, and locals assigned one. */
function principalNames(text: string): string[] {
  const names = new Set(['principal', 'who']);
  for (const m of text.matchAll(/\b(\w+)\??:\s*Principal\b/g)) names.add(m[1]!);
  for (const m of text.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*[\w.?]*\bprincipal\b\s*[;!]/g)) names.add(m[1]!);
  return [...names];
}

export function decisionsOutsidePolicy(): string[] {
  const found: string[] = [];
  for (const file of sources(GATEWAY)) {
    if (OWNERS(file)) continue;
    const text = readFileSync(join(ROOT, file), 'utf8');
    const names = principalNames(text).join('|');
    const read = new RegExp(`(?:\\b(?:${names})|\\.principal)\\??\\.${FIELDS}\\b`);
    text.split('\n').forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
      if (!read.test(code)) return;
      if (ECHOES.some(([f, t]) => f === file && code.includes(t))) return;
      found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

describe('one access policy', () => {
  it("no module outside the policy and the auth layer reads a principal's scopes, roles, patient or sandbox flag", () => {
    expect(decisionsOutsidePolicy()).toEqual([]);
  });

  it('the scan finds such a read (a rule written in a service)', () => {
    // the scanner itself: the old patient rule, as it stood in access/caller.ts, is found
    const names = principalNames('export function patientView(p: Principal, id: string) { if (p.patientId !== undefined) return 1; }');
    expect(names).toContain('p');
    expect(new RegExp(`\\b(?:${names.join('|')})\\??\\.${FIELDS}\\b`).test('if (p.patientId !== undefined) return 1;')).toBe(true);
    expect(
      new RegExp(`(?:\\b(?:${names.join('|')})|\\.principal)\\??\\.${FIELDS}\\b`).test(
        "const withVitals = caller.principal.scopes.includes('read:vitals');",
      ),
    ).toBe(true);
  });

  it('every echo listed is still there (a stale entry would hide nothing, but says something untrue)', () => {
    for (const [file, text] of ECHOES) expect(readFileSync(join(ROOT, file), 'utf8'), file).toContain(text);
  });
});
