/**
 * SMART App Launch v2 context for a user's grant (authorization_code, refresh_token): `patient`
 * for the token response when the grant holds `launch/patient` and the user is a patient user (its
 * own patient id: standalone launch, no patient picker), and `fhirUser` for the ID token when the
 * grant holds `fhirUser` (with `openid`: no ID token without it).
 */
import type { Scope } from '@vitalis/schemas';
import { fhirUserOf, type User } from '../users';

export function smartContext(user: User | undefined, granted: readonly Scope[]): { patient?: string; fhirUser?: string } {
  if (!user) return {};
  return {
    ...(granted.includes('launch/patient') && user.patientId ? { patient: user.patientId } : {}),
    ...(granted.includes('fhirUser') ? { fhirUser: fhirUserOf(user) } : {}),
  };
}
