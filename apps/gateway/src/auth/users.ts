/**
 * People who sign in at the authorization endpoint. Passwords are scrypt hashes, compared in
 * constant time. The demo users (one per standard role of spec section 5) are seeded at gateway
 * start unless disabled (DEMO_USERS_ENABLED; off by default in production).
 */
import { ROLES, ROLE_SCOPES, isSystemScope, type Role, type Scope } from '@vitalis/schemas';
import type { Pool } from '@vitalis/db';
import { must } from '@vitalis/runtime';
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
 * Whether a user is staff, a Practitioner: every user not linked to a patient record (the rule
 * fhirUserOf and the staff query below share; catalog/practitioners.ts serves them).
 */
export const isStaffUser = (user: Pick<User, 'patientId'>): boolean => user.patientId === undefined;

/**
 * SMART `fhirUser` (ID token, userinfo): the FHIR resource the user is. A patient user is its
 * patient record; a staff user (isStaffUser) is the Practitioner named by its stable user id,
 * served at /fhir/R4/Practitioner/{user id} (catalog/practitioners.ts).
 */
export function fhirUserOf(user: Pick<User, 'userId' | 'patientId'>): string {
  if (isStaffUser(user)) return `Practitioner/${user.userId}`;
  return `Patient/${must(user.patientId, 'a user who is not staff has its patient record')}`;
}

/** What a staff search asks: any of `ids`, a case-insensitive substring of the display name, after `after` by user id. */
export interface StaffQuery {
  ids?: string[] | undefined;
  name?: string | undefined;
  after?: string | undefined;
  limit: number;
}

/** The staff users (isStaffUser: no patient record) a search matches, by user id, at most `limit`. */
export async function findStaffUsers(pool: Pool, q: StaffQuery): Promise<User[]> {
  const pattern = q.name === undefined ? null : `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await pool.query(
    `SELECT user_id, username, display_name, roles, patient_id FROM oauth_users
      WHERE patient_id IS NULL AND ($1::text[] IS NULL OR user_id = ANY($1)) AND ($2::text IS NULL OR display_name ILIKE $2)
        AND ($3::text IS NULL OR user_id > $3)
      ORDER BY user_id LIMIT $4`,
    [q.ids ?? null, pattern, q.after ?? null, q.limit],
  );
  return rows.map(toUser);
}

const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
