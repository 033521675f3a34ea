/**
 * The stored-text check (issue 33 item 7, docs/adr/0027-invalid-stored-text.md): records written
 * before every write was checked by the FHIR primitive rules (@vitalis/schemas fhir-primitives) may
 * hold a control character FHIR `string` forbids, or an `Identifier.system` that is not an absolute
 * URI. Events are immutable, so the check reads the read models, lists every value that breaks a
 * rule (resource, id, field, rule: never the value, which is patient data), and with `repair`
 * appends a correcting event through the patients service (`updatePatient`: the access policy, the
 * identifier reservations, the audit trail), as the actor `migration`. A Patient's control
 * characters are removed; a non-URI identifier system is replaced by the URI the operator maps it
 * to (`systems`: `MRN` → `urn:oid:…`), or left and reported when none is given. What the repair does
 * not change (an allergy's text, a triage complaint, an order's note, …) stays in the report, and
 * the served Patient and AllergyIntolerance drop such characters (patients/fhir.ts) as a last line.
 *
 *   npm run admin -- fhir-text-check [--repair] [--system LOCAL=URI ...]
 */
import { parseArgs } from 'node:util';
import type { Pool } from '@vitalis/db';
import type { Demographics, Identifier } from '@vitalis/records';
import { FHIR_RULE, fhirRuleBroken, withoutForbiddenControls, type FhirRule } from '@vitalis/schemas';
import type { Caller } from './access/caller';
import type { Principal } from './access/principal';
import { updatePatient } from './patients/service';

/** One stored value that breaks a rule. */
export interface StoredTextFinding {
  resource: string;
  id: string;
  /** The read model's field, e.g. `given.0`, `identifiers.1.system`, `allergies.0.reaction`. */
  field: string;
  rule: FhirRule;
  message: string;
}

export interface StoredTextReport {
  /** Rows read per read model. */
  scanned: Record<string, number>;
  /** What breaks a rule after the run (with `repair`: what the repair could not mend). */
  findings: StoredTextFinding[];
  /** Patients given a correcting event (with `repair`). */
  repaired: string[];
}

/** The read models whose text ends up in a served FHIR resource: their key, the resource they serve, and columns derived from others (a search index: not reported twice). */
const READ_MODELS: readonly { table: string; key: string; resource: string; derived?: readonly string[] }[] = [
  { table: 'rm_patients', key: 'patient_id', resource: 'Patient', derived: ['name_search'] },
  { table: 'rm_slots', key: 'slot_id', resource: 'Slot' },
  { table: 'rm_triage', key: 'patient_id', resource: 'Triage' },
  { table: 'rm_service_requests', key: 'request_id', resource: 'ServiceRequest' },
  { table: 'rm_diagnostic_reports', key: 'report_id', resource: 'DiagnosticReport' },
  { table: 'rm_alarms', key: 'alarm_id', resource: 'DetectedIssue' },
];
const PAGE = 500;

/** The rule of the value at `path`: an identifier's system is a URI that must be absolute, every other text a FHIR string. */
function ruleAt(path: string[]): FhirRule {
  return path.length >= 3 && /identifiers?$/.test(path[path.length - 3] ?? '') && path[path.length - 1] === 'system'
    ? 'absoluteUri'
    : 'string';
}

/** Every string of `value` that breaks its rule. A stored string is judged for its characters only (a blank one is the record's, not this check's). */
export function findingsIn(value: unknown, at: { resource: string; id: string }, path: string[] = []): StoredTextFinding[] {
  if (typeof value === 'string') {
    const rule = ruleAt(path);
    const broken = rule === 'string' ? (withoutForbiddenControls(value) === value ? null : FHIR_RULE.string) : fhirRuleBroken(rule, value);
    return broken ? [{ ...at, field: path.join('.'), rule, message: broken }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => findingsIn(v, at, [...path, String(i)]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => findingsIn(v, at, [...path, k]));
  return [];
}

/** Reads one read model page by page (keyset on its key) and lists its findings. */
async function scanReadModel(pool: Pool, m: (typeof READ_MODELS)[number]): Promise<{ rows: number; findings: StoredTextFinding[] }> {
  const findings: StoredTextFinding[] = [];
  let after = '';
  let rows = 0;
  for (;;) {
    const page = await pool.query<{ id: string; row: Record<string, unknown> }>(
      `SELECT ${m.key} AS id, to_jsonb(t) AS row FROM ${m.table} t WHERE ${m.key} > $1 ORDER BY ${m.key} LIMIT ${PAGE}`,
      [after],
    );
    for (const r of page.rows) {
      const served = Object.fromEntries(Object.entries(r.row).filter(([column]) => !m.derived?.includes(column)));
      const found = findingsIn(served, { resource: m.resource, id: r.id });
      findings.push(...found.sort((a, b) => a.field.localeCompare(b.field)));
    }
    rows += page.rows.length;
    const last = page.rows[page.rows.length - 1];
    if (!last || page.rows.length < PAGE) return { rows, findings };
    after = last.id;
  }
}

/** Every read model's findings. */
export async function scanStoredText(pool: Pool): Promise<Omit<StoredTextReport, 'repaired'>> {
  const scanned: Record<string, number> = {};
  const findings: StoredTextFinding[] = [];
  for (const m of READ_MODELS) {
    const r = await scanReadModel(pool, m);
    scanned[m.table] = r.rows;
    findings.push(...r.findings);
  }
  return { scanned, findings };
}

/** The actor of a repair: a system-role backend with the patients scopes, named `migration` in the events and the audit trail. */
export const MIGRATION_CALLER: Caller = {
  principal: {
    clientId: 'migration',
    subject: 'migration',
    scopes: ['write:patients', 'read:patients'],
    roles: ['system'],
    tokenId: 'migration',
    expiresAt: 0,
    authMethod: 'client_secret',
    derivedFrom: [],
    sandbox: false,
  } satisfies Principal,
  requestId: 'fhir-text-check',
};

interface PatientRow {
  version: number;
  family: string;
  given: string[];
  birth_date: string | null;
  gender: Demographics['gender'] | null;
  identifiers: Identifier[];
  telecom: { system: string; value: string }[];
}

/** The demographics with the forbidden control characters removed (a given name left blank dropped) and the mapped identifier systems replaced. */
export function repairedDemographics(row: PatientRow, systems: Record<string, string>): Demographics {
  const clean = withoutForbiddenControls;
  const family = clean(row.family);
  return {
    family: family.trim() === '' ? row.family : family,
    given: row.given.map(clean).filter((g) => g.trim() !== ''),
    birthDate: row.birth_date,
    gender: row.gender,
    identifiers: row.identifiers.map((i) => {
      const system = clean(i.system);
      return { system: fhirRuleBroken('absoluteUri', system) ? (systems[system] ?? system) : system, value: clean(i.value) };
    }),
    telecom: row.telecom.map((t) => ({ system: t.system, value: clean(t.value) })),
  };
}

/** The demographic fields of a Patient finding (what `repairedDemographics` mends); allergies are reported only. */
const DEMOGRAPHIC = /^(family|given|identifiers|telecom)(\.|$)/;

/** Appends one correcting update per Patient with a demographic finding, at the version scanned (a patient changed since is left for the next run). */
async function repairPatients(
  pool: Pool,
  findings: StoredTextFinding[],
  systems: Record<string, string>,
): Promise<{ id: string; version: number }[]> {
  const ids = [...new Set(findings.filter((f) => f.resource === 'Patient' && DEMOGRAPHIC.test(f.field)).map((f) => f.id))];
  const repaired: { id: string; version: number }[] = [];
  for (const id of ids) {
    const { rows } = await pool.query<PatientRow>(
      `SELECT version, family, given, to_char(birth_date, 'YYYY-MM-DD') AS birth_date, gender, identifiers, telecom
         FROM rm_patients WHERE patient_id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) continue;
    try {
      const p = await updatePatient(pool, MIGRATION_CALLER, id, row.version, repairedDemographics(row, systems));
      repaired.push({ id, version: p.version });
    } catch {
      // changed since the scan, or a mapped identifier another patient holds: it stays in the report
    }
  }
  return repaired;
}

/**
 * The check: the findings, and with `repair` the correcting events first. `afterRepair` waits until
 * the read models hold the events appended (the projector's work; a test catches up in-process),
 * so the report lists what is still wrong.
 */
export async function checkStoredText(
  pool: Pool,
  options: {
    repair?: boolean;
    systems?: Record<string, string>;
    afterRepair?: (repaired: { id: string; version: number }[]) => Promise<void>;
  } = {},
): Promise<StoredTextReport> {
  const first = await scanStoredText(pool);
  if (!options.repair) return { ...first, repaired: [] };
  const repaired = await repairPatients(pool, first.findings, options.systems ?? {});
  if (repaired.length === 0) return { ...first, repaired: [] };
  await options.afterRepair?.(repaired);
  return { ...(await scanStoredText(pool)), repaired: repaired.map((r) => r.id) };
}

/** `--system LOCAL=URI` words as a map; undefined when one is malformed or its URI is not absolute. */
function systemMap(words: string[]): Record<string, string> | undefined {
  const map: Record<string, string> = {};
  for (const w of words) {
    const eq = w.indexOf('=');
    const uri = w.slice(eq + 1);
    if (eq <= 0 || fhirRuleBroken('absoluteUri', uri)) return undefined;
    map[w.slice(0, eq)] = uri;
  }
  return map;
}

/** Waits until the patients read model holds the corrected versions (the running projector's work), at most `timeoutMs`. */
async function projected(pool: Pool, repaired: { id: string; version: number }[], timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM unnest($1::text[], $2::int[]) AS r(id, version)
         LEFT JOIN rm_patients p ON p.patient_id = r.id WHERE p.version IS NULL OR p.version < r.version`,
      [repaired.map((r) => r.id), repaired.map((r) => r.version)],
    );
    if ((rows[0]?.n ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** `npm run admin -- fhir-text-check [--repair] [--system LOCAL=URI ...]`: the report as JSON, exit 1 while anything is listed, 2 on bad words. */
export async function fhirTextCheckCommand(pool: Pool, argv: string[]): Promise<{ output?: unknown; code: number }> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { repair: { type: 'boolean', default: false }, system: { type: 'string', multiple: true, default: [] } },
    }));
  } catch {
    return { code: 2 };
  }
  const systems = systemMap(values.system);
  if (!systems) return { code: 2 };
  const report = await checkStoredText(pool, { repair: values.repair, systems, afterRepair: (repaired) => projected(pool, repaired) });
  return { output: report, code: report.findings.length === 0 ? 0 : 1 };
}
