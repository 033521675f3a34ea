/**
 * The authorization endpoint's steps (apps/gateway/src/auth/authorize/), each alone and in their
 * order: which error a bad request gets, whether it is shown here or may go back to the client
 * (RFC 6749 §4.1.2.1), and what each form step answers. Over HTTP with a browser in
 * test/integration/auth/ and test/integration/developer/walkthrough.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Client } from '../../../apps/gateway/src/auth/clients';
import { ErrorPage, RedirectError, type Interaction } from '../../../apps/gateway/src/auth/authorize/interaction';
import {
  CLIENT_STEPS,
  REQUEST_STEPS,
  checkAudience,
  checkClient,
  checkCodeGrant,
  checkNonce,
  checkPkce,
  checkPrompt,
  checkRedirectUri,
  checkResponseType,
  checkScope,
  checkState,
  interactionFor,
  parameter,
  rejectRepeatedParameters,
  rejectRequestObjects,
  trustRedirect,
  vouchedFor,
  type AuthorizationRequest,
  type Query,
  type TrustedRequest,
} from '../../../apps/gateway/src/auth/authorize/request-steps';
import {
  CONSENT_STEPS,
  OPEN_STEPS,
  SIGN_IN_STEPS,
  answerForm,
  cookieValue,
  interactionCookie,
  type FormDeps,
  type FormPost,
} from '../../../apps/gateway/src/auth/authorize/form-steps';
import type { User } from '../../../apps/gateway/src/auth/users';

const ISSUER = 'https://vitalis.example';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const REDIRECT = 'https://app.example/cb';

const client = (over: Partial<Client> = {}): Client => ({
  clientId: 'app-1',
  clientName: 'Ward App',
  grantTypes: ['authorization_code', 'refresh_token'],
  authMethod: 'none',
  scopes: ['read:vitals', 'read:patients', 'openid'],
  redirectUris: [REDIRECT],
  kind: 'registered',
  role: null,
  registration: 'initial_access_token',
  secretHash: null,
  jwks: null,
  jwksUri: null,
  expired: false,
  idTokenAlg: 'ES256',
  ...over,
});

/** A complete, valid request's query, with changes. */
const validQuery = (over: Query = {}): Query => ({
  response_type: 'code',
  client_id: 'app-1',
  redirect_uri: REDIRECT,
  scope: 'read:vitals',
  state: 'st-1',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  ...over,
});

const trusted = (query: Query, c = client()): TrustedRequest => trustRedirect({ query, client: c, redirectUri: REDIRECT }, ISSUER);

/** What a GET request becomes: the error (its class, and its code or title) or the interaction; `found`: the client client_id names (null: none). */
async function authorize(query: Query, found: Client | null = client()): Promise<string | Interaction> {
  const request: AuthorizationRequest = { query };
  try {
    for (const step of CLIENT_STEPS) await step(request, async () => found ?? undefined);
    const checked = trustRedirect(request, ISSUER);
    for (const step of REQUEST_STEPS) step(checked);
    return interactionFor(checked, (bytes) => `token-${bytes}`);
  } catch (err) {
    if (err instanceof ErrorPage) return `page: ${err.title}`;
    if (err instanceof RedirectError) return `redirect: ${err.code}`;
    throw err;
  }
}

describe('the request steps, one by one', () => {
  it('parameter: a repeated one has no value, an empty one is absent', () => {
    expect(parameter({ a: ['1', '2'], b: '', c: 'x' }, 'a')).toEqual({ repeated: true, value: undefined });
    expect(parameter({ b: '' }, 'b')).toEqual({ repeated: false, value: undefined });
    expect(parameter({ c: 'x' }, 'c')).toEqual({ repeated: false, value: 'x' });
  });

  it('checkClient: a missing, repeated, unknown or expired client is a page', async () => {
    const found = async (id: string) => (id === 'app-1' ? client() : id === 'old' ? client({ expired: true }) : undefined);
    const faults: [Query, string][] = [
      [{}, 'Invalid request'],
      [{ client_id: ['a', 'b'] }, 'Invalid request'],
      [{ client_id: 'nope' }, 'Unknown application'],
      [{ client_id: 'old' }, 'Unknown application'],
    ];
    for (const [query, title] of faults) {
      await expect(checkClient({ query }, found)).rejects.toMatchObject({ title, status: 400 });
    }
    const request: AuthorizationRequest = { query: { client_id: 'app-1' } };
    await checkClient(request, found);
    expect(request.client?.clientId).toBe('app-1');
  });

  it('checkRedirectUri: only a registered redirect URI, exactly; checkCodeGrant: only a client that uses codes', () => {
    const page = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return err instanceof ErrorPage ? err.title : 'other';
      }
      return 'passed';
    };
    expect(page(() => checkRedirectUri({ query: {}, client: client() }, async () => undefined))).toBe('Invalid request');
    expect(page(() => checkRedirectUri({ query: { redirect_uri: `${REDIRECT}/x` }, client: client() }, async () => undefined))).toBe(
      'Invalid redirect',
    );
    expect(page(() => checkRedirectUri({ query: { redirect_uri: REDIRECT }, client: client() }, async () => undefined))).toBe('passed');
    expect(page(() => checkCodeGrant({ query: {}, client: client({ grantTypes: ['client_credentials'] }) }, async () => undefined))).toBe(
      'Invalid request',
    );
  });

  it('trustRedirect: the state is sent back only when single and not too long; vouched only for a client an operator vouched for', () => {
    expect(trusted(validQuery()).state).toBe('st-1');
    expect(trusted(validQuery({ state: 'x'.repeat(2049) })).state).toBeUndefined();
    expect(trusted(validQuery({ state: ['a', 'b'] })).state).toBeUndefined();
    expect(trusted(validQuery()).vouched).toBe(true);
    expect(trusted(validQuery(), client({ registration: 'open' })).vouched).toBe(false);
    expect(vouchedFor({ registration: 'open', role: 'doctor' })).toBe(true);
    expect(vouchedFor({ registration: 'sandbox', role: null })).toBe(false);
  });

  it('each refuses its fault with its OAuth error, and passes a valid request', () => {
    const refusal = (step: (r: TrustedRequest) => void, query: Query) => {
      try {
        step(trusted(query));
        return 'passed';
      } catch (err) {
        return err instanceof RedirectError ? `${err.code}: ${err.description}` : 'other';
      }
    };
    const cases: [(r: TrustedRequest) => void, Query, string][] = [
      [rejectRepeatedParameters, { scope: ['a', 'b'] }, 'invalid_request: scope must not be repeated'],
      [checkState, { state: 'x'.repeat(2049) }, 'invalid_request: state is too long'],
      [checkResponseType, { response_type: '' }, 'invalid_request: response_type is required'],
      [checkResponseType, { response_type: 'token' }, 'unsupported_response_type: only response_type=code is supported'],
      [checkPkce, { code_challenge: '' }, 'invalid_request: code_challenge is required (PKCE with S256)'],
      [checkPkce, { code_challenge_method: 'plain' }, 'invalid_request: code_challenge_method must be S256 (plain is not supported)'],
      [checkPkce, { code_challenge: 'short' }, 'invalid_request: code_challenge is not a S256 challenge (43 base64url characters)'],
      [rejectRequestObjects, { request: 'eyJ' }, 'request_not_supported: the request parameter (request objects) is not supported'],
      [rejectRequestObjects, { request_uri: 'urn:x' }, 'request_uri_not_supported: the request_uri parameter is not supported'],
      [checkAudience, { aud: 'https://other.example' }, 'invalid_request: aud names a resource server other than this one'],
      [checkAudience, { aud: `${ISSUER}x` }, 'invalid_request: aud names a resource server other than this one'],
      [checkNonce, { nonce: 'n'.repeat(513) }, 'invalid_request: nonce is longer than 512 characters'],
      [checkPrompt, { prompt: 'login none' }, 'login_required: prompt=none cannot be met: every authorization asks the user to sign in'],
      [checkScope, { scope: 'read:vitals bogus' }, 'invalid_scope: unknown scope(s): bogus'],
      [checkScope, { scope: 'write:patients' }, 'invalid_scope: none of the requested scopes is registered for this client'],
    ];
    for (const [step, change, expected] of cases) {
      expect(refusal(step, validQuery(change)), `${step.name} ${JSON.stringify(change)}`).toBe(expected);
      expect(refusal(step, validQuery()), step.name).toBe('passed');
    }
  });

  it('notes the challenge, the nonce and the scopes (none requested: all of the client’s), and accepts an aud under this server', () => {
    const request = trusted(validQuery({ nonce: 'n-1', aud: `${ISSUER}/fhir` }));
    for (const step of REQUEST_STEPS) step(request);
    expect(request).toMatchObject({ codeChallenge: CHALLENGE, nonce: 'n-1', scopes: ['read:vitals'] });
    const all = trusted(validQuery({ scope: '' }));
    checkScope(all);
    expect(all.scopes).toEqual(['read:vitals', 'read:patients', 'openid']);
  });
});

describe('the request steps in order', () => {
  it('shows every error until the client and redirect URI are good, and only then sends errors back', async () => {
    expect(await authorize(validQuery({ client_id: '', response_type: 'token' }))).toBe('page: Invalid request');
    expect(await authorize(validQuery({ response_type: 'token' }), null)).toBe('page: Unknown application');
    expect(await authorize(validQuery({ redirect_uri: 'https://evil.example/cb', response_type: 'token' }))).toBe('page: Invalid redirect');
    expect(await authorize(validQuery({ response_type: 'token' }), client({ grantTypes: ['client_credentials'] }))).toBe(
      'page: Invalid request',
    );
    expect(await authorize(validQuery({ response_type: 'token' }))).toBe('redirect: unsupported_response_type');
  });

  it('gives a request with several faults the error of the first check', async () => {
    expect(await authorize(validQuery({ scope: ['a', 'b'], response_type: 'token' }))).toBe('redirect: invalid_request');
    expect(await authorize(validQuery({ response_type: 'token', code_challenge: '' }))).toBe('redirect: unsupported_response_type');
    expect(await authorize(validQuery({ code_challenge: '', request: 'eyJ' }))).toBe('redirect: invalid_request');
    expect(await authorize(validQuery({ request: 'eyJ', aud: 'https://other.example' }))).toBe('redirect: request_not_supported');
    expect(await authorize(validQuery({ prompt: 'none', scope: 'bogus' }))).toBe('redirect: login_required');
  });

  it('turns a valid request into an interaction with fresh tokens', async () => {
    expect(await authorize(validQuery({ nonce: 'n-1' }))).toEqual({
      clientId: 'app-1',
      clientName: 'Ward App',
      vouched: true,
      redirectUri: REDIRECT,
      state: 'st-1',
      codeChallenge: CHALLENGE,
      scopes: ['read:vitals'],
      nonce: 'n-1',
      csrf: 'token-32',
      binding: 'token-32',
    });
  });
});

const interaction = (over: Partial<Interaction> = {}): Interaction => ({
  clientId: 'app-1',
  clientName: 'Ward App',
  vouched: true,
  redirectUri: REDIRECT,
  state: 'st-1',
  codeChallenge: CHALLENGE,
  scopes: ['read:vitals'],
  csrf: 'csrf-1',
  binding: 'bind-1',
  ...over,
});
const doctor: User = { userId: 'usr-1', username: 'doctor', displayName: 'Dr. One', roles: ['doctor'] };

/** The form steps' parts as fakes; `events` records what they did, in order. */
function formFakes(stored: Interaction | undefined, opts: { throttled?: 'address' | 'username'; user?: User } = {}) {
  const events: string[] = [];
  const saved = new Map<string, Interaction>();
  let live = stored !== undefined;
  const deps: FormDeps = {
    loadInteraction: async () => (live ? stored : undefined),
    saveInteraction: async (id, i) => void saved.set(id, i),
    deleteInteraction: async () => {
      events.push('delete');
      const was = live;
      live = false;
      return was ? 1 : 0;
    },
    throttle: {
      begin: async () => (opts.throttled ? { allowed: false, by: opts.throttled, retryAfter: 30, first: true } : { allowed: true }),
      succeeded: async () => void events.push('throttle cleared'),
    },
    checkPassword: async (username, password) => (username === 'doctor' && password === 'right' ? (opts.user ?? doctor) : undefined),
    findUser: async (userId) => (userId === doctor.userId ? doctor : undefined),
    createCode: async (request) => {
      events.push(`code for ${request.scopes.join(' ')} nonce=${request.nonce ?? '-'}`);
      return 'code-1';
    },
    audit: async (event) => void events.push(`audit ${event.action} ${event.outcome}`),
    token: (bytes) => `new-${bytes}`,
    now: () => 1_700_000_000_500,
  };
  return { deps, events, saved };
}

const post = (fields: Record<string, string>, cookie = `${interactionCookie('ia-1')}=bind-1`): FormPost => ({
  fields: { interaction: 'ia-1', csrf_token: 'csrf-1', ...fields },
  cookie,
  address: '203.0.113.9',
});

/** What a form post becomes: the answer, or the error page's status and title. */
async function answer(p: FormPost, deps: FormDeps) {
  try {
    return await answerForm(p, deps);
  } catch (err) {
    if (err instanceof ErrorPage) return `page ${err.status}: ${err.title}`;
    throw err;
  }
}

describe('the form steps', () => {
  it('are in the order the forms need', () => {
    expect(OPEN_STEPS.map((s) => s.name)).toEqual(['readInteraction', 'verifyBrowser']);
    expect(SIGN_IN_STEPS.map((s) => s.name)).toEqual(['throttleSignIn', 'checkCredentials', 'grantByRole', 'askConsent']);
    expect(CONSENT_STEPS.map((s) => s.name)).toEqual([
      'requireSignIn',
      'useInteractionOnce',
      'findSignedInUser',
      'honourDenial',
      'issueCode',
    ]);
  });

  it('cookieValue finds one cookie among several', () => {
    expect(cookieValue('a=1; vitalis_ia_x=abc ;b=2', 'vitalis_ia_x')).toBe('abc');
    expect(cookieValue(undefined, 'vitalis_ia_x')).toBeUndefined();
  });

  it('refuse a bad interaction id, an expired interaction, and a form without this browser’s cookie or CSRF token', async () => {
    const { deps, events } = formFakes(interaction());
    expect(await answer(post({ interaction: '../x', step: 'login' }), deps)).toBe('page 400: Invalid request');
    expect(await answer(post({ step: 'login' }), formFakes(undefined).deps)).toBe('page 400: Sign-in expired');
    expect(await answer(post({ step: 'login' }, 'vitalis_ia_ia-1=other'), deps)).toBe('page 403: Request not verified');
    expect(await answer(post({ step: 'login', csrf_token: 'csrf-2' }), deps)).toBe('page 403: Request not verified');
    expect(events).toEqual(['audit authorization.refused failure', 'audit authorization.refused failure']);
    expect(await answer(post({ step: 'other' }), deps)).toBe('page 400: Invalid request');
  });

  it('sign in: throttled (429 with Retry-After), a wrong password (400), a role granting nothing (access_denied), or the consent page', async () => {
    expect(
      await answer(post({ step: 'login', username: 'doctor', password: 'right' }), formFakes(interaction(), { throttled: 'address' }).deps),
    ).toEqual({
      kind: 'login',
      status: 429,
      error: 'Too many failed sign-ins from your network. Try again in 30 seconds.',
      username: 'doctor',
      retryAfter: 30,
    });
    const wrong = formFakes(interaction());
    expect(await answer(post({ step: 'login', username: '  doctor ', password: 'wrong' }), wrong.deps)).toEqual({
      kind: 'login',
      status: 400,
      error: 'The username or password is incorrect.',
      username: 'doctor',
    });
    expect(wrong.events).toEqual(['audit user.login failure']);

    const reception = formFakes(interaction(), { user: { ...doctor, roles: ['reception'] } });
    expect(await answer(post({ step: 'login', username: 'doctor', password: 'right' }), reception.deps)).toEqual({
      kind: 'finish',
      params: { error: 'access_denied', error_description: "the user's role grants none of the requested scopes" },
    });
    expect(reception.events).toEqual(['throttle cleared', 'audit user.login success', 'delete', 'audit authorization.refused failure']);

    const signedIn = formFakes(interaction());
    const consent = await answer(post({ step: 'login', username: 'doctor', password: 'right' }), signedIn.deps);
    const next = { ...interaction(), userId: 'usr-1', authTime: 1_700_000_000, granted: ['read:vitals'], csrf: 'new-32' };
    expect(consent).toEqual({ kind: 'consent', interaction: next, displayName: 'Dr. One' });
    expect(signedIn.saved.get('ia-1')).toEqual(next);
  });

  it('consent: only after sign-in, once, for a user who still exists; a denial or a code back to the client', async () => {
    const signed = interaction({ userId: 'usr-1', authTime: 1_700_000_000, granted: ['read:vitals'], nonce: 'n-1' });
    expect(await answer(post({ step: 'consent', decision: 'allow' }), formFakes(interaction()).deps)).toBe('page 400: Invalid request');
    expect(await answer(post({ step: 'consent', decision: 'allow' }), formFakes({ ...signed, userId: 'gone' }).deps)).toBe(
      'page 400: Sign-in expired',
    );

    const denied = formFakes(signed);
    expect(await answer(post({ step: 'consent', decision: 'deny' }), denied.deps)).toEqual({
      kind: 'finish',
      params: { error: 'access_denied', error_description: 'the user denied the request' },
    });
    expect(denied.events).toEqual(['delete', 'audit consent.denied failure']);

    const allowed = formFakes(signed);
    expect(await answer(post({ step: 'consent', decision: 'allow' }), allowed.deps)).toEqual({
      kind: 'finish',
      params: { code: 'code-1' },
    });
    expect(allowed.events).toEqual(['delete', 'code for read:vitals nonce=n-1', 'audit consent.granted success']);
  });

  it('consent: a second submit of the same interaction is refused (deleted first)', async () => {
    const signed = interaction({ userId: 'usr-1', authTime: 1_700_000_000, granted: ['read:vitals'] });
    const { deps } = formFakes(signed);
    const p = post({ step: 'consent', decision: 'allow' });
    const stillLoaded: FormDeps = { ...deps, loadInteraction: async () => signed };
    expect(await answer(p, stillLoaded)).toEqual({ kind: 'finish', params: { code: 'code-1' } });
    expect(await answer(post({ step: 'consent', decision: 'allow' }), stillLoaded)).toBe('page 400: Sign-in expired');
  });
});
