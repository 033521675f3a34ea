/**
 * The authorization endpoint (RFC 6749 §4.1.1) for the authorization-code flow with PKCE S256.
 *
 * GET validates the request. Until the client and its exact redirect URI are known good, errors
 * are shown on an error page (never redirected: that would make us an open redirector); after
 * that they go back to the client (RFC 6749 §4.1.2.1) with `state` and `iss` (RFC 9207), but only
 * for a client someone vouched for (`vouchedFor`). A client that registered itself openly listed
 * whatever redirect URIs it liked, so before the user has signed in its errors are shown on our
 * own page too (RFC 9700 §4.11.2: an unauthenticated error redirect to an untrusted URI is an open
 * redirector), and its login and consent pages say it is unverified and name its redirect host.
 * A client not registered for authorization_code never causes a redirect at all.
 * A valid request becomes an *interaction* in Redis (TTL INTERACTION_TTL_SECONDS) and the login
 * page is shown. POST handles the login form, then the consent form. Each form carries the
 * interaction id and a CSRF token held in the interaction; a cookie named for the interaction
 * binds it to this browser. Both are compared in constant time; the CSRF token is replaced at login.
 * Sign-in attempts are throttled per client address and slowed down per username before the
 * password is checked (login-throttle.ts).
 *
 * Granted scopes = requested ∩ the client's registered scopes ∩ the user's role scopes.
 *
 * OpenID Connect (Core 1.0 §3.1.2): the request's `nonce` and the moment the user signed in
 * (`auth_time`) travel with the code to the ID token. There are no sessions (every authorization
 * asks for the password), so `prompt=none` is answered `login_required` and `max_age` is always
 * met; `request` and `request_uri` are not supported (§6: request_not_supported,
 * request_uri_not_supported).
 * SMART App Launch v2: SMART scopes and wildcards are read by @vitalis/schemas smart.ts (a
 * wildcard grants what the client and the role allow); `aud`, when sent, must name this server.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '@vitalis/audit';
import type { Scope } from '@vitalis/schemas';
import { problem } from '../access/http';
import { GRANT_TYPES, findClient, parseScopes, type Client } from './clients';
import { PATHS, type AuthContext } from './context';
import { createCode } from './grants/store';
import { intersect } from './grants/scopes';
import { consentPage, errorPage, loginPage, sendPage, type FormContext } from './pages';
import { clientAddress } from './client-address';
import { LoginThrottle, waitText } from './login-throttle';
import { CHALLENGE_PATTERN } from './pkce';
import { randomToken } from './secrets';
import { checkPassword, findUser, roleScopes } from './users';

interface Interaction {
  clientId: string;
  clientName: string;
  /** vouchedFor(client) when the request came in. */
  vouched: boolean;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  /** requested ∩ client's registered scopes. */
  scopes: Scope[];
  csrf: string;
  binding: string;
  /** OpenID Connect: the request's nonce, echoed in the ID token. */
  nonce?: string;
  userId?: string;
  /** After login: when the password was checked (seconds since the epoch), the ID token's auth_time. */
  authTime?: number;
  /** After login: scopes ∩ the user's role scopes. */
  granted?: Scope[];
}

/**
 * What the authorization endpoint answers, as served: HTML pages for the person at the browser
 * (the next page 200, an error page), or a problem when the framework refuses the request before
 * the handler (a NUL character: 400 application/problem+json).
 */
const page = (description: string) => z.string().describe(description);
const pageOrProblem = (description: string) => ({ description, content: { 'text/html': { schema: page(description) }, 'application/problem+json': { schema: problem } } });
const pageResponses = {
  200: page('The next HTML page (sign-in, consent)'),
  303: z.null().describe('See Other: to the redirect URI with `code`, `state` and `iss`, or with an OAuth error'),
  400: pageOrProblem('An HTML error page (the client or redirect URI cannot be trusted, the form is incomplete or expired, a wrong password), or a problem'),
};

const queryOrForm = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
/** The same acceptance as queryOrForm (the handler reports repeated or missing fields as OAuth errors), with the parameters named for the OpenAPI document. */
const oneOrMany = z.union([z.string(), z.array(z.string())]).optional();
const authorizeQuery = z.looseObject({
  response_type: oneOrMany.describe('code'),
  client_id: oneOrMany.describe('The registered client id'),
  redirect_uri: oneOrMany.describe('One of the registered redirect URIs'),
  scope: oneOrMany.describe('Space-separated scopes'),
  state: oneOrMany.describe('Opaque value returned with the code'),
  code_challenge: oneOrMany.describe('PKCE S256 challenge (RFC 7636)'),
  code_challenge_method: oneOrMany.describe('S256'),
  nonce: oneOrMany.describe('OpenID Connect: a value the ID token echoes (at most 512 characters)'),
  prompt: oneOrMany.describe('OpenID Connect: "none" is answered login_required (there are no sessions); others change nothing, the user always signs in and consents'),
  max_age: oneOrMany.describe('OpenID Connect: always met (the user signs in at every authorization); auth_time is always in the ID token'),
  aud: oneOrMany.describe('SMART App Launch: the FHIR base URL the app will call; must be this server (or under it)'),
});
const MAX_STATE_LENGTH = 2048;
const MAX_NONCE_LENGTH = 512;
const interactionKey = (id: string) => `vitalis:interaction:${id}`;
const cookieName = (id: string) => `vitalis_ia_${id}`;

function sameSecret(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Where errors go once the redirect URI is trusted: the client, with state and iss. */
export function redirectWithParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Whether an operator vouches for the client, so its redirect URIs are trusted: registered with an
 * initial access token or a software statement, or approved with a role (the admin API). A client
 * that registered itself (open registration, the sandbox) is not, whatever it asked for.
 */
export function vouchedFor(client: Pick<Client, 'registration' | 'role'>): boolean {
  return client.registration === 'initial_access_token' || client.registration === 'software_statement' || client.role !== null;
}

class ErrorPage extends Error {
  constructor(readonly title: string, readonly status: number, message: string) {
    super(message);
  }
}

class RedirectError extends Error {
  constructor(readonly code: string, readonly description: string) {
    super(description);
  }
}

export function authorizeRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const { config, pool, redis } = ctx;
  const issuer = config.baseUrl;
  const secureCookie = issuer.startsWith('https:');
  const action = PATHS.authorize;
  const throttle = new LoginThrottle(redis, {
    addressMaxFailures: config.LOGIN_ADDRESS_MAX_FAILURES,
    windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
    userFreeFailures: config.LOGIN_USER_FREE_FAILURES,
    userDelaySeconds: config.LOGIN_USER_DELAY_SECONDS,
    userMaxDelaySeconds: config.LOGIN_USER_MAX_DELAY_SECONDS,
  });

  const audit = (req: FastifyRequest, event: Omit<Parameters<typeof recordAudit>[1], 'requestId' | 'ip'>) =>
    recordAudit(pool, { ...event, requestId: req.id, ip: req.ip }).catch((err) => req.log.error({ err }, 'audit write failed'));

  const save = (id: string, interaction: Interaction) =>
    redis.set(interactionKey(id), JSON.stringify(interaction), 'EX', config.INTERACTION_TTL_SECONDS);

  const formContext = (id: string, i: Interaction): FormContext => ({
    action, interaction: id, csrfToken: i.csrf, clientName: i.clientName,
    ...(i.vouched ? {} : { unverifiedRedirectHost: new URL(i.redirectUri).host }),
  });
  const formTargets = (i: Interaction) => [new URL(i.redirectUri).origin];

  const finish = (reply: FastifyReply, id: string, i: Interaction, params: Record<string, string | undefined>) => {
    reply.header('set-cookie', `${cookieName(id)}=; Path=${action}; Max-Age=0; HttpOnly; SameSite=Lax${secureCookie ? '; Secure' : ''}`);
    return reply.code(303).header('cache-control', 'no-store').redirect(redirectWithParams(i.redirectUri, { ...params, state: i.state, iss: issuer }), 303);
  };

  const showError = (reply: FastifyReply, err: ErrorPage) => sendPage(reply, { title: err.title, status: err.status, body: errorPage(err.title, err.message) });

  return async (app) => {
    app.get(action, {
      schema: {
        tags: ['oauth'],
        summary: 'Authorization endpoint (authorization code + PKCE S256): shows the login page',
        description: 'Answers the HTML login page (200), an HTML error page (400) when the client or redirect URI is invalid, when the client is not registered for authorization_code, or for any error of a client that registered itself (its redirect URIs are not trusted), or else 303 to the redirect URI with an OAuth error.',
        produces: ['text/html'],
        querystring: authorizeQuery,
        response: pageResponses,
      },
    }, async (req, reply) => {
      const q = req.query as Record<string, string | string[]>;
      const one = (name: string) => {
        const v = q[name];
        if (Array.isArray(v)) return { repeated: true, value: undefined };
        return { repeated: false, value: v === '' ? undefined : v };
      };
      // 1. Client and redirect URI: until both are good, errors are pages.
      const clientId = one('client_id');
      const redirect = one('redirect_uri');
      try {
        if (clientId.repeated || !clientId.value) throw new ErrorPage('Invalid request', 400, 'The request does not name a client (client_id).');
        const client = await findClient(pool, clientId.value);
        if (!client || client.expired) throw new ErrorPage('Unknown application', 400, 'The application that sent you here is not registered.');
        if (redirect.repeated || !redirect.value) throw new ErrorPage('Invalid request', 400, 'The request has no redirect_uri.');
        if (!client.redirectUris.includes(redirect.value)) {
          throw new ErrorPage('Invalid redirect', 400, 'The redirect_uri is not one the application registered, so you are not sent back to it.');
        }
        // Its redirect URIs were never meant for redirects: it does not use this endpoint.
        if (!client.grantTypes.includes(GRANT_TYPES.authorizationCode)) {
          throw new ErrorPage('Invalid request', 400, 'The application that sent you here is not registered to sign users in (unauthorized_client).');
        }
        const redirectUri = redirect.value;
        const state = one('state');
        const stateValue = !state.repeated && state.value && state.value.length <= MAX_STATE_LENGTH ? state.value : undefined;
        const vouched = vouchedFor(client);

        // 2. From here on, errors go back to a client someone vouched for; an unverified client's are shown here.
        try {
          const repeated = Object.entries(q).find(([, v]) => Array.isArray(v));
          if (repeated) throw new RedirectError('invalid_request', `${repeated[0]} must not be repeated`);
          if (state.value && state.value.length > MAX_STATE_LENGTH) throw new RedirectError('invalid_request', 'state is too long');
          const responseType = one('response_type').value;
          if (!responseType) throw new RedirectError('invalid_request', 'response_type is required');
          if (responseType !== 'code') throw new RedirectError('unsupported_response_type', 'only response_type=code is supported');
          const challenge = one('code_challenge').value;
          const method = one('code_challenge_method').value;
          if (!challenge) throw new RedirectError('invalid_request', 'code_challenge is required (PKCE with S256)');
          if (method !== 'S256') throw new RedirectError('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
          if (!CHALLENGE_PATTERN.test(challenge)) throw new RedirectError('invalid_request', 'code_challenge is not a S256 challenge (43 base64url characters)');
          if (one('request').value !== undefined) throw new RedirectError('request_not_supported', 'the request parameter (request objects) is not supported');
          if (one('request_uri').value !== undefined) throw new RedirectError('request_uri_not_supported', 'the request_uri parameter is not supported');
          // SMART App Launch v2: `aud` names the FHIR server the app means; it must be this one (or under it).
          const aud = one('aud').value;
          if (aud !== undefined && aud !== issuer && !aud.startsWith(`${issuer}/`)) throw new RedirectError('invalid_request', 'aud names a resource server other than this one');
          const nonce = one('nonce').value;
          if (nonce !== undefined && nonce.length > MAX_NONCE_LENGTH) throw new RedirectError('invalid_request', `nonce is longer than ${MAX_NONCE_LENGTH} characters`);
          if ((one('prompt').value ?? '').split(' ').includes('none')) throw new RedirectError('login_required', 'prompt=none cannot be met: every authorization asks the user to sign in');
          const { scopes: requested, optional, unknown } = parseScopes(one('scope').value);
          if (unknown.length > 0) throw new RedirectError('invalid_scope', `unknown scope(s): ${unknown.join(', ')}`);
          const scopes = one('scope').value ? intersect([...requested, ...optional], client.scopes) : client.scopes;
          if (scopes.length === 0) throw new RedirectError('invalid_scope', 'none of the requested scopes is registered for this client');

          const id = randomToken(16);
          const interaction: Interaction = {
            clientId: client.clientId,
            clientName: client.clientName,
            vouched,
            redirectUri,
            ...(stateValue !== undefined ? { state: stateValue } : {}),
            codeChallenge: challenge,
            scopes,
            ...(nonce !== undefined ? { nonce } : {}),
            csrf: randomToken(32),
            binding: randomToken(32),
          };
          await save(id, interaction);
          reply.header('set-cookie', `${cookieName(id)}=${interaction.binding}; Path=${action}; Max-Age=${config.INTERACTION_TTL_SECONDS}; HttpOnly; SameSite=Lax${secureCookie ? '; Secure' : ''}`);
          return sendPage(reply, { title: 'Sign in', body: loginPage(formContext(id, interaction)), formTargets: formTargets(interaction) });
        } catch (err) {
          if (!(err instanceof RedirectError)) throw err;
          await audit(req, { action: 'authorization.refused', outcome: 'failure', clientId: client.clientId, detail: { error: err.code, reason: err.description, redirected: vouched } });
          if (!vouched) return showError(reply, new ErrorPage('Invalid request', 400, `The application's request cannot be completed: ${err.description} (${err.code}).`));
          return reply.code(303).header('cache-control', 'no-store').redirect(
            redirectWithParams(redirectUri, { error: err.code, error_description: err.description, state: stateValue, iss: issuer }),
            303,
          );
        }
      } catch (err) {
        if (!(err instanceof ErrorPage)) throw err;
        await audit(req, { action: 'authorization.refused', outcome: 'failure', clientId: clientId.value, detail: { reason: err.message } });
        return showError(reply, err);
      }
    });

    app.post(action, {
      schema: {
        tags: ['oauth'],
        summary: 'Authorization endpoint: the login and consent forms',
        description: 'The login and consent forms post here (CSRF token and browser-bound interaction). Answers the next HTML page, or 303 to the redirect URI with `code`, `state` and `iss` (RFC 9207) or an OAuth error.',
        consumes: ['application/x-www-form-urlencoded'],
        produces: ['text/html'],
        body: queryOrForm.meta({ example: { interaction: 'a5b1c0d2e3f4', csrf_token: 'Zm9ybS10b2tlbg', step: 'login', username: 'doctor', password: 'correct horse battery staple' } }),
        response: { ...pageResponses, 403: page('An HTML error page: the form was not verified as coming from this sign-in page'), 429: page('The sign-in page again: too many failed sign-ins (Retry-After)') },
      },
    }, async (req, reply) => {
      const body = (req.body ?? {}) as Record<string, string | string[]>;
      const str = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : undefined);
      const id = str('interaction');
      try {
        if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new ErrorPage('Invalid request', 400, 'The form is incomplete.');
        const raw = await redis.get(interactionKey(id));
        if (!raw) throw new ErrorPage('Sign-in expired', 400, 'This sign-in request has expired or was already used.');
        const interaction = JSON.parse(raw) as Interaction;
        const binding = cookieValue(req.headers.cookie, cookieName(id));
        if (!sameSecret(binding, interaction.binding) || !sameSecret(str('csrf_token'), interaction.csrf)) {
          await audit(req, { action: 'authorization.refused', outcome: 'failure', clientId: interaction.clientId, detail: { reason: 'CSRF token or browser binding missing or wrong' } });
          throw new ErrorPage('Request not verified', 403, 'The form could not be verified as coming from this sign-in page.');
        }
        const step = str('step');

        if (step === 'login') {
          const username = (str('username') ?? '').trim().slice(0, 200);
          const password = str('password') ?? '';
          const address = clientAddress(req);
          const again = (error: string, status: number) =>
            sendPage(reply, { title: 'Sign in', status, body: loginPage(formContext(id, interaction), { error, username }), formTargets: formTargets(interaction) });
          // Counted before the password is checked (see login-throttle.ts). The typed username is
          // never written to the audit trail: people type passwords there.
          const attempt = await throttle.begin(address, username);
          if (!attempt.allowed) {
            if (attempt.first) {
              const reason = attempt.by === 'address' ? 'too many failed sign-ins from this address' : 'this username must wait after failed sign-ins';
              await audit(req, { action: 'user.login', outcome: 'failure', clientId: interaction.clientId, detail: { reason, retry_after: attempt.retryAfter } });
            }
            reply.header('retry-after', String(attempt.retryAfter));
            return again(
              attempt.by === 'address'
                ? `Too many failed sign-ins from your network. Try again in ${waitText(attempt.retryAfter)}.`
                : `Too many failed sign-ins for this username. Wait ${waitText(attempt.retryAfter)}, then try again.`,
              429,
            );
          }
          const user = username && password ? await checkPassword(pool, username, password) : undefined;
          if (!user) {
            await audit(req, { action: 'user.login', outcome: 'failure', clientId: interaction.clientId, detail: { reason: 'wrong username or password' } });
            return again('The username or password is incorrect.', 400);
          }
          await throttle.succeeded(address, username);
          await audit(req, { action: 'user.login', outcome: 'success', clientId: interaction.clientId, subject: user.userId });
          const granted = intersect(interaction.scopes, roleScopes(user.roles));
          if (granted.length === 0) {
            await redis.del(interactionKey(id));
            await audit(req, { action: 'authorization.refused', outcome: 'failure', clientId: interaction.clientId, subject: user.userId, detail: { reason: 'role grants none of the requested scopes' } });
            return finish(reply, id, interaction, { error: 'access_denied', error_description: "the user's role grants none of the requested scopes" });
          }
          const next: Interaction = { ...interaction, userId: user.userId, authTime: Math.floor(Date.now() / 1000), granted, csrf: randomToken(32) };
          await save(id, next);
          return sendPage(reply, {
            title: 'Allow access',
            body: consentPage(formContext(id, next), { displayName: user.displayName, scopes: granted, redirectHost: new URL(next.redirectUri).host }),
            formTargets: formTargets(next),
          });
        }

        if (step === 'consent') {
          if (!interaction.userId || !interaction.granted || interaction.authTime === undefined) throw new ErrorPage('Invalid request', 400, 'Sign in first.');
          // One decision per interaction: deleting it first makes a double submit harmless.
          if ((await redis.del(interactionKey(id))) !== 1) throw new ErrorPage('Sign-in expired', 400, 'This sign-in request was already used.');
          const user = await findUser(pool, interaction.userId);
          if (!user) throw new ErrorPage('Sign-in expired', 400, 'The account no longer exists.');
          if (str('decision') !== 'allow') {
            await audit(req, { action: 'consent.denied', outcome: 'failure', clientId: interaction.clientId, subject: user.userId, scope: interaction.granted.join(' ') });
            return finish(reply, id, interaction, { error: 'access_denied', error_description: 'the user denied the request' });
          }
          const code = await createCode(pool, {
            clientId: interaction.clientId,
            userId: user.userId,
            redirectUri: interaction.redirectUri,
            codeChallenge: interaction.codeChallenge,
            scopes: interaction.granted,
            authTime: interaction.authTime,
            ...(interaction.nonce !== undefined ? { nonce: interaction.nonce } : {}),
          }, config.AUTH_CODE_TTL_SECONDS);
          await audit(req, { action: 'consent.granted', outcome: 'success', clientId: interaction.clientId, subject: user.userId, scope: interaction.granted.join(' '), detail: { redirect_uri: interaction.redirectUri } });
          return finish(reply, id, interaction, { code });
        }
        throw new ErrorPage('Invalid request', 400, 'Unknown form step.');
      } catch (err) {
        if (!(err instanceof ErrorPage)) throw err;
        return showError(reply, err);
      }
    });
  };
}

