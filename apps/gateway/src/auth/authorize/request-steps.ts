/**
 * The authorization request's checks (GET, RFC 6749 §4.1.1) as ordered steps over one request, in
 * the style of node-oidc-provider's actions. The order decides which error a bad request gets, and
 * where it goes:
 *  - CLIENT_STEPS (client, redirect URI, the authorization_code grant): until the client and its
 *    exact redirect URI are known good, an error is an `ErrorPage` shown here (never redirected:
 *    that would make us an open redirector);
 *  - `trustRedirect`: from here on the redirect URI is the client's;
 *  - REQUEST_STEPS (repeated parameters, state, response type, PKCE, request objects, audience,
 *    nonce, prompt, scope): an error is a `RedirectError`, sent back to a client someone vouched for
 *    (RFC 6749 §4.1.2.1) and shown here for a client that registered itself (RFC 9700 §4.11.2).
 * Each step reads the query, throws its error or notes what it found.
 */
import type { Scope } from '@vitalis/schemas';
import { GRANT_TYPES, parseScopes, type Client } from '../clients';
import { intersect } from '../grants/scopes';
import { CHALLENGE_PATTERN } from '../pkce';
import { ErrorPage, RedirectError, type Interaction } from './interaction';

/** The query as parsed: a repeated parameter is an array. */
export type Query = Record<string, string | string[]>;

export const MAX_STATE_LENGTH = 2048;
export const MAX_NONCE_LENGTH = 512;

/** One parameter: repeated (then without a value), or its value (an empty one read as absent). */
export function parameter(query: Query, name: string): { repeated: boolean; value: string | undefined } {
  const v = query[name];
  if (Array.isArray(v)) return { repeated: true, value: undefined };
  return { repeated: false, value: v === '' ? undefined : v };
}

/**
 * Whether an operator vouches for the client, so its redirect URIs are trusted: registered with an
 * initial access token or a software statement, or approved with a role (the admin API). A client
 * that registered itself (open registration, the sandbox) is not, whatever it asked for.
 */
export function vouchedFor(client: Pick<Client, 'registration' | 'role'>): boolean {
  return client.registration === 'initial_access_token' || client.registration === 'software_statement' || client.role !== null;
}

/** An authorization request while its client and redirect URI are checked. */
export interface AuthorizationRequest {
  readonly query: Query;
  /** checkClient: the registered, unexpired client client_id names. */
  client?: Client;
  /** checkRedirectUri: one of the client's registered redirect URIs. */
  redirectUri?: string;
}

/** A request whose client and redirect URI are good: its errors may go back to the client. */
export interface TrustedRequest {
  readonly query: Query;
  /** This server's base URL (`aud` must name it, `iss` in every redirect). */
  readonly issuer: string;
  readonly client: Client;
  readonly redirectUri: string;
  /** The state to send back: absent when missing, repeated or too long. */
  readonly state: string | undefined;
  /** vouchedFor(client): whether its errors are redirected. */
  readonly vouched: boolean;
  /** checkPkce: the S256 challenge. */
  codeChallenge?: string;
  /** checkNonce: OpenID Connect's nonce. */
  nonce?: string;
  /** checkScope: requested ∩ the client's registered scopes (all of them when none is requested). */
  scopes?: Scope[];
}

/** How a client step finds a client by id. */
export type FindClient = (clientId: string) => Promise<Client | undefined>;
export type ClientStep = (request: AuthorizationRequest, findClient: FindClient) => void | Promise<void>;
export type RequestStep = (request: TrustedRequest) => void;

/** client_id names a registered client that has not expired. */
export const checkClient: ClientStep = async (request, findClient) => {
  const clientId = parameter(request.query, 'client_id');
  if (clientId.repeated || !clientId.value) throw new ErrorPage('Invalid request', 400, 'The request does not name a client (client_id).');
  const client = await findClient(clientId.value);
  if (!client || client.expired) throw new ErrorPage('Unknown application', 400, 'The application that sent you here is not registered.');
  request.client = client;
};

/** redirect_uri is one the client registered, exactly. */
export const checkRedirectUri: ClientStep = (request) => {
  const redirect = parameter(request.query, 'redirect_uri');
  if (redirect.repeated || !redirect.value) throw new ErrorPage('Invalid request', 400, 'The request has no redirect_uri.');
  if (!clientOf(request).redirectUris.includes(redirect.value)) {
    throw new ErrorPage('Invalid redirect', 400, 'The redirect_uri is not one the application registered, so you are not sent back to it.');
  }
  request.redirectUri = redirect.value;
};

/** The client is registered for the authorization_code grant. */
export const checkCodeGrant: ClientStep = (request) => {
  // Its redirect URIs were never meant for redirects: it does not use this endpoint.
  if (!clientOf(request).grantTypes.includes(GRANT_TYPES.authorizationCode)) {
    const message = 'The application that sent you here is not registered to sign users in (unauthorized_client).';
    throw new ErrorPage('Invalid request', 400, message);
  }
};

/** Until both the client and its redirect URI are good, errors are pages. */
export const CLIENT_STEPS: readonly ClientStep[] = [checkClient, checkRedirectUri, checkCodeGrant];

/** After CLIENT_STEPS: the request with its trusted redirect URI, the state to send back and whether the client is vouched for. */
export function trustRedirect(request: AuthorizationRequest, issuer: string): TrustedRequest {
  const client = clientOf(request);
  if (request.redirectUri === undefined) throw new Error('trustRedirect before checkRedirectUri');
  const state = parameter(request.query, 'state');
  return {
    query: request.query,
    issuer,
    client,
    redirectUri: request.redirectUri,
    state: !state.repeated && state.value && state.value.length <= MAX_STATE_LENGTH ? state.value : undefined,
    vouched: vouchedFor(client),
  };
}

/** No parameter is repeated (RFC 6749 §3.1). */
export const rejectRepeatedParameters: RequestStep = ({ query }) => {
  const repeated = Object.entries(query).find(([, v]) => Array.isArray(v));
  if (repeated) throw new RedirectError('invalid_request', `${repeated[0]} must not be repeated`);
};

/** state is at most MAX_STATE_LENGTH characters. */
export const checkState: RequestStep = ({ query }) => {
  const state = parameter(query, 'state').value;
  if (state && state.length > MAX_STATE_LENGTH) throw new RedirectError('invalid_request', 'state is too long');
};

/** response_type is code. */
export const checkResponseType: RequestStep = ({ query }) => {
  const responseType = parameter(query, 'response_type').value;
  if (!responseType) throw new RedirectError('invalid_request', 'response_type is required');
  if (responseType !== 'code') throw new RedirectError('unsupported_response_type', 'only response_type=code is supported');
};

/** PKCE (RFC 7636) with S256: a challenge of 43 base64url characters. */
export const checkPkce: RequestStep = (request) => {
  const challenge = parameter(request.query, 'code_challenge').value;
  const method = parameter(request.query, 'code_challenge_method').value;
  if (!challenge) throw new RedirectError('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (method !== 'S256') throw new RedirectError('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
  if (!CHALLENGE_PATTERN.test(challenge)) {
    throw new RedirectError('invalid_request', 'code_challenge is not a S256 challenge (43 base64url characters)');
  }
  request.codeChallenge = challenge;
};

/** OpenID Connect request objects (§6) are not supported. */
export const rejectRequestObjects: RequestStep = ({ query }) => {
  if (parameter(query, 'request').value !== undefined) {
    throw new RedirectError('request_not_supported', 'the request parameter (request objects) is not supported');
  }
  if (parameter(query, 'request_uri').value !== undefined) {
    throw new RedirectError('request_uri_not_supported', 'the request_uri parameter is not supported');
  }
};

/** SMART App Launch v2: `aud` names the FHIR server the app means; it must be this one (or under it). */
export const checkAudience: RequestStep = ({ query, issuer }) => {
  const aud = parameter(query, 'aud').value;
  if (aud !== undefined && aud !== issuer && !aud.startsWith(`${issuer}/`)) {
    throw new RedirectError('invalid_request', 'aud names a resource server other than this one');
  }
};

/** OpenID Connect: the nonce, at most MAX_NONCE_LENGTH characters, travels with the code to the ID token. */
export const checkNonce: RequestStep = (request) => {
  const nonce = parameter(request.query, 'nonce').value;
  if (nonce !== undefined && nonce.length > MAX_NONCE_LENGTH) {
    throw new RedirectError('invalid_request', `nonce is longer than ${MAX_NONCE_LENGTH} characters`);
  }
  if (nonce !== undefined) request.nonce = nonce;
};

/** There are no sessions: every authorization asks the user to sign in, so prompt=none cannot be met. */
export const checkPrompt: RequestStep = ({ query }) => {
  if ((parameter(query, 'prompt').value ?? '').split(' ').includes('none')) {
    throw new RedirectError('login_required', 'prompt=none cannot be met: every authorization asks the user to sign in');
  }
};

/** Every requested scope is known, and at least one is registered for the client (none requested: all of the client's). */
export const checkScope: RequestStep = (request) => {
  const scope = parameter(request.query, 'scope').value;
  const { scopes: requested, optional, unknown } = parseScopes(scope);
  if (unknown.length > 0) throw new RedirectError('invalid_scope', `unknown scope(s): ${unknown.join(', ')}`);
  const scopes = scope ? intersect([...requested, ...optional], request.client.scopes) : request.client.scopes;
  if (scopes.length === 0) throw new RedirectError('invalid_scope', 'none of the requested scopes is registered for this client');
  request.scopes = scopes;
};

/** From here on, errors go back to a client someone vouched for; an unverified client's are shown here. */
export const REQUEST_STEPS: readonly RequestStep[] = [
  rejectRepeatedParameters,
  checkState,
  checkResponseType,
  checkPkce,
  rejectRequestObjects,
  checkAudience,
  checkNonce,
  checkPrompt,
  checkScope,
];

/** A checked request's interaction, with a fresh CSRF token and browser binding (`token`: randomToken). */
export function interactionFor(request: TrustedRequest, token: (bytes: number) => string): Interaction {
  const { client, codeChallenge, scopes, state, nonce } = request;
  if (codeChallenge === undefined || scopes === undefined) throw new Error('interactionFor before checkPkce and checkScope');
  return {
    clientId: client.clientId,
    clientName: client.clientName,
    vouched: request.vouched,
    redirectUri: request.redirectUri,
    ...(state !== undefined ? { state } : {}),
    codeChallenge,
    scopes,
    ...(nonce !== undefined ? { nonce } : {}),
    csrf: token(32),
    binding: token(32),
  };
}

function clientOf(request: AuthorizationRequest): Client {
  if (!request.client) throw new Error('a client step before checkClient');
  return request.client;
}
