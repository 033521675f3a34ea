/** GET /agent/identity: who the Bearer token says the caller is. Any valid token; no scope needed. */
import { must } from '@vitalis/runtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PATHS, type AuthContext } from './context';

/** RFC 8693 `act`: the acting client; `act.act` (nested, when exchanged again) is passed through as is. */
const actorSchema = z.object({ sub: z.string(), client_id: z.string().optional(), act: z.record(z.string(), z.unknown()).optional() });

export const identityResponseSchema = z.object({
  active: z.literal(true),
  client_id: z.string(),
  sub: z.string(),
  scope: z.string(),
  scopes: z.array(z.string()),
  roles: z.array(z.string()),
  patient_id: z.string().optional(),
  auth_method: z.string(),
  act: actorSchema.optional(),
  may_act: z
    .object({ sub: z.string(), client_id: z.string().optional() })
    .optional()
    .describe('RFC 8693 §4.4: the client allowed to exchange this token'),
  sandbox: z.boolean().describe('A sandbox principal (or derived from one): synthetic sbx- data only'),
  derived_from: z
    .array(z.string())
    .describe('Ids of the tokens this one was exchanged from, nearest first; revoking any of them revokes this one'),
  token_id: z.string(),
  exp: z.number().int(),
  expires_in: z.number().int(),
});

export function identityRoutes(_ctx: AuthContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      PATHS.identity,
      {
        config: { auth: { scopes: [] } },
        schema: {
          tags: ['oauth'],
          summary: 'Identity probe: who the Bearer token says the caller is',
          response: { 200: identityResponseSchema },
        },
      },
      async (req) => {
        const p = must(req.principal, 'the principal the bearer check sets before this route');
        return {
          active: true as const,
          client_id: p.clientId,
          sub: p.subject,
          scope: p.scopes.join(' '),
          scopes: p.scopes,
          roles: p.roles,
          ...(p.patientId ? { patient_id: p.patientId } : {}),
          auth_method: p.authMethod,
          ...(p.actor ? { act: p.actor as z.infer<typeof actorSchema> } : {}),
          ...(p.mayAct ? { may_act: { sub: p.mayAct.sub, ...(p.mayAct.client_id ? { client_id: p.mayAct.client_id } : {}) } } : {}),
          sandbox: p.sandbox,
          derived_from: p.derivedFrom,
          token_id: p.tokenId,
          exp: p.expiresAt,
          expires_in: Math.max(0, p.expiresAt - Math.floor(Date.now() / 1000)),
        };
      },
    );
  };
}
