/**
 * People who sign in at the authorization endpoint. Passwords are scrypt hashes, compared in
 * constant time. The demo users (one per standard role of spec section 5) are seeded at gateway
 * start unless disabled (DEMO_USERS_ENABLED; off by default in production).
 */
import { ROLES, ROLE_SCOPES, isSystemScope, type Role, type Scope } from '@vitalis/schemas';
import type { Pool } from '@vitalis/db';
import { hashSecret, verifySecret } from './secrets';

export interface User {
  userId: string;
  username: string;
  displayName: string;
  roles: Role[];
  patientId?: string;
}

/** The demo users and their documented passwords (apps/gateway/src/auth/README.md). */
export const DEMO_USERS: (User & { password: string })[] = [
  { userId: 'usr-demo-doctor', username: 'doctor', displayName: 'Dr. Demo Doctor', roles: ['doctor'], password: 'doctor-demo-pass' },
  { userId: 'usr-demo-nurse', username: 'nurse', displayName: 'Demo Nurse', roles: ['nurse'], password: 'nurse-demo-pass' },
  {
    userId: 'usr-demo-reception',
    username: 'reception',
    displayName: 'Demo Reception',
    roles: ['reception'],
    password: 'reception-demo-pass',
  },
  {
    userId: 'usr-demo-patient',
    username: 'patient',
    displayName: 'Demo Patient',
    roles: ['patient'],
    patientId: 'pat-0001',
    password: 'patient-demo-pass',
  },
  { userId: 'usr-demo-admin', username: 'admin', displayName: 'Demo Admin', roles: ['admin'], password: 'admin-demo-pass' },
];

/** Inserts missing demo users; existing rows (and changed passwords) are left alone. */
export async function seedDemoUsers(pool: Pool): Promise<void> {
  const { rows } = await pool.query<{ username: string }>('SELECT username FROM oauth_users WHERE username = ANY($1)', [
    DEMO_USERS.map((u) => u.username),
  ]);
  const present = new Set(rows.map((r) => r.username));
  for (const user of DEMO_USERS.filter((u) => !present.has(u.username))) {
    await createUser(pool, user, user.password);
  }
}

export async function createUser(pool: Pool, user: User, password: string): Promise<void> {
  await pool.query(
    `INSERT INTO oauth_users (user_id, username, password_hash, display_name, roles, patient_id)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [user.userId, user.username, await hashSecret(password), user.displayName, user.roles, user.patientId ?? null],
  );
}

function toUser(row: { user_id: string; username: string; display_name: string; roles: string[]; patient_id: string | null }): User {
  return {
    userId: row.user_id,
    username: row.username,
    displayName: row.display_name,
    roles: row.roles.filter((r): r is Role => (ROLES as readonly string[]).includes(r)),
    ...(row.patient_id ? { patientId: row.patient_id } : {}),
  };
}

export async function findUser(pool: Pool, userId: string): Promise<User | undefined> {
  const { rows } = await pool.query('SELECT user_id, username, display_name, roles, patient_id FROM oauth_users WHERE user_id = $1', [
    userId,
  ]);
  return rows[0] ? toUser(rows[0]) : undefined;
}

/** The user when the password matches; undefined otherwise (same work either way). */
export async function checkPassword(pool: Pool, username: string, password: string): Promise<User | undefined> {
  const { rows } = await pool.query(
    'SELECT user_id, username, display_name, roles, patient_id, password_hash FROM oauth_users WHERE username = $1',
    [username],
  );
  const ok = await verifySecret(password, rows[0]?.password_hash ?? DUMMY_HASH);
  return ok && rows[0] ? toUser(rows[0]) : undefined;
}

/** Every scope the user's roles hold, but SMART `system/` scopes: a person is never a backend service. */
export function roleScopes(roles: Role[]): Scope[] {
  return [...new Set(roles.flatMap((r) => ROLE_SCOPES[r]))].filter((s) => !isSystemScope(s));
}

/**
 * SMART `fhirUser` (ID token, userinfo): the FHIR resource the user is. A patient user is its
 * patient record; everyone else is a Practitioner named by the stable user id (Vitalis keeps no
 * Practitioner resources for staff users: the catalog's clinicians are bookable people, not users).
 */
export function fhirUserOf(user: Pick<User, 'userId' | 'patientId'>): string {
  return user.patientId ? `Patient/${user.patientId}` : `Practitioner/${user.userId}`;
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
