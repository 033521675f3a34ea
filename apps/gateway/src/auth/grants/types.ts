/** The shape every grant handler shares: an authenticated client and a form in, a token response out. */
import type { AuthenticatedClient } from '../client-auth';
import type { AuthContext, Form } from '../context';

export interface GrantRequest {
  ctx: AuthContext;
  client: AuthenticatedClient;
  body: Form;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  issued_token_type?: string;
  /** OpenID Connect: when the grant holds openid (authorization_code, refresh_token). */
  id_token?: string;
  /** SMART launch context: the patient id, when the grant holds launch/patient and the user is a patient. */
  patient?: string;
}

export interface GrantResult {
  response: TokenResponse;
  /** The audit row: what happened, for whom, under which scope (ids only). */
  audit: { action: string; subject: string; scope: string; detail: Record<string, unknown> };
}
