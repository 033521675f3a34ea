/**
 * The tables of the documentation, never written by hand: the scope and role tables from
 * schemas/src/scopes.ts (SCOPES, ROLES, ROLE_SCOPES, PUBLIC_SCOPES), the access table from the
 * access policy, the error catalogue from libs/http's PROBLEMS. /auth.md renders the scope and
 * role tables on every request, and docs/api.md holds them between `<!-- generated: NAME -->` and
 * `<!-- end generated: NAME -->` markers. A test (test/integration/developer/walkthrough.test.ts)
 * fails when docs/api.md differs from what this renders; rewrite it with
 *   node --import tsx apps/gateway/src/developer/doc-tables.ts
 * A role added to ROLES without a line in ROLE_NOTES is a type error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROBLEMS, type ProblemKind, type ProblemSpec } from '@vitalis/http';
import { PUBLIC_SCOPES, ROLES, ROLE_SCOPES, SCOPES, SCOPE_NAMES, type Role, type Scope } from '@vitalis/schemas';
import { ACCESS_POLICY, PRINCIPAL_KINDS, type PolicyCell } from '../access/policy';

/** Who each role is for. */
export const ROLE_NOTES: Record<Role, string> = {
  doctor: 'a physician (a person signing in, or an app acting for doctors)',
  nurse: 'a nurse (a person signing in, or an app acting for nurses)',
  reception: 'the front desk: registers patients, books appointments',
  patient: 'a patient: its own record and appointments only',
  admin: 'an administrator: records, the audit trail, client approval',
  device: 'a bedside monitor or device gateway publishing vitals',
  lab: 'a laboratory, cardiology or radiology system posting diagnostic results',
  system: 'a hospital backend the operator trusts with every scope',
};

/** The SMART scopes that follow from a role's Vitalis scopes (withSmart in scopes.ts): listed once, not per role. */
const derivedSmart = (s: Scope) => s.startsWith('user/') || s.startsWith('system/') || s === 'fhirUser' || s === 'offline_access';

const code = (s: string) => `\`${s}\``;

/** Roles holding a scope (`system` holds every one and is left out); the public scopes say so. */
function holders(scope: Scope): string {
  const roles = ROLES.filter((r) => r !== 'system' && ROLE_SCOPES[r].includes(scope));
  const who = roles.length > 0 ? roles.join(', ') : '';
  if (PUBLIC_SCOPES.includes(scope)) return who ? `anyone (public scope); ${who}` : 'anyone (public scope)';
  return who || '`system` only';
}

/** | scope | grants | roles holding it |, one row per scope of SCOPES. */
export function scopeTable(): string {
  return [
    '| scope | grants | roles holding it |',
    '|---|---|---|',
    ...SCOPE_NAMES.map((s) => `| ${code(s)} | ${SCOPES[s].replaceAll('|', '\\|')} | ${holders(s)} |`),
  ].join('\n');
}

/** | role | for | scopes |, one row per role of ROLES. */
export function roleTable(): string {
  return [
    '| role | for | scopes |',
    '|---|---|---|',
    ...ROLES.map(
      (r) =>
        `| ${code(r)} | ${ROLE_NOTES[r]} | ${
          r === 'system'
            ? 'every scope'
            : ROLE_SCOPES[r]
                .filter((s) => !derivedSmart(s))
                .map(code)
                .join(' ')
        } |`,
    ),
  ].join('\n');
}

export const ROLE_TABLE_NOTE =
  'User roles also hold the SMART v2 scopes that follow from these (`user/…`, `system/…` for the resources they may read, `fhirUser`, `offline_access`; docs/smart.md).';

/**
 * | resource | action | scopes | doctor | … | no-role | sandbox |: the access policy
 * (apps/gateway/src/access/policy.ts), one row per cell, as every surface applies it.
 */
export function accessTable(): string {
  const rows: string[] = [];
  for (const [resource, actions] of Object.entries(ACCESS_POLICY)) {
    for (const [action, cell] of Object.entries(actions) as [string, PolicyCell][]) {
      const scopes = `${cell.scopes.map(code).join(' or ')}${cell.patientScopes.length > 0 ? `; a patient user: ${cell.patientScopes.map(code).join(' or ')}` : ''}${cell.alsoNeeds ? `; and ${cell.alsoNeeds.join(' ')}` : ''}${cell.users ? '; **a signed-in user only** (a token naming no user is refused)' : ''}`;
      rows.push(`| ${resource} | ${action}: ${cell.what} | ${scopes} | ${PRINCIPAL_KINDS.map((k) => cell.rules[k]).join(' | ')} |`);
    }
  }
  return [
    `| resource | action | scopes | ${PRINCIPAL_KINDS.join(' | ')} |`,
    `|---|---|---|${PRINCIPAL_KINDS.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}

/** | status | kind | when |, one row per kind of PROBLEMS (libs/http/src/problem.ts), by status. */
export function errorTable(): string {
  const kinds = (Object.entries(PROBLEMS) as [ProblemKind, ProblemSpec][]).sort(([, a], [, b]) => a.status - b.status);
  return ['| status | kind | when |', '|---|---|---|', ...kinds.map(([kind, p]) => `| ${p.status} | ${code(kind)} | ${p.when} |`)].join(
    '\n',
  );
}

export const DOC_TABLES = { scopes: scopeTable, roles: roleTable, access: accessTable, errors: errorTable } as const;
export type DocTable = keyof typeof DOC_TABLES;

const markers = (name: string) =>
  [`<!-- generated: ${name} (apps/gateway/src/developer/doc-tables.ts) -->`, `<!-- end generated: ${name} -->`] as const;

/** `markdown` with every marked table replaced by what DOC_TABLES renders now. */
export function withGeneratedTables(markdown: string): string {
  let out = markdown;
  for (const [name, render] of Object.entries(DOC_TABLES)) {
    const [begin, end] = markers(name);
    const from = out.indexOf(begin);
    const to = out.indexOf(end);
    if (from < 0 || to < from) continue;
    out = `${out.slice(0, from + begin.length)}\n${render()}\n${out.slice(to)}`;
  }
  return out;
}

/** The generated tables a Markdown document holds (names), for the test that checks they are current. */
export function generatedTablesIn(markdown: string): DocTable[] {
  return (Object.keys(DOC_TABLES) as DocTable[]).filter((name) => markdown.includes(markers(name)[0]));
}

export const DOCS_WITH_TABLES = ['docs/api.md'];

// Run directly: rewrite the generated tables of DOCS_WITH_TABLES in place.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const file of DOCS_WITH_TABLES) {
    const before = readFileSync(file, 'utf8');
    const after = withGeneratedTables(before);
    if (after !== before) writeFileSync(file, after);
    process.stdout.write(
      `${file}: ${after === before ? 'current' : 'rewritten'} (${generatedTablesIn(after).join(', ') || 'no generated tables'})\n`,
    );
  }
}
