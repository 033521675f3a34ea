/**
 * The access policy, once: for each resource type and action, the scopes that let a caller act and,
 * for each kind of principal, which patients' data it reaches. Every surface (REST v1, FHIR, MCP,
 * SSE/WebSocket, FHIR Subscriptions, bulk export, the triage board) asks here, through `reach`
 * (no patient named yet: a search, a listing) or `access` (these patients); no service reads a
 * principal's scopes, roles, patient or sandbox flag to decide what it may see (a test scans the
 * sources: test/unit/access/one-policy.test.ts). docs/api.md's role table is generated from
 * ACCESS_POLICY (`npm run access-table`).
 *
 * A principal's kinds: `sandbox` for a sandbox principal (and every token exchanged from one);
 * otherwise its roles (a user's roles, or the role an operator gave a client), or `no-role` (an
 * openly registered client). A rule is
 *  - `none`: nothing;
 *  - `own`: only the patient the token names (a patient user's own record);
 *  - `synthetic`: only the sandbox's synthetic `sbx-` patients (generated, never stored);
 *  - `all`: every patient (there is no care-team assignment in Vitalis yet: "all" is the ward's view).
 *
 * Rules that hold for every cell, here and nowhere else:
 *  - the scope: a caller acting for itself needs one of the cell's `scopes`; a token that names a
 *    patient needs one of its `patientScopes` (the SMART patient/ scopes it consented to; none:
 *    never). The route guard checks the route's declared scopes first; this is the resource's rule;
 *  - a token that names a patient is held to that patient, whatever its roles allow (`own` at most);
 *  - `own` needs a patient in the token: a patient-role client acting for itself (client
 *    credentials, no user) may act for no patient;
 *  - nobody writes for a synthetic `sbx-` id (they are reserved for the sandbox's generated data);
 *  - a cell marked `users` is for a signed-in person only (`namesUser`): a token that names no user
 *    (an app acting for itself: client credentials, the sandbox) is refused whatever its role
 *    allows (reason `no user`), because the act is a person's to answer for (acknowledging a
 *    critical result; the same mark serves any such act, e.g. acknowledging a bedside alarm);
 *  - a resource type or action not in the table is `none` for everyone.
 *
 * ADR 0018, extended (issue 31): "who may" stays one table. The principal's kind (its roles)
 * says whose data it reaches; whether a person stands behind the token is a second, orthogonal
 * fact, so it is a cell option (`users: true`) checked here, not a principal kind (a doctor
 * user and a doctor-role app have the same reach everywhere else) and not a check in a service.
 *
 * Long: ACCESS_POLICY is a table of about 190 lines (one row per resource and action) and the
 * functions below are the only readers of it; the rule is kept in one file so it is read in one place.
 */
import { must } from '@vitalis/runtime';
import type { Role, Scope } from '@vitalis/schemas';
import type { Actor, Principal } from './principal';
import { isSandboxPatientId, SANDBOX_ID_PREFIX } from './sandbox';

export type AccessRule = 'none' | 'own' | 'synthetic' | 'all';
export type PrincipalKind = Role | 'no-role' | 'sandbox';
export const PRINCIPAL_KINDS: readonly PrincipalKind[] = [
  'doctor',
  'nurse',
  'reception',
  'patient',
  'admin',
  'device',
  'lab',
  'system',
  'no-role',
  'sandbox',
];

type Row = Record<PrincipalKind, AccessRule>;
/** A row: `all` for the listed kinds, `none` for the rest (then `own`/`synthetic` where given). */
const row = (all: readonly PrincipalKind[], others: Partial<Row> = {}): Row =>
  Object.fromEntries(PRINCIPAL_KINDS.map((k) => [k, others[k] ?? (all.includes(k) ? 'all' : 'none')])) as Row;

export interface PolicyCell {
  /** What the action is, for the generated table. */
  what: string;
  /** Scopes, any one of which a caller acting for itself needs (the first it holds is the audit trail's "why"). */
  scopes: readonly Scope[];
  /** The same for a token that names a patient; empty: a patient user never may. */
  patientScopes: readonly Scope[];
  /** The data names no patient (slot availability): a token naming a patient is not held to it. */
  noPatient?: true;
  /** Another cell this one needs as well (recording an allergy needs reading them). */
  alsoNeeds?: readonly [string, string];
  /**
   * A signed-in person only (`namesUser`): a token naming no user is refused (reason `no user`,
   * detail `userRefusal`) whatever its role allows. For acts a person answers for, recorded with
   * who did them (an acknowledgement).
   */
  users?: true;
  /** The refusal's detail for a token that names no user (a `users` cell). */
  userRefusal?: string;
  /** The refusal's detail when the scope or the role is missing. */
  refusal: string;
  rules: Row;
}

const CLINICAL: PrincipalKind[] = ['doctor', 'nurse', 'admin', 'system'];

export const ACCESS_POLICY = {
  Patient: {
    read: {
      what: 'read a patient record (demographics; with AllergyIntolerance read: the clinical view)',
      scopes: ['read:patients', 'write:patients'],
      patientScopes: ['patient/Patient.rs'],
      refusal: 'Reading patients needs read:patients or write:patients (a patient user: patient/Patient.rs, for their own record).',
      rules: row(['doctor', 'nurse', 'reception', 'admin', 'system'], { patient: 'own' }),
    },
    write: {
      what: 'register or update a patient',
      scopes: ['write:patients'],
      patientScopes: [],
      refusal: 'Registering or updating patients needs write:patients.',
      rules: row(['reception', 'admin', 'system']),
    },
    history: {
      what: "read a patient's event history (who changed what)",
      scopes: ['read:patients'],
      patientScopes: [],
      refusal: 'The event history of a patient is for clinical readers (read:patients).',
      rules: row(CLINICAL),
    },
  },
  AllergyIntolerance: {
    read: {
      what: "read a patient's allergies",
      scopes: ['read:patients'],
      patientScopes: ['patient/AllergyIntolerance.rs'],
      refusal: 'Reading allergies needs read:patients (a patient user: patient/AllergyIntolerance.rs, for their own).',
      rules: row(CLINICAL, { patient: 'own' }),
    },
    write: {
      what: 'record or remove an allergy',
      scopes: ['write:patients'],
      patientScopes: [],
      alsoNeeds: ['AllergyIntolerance', 'read'],
      refusal: 'Recording allergies needs read:patients and write:patients.',
      rules: row(['admin', 'system']),
    },
  },
  Observation: {
    read: {
      what: "read vitals (history, latest, live streams, FHIR Subscriptions, bulk export; a patient user's patient/Observation.rs reads as read:vitals)",
      scopes: ['read:vitals'],
      patientScopes: ['read:vitals'],
      refusal: 'This needs a token with read:vitals.',
      rules: row(['doctor', 'nurse', 'system'], { patient: 'own', sandbox: 'synthetic' }),
    },
    write: {
      what: 'publish vitals',
      scopes: ['write:vitals'],
      patientScopes: [],
      refusal: 'This needs a token with write:vitals.',
      rules: row(['device', 'system']),
    },
  },
  Appointment: {
    read: {
      what: 'see a booking (its patient and reason); without it a caller sees slot availability only',
      scopes: ['read:appointments'],
      patientScopes: ['read:appointments'],
      refusal: 'This client sees slot availability only: reading a booking needs a role that sees bookings.',
      rules: row(['doctor', 'nurse', 'reception', 'admin', 'system'], { patient: 'own' }),
    },
    write: {
      what: 'book, cancel or reschedule for a patient',
      scopes: ['write:appointments'],
      patientScopes: ['write:appointments'],
      refusal: 'This client may book for no patient: booking needs a user who is the patient, or a role that books for patients.',
      rules: row(['doctor', 'reception', 'system'], { patient: 'own' }),
    },
  },
  Slot: {
    read: {
      what: 'see slot availability (names no patient)',
      noPatient: true,
      scopes: ['read:appointments'],
      patientScopes: ['read:appointments'],
      refusal: 'Slot availability needs read:appointments.',
      rules: row([...PRINCIPAL_KINDS.filter((k) => k !== 'sandbox')], { sandbox: 'synthetic' }),
    },
  },
  // The staff as FHIR Practitioners (issue 33 item 5; catalog/practitioners.ts): who works here
  // names no patient, but the staff list is not for patients, devices or open clients. The
  // catalog's clinicians are reference data (any token); a signed-in user reads its own fhirUser
  // with the SMART fhirUser scope whatever this cell says (ownFhirUser, below).
  Practitioner: {
    read: {
      what: "read the staff directory (staff users as FHIR Practitioners; the catalog's clinicians: any token; one's own fhirUser: the fhirUser scope)",
      noPatient: true,
      scopes: ['read:patients', 'write:patients'],
      patientScopes: [],
      refusal:
        'The staff directory needs read:patients or write:patients and a staff role (a signed-in user reads its own Practitioner, its fhirUser, with the fhirUser scope).',
      rules: row(['doctor', 'nurse', 'reception', 'admin', 'system']),
    },
  },
  ServiceRequest: {
    read: {
      what: 'read diagnostic orders',
      scopes: ['read:diagnostics'],
      patientScopes: [],
      refusal: 'Reading diagnostic orders needs read:diagnostics (a patient reads its own final reports only).',
      rules: row(['doctor', 'nurse', 'lab', 'system']),
    },
    write: {
      what: 'order a test, change or cancel an order',
      scopes: ['write:diagnostics'],
      patientScopes: [],
      refusal: 'Ordering or changing a test needs write:diagnostics and the role doctor.',
      rules: row(['doctor', 'system']),
    },
  },
  DiagnosticReport: {
    read: {
      what: 'read diagnostic reports (a patient: its own, once released: final, amended, corrected)',
      scopes: ['read:diagnostics'],
      patientScopes: ['patient/DiagnosticReport.rs'],
      refusal: 'Reading reports needs read:diagnostics (a patient user: patient/DiagnosticReport.rs, for its own final reports).',
      rules: row(['doctor', 'nurse', 'lab', 'system'], { patient: 'own' }),
    },
    write: {
      what: 'post results, amend or correct a report',
      scopes: ['write:diagnostics'],
      patientScopes: [],
      refusal: 'Posting or changing results needs write:diagnostics and the role lab.',
      rules: row(['lab', 'system']),
    },
    fulfil: {
      what: 'fulfil an order from telemetry (a report from the vitals log)',
      scopes: ['write:diagnostics'],
      patientScopes: [],
      refusal: 'Fulfilling an order from telemetry needs write:diagnostics and read:vitals (the role doctor).',
      rules: row(['doctor', 'system']),
    },
    acknowledge: {
      what: 'acknowledge a critical result (a signed-in clinician: recorded as the acknowledger)',
      scopes: ['write:diagnostics'],
      patientScopes: [],
      users: true,
      refusal: 'Acknowledging a critical result needs write:diagnostics and the role doctor.',
      userRefusal:
        'A signed-in clinician must acknowledge a critical result: this token names no user (an app acting for itself, e.g. client credentials). Sign in (authorization code) and acknowledge as yourself.',
      rules: row(['doctor', 'system']),
    },
  },
  CriticalResult: {
    read: {
      what: 'see critical results: waiting ones and the acknowledged history, who and when (triage board, list, live streams, MCP)',
      scopes: ['read:diagnostics'],
      patientScopes: [],
      refusal: 'Critical results need read:diagnostics.',
      rules: row(['doctor', 'nurse', 'lab', 'system']),
    },
  },
  // Bedside alarms (issue 31): the monitoring's, so read:vitals, for the clinicians who watch the
  // patients (not a patient user: the issue asks for the ward's view). Acknowledging records that a
  // person has seen the alarm (IHE ACM): it changes no clinical data, so it needs no write scope of
  // its own (the monitor card's token can do it), but it is a signed-in doctor's or nurse's act.
  Alarm: {
    read: {
      what: "see bedside alarms (REST, FHIR DetectedIssue, MCP, the live streams' alarm notices)",
      scopes: ['read:vitals'],
      patientScopes: [],
      refusal: 'Bedside alarms need read:vitals and a clinical role (doctor, nurse).',
      rules: row(['doctor', 'nurse', 'system'], { sandbox: 'synthetic' }),
    },
    acknowledge: {
      what: 'acknowledge a bedside alarm (a signed-in clinician: recorded as the acknowledger)',
      scopes: ['read:vitals'],
      patientScopes: [],
      users: true,
      refusal: 'Acknowledging a bedside alarm needs read:vitals and the role doctor or nurse.',
      userRefusal:
        'A signed-in clinician must acknowledge a bedside alarm: this token names no user (an app acting for itself, e.g. client credentials). Sign in (authorization code) and acknowledge as yourself.',
      rules: row(['doctor', 'nurse']),
    },
  },
  Triage: {
    read: {
      what: 'read the triage board',
      scopes: ['read:patients'],
      patientScopes: [],
      refusal: 'The triage board needs read:patients.',
      rules: row(CLINICAL),
    },
    write: {
      what: 'triage a patient (ESI, complaint)',
      scopes: ['write:triage'],
      patientScopes: [],
      refusal: 'Triage needs write:triage.',
      rules: row(['doctor', 'nurse', 'system']),
    },
  },
  AuditEvent: {
    read: {
      what: 'read the audit trail',
      scopes: ['read:audit'],
      patientScopes: [],
      refusal: 'The audit trail needs read:audit.',
      rules: row(['admin', 'system']),
    },
  },
} as const satisfies Record<string, Record<string, PolicyCell>>;

export type PolicyResource = keyof typeof ACCESS_POLICY;
export type PolicyAction<R extends PolicyResource> = keyof (typeof ACCESS_POLICY)[R] & string;

const RANK: Record<AccessRule, number> = { none: 0, own: 1, synthetic: 1, all: 2 };

/** Why a caller was refused (the audit trail's `reason`). */
export type RefusalReason = 'missing scope' | 'forbidden' | 'patient mismatch' | 'sandbox' | 'no user';

/** A refusal: the scope the act needs (for the 403 and the audit row), the patients refused, why. */
export interface Refusal {
  allowed: false;
  reason: RefusalReason;
  scope: Scope;
  patients: string[];
  detail: string;
}

/** What a caller reaches under one cell: the rule, the scope that allowed it, and its own patient under `own`. */
export interface Reach {
  allowed: true;
  rule: Exclude<AccessRule, 'none'>;
  scope: Scope;
  /** Under `own`: the one patient reachable (the token's). */
  patient?: string;
}

const cellOf = (resource: PolicyResource, action: string): PolicyCell | undefined =>
  (ACCESS_POLICY[resource] as Record<string, PolicyCell>)[action];

const kindsOf = (p: Pick<Principal, 'roles' | 'sandbox'>): PrincipalKind[] =>
  p.sandbox ? ['sandbox'] : p.roles.length > 0 ? [...p.roles] : ['no-role'];

/** The ids this server mints for clients (auth/clients.ts `registerClient`: `cli_…`, `sandbox: sbx_…`). */
const OUR_CLIENT_ID = /^(cli|sbx)_/;

const actorIds = (a: Actor | undefined): string[] => (a ? [a.sub, ...(a.client_id ? [a.client_id] : []), ...actorIds(a.act)] : []);

/**
 * Whether the token speaks for a signed-in person (a user), not for an app acting for itself:
 *  - the user grants (authorization code, and refresh tokens of it) name the user who signed in:
 *    `sub` is the user id, `client_id` the app;
 *  - client credentials (secret or private_key_jwt) and the sandbox name their client (`sub` is
 *    the client id): no user;
 *  - an exchanged token (RFC 8693) keeps its subject token's subject: a person when that subject
 *    is neither the holder, nor an actor of its `act` chain, nor a client id this server minted
 *    (a client's own token exchanged by the client its `may_act` names is still a machine). A
 *    trusted issuer's subject (TRUSTED_ISSUERS) is taken as a person: such an issuer signs people in.
 */
export function namesUser(p: Pick<Principal, 'subject' | 'clientId' | 'authMethod' | 'actor' | 'sandbox'>): boolean {
  if (p.sandbox) return false;
  if (p.authMethod === 'authorization_code' || p.authMethod === 'refresh_token') return p.subject !== p.clientId;
  if (p.authMethod !== 'token_exchange') return false;
  return p.subject !== p.clientId && !OUR_CLIENT_ID.test(p.subject) && !actorIds(p.actor).includes(p.subject);
}

/**
 * The user whose own FHIR resource (its `fhirUser`) the token may read: the signed-in user, when
 * the token holds the SMART `fhirUser` scope ("permission to retrieve information about the
 * current logged-in user", SMART App Launch 2.0); undefined for a token naming no user.
 */
export function ownFhirUser(p: Principal): string | undefined {
  return namesUser(p) && p.scopes.includes('fhirUser') ? p.subject : undefined;
}

/**
 * What `p` reaches under `resource`/`action`, before any patient is named (a search or listing
 * filters to `patient` under `own`, to synthetic data under `synthetic`).
 */
export function reach<R extends PolicyResource>(p: Principal, resource: R, action: PolicyAction<R>): Reach | Refusal {
  const cell = cellOf(resource, action);
  if (!cell)
    return { allowed: false, reason: 'forbidden', scope: 'openid', patients: [], detail: `No principal may ${action} ${resource}.` };
  const named = p.patientId !== undefined;
  const scopes = named ? cell.patientScopes : cell.scopes;
  const scope = scopes.find((s) => p.scopes.includes(s));
  const needed = scope ?? scopes[0] ?? must(cell.scopes[0], `a scope of the policy cell for ${action} ${resource}`);
  if (scope === undefined) return { allowed: false, reason: 'missing scope', scope: needed, patients: [], detail: cell.refusal };
  let rule: AccessRule = 'none';
  for (const kind of kindsOf(p)) if (RANK[cell.rules[kind]] > RANK[rule]) rule = cell.rules[kind];
  if (named && !cell.noPatient) rule = rule === 'none' ? 'none' : 'own';
  else if (rule === 'own') rule = 'none';
  if (rule === 'none') return { allowed: false, reason: 'forbidden', scope: needed, patients: [], detail: cell.refusal };
  if (cell.users && !namesUser(p))
    return {
      allowed: false,
      reason: 'no user',
      scope: needed,
      patients: [],
      detail: cell.userRefusal ?? 'This needs a signed-in user: this token names none.',
    };
  if (cell.alsoNeeds) {
    const also = reach(p, cell.alsoNeeds[0] as PolicyResource, cell.alsoNeeds[1] as never);
    if (!also.allowed) return { ...also, reason: 'forbidden', scope: needed, detail: cell.refusal };
  }
  return {
    allowed: true,
    rule,
    scope,
    ...(rule === 'own' ? { patient: must(p.patientId, "the token's patient (the rule is own only for a token naming one)") } : {}),
  };
}

/** Whether `p` may `action` `resource` of every patient in `patientIds` (or, for none, at all). */
export function access<R extends PolicyResource>(
  p: Principal,
  resource: R,
  action: PolicyAction<R>,
  patientIds: readonly string[],
): Reach | Refusal {
  const ids = [...new Set(patientIds)];
  const r = reach(p, resource, action);
  if (!r.allowed) return { ...r, patients: ids };
  if (action !== 'read') {
    const reserved = ids.filter(isSandboxPatientId);
    if (reserved.length > 0) {
      return {
        allowed: false,
        reason: 'sandbox',
        scope: r.scope,
        patients: reserved,
        detail: `Patient ids starting with "${SANDBOX_ID_PREFIX}" are reserved for the sandbox's synthetic data: nothing can be written for them.`,
      };
    }
  }
  if (r.rule === 'synthetic') {
    const real = ids.filter((id) => !isSandboxPatientId(id));
    if (real.length > 0)
      return {
        allowed: false,
        reason: 'sandbox',
        scope: r.scope,
        patients: real,
        detail: `A sandbox token sees synthetic sandbox patients only (ids starting with "${SANDBOX_ID_PREFIX}", e.g. sbx-0001).`,
      };
  }
  if (r.rule === 'own') {
    const others = ids.filter((id) => id !== r.patient);
    if (others.length > 0)
      return {
        allowed: false,
        reason: 'patient mismatch',
        scope: r.scope,
        patients: others,
        detail: `A patient user may only access their own ${resource === 'Observation' ? 'vitals' : 'records'}.`,
      };
  }
  return r;
}

/** Whether `p` may reach patient `patientId` (null: nobody's, e.g. a free slot) under the cell. */
export function mayReach<R extends PolicyResource>(
  p: Principal,
  resource: R,
  action: PolicyAction<R>,
  patientId: string | null | undefined,
): boolean {
  if (patientId === null || patientId === undefined) {
    const r = reach(p, resource, action);
    return r.allowed && r.rule === 'all';
  }
  return access(p, resource, action, [patientId]).allowed;
}

/** Whether `p` reaches every patient's data under the cell (a board or a stream listing many patients). */
export function reachesAll<R extends PolicyResource>(p: Principal, resource: R, action: PolicyAction<R>): boolean {
  const r = reach(p, resource, action);
  return r.allowed && r.rule === 'all';
}

/** The patient a token names (a patient user's own), the default subject of its searches. */
export const tokenPatient = (p: Principal): string | undefined => p.patientId;
