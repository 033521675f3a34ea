/**
 * SMART App Launch v2 scopes (https://hl7.org/fhir/smart-app-launch/scopes-and-launch-context.html):
 * how a requested scope string is read, and what a granted SMART scope lets the guard do. The
 * resources and the Vitalis scope each needs are SMART_RESOURCES (scopes.ts); roles get their SMART
 * scopes from their Vitalis scopes there. Nothing here grants: every caller intersects with a role.
 *
 * Reading a request: a name Vitalis knows is itself; a SMART resource scope
 * `(patient|user|system)/(Resource|*).(c?r?u?d?s? | * | read | write)` is read as the `.rs` scopes
 * it covers. `.rs` and the v1 alias `.read` of a served resource are asked for outright; a wildcard
 * resource, or permissions beyond `rs` (`.cruds`, `.*`), are *optional*: granted where the role and
 * the client allow, silently left out elsewhere (SMART: the server may grant fewer than asked).
 * SMART scopes Vitalis does not serve (another resource, `.r` alone, `.c`, `launch`,
 * `launch/encounter`) are ignored, never an error; any other unknown name stays invalid_scope.
 */
import { SMART_RESOURCES, isScope, type Scope, type SmartResource } from './scopes';

const SMART_RESOURCE_SCOPE = /^(patient|user|system)\/(\*|[A-Za-z]+)\.(\*|read|write|c?r?u?d?s?)$/;
/** SMART launch scopes that Vitalis does not implement (EHR launch): ignored, never refused. */
const IGNORED_SMART_SCOPES = new Set(['launch', 'launch/encounter']);

export interface ScopeRequest {
  /** Known scopes asked for outright (an escalation among them is invalid_scope where a grant says so). */
  scopes: Scope[];
  /** Scopes a wildcard or wider SMART permissions cover: granted only where allowed, never an error. */
  optional: Scope[];
  /** Names that are neither Vitalis scopes nor SMART scopes: invalid_scope. */
  unknown: string[];
}

export function readScopeRequest(value: string | undefined): ScopeRequest {
  const names = [...new Set((value ?? '').split(' ').filter(Boolean))];
  const scopes: Scope[] = [];
  const optional: Scope[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    if (isScope(name)) {
      scopes.push(name);
      continue;
    }
    if (IGNORED_SMART_SCOPES.has(name)) continue;
    const m = SMART_RESOURCE_SCOPE.exec(name);
    if (!m || m[3] === '') {
      unknown.push(name);
      continue;
    }
    const [, context, resource, permissions] = m as unknown as [string, string, string, string];
    const granted = permissions === '*' ? 'cruds' : permissions === 'read' ? 'rs' : permissions === 'write' ? 'cud' : permissions;
    if (!granted.includes('r') || !granted.includes('s')) continue;
    const resources = resource === '*' ? (Object.keys(SMART_RESOURCES) as SmartResource[]) : [resource];
    const covered = resources.map((r) => `${context}/${r}.rs`).filter(isScope);
    const exact = resource !== '*' && (permissions === 'read' || permissions === 'rs');
    (exact ? scopes : optional).push(...covered);
  }
  const optionalOnly = [...new Set(optional)].filter((s) => !scopes.includes(s));
  return { scopes: [...new Set(scopes)], optional: optionalOnly, unknown };
}

/**
 * The scopes a token is good for at the guard: its own, and the Vitalis scopes its SMART resource
 * scopes stand for. `user/X.rs` and `system/X.rs` stand for X's Vitalis scope (a role held that
 * scope, or it could not have been granted). `patient/Observation.rs` stands for `read:vitals` only
 * in a patient user's token (it carries a patient id), where the vitals service's patient-self rule
 * keeps it to that patient; `patient/Patient.rs` and `patient/AllergyIntolerance.rs` stand for
 * nothing: the records service honours them itself (access/caller.ts patientView), own record only.
 */
export function effectiveScopes(scopes: readonly Scope[], ownPatient: boolean): Scope[] {
  const implied = scopes.flatMap((s): Scope[] => {
    const m = /^(user|system|patient)\/([A-Za-z]+)\.rs$/.exec(s);
    if (!m) return [];
    const vitalis = SMART_RESOURCES[m[2] as SmartResource];
    if (m[1] !== 'patient') return [vitalis];
    return m[2] === 'Observation' && ownPatient ? [vitalis] : [];
  });
  return [...new Set([...scopes, ...implied])];
}
