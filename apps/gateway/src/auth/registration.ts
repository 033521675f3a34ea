/**
 * POST /api/auth/register: dynamic client registration (RFC 7591). Open, as the spec shows no
 * authentication, but what a client can obtain is bounded by a role, never by what it asks for:
 *
 *   no credential (open)              -> the public scopes only (slot availability, no PHI); what it
 *                                        asked for beyond them waits for an operator's approval
 *   Authorization: Bearer <initial    -> the role an operator minted the token for (RFC 7591 §3)
 *     access token>
 *   software_statement (JWT)          -> the role a trusted issuer bound the software to (§2.3)
 *
 * The answer's `scope` is exactly what was granted (RFC 7591 §2, RFC 6749 §3.3). When
 * REGISTRATION_ACCESS_TOKEN is set, open registration is closed: an initial access token (that one,
 * which carries no role, or one an operator minted) is required. The secret (client_secret_*
 * methods only) is in this answer and nowhere else.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { registerClient, registrationRequestSchema, registrationResponseSchema, type RegistrationAuthority } from './clients';
import { PATHS, type AuthContext } from './context';
import { bearerToken } from './bearer';
import { redeemInitialAccessToken } from './initial-access';
import { OAuthError, rateLimited } from './oauth-errors';
import { auditClientRefused, auditClientRegistered } from './registration-audit';
import { verifySoftwareStatement } from './software-statement';
import { oauthErrorSchema, oauthRequestErrors, sendOAuthError } from './token-endpoint';

function sameSecret(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** RFC 7591 §3: errors on the initial access token follow RFC 6750. */
const invalidInitialAccessToken = (description: string) =>
  new OAuthError(401, 'invalid_token', description, {
    'www-authenticate': `Bearer realm="vitalis", error="invalid_token", error_description="${description}"`,
  });

/** The registration request's metadata, as its schema reads it. */
type RegistrationRequest = z.infer<typeof registrationRequestSchema>;

/** Who vouches for this registration (the presented initial access token, if any). */
async function authorityOf(ctx: AuthContext, header: string | undefined): Promise<RegistrationAuthority> {
  const configured = ctx.config.REGISTRATION_ACCESS_TOKEN;
  if (header === undefined) {
    if (configured) throw invalidInitialAccessToken('registration requires an initial access token');
    return { registration: 'open', role: null };
  }
  const token = bearerToken(header);
  if (!token) throw invalidInitialAccessToken('the initial access token must be sent as Authorization: Bearer <token>');
  if (configured && sameSecret(token, configured)) return { registration: 'open', role: null };
  const role = await redeemInitialAccessToken(ctx.pool, token);
  if (!role) throw invalidInitialAccessToken('the initial access token is unknown, expired or used up');
  return { registration: 'initial_access_token', role };
}

/** The registration route: its per-address budget for anonymous registrations, then answerRegistration. */
export function registrationRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    // RFC 7591 §3: anonymous registrations per client address (each stores a client, an audit row
    // and a hashed secret), counted first thing, before the body is read; 429 with an OAuth error
    // body. A registration presenting an initial access token is bounded by that token (its
    // operator-set number of registrations; a wrong one is refused before anything is stored), not
    // by the address: the operator's own tools (`make run`'s demo seed) never wait behind
    // strangers' registrations from the same address.
    const perAddress = app.rateLimiter({
      name: 'registration',
      max: ctx.config.REGISTRATION_ADDRESS_RATE_LIMIT,
      windowSeconds: ctx.config.REGISTRATION_RATE_WINDOW_SECONDS,
    });
    app.post(
      PATHS.register,
      {
        attachValidation: true,
        errorHandler: oauthRequestErrors('invalid_client_metadata'),
        onRequest: async (req, reply) => {
          if (req.headers.authorization !== undefined) return;
          const verdict = await perAddress(req);
          if (verdict.exceeded) {
            return sendOAuthError(
              reply,
              rateLimited(
                `too many registrations from this address (${verdict.max} per window); retry after ${verdict.resetSeconds} s`,
                verdict.resetSeconds,
              ),
            );
          }
        },
        schema: {
          'x-rate-limited': true,
          tags: ['oauth'],
          summary:
            'Register a client (RFC 7591): open for the public scopes; a role through an initial access token or a software statement',
          body: registrationRequestSchema.meta({
            example: {
              client_name: 'Ward dashboard',
              grant_types: ['client_credentials'],
              token_endpoint_auth_method: 'client_secret_basic',
              scope: 'read:vitals',
            },
          }),
          response: {
            201: registrationResponseSchema,
            400: oauthErrorSchema,
            401: oauthErrorSchema,
            429: oauthErrorSchema.describe('Rate limited: error "temporarily_unavailable"; Retry-After says when to try again'),
          },
        },
      },
      async (req, reply) => answerRegistration(ctx, req, reply),
    );
  };
}

/**
 * One registration: the metadata, who vouches for it (initial access token, else a software
 * statement's role, else open), the client stored and audited; a refusal is audited and answered
 * as an RFC 7591 §3.2.2 body.
 */
async function answerRegistration(
  ctx: AuthContext,
  req: Pick<FastifyRequest, 'id' | 'ip' | 'headers' | 'validationError'> & { body: RegistrationRequest },
  reply: FastifyReply,
): Promise<FastifyReply> {
  try {
    if (req.validationError) throw new OAuthError(400, 'invalid_client_metadata', req.validationError.message);
    let authority = await authorityOf(ctx, req.headers.authorization);
    let body = req.body;
    let statement: { issuer: string; softwareId?: string } | undefined;
    if (body.software_statement !== undefined) {
      const verified = await verifySoftwareStatement(body.software_statement, ctx.config.SOFTWARE_STATEMENT_ISSUERS);
      const merged = registrationRequestSchema.safeParse({ ...body, ...verified.metadata });
      if (!merged.success)
        throw new OAuthError(400, 'invalid_software_statement', 'the software statement carries invalid client metadata');
      body = merged.data;
      statement = { issuer: verified.issuer, ...(verified.softwareId ? { softwareId: verified.softwareId } : {}) };
      // An initial access token's role and a statement's role are both an operator's word; the token's wins.
      if (authority.registration === 'open') authority = { registration: 'software_statement', role: verified.role };
    }
    const registered = await registerClient(ctx.pool, body, authority, { jwksAllowHosts: ctx.keySets.allowHosts });
    await auditClientRegistered(
      ctx.pool,
      registered,
      {
        registration: authority.registration,
        role: authority.role,
        ...(statement ? { extra: { software_statement_issuer: statement.issuer, software_id: statement.softwareId } } : {}),
      },
      { requestId: req.id, ip: req.ip },
    );
    return reply.code(201).header('cache-control', 'no-store').header('pragma', 'no-cache').send(registered);
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    await auditClientRefused(ctx.pool, { error: err.code, reason: err.description }, { requestId: req.id, ip: req.ip });
    return sendOAuthError(reply, err);
  }
}
