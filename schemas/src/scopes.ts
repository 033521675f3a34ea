/**
 * OAuth scopes (service spec section 5) and the roles that hold them. A scope is granted by a
 * role, never by what a client asks for: a user's role bounds what the user's tokens carry, an
 * operator-approved client role bounds what a client obtains on its own. Without a role a client
 * may hold only the PUBLIC_SCOPES (slot availability, no PHI).
 * `write:vitals` is a Vitalis extension for device ingest (POST /api/v1/vitals); `write:triage`
 * (nurse, doctor: ED board writes), `read:audit` (admin: audit queries) and `admin:clients`
 * (admin: approve clients, mint initial access tokens) are extensions too. `read:diagnostics` and
 * `write:diagnostics` (issue 21, docs/diagnostics.md) are extensions, never self-registrable: doctors
 * order tests and acknowledge critical results, nurses read, the `lab` role (a laboratory,
 * cardiology or radiology system) posts results; a patient reads its own final reports through
 * the SMART scope patient/DiagnosticReport.rs.
 * `openid` and `profile` (OpenID Connect Core 1.0 §3.1.2.1, §5.4) are the SIGN_IN_SCOPES: they
 * grant no data access, only an ID token and the userinfo endpoint's claims about the signed-in
 * user, so they exist only in the authorization-code flow (a user signs in).
 */
export const SCOPES = {
  'read:patients': 'Read demographic records and allergies',
  'write:patients': 'Register or update patient profiles',
  'read:appointments': 'Query scheduled consultation slots',
  'write:appointments': 'Book or cancel clinic appointments',
  'read:vitals': 'Access physiological vitals observations',
  'write:vitals': 'Publish vitals observations (device ingest; Vitalis extension)',
  'write:triage': 'Admit patients to the ED triage board and set their ESI level (Vitalis extension)',
  'read:audit': 'Query the audit trail of patient-data access (Vitalis extension)',
  'read:diagnostics': 'Read diagnostic orders, reports and results (Vitalis extension)',
  'write:diagnostics':
    'Order diagnostic tests, post results, acknowledge critical results; what each role may do is in docs/diagnostics.md (Vitalis extension)',
  'admin:clients': 'Approve OAuth clients and mint initial access tokens for client registration (Vitalis extension)',
  'patient/Patient.rs': "SMART v2: read the signed-in patient's own record (demographics), never another's",
  'patient/AllergyIntolerance.rs': "SMART v2: read the signed-in patient's own allergies, never another's",
  'patient/DiagnosticReport.rs': "SMART v2: read the signed-in patient's own final diagnostic reports, never another's",
  'patient/Observation.rs': "SMART v2: read the signed-in patient's own vitals observations, never another's",
  'user/Patient.rs': 'SMART v2: read the patient records the signed-in user may read (read:patients)',
  'user/AllergyIntolerance.rs': 'SMART v2: read the allergies the signed-in user may read (read:patients)',
  'user/Observation.rs': 'SMART v2: read the vitals observations the signed-in user may read (read:vitals)',
  'system/Patient.rs': 'SMART v2 backend services: read patient records (read:patients)',
  'system/AllergyIntolerance.rs': 'SMART v2 backend services: read allergies (read:patients)',
  'system/Observation.rs': 'SMART v2 backend services: read vitals observations (read:vitals)',
  'launch/patient': 'SMART v2: tell the app which patient record is yours (the token response\'s "patient")',
  fhirUser: 'SMART v2: tell the app which FHIR resource you are (Patient/... or Practitioner/...) in the ID token',
  offline_access: 'SMART v2: keep access while you are away (a refresh token)',
  openid: 'Sign you in: tell the app who you are (your Vitalis user id), no data access',
  profile: 'Your name, username and role (userinfo), no data access',
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** People's roles (spec section 5, "Standard roles"). */
export const USER_ROLES = ['doctor', 'nurse', 'reception', 'patient', 'admin'] as const;
/**
 * Roles an operator grants to a client (an initial access token, a trusted software statement or an
 * approval): any user role (the most an app may carry for its users), plus `device` (bedside
 * ingest), `lab` (a performing department's system posting diagnostic results) and `system` (a hospital backend the operator trusts with every scope).
 */
export const ROLES = [...USER_ROLES, 'device', 'lab', 'system'] as const;
export type Role = (typeof ROLES)[number];

/**
 * OpenID Connect sign-in: an ID token (`openid`) and the user's name, username and role at the
 * userinfo endpoint (`profile`). Every user role holds both; they mean nothing without a user, so
 * no token of a client acting for itself (client_credentials) carries them.
 */
export const SIGN_IN_SCOPES: Scope[] = ['openid', 'profile'];

export function isSignInScope(scope: Scope): boolean {
  return SIGN_IN_SCOPES.includes(scope);
}

/**
 * SMART App Launch v2 (https://hl7.org/fhir/smart-app-launch/scopes-and-launch-context.html) data
 * scopes Vitalis serves: read and search (`.rs`) of these FHIR resources, each bound to the ONE
 * Vitalis scope a role must hold for it. The whole SMART mapping lives here and in smart.ts.
 */
export const SMART_RESOURCES = {
  Patient: 'read:patients',
  AllergyIntolerance: 'read:patients',
  Observation: 'read:vitals',
} as const satisfies Record<string, Scope>;
export type SmartResource = keyof typeof SMART_RESOURCES;
export type SmartContext = 'patient' | 'user' | 'system';

/** `user/...` and `system/...` resource scopes: what the role must hold for each (SMART_RESOURCES). */
const CONTEXT_SCOPES = (context: 'user' | 'system', held: readonly Scope[]): Scope[] =>
  (Object.keys(SMART_RESOURCES) as SmartResource[])
    .filter((r) => held.includes(SMART_RESOURCES[r]))
    .map((r) => `${context}/${r}.rs` as Scope);

/**
 * A role's SMART scopes follow from its Vitalis scopes, never the other way: `user/X.rs` for a
 * user role and `system/X.rs` (backend services, a client of that role acting for itself) when the
 * role holds X's Vitalis scope; `fhirUser` and `offline_access` for every user role.
 */
const withSmart = (held: Scope[]): Scope[] => [
  ...held,
  ...CONTEXT_SCOPES('user', held),
  ...CONTEXT_SCOPES('system', held),
  'fhirUser',
  'offline_access',
];

/**
 * Scopes that mean something only with a signed-in user (the authorization-code flow): the sign-in
 * scopes, `fhirUser`, `launch/patient`, `offline_access`, and the `patient/` and `user/` resource
 * scopes. A client acting for itself (client_credentials) never holds them.
 */
export function needsUser(scope: Scope): boolean {
  return (
    isSignInScope(scope) ||
    scope === 'fhirUser' ||
    scope === 'launch/patient' ||
    scope === 'offline_access' ||
    scope.startsWith('patient/') ||
    scope.startsWith('user/')
  );
}

/** `system/` scopes: a backend acting for itself; never held by a person (users.ts roleScopes). */
export function isSystemScope(scope: Scope): boolean {
  return scope.startsWith('system/');
}

/** Spec section 5, "Standard roles" column, read per role; `device` and `system` are Vitalis's. */
export const ROLE_SCOPES: Record<Role, Scope[]> = {
  doctor: withSmart([
    'read:patients',
    'read:appointments',
    'write:appointments',
    'read:vitals',
    'write:triage',
    'read:diagnostics',
    'write:diagnostics',
    ...SIGN_IN_SCOPES,
  ]),
  nurse: withSmart(['read:patients', 'read:appointments', 'read:vitals', 'write:triage', 'read:diagnostics', ...SIGN_IN_SCOPES]),
  reception: withSmart(['write:patients', 'read:appointments', 'write:appointments', ...SIGN_IN_SCOPES]),
  // The spec's Patient: appointments; its own record only through the SMART patient/ scopes it
  // consents to. patient/Observation.rs is its own vitals: the vitals service's patient-self rule
  // (vitalsDenial) keeps a patient user to its own patient id, whatever else the token says.
  patient: [
    'read:appointments',
    'write:appointments',
    'patient/Patient.rs',
    'patient/AllergyIntolerance.rs',
    'patient/Observation.rs',
    'patient/DiagnosticReport.rs',
    'launch/patient',
    'fhirUser',
    'offline_access',
    ...SIGN_IN_SCOPES,
  ],
  admin: withSmart(['read:patients', 'write:patients', 'read:appointments', 'read:audit', 'admin:clients', ...SIGN_IN_SCOPES]),
  device: ['write:vitals'],
  // Posts results for the orders it reads; never orders or acknowledges (docs/diagnostics.md).
  lab: ['read:diagnostics', 'write:diagnostics'],
  system: SCOPE_NAMES,
};

/**
 * What anyone may obtain without a role (open registration): slot availability, no PHI, and
 * `openid` (any app may let a user sign in with Vitalis: the user consents, and the ID token says
 * only the opaque user id). `profile` (the user's name) needs a role.
 */
export const PUBLIC_SCOPES: Scope[] = ['read:appointments', 'openid'];

/** What a sandbox principal holds (over synthetic `sbx-` data only): read-only, no demographics. */
export const SANDBOX_SCOPES: Scope[] = ['read:appointments', 'read:vitals'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** The most a client may hold: its role's scopes (if an operator gave it one) and the public set. */
export function clientScopeCeiling(role: Role | null | undefined): Scope[] {
  return role ? [...new Set([...PUBLIC_SCOPES, ...ROLE_SCOPES[role]])] : [...PUBLIC_SCOPES];
}

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
