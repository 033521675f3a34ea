/**
 * The OpenID Connect UserInfo endpoint (Core 1.0 §5.3): GET and POST, Bearer access token holding
 * `openid` (the one guard checks it like every route: 401 without a valid token, 403
 * insufficient_scope without openid). Answers JSON claims about the signed-in user:
 *
 *   always              sub (the user id; the same as the ID token's)
 *   profile (§5.4)      name, preferred_username, and `roles` (Vitalis: the user's roles)
 *   fhirUser (SMART)    fhirUser: Patient/<patient id> or Practitioner/<user id> (users.ts fhirUserOf)
 *
 * A subject that is no Vitalis user (a trusted issuer's, through token exchange) gets `sub` only.
 * Every answer is an audit row (`user.info.read`); when it cannot be written, 503 and no claims.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { must } from '@vitalis/runtime';
import type { Scope } from '@vitalis/schemas';
import { audit } from '../access/caller';
import { callerOf, problems } from '../access/http';
import { PATHS, type AuthContext } from './context';
import { fhirUserOf, findUser, type User } from './users';

export const userInfoSchema = z.object({
  sub: z.string().describe("The user id: the ID token's sub"),
  name: z.string().optional().describe('profile: the display name'),
  preferred_username: z.string().optional().describe('profile: the username'),
  roles: z.array(z.string()).optional().describe("profile (Vitalis): the user's roles"),
  fhirUser: z.string().optional().describe('SMART fhirUser: Patient/<id> for a patient user, Practitioner/<user id> otherwise'),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** The claims `scopes` allow about `user` (sub always). */
export function userInfoClaims(subject: string, user: User | undefined, scopes: readonly Scope[]): UserInfo {
  if (!user) return { sub: subject };
  return {
    sub: subject,
    ...(scopes.includes('profile') ? { name: user.displayName, preferred_username: user.username, roles: user.roles } : {}),
    ...(scopes.includes('fhirUser') ? { fhirUser: fhirUserOf(user) } : {}),
  };
}

export function userInfoRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: PATHS.userinfo,
        config: { auth: { scopes: ['openid'] } },
        schema: {
          tags: ['oauth'],
          summary: `OpenID Connect UserInfo (${method}): claims about the signed-in user (sub; name, preferred_username and roles with profile)`,
          response: { 200: userInfoSchema, ...problems(401, 403, 503) },
        },
        handler: async (req, reply) => {
          const p = must(req.principal, 'the principal the bearer check sets before this route');
          const claims = userInfoClaims(p.subject, await findUser(ctx.pool, p.subject), p.scopes);
          await audit(ctx.pool, callerOf(req), {
            action: 'user.info.read',
            scope: p.scopes.filter((s) => s === 'openid' || s === 'profile' || s === 'fhirUser').join(' '),
            resourceType: 'User',
            resourceId: p.subject,
            detail: { claims: Object.keys(claims) },
          });
          return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(claims);
        },
      });
    }
  };
}
