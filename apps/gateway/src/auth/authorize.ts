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
 * The checks are ordered steps over one request (authorize/request-steps.ts for GET,
 * authorize/form-steps.ts for the forms; ADR 0023): their order decides which error a bad request
 * gets and where it goes. This module serves them: routes, pages, redirects, cookies.
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit, type AuditEvent } from '@vitalis/audit';
import { problem } from '../access/http';
import { resolveClient } from './client-metadata-document';
import { PATHS, type AuthContext } from './context';
import { createCode } from './grants/store';
import { consentPage, errorPage, loginPage, sendPage, type FormContext } from './pages';
import { clientAddress } from './client-address';
import { LoginThrottle } from './login-throttle';
import { randomToken } from './secrets';
import { checkPassword, findUser } from './users';
import { answerForm, interactionCookie, opened, type FormDeps, type FormFields, type FormPost } from './authorize/form-steps';
import { ErrorPage, RedirectError, type FormAnswer, type Interaction } from './authorize/interaction';
import {
  CLIENT_STEPS,
  REQUEST_STEPS,
  interactionFor,
  parameter,
  trustRedirect,
  type AuthorizationRequest,
  type Query,
  type TrustedRequest,
} from './authorize/request-steps';

export { vouchedFor } from './authorize/request-steps';

/**
 * What the authorization endpoint answers, as served: HTML pages for the person at the browser
 * (the next page 200, an error page), or a problem when the framework refuses the request before
 * the handler (a NUL character: 400 application/problem+json).
 */
const page = (description: string) => z.string().describe(description);
const pageOrProblem = (description: string) => ({
  description,
  content: { 'text/html': { schema: page(description) }, 'application/problem+json': { schema: problem } },
});
const pageResponses = {
  200: page('The next HTML page (sign-in, consent)'),
  303: z.null().describe('See Other: to the redirect URI with `code`, `state` and `iss`, or with an OAuth error'),
  400: pageOrProblem(
    'An HTML error page (the client or redirect URI cannot be trusted, the form is incomplete or expired, a wrong password), or a problem',
  ),
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
  prompt: oneOrMany.describe(
    'OpenID Connect: "none" is answered login_required (there are no sessions); others change nothing, the user always signs in and consents',
  ),
  max_age: oneOrMany.describe('OpenID Connect: always met (the user signs in at every authorization); auth_time is always in the ID token'),
  aud: oneOrMany.describe('SMART App Launch: the FHIR base URL the app will call; must be this server (or under it)'),
});
const interactionKey = (id: string) => `vitalis:interaction:${id}`;

/** Where errors go once the redirect URI is trusted: the client, with state and iss. */
export function redirectWithParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** The endpoint's parts its handlers share. */
interface Endpoint {
  ctx: AuthContext;
  /** This server's base URL: `iss` in every redirect, what `aud` must name. */
  issuer: string;
  /** The endpoint's path: the forms' action and the binding cookie's path. */
  action: string;
  secureCookie: boolean;
  throttle: LoginThrottle;
  audit: (req: FastifyRequest, event: Omit<AuditEvent, 'requestId' | 'ip'>) => Promise<void>;
  saveInteraction: (id: string, interaction: Interaction) => Promise<unknown>;
}

function endpointOf(ctx: AuthContext): Endpoint {
  const { config, pool, redis } = ctx;
  return {
    ctx,
    issuer: config.baseUrl,
    action: PATHS.authorize,
    secureCookie: config.baseUrl.startsWith('https:'),
    throttle: new LoginThrottle(redis, {
      addressMaxFailures: config.LOGIN_ADDRESS_MAX_FAILURES,
      windowSeconds: config.LOGIN_FAILURE_WINDOW_SECONDS,
      userFreeFailures: config.LOGIN_USER_FREE_FAILURES,
      userDelaySeconds: config.LOGIN_USER_DELAY_SECONDS,
      userMaxDelaySeconds: config.LOGIN_USER_MAX_DELAY_SECONDS,
    }),
    audit: (req, event) =>
      recordAudit(pool, { ...event, requestId: req.id, ip: req.ip }).catch((err) => req.log.error({ err }, 'audit write failed')),
    saveInteraction: (id, interaction) => redis.set(interactionKey(id), JSON.stringify(interaction), 'EX', config.INTERACTION_TTL_SECONDS),
  };
}

export function authorizeRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const endpoint = endpointOf(ctx);
  return async (app) => {
    app.get(
      endpoint.action,
      {
        schema: {
          tags: ['oauth'],
          summary: 'Authorization endpoint (authorization code + PKCE S256): shows the login page',
          description:
            'Answers the HTML login page (200), an HTML error page (400) when the client or redirect URI is invalid, when the client is not registered for authorization_code, or for any error of a client that registered itself (its redirect URIs are not trusted), or else 303 to the redirect URI with an OAuth error.',
          produces: ['text/html'],
          querystring: authorizeQuery,
          response: pageResponses,
        },
      },
      (req, reply) => answerRequest(endpoint, req, reply),
    );

    app.post(
      endpoint.action,
      {
        schema: {
          tags: ['oauth'],
          summary: 'Authorization endpoint: the login and consent forms',
          description:
            'The login and consent forms post here (CSRF token and browser-bound interaction). Answers the next HTML page, or 303 to the redirect URI with `code`, `state` and `iss` (RFC 9207) or an OAuth error.',
          consumes: ['application/x-www-form-urlencoded'],
          produces: ['text/html'],
          body: queryOrForm.meta({
            example: {
              interaction: 'a5b1c0d2e3f4',
              csrf_token: 'Zm9ybS10b2tlbg',
              step: 'login',
              username: 'doctor',
              password: 'correct horse battery staple',
            },
          }),
          response: {
            ...pageResponses,
            403: page('An HTML error page: the form was not verified as coming from this sign-in page'),
            429: page('The sign-in page again: too many failed sign-ins (Retry-After)'),
          },
        },
      },
      (req, reply) => answerPost(endpoint, req, reply),
    );
  };
}

/**
 * GET: the request's checks in order (authorize/request-steps.ts), then a new interaction and the
 * sign-in page. An error before the client and its redirect URI are good is a page; after, it goes
 * back to a client someone vouched for (`refuse`).
 */
async function answerRequest(e: Endpoint, req: FastifyRequest, reply: FastifyReply) {
  const query = req.query as Query;
  const request: AuthorizationRequest = { query };
  try {
    // 1. Client and redirect URI: until both are good, errors are pages.
    for (const step of CLIENT_STEPS) await step(request, (clientId) => resolveClient(e.ctx, clientId, { requestId: req.id, ip: req.ip }));
    const trusted = trustRedirect(request, e.issuer);
    // 2. From here on, errors go back to a client someone vouched for; an unverified client's are shown here.
    try {
      for (const step of REQUEST_STEPS) step(trusted);
      return await startInteraction(e, reply, interactionFor(trusted, randomToken));
    } catch (err) {
      if (!(err instanceof RedirectError)) throw err;
      return await refuse(e, req, reply, trusted, err);
    }
  } catch (err) {
    if (!(err instanceof ErrorPage)) throw err;
    const clientId = parameter(query, 'client_id').value;
    await e.audit(req, { action: 'authorization.refused', outcome: 'failure', clientId, detail: { reason: err.message } });
    return showError(reply, err);
  }
}

/** A valid request becomes an interaction in Redis, bound to this browser by a cookie; the sign-in page is shown. */
async function startInteraction(e: Endpoint, reply: FastifyReply, interaction: Interaction) {
  const id = randomToken(16);
  await e.saveInteraction(id, interaction);
  reply.header('set-cookie', bindingCookie(e, id, interaction.binding, e.ctx.config.INTERACTION_TTL_SECONDS));
  return sendPage(reply, { title: 'Sign in', body: loginPage(formContext(e, id, interaction)), formTargets: formTargets(interaction) });
}

/** An OAuth error of a checked client: audited, then redirected (RFC 6749 §4.1.2.1) if it is vouched for, else shown here. */
async function refuse(e: Endpoint, req: FastifyRequest, reply: FastifyReply, request: TrustedRequest, err: RedirectError) {
  const { client, vouched } = request;
  const detail = { error: err.code, reason: err.description, redirected: vouched };
  await e.audit(req, { action: 'authorization.refused', outcome: 'failure', clientId: client.clientId, detail });
  if (!vouched) {
    const message = `The application's request cannot be completed: ${err.description} (${err.code}).`;
    return showError(reply, new ErrorPage('Invalid request', 400, message));
  }
  return reply
    .code(303)
    .header('cache-control', 'no-store')
    .redirect(
      redirectWithParams(request.redirectUri, { error: err.code, error_description: err.description, state: request.state, iss: e.issuer }),
      303,
    );
}

/** POST: the login or consent form, through its steps (authorize/form-steps.ts), then the page or redirect it answers. */
async function answerPost(e: Endpoint, req: FastifyRequest, reply: FastifyReply) {
  const post: FormPost = { fields: (req.body ?? {}) as FormFields, cookie: req.headers.cookie, address: clientAddress(req) };
  try {
    const answer = await answerForm(post, formDeps(e, req));
    const { id, interaction } = opened(post);
    return sendAnswer(e, reply, id, interaction, answer);
  } catch (err) {
    if (!(err instanceof ErrorPage)) throw err;
    return showError(reply, err);
  }
}

/** What the form steps use, for one request (its audit rows carry its id and address). */
function formDeps(e: Endpoint, req: FastifyRequest): FormDeps {
  const { config, pool, redis } = e.ctx;
  return {
    loadInteraction: async (id) => {
      const raw = await redis.get(interactionKey(id));
      return raw ? (JSON.parse(raw) as Interaction) : undefined;
    },
    saveInteraction: e.saveInteraction,
    deleteInteraction: (id) => redis.del(interactionKey(id)),
    throttle: e.throttle,
    checkPassword: (username, password) => checkPassword(pool, username, password),
    findUser: (userId) => findUser(pool, userId),
    createCode: (request) => createCode(pool, request, config.AUTH_CODE_TTL_SECONDS),
    audit: (event) => e.audit(req, event),
    token: randomToken,
    now: Date.now,
  };
}

/** A form step's answer as served: the sign-in page again, the consent page, or the way back to the client. */
function sendAnswer(e: Endpoint, reply: FastifyReply, id: string, interaction: Interaction, answer: FormAnswer) {
  switch (answer.kind) {
    case 'login': {
      if (answer.retryAfter !== undefined) reply.header('retry-after', String(answer.retryAfter));
      const body = loginPage(formContext(e, id, interaction), { error: answer.error, username: answer.username });
      return sendPage(reply, { title: 'Sign in', status: answer.status, body, formTargets: formTargets(interaction) });
    }
    case 'consent': {
      const next = answer.interaction;
      const redirectHost = new URL(next.redirectUri).host;
      const body = consentPage(formContext(e, id, next), { displayName: answer.displayName, scopes: next.granted ?? [], redirectHost });
      return sendPage(reply, { title: 'Allow access', body, formTargets: formTargets(next) });
    }
    case 'finish':
      return finish(e, reply, id, interaction, answer.params);
  }
}

/** The interaction's binding cookie (`Max-Age=0` deletes it). */
const bindingCookie = (e: Endpoint, id: string, value: string, maxAge: number) =>
  `${interactionCookie(id)}=${value}; Path=${e.action}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${e.secureCookie ? '; Secure' : ''}`;

const formContext = (e: Endpoint, id: string, i: Interaction): FormContext => ({
  action: e.action,
  interaction: id,
  csrfToken: i.csrf,
  clientName: i.clientName,
  ...(i.vouched ? {} : { unverifiedRedirectHost: new URL(i.redirectUri).host }),
});
const formTargets = (i: Interaction) => [new URL(i.redirectUri).origin];

/** Back to the client with a code or an OAuth error, `state` and `iss`; the binding cookie deleted. */
function finish(e: Endpoint, reply: FastifyReply, id: string, i: Interaction, params: Record<string, string | undefined>) {
  reply.header('set-cookie', bindingCookie(e, id, '', 0));
  const to = redirectWithParams(i.redirectUri, { ...params, state: i.state, iss: e.issuer });
  return reply.code(303).header('cache-control', 'no-store').redirect(to, 303);
}

const showError = (reply: FastifyReply, err: ErrorPage) =>
  sendPage(reply, { title: err.title, status: err.status, body: errorPage(err.title, err.message) });
