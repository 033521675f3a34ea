/**
 * The authorization endpoint's forms (POST) as ordered steps over one post, in the style of
 * node-oidc-provider's actions: first the interaction is read and the form verified as this
 * browser's (OPEN_STEPS), then the login form (SIGN_IN_STEPS) or the consent form (CONSENT_STEPS).
 * A step throws an `ErrorPage`, answers (the sign-in page again, the consent page, the way back to
 * the client) or notes what it found for the next step. Each form carries the interaction id and
 * a CSRF token held in the interaction; a cookie named for the interaction binds it to this
 * browser. Both are compared in constant time; the CSRF token is replaced at login.
 */
import { timingSafeEqual } from 'node:crypto';
import type { AuditEvent } from '@vitalis/audit';
import type { Scope } from '@vitalis/schemas';
import type { CodeRequest } from '../grants/store';
import { intersect } from '../grants/scopes';
import { waitText, type LoginThrottle } from '../login-throttle';
import { roleScopes, type User } from '../users';
import { ErrorPage, type FormAnswer, type Interaction } from './interaction';

/** The cookie that binds an interaction to the browser that started it. */
export const interactionCookie = (id: string) => `vitalis_ia_${id}`;

/** The form as @fastify/formbody parses it (a repeated field is an array). */
export type FormFields = Record<string, string | string[]>;

/** One posted form on its way through the steps. */
export interface FormPost {
  readonly fields: FormFields;
  /** The request's Cookie header. */
  readonly cookie: string | undefined;
  /** The client address sign-ins are throttled by (client-address.ts). */
  readonly address: string;
  /** readInteraction: the interaction's id and the interaction. */
  id?: string;
  interaction?: Interaction;
  /** checkCredentials (login), findSignedInUser (consent): the user. */
  user?: User;
  /** grantByRole: the interaction's scopes ∩ the user's role scopes. */
  granted?: Scope[];
}

/** What the form steps use: the interaction store (Redis), the throttle, the users, the codes, the audit trail. */
export interface FormDeps {
  loadInteraction: (id: string) => Promise<Interaction | undefined>;
  saveInteraction: (id: string, interaction: Interaction) => Promise<unknown>;
  /** Deletes the interaction: 1 when it was there. */
  deleteInteraction: (id: string) => Promise<number>;
  throttle: Pick<LoginThrottle, 'begin' | 'succeeded'>;
  checkPassword: (username: string, password: string) => Promise<User | undefined>;
  findUser: (userId: string) => Promise<User | undefined>;
  createCode: (request: CodeRequest) => Promise<string>;
  /** Records an audit event (never throws: a failed write is logged). */
  audit: (event: Omit<AuditEvent, 'requestId' | 'ip'>) => Promise<unknown>;
  /** Random tokens (secrets.ts randomToken). */
  token: (bytes: number) => string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

export type FormStep = (post: FormPost, deps: FormDeps) => FormAnswer | undefined | Promise<FormAnswer | undefined>;

/** One text field; absent when missing or repeated. */
const text = (post: FormPost, name: string) => (typeof post.fields[name] === 'string' ? post.fields[name] : undefined);

/** The username as typed, trimmed, at most 200 characters (never written to the audit trail: people type passwords there). */
const typedUsername = (post: FormPost) => (text(post, 'username') ?? '').trim().slice(0, 200);

function sameSecret(a: string | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The interaction readInteraction found (a step after it). */
export function opened(post: FormPost): { id: string; interaction: Interaction } {
  if (post.id === undefined || !post.interaction) throw new Error('a form step before readInteraction');
  return { id: post.id, interaction: post.interaction };
}

function signedIn(post: FormPost): User {
  if (!post.user) throw new Error('a form step before the user is known');
  return post.user;
}

/** The form names a live interaction. */
export const readInteraction: FormStep = async (post, deps) => {
  const id = text(post, 'interaction');
  if (!id || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new ErrorPage('Invalid request', 400, 'The form is incomplete.');
  const interaction = await deps.loadInteraction(id);
  if (!interaction) throw new ErrorPage('Sign-in expired', 400, 'This sign-in request has expired or was already used.');
  post.id = id;
  post.interaction = interaction;
  return undefined;
};

/** The form comes from this sign-in page in this browser: the interaction's cookie and CSRF token, compared in constant time. */
export const verifyBrowser: FormStep = async (post, deps) => {
  const { id, interaction } = opened(post);
  const binding = cookieValue(post.cookie, interactionCookie(id));
  if (!sameSecret(binding, interaction.binding) || !sameSecret(text(post, 'csrf_token'), interaction.csrf)) {
    const reason = 'CSRF token or browser binding missing or wrong';
    await deps.audit({ action: 'authorization.refused', outcome: 'failure', clientId: interaction.clientId, detail: { reason } });
    throw new ErrorPage('Request not verified', 403, 'The form could not be verified as coming from this sign-in page.');
  }
  return undefined;
};

/** Sign-in attempts are counted before the password is checked (login-throttle.ts): a throttled one gets the page again, 429. */
export const throttleSignIn: FormStep = async (post, deps) => {
  const { interaction } = opened(post);
  const username = typedUsername(post);
  const attempt = await deps.throttle.begin(post.address, username);
  if (attempt.allowed) return undefined;
  if (attempt.first) {
    const reason =
      attempt.by === 'address' ? 'too many failed sign-ins from this address' : 'this username must wait after failed sign-ins';
    const detail = { reason, retry_after: attempt.retryAfter };
    await deps.audit({ action: 'user.login', outcome: 'failure', clientId: interaction.clientId, detail });
  }
  const error =
    attempt.by === 'address'
      ? `Too many failed sign-ins from your network. Try again in ${waitText(attempt.retryAfter)}.`
      : `Too many failed sign-ins for this username. Wait ${waitText(attempt.retryAfter)}, then try again.`;
  return { kind: 'login', status: 429, error, username, retryAfter: attempt.retryAfter };
};

/** The username and password are right (the attempt then no failure for the throttle); a wrong one gets the page again, 400. */
export const checkCredentials: FormStep = async (post, deps) => {
  const { interaction } = opened(post);
  const username = typedUsername(post);
  const password = text(post, 'password') ?? '';
  const user = username && password ? await deps.checkPassword(username, password) : undefined;
  if (!user) {
    const detail = { reason: 'wrong username or password' };
    await deps.audit({ action: 'user.login', outcome: 'failure', clientId: interaction.clientId, detail });
    return { kind: 'login', status: 400, error: 'The username or password is incorrect.', username };
  }
  await deps.throttle.succeeded(post.address, username);
  await deps.audit({ action: 'user.login', outcome: 'success', clientId: interaction.clientId, subject: user.userId });
  post.user = user;
  return undefined;
};

/** Granted = the interaction's scopes ∩ the user's role scopes; none: access_denied, back to the client. */
export const grantByRole: FormStep = async (post, deps) => {
  const { id, interaction } = opened(post);
  const user = signedIn(post);
  const granted = intersect(interaction.scopes, roleScopes(user.roles));
  if (granted.length === 0) {
    await deps.deleteInteraction(id);
    const detail = { reason: 'role grants none of the requested scopes' };
    await deps.audit({ action: 'authorization.refused', outcome: 'failure', clientId: interaction.clientId, subject: user.userId, detail });
    return { kind: 'finish', params: { error: 'access_denied', error_description: "the user's role grants none of the requested scopes" } };
  }
  post.granted = granted;
  return undefined;
};

/** The signed-in interaction (user, auth_time, granted scopes, a new CSRF token) is saved and the consent page shown. */
export const askConsent: FormStep = async (post, deps) => {
  const { id, interaction } = opened(post);
  const user = signedIn(post);
  if (!post.granted) throw new Error('askConsent before grantByRole');
  const authTime = Math.floor(deps.now() / 1000);
  const next: Interaction = { ...interaction, userId: user.userId, authTime, granted: post.granted, csrf: deps.token(32) };
  await deps.saveInteraction(id, next);
  return { kind: 'consent', interaction: next, displayName: user.displayName };
};

/** The consent form comes after the login. */
export const requireSignIn: FormStep = (post) => {
  const { interaction } = opened(post);
  if (!interaction.userId || !interaction.granted || interaction.authTime === undefined) {
    throw new ErrorPage('Invalid request', 400, 'Sign in first.');
  }
  return undefined;
};

/** One decision per interaction: deleting it first makes a double submit harmless. */
export const useInteractionOnce: FormStep = async (post, deps) => {
  if ((await deps.deleteInteraction(opened(post).id)) !== 1) {
    throw new ErrorPage('Sign-in expired', 400, 'This sign-in request was already used.');
  }
  return undefined;
};

/** The user who signed in still exists. */
export const findSignedInUser: FormStep = async (post, deps) => {
  const user = await deps.findUser(opened(post).interaction.userId ?? '');
  if (!user) throw new ErrorPage('Sign-in expired', 400, 'The account no longer exists.');
  post.user = user;
  return undefined;
};

/** Anything but "allow" is a denial: access_denied, back to the client. */
export const honourDenial: FormStep = async (post, deps) => {
  if (text(post, 'decision') === 'allow') return undefined;
  const { interaction } = opened(post);
  const scope = interaction.granted?.join(' ');
  await deps.audit({ action: 'consent.denied', outcome: 'failure', clientId: interaction.clientId, subject: signedIn(post).userId, scope });
  return { kind: 'finish', params: { error: 'access_denied', error_description: 'the user denied the request' } };
};

/** The authorization code for the granted scopes, back to the client. */
export const issueCode: FormStep = async (post, deps) => {
  const { interaction } = opened(post);
  const user = signedIn(post);
  const { granted, authTime } = interaction;
  if (!granted || authTime === undefined) throw new Error('issueCode before requireSignIn');
  const code = await deps.createCode({
    clientId: interaction.clientId,
    userId: user.userId,
    redirectUri: interaction.redirectUri,
    codeChallenge: interaction.codeChallenge,
    scopes: granted,
    authTime,
    ...(interaction.nonce !== undefined ? { nonce: interaction.nonce } : {}),
  });
  await deps.audit({
    action: 'consent.granted',
    outcome: 'success',
    clientId: interaction.clientId,
    subject: user.userId,
    scope: granted.join(' '),
    detail: { redirect_uri: interaction.redirectUri },
  });
  return { kind: 'finish', params: { code } };
};

export const OPEN_STEPS: readonly FormStep[] = [readInteraction, verifyBrowser];
export const SIGN_IN_STEPS: readonly FormStep[] = [throttleSignIn, checkCredentials, grantByRole, askConsent];
export const CONSENT_STEPS: readonly FormStep[] = [requireSignIn, useInteractionOnce, findSignedInUser, honourDenial, issueCode];

/** Runs steps in order until one answers (or throws). */
export async function runFormSteps(steps: readonly FormStep[], post: FormPost, deps: FormDeps): Promise<FormAnswer | undefined> {
  for (const step of steps) {
    const answer = await step(post, deps);
    if (answer) return answer;
  }
  return undefined;
}

/** A posted form, start to answer: the interaction opened and verified, then the form its `step` field names. */
export async function answerForm(post: FormPost, deps: FormDeps): Promise<FormAnswer> {
  await runFormSteps(OPEN_STEPS, post, deps);
  const step = text(post, 'step');
  const steps = step === 'login' ? SIGN_IN_STEPS : step === 'consent' ? CONSENT_STEPS : undefined;
  const answer = steps && (await runFormSteps(steps, post, deps));
  if (!answer) throw new ErrorPage('Invalid request', 400, 'Unknown form step.');
  return answer;
}
