/**
 * OAuth scopes (service spec section 5) and the standard roles that hold them.
 * `write:vitals` is a Vitalis extension for device ingest (POST /api/v1/vitals); `write:triage`
 * (nurse, doctor: ED board writes) and `read:audit` (admin: audit queries) are extensions too.
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
} as const;

export type Scope = keyof typeof SCOPES;
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

export const ROLES = ['doctor', 'nurse', 'reception', 'patient', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Spec section 5, "Standard roles" column, read per role. */
export const ROLE_SCOPES: Record<Role, Scope[]> = {
  doctor: ['read:patients', 'read:appointments', 'write:appointments', 'read:vitals', 'write:triage'],
  nurse: ['read:patients', 'read:appointments', 'read:vitals', 'write:triage'],
  reception: ['write:patients', 'read:appointments', 'write:appointments'],
  patient: ['read:appointments', 'write:appointments'],
  admin: ['read:patients', 'write:patients', 'read:appointments', 'read:audit'],
};

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}
