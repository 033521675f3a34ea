/**
 * The operator's side of client registration (scope admin:clients, audited):
 *
 *   POST /api/auth/admin/initial-access-tokens        mint an RFC 7591 §3 initial access token for a role
 *                                                      the caller could act as itself (never `system`:
 *                                                      the operator's command line alone mints that)
 *   GET  /api/auth/admin/clients?approval=pending      clients waiting for an operator
 *   POST /api/auth/admin/clients/{client_id}/approve   give a client a role; its scopes become what it
 *                                                      asked for (or `scope`) within that role
 *   POST /api/auth/admin/clients/{client_id}/deny      refuse what it asked for beyond its scopes
 *
 * A scope is granted by a role: an approval names a role, and the client then holds at most that
 * role's scopes (and the public ones), whatever it asked for.
 */
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Pool } from '@vitalis/db';
import { must } from '@vitalis/runtime';
import { recordAudit } from '@vitalis/audit';
import { notFound, problemOf } from '@vitalis/http';
import { ROLES, type Role } from '@vitalis/schemas';
import { parseScopes, scopeCeiling, usableWith } from './clients';
import { CLIENT_DOCUMENT_MAX_URL_LENGTH } from './client-metadata-document';
import type { AuthContext } from './context';
import { MAX_INITIAL_ACCESS_TTL_SECONDS, httpMintRefusal, httpMintingScopes, mintInitialAccessToken } from './initial-access';
import { insufficientScope } from '../access/refusal';
import { problems } from '../access/http';
import type { Principal } from '../access/principal';

const ADMIN = { auth: { scopes: ['admin:clients' as const] } };

const mintRequest = z
  .object({
    role: z.enum(ROLES).describe('The role a client registered with this token gets'),
    expires_in: z.number().int().min(60).max(MAX_INITIAL_ACCESS_TTL_SECONDS).default(86_400).describe('Seconds until the token expires'),
    max_uses: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .nullable()
      .default(1)
      .describe('Registrations it allows; null: any number until it expires'),
    label: z.string().max(200).default('').describe('What it is for (shown in the audit trail)'),
  })
  .meta({ example: { role: 'device', expires_in: 3600, max_uses: 1, label: 'ward 3 bedside monitors' } });

const mintResponse = z.object({
  initial_access_token: z.string(),
  role: z.enum(ROLES),
  expires_at: z.number().int().describe('Seconds since the epoch'),
  max_uses: z.number().int().nullable(),
  label: z.string(),
});

const clientSummary = z.object({
  client_id: z.string(),
  client_name: z.string(),
  grant_types: z.array(z.string()),
  scope: z.string().describe('What it holds now'),
  requested_scope: z.string().describe('What it asked for (empty when it holds all of it)'),
  role: z.enum(ROLES).nullable(),
  registration: z.enum(['open', 'initial_access_token', 'software_statement', 'sandbox']),
  approval: z.enum(['none', 'pending', 'approved', 'denied']),
  issued_at: z.string(),
});

const approveRequest = z
  .object({
    role: z.enum(ROLES).describe('The role that bounds what the client may hold'),
    scope: z
      .string()
      .max(1000)
      .optional()
      .describe('The scopes to grant, all within the role (default: what it asked for, as far as the role allows)'),
  })
  .meta({ example: { role: 'doctor', scope: 'read:patients read:vitals' } });

// Up to the longest client id issued: a Client ID Metadata Document URL (client-metadata-document.ts)
const clientIdParam = z.object({ client_id: z.string().min(1).max(CLIENT_DOCUMENT_MAX_URL_LENGTH) });

interface ClientRow {
  client_id: string;
  client_name: string;
  grant_types: string[];
  scope: string;
  requested_scope: string;
  role: Role | null;
  registration: z.infer<typeof clientSummary>['registration'];
  approval: z.infer<typeof clientSummary>['approval'];
  issued_at: Date;
}
const summary = (r: ClientRow): z.infer<typeof clientSummary> => ({ ...r, issued_at: r.issued_at.toISOString() });
const COLUMNS = 'client_id, client_name, grant_types, scope, requested_scope, role, registration, approval, issued_at';

/** The request as the admin handlers read it: who asks (the bearer check set the principal), from where. */
interface AdminRequest {
  id: string;
  ip: string;
  principal?: Principal;
}

/** An admin:clients audit row about a client (or an initial access token: no resource id). */
const audit = (
  pool: Pool,
  req: { id: string; ip: string; principal?: { clientId: string; subject: string } },
  action: string,
  resourceId: string | undefined,
  detail: Record<string, unknown>,
  outcome: 'success' | 'failure' = 'success',
) =>
  recordAudit(pool, {
    action,
    outcome,
    clientId: req.principal?.clientId,
    subject: req.principal?.subject,
    scope: 'admin:clients',
    resourceType: 'Client',
    resourceId,
    requestId: req.id,
    ip: req.ip,
    detail,
  });

/**
 * Giving a role over HTTP (minting an initial access token for it, or approving a client as it)
 * needs every scope that role gives a client (initial-access.ts httpMintRefusal), and never gives
 * `system`: otherwise an admin:clients holder could make any client anything. Refused: audited
 * (`action`, outcome failure) and 403.
 */
const requireRoleWithinCaller = async (
  pool: Pool,
  req: { id: string; ip: string; principal?: Principal },
  role: Role,
  action: string,
  clientId: string | undefined,
  what: string,
): Promise<void> => {
  const refusal = httpMintRefusal(role, must(req.principal, 'the principal the bearer check sets before this route').scopes);
  if (!refusal) return;
  await audit(
    pool,
    req,
    action,
    clientId,
    { role, reason: refusal.reason, ...('missing' in refusal ? { missing: refusal.missing.join(' ') } : {}) },
    'failure',
  );
  if (refusal.reason === 'operator only') {
    throw insufficientScope(['admin:clients'], {
      detail:
        "The system role is given by the operator's command line alone (npm run admin -- initial-access-token --role system), never over HTTP.",
    });
  }
  throw insufficientScope(
    ['admin:clients', ...must(httpMintingScopes(role), `the scopes of role ${role} (only system has none; refused above)`)],
    {
      detail: `${what} the role ${role} needs every scope that role gives a client; this token lacks: ${refusal.missing.join(' ')}.`,
    },
  );
};

/** The four admin routes; their handlers are the module functions below. */
export function adminRoutes(ctx: AuthContext): FastifyPluginAsyncZod {
  const { pool } = ctx;
  return async (app) => {
    app.post(
      '/api/auth/admin/initial-access-tokens',
      {
        config: ADMIN,
        schema: {
          tags: ['oauth'],
          summary: 'Mint an initial access token (RFC 7591 §3) that registers a client with a role',
          description:
            'Only for a role the caller could act as itself: the token must hold every scope a client of that role could obtain on its own ' +
            '(its sign-in and user-only scopes aside, a system/ scope read as the Vitalis scope it reads through, the public scopes aside); ' +
            'otherwise 403 insufficient-scope naming them. The `system` role is never minted here, whatever the token holds (403): ' +
            "only the operator's command line mints it (`npm run admin -- initial-access-token --role system`).",
          body: mintRequest,
          response: { 201: mintResponse, ...problems(400, 401, 403) },
        },
      },
      async (req, reply) => mintForRole(pool, req, reply),
    );

    app.get(
      '/api/auth/admin/clients',
      {
        config: ADMIN,
        schema: {
          tags: ['oauth'],
          summary: 'Registered clients, newest first (e.g. those waiting for approval)',
          querystring: z.object({
            approval: z.enum(['none', 'pending', 'approved', 'denied']).optional(),
            limit: z.coerce.number().int().min(1).max(500).default(100),
          }),
          response: { 200: z.object({ clients: z.array(clientSummary) }), ...problems(400, 401, 403) },
        },
      },
      async (req) => listClients(pool, req),
    );

    app.post(
      '/api/auth/admin/clients/:client_id/approve',
      {
        config: ADMIN,
        schema: {
          tags: ['oauth'],
          summary: 'Approve a client: give it a role and what it asked for as far as that role allows',
          params: clientIdParam,
          body: approveRequest,
          response: { 200: clientSummary, ...problems(400, 401, 403, 404, 422) },
        },
      },
      async (req) => approveClient(pool, req),
    );

    app.post(
      '/api/auth/admin/clients/:client_id/deny',
      {
        config: ADMIN,
        schema: {
          tags: ['oauth'],
          summary: 'Deny what a pending client asked for beyond its scopes (it keeps what it holds)',
          params: clientIdParam,
          response: { 200: clientSummary, ...problems(401, 403, 404) },
        },
      },
      async (req) => denyClient(pool, req),
    );
  };
}

/** POST initial-access-tokens: a token for a role the caller could act as itself, audited; 201, no-store. */
async function mintForRole(pool: Pool, req: AdminRequest & { body: z.infer<typeof mintRequest> }, reply: FastifyReply) {
  const principal = must(req.principal, 'the principal the bearer check sets before this route');
  await requireRoleWithinCaller(pool, req, req.body.role, 'initial_access_token.refused', undefined, 'Minting an initial access token for');
  const minted = await mintInitialAccessToken(pool, {
    role: req.body.role,
    ttlSeconds: req.body.expires_in,
    maxUses: req.body.max_uses,
    label: req.body.label,
    createdBy: principal.subject,
  });
  await audit(pool, req, 'initial_access_token.created', undefined, {
    role: minted.role,
    expires_at: minted.expires_at,
    max_uses: minted.max_uses,
    label: minted.label,
  });
  return reply.code(201).header('cache-control', 'no-store').send(minted);
}

/** GET clients: registered clients, newest first, optionally by approval state. */
async function listClients(pool: Pool, req: { query: { approval?: ClientRow['approval']; limit: number } }) {
  const { rows } = await pool.query<ClientRow>(
    `SELECT ${COLUMNS} FROM oauth_clients WHERE kind = 'registered' AND ($1::text IS NULL OR approval = $1) ORDER BY issued_at DESC LIMIT $2`,
    [req.query.approval ?? null, req.query.limit],
  );
  return { clients: rows.map(summary) };
}

/**
 * POST clients/{client_id}/approve: the role must be within the caller's; the client gets the
 * scopes named (all within the role) or what it asked for as far as the role allows. Audited.
 */
async function approveClient(
  pool: Pool,
  req: AdminRequest & { params: { client_id: string }; body: z.infer<typeof approveRequest> },
): Promise<z.infer<typeof clientSummary>> {
  const current = await pool.query<ClientRow>(`SELECT ${COLUMNS} FROM oauth_clients WHERE client_id = $1 AND kind = 'registered'`, [
    req.params.client_id,
  ]);
  const client = current.rows[0];
  if (!client) throw notFound(`Client ${req.params.client_id} does not exist.`);
  await requireRoleWithinCaller(pool, req, req.body.role, 'client.approval_refused', client.client_id, 'Approving a client as');
  const ceiling = scopeCeiling({ registration: client.registration, role: req.body.role });
  const { scopes: named, unknown } = parseScopes(req.body.scope ?? (client.requested_scope || client.scope));
  if (unknown.length > 0) throw problemOf('invalid-scope', `Unknown scope(s): ${unknown.join(', ')}.`);
  // Scopes the operator names must all fit the role; by default the client gets what it asked for within the role.
  const beyond = named.filter((s) => !ceiling.includes(s));
  if (req.body.scope !== undefined && beyond.length > 0)
    throw problemOf('scope-beyond-role', `The role ${req.body.role} does not hold: ${beyond.join(', ')}.`);
  const asked = named.filter((s) => ceiling.includes(s)).filter(usableWith(client.grant_types));
  const { rows } = await pool.query<ClientRow>(
    `UPDATE oauth_clients SET role = $2, scope = $3, requested_scope = '', approval = 'approved', approved_by = $4, approved_at = now()
    WHERE client_id = $1 RETURNING ${COLUMNS}`,
    [
      client.client_id,
      req.body.role,
      asked.join(' '),
      must(req.principal, 'the principal the bearer check sets before this route').subject,
    ],
  );
  await audit(pool, req, 'client.approved', client.client_id, {
    role: req.body.role,
    scope: asked.join(' '),
    previous_scope: client.scope,
    previous_role: client.role,
  });
  return summary(must(rows[0], 'the client row the UPDATE ... RETURNING returned'));
}

/** POST clients/{client_id}/deny: what it asked for beyond its scopes is dropped (it keeps what it holds). Audited. */
async function denyClient(pool: Pool, req: AdminRequest & { params: { client_id: string } }): Promise<z.infer<typeof clientSummary>> {
  const { rows } = await pool.query<ClientRow>(
    `UPDATE oauth_clients SET requested_scope = '', approval = 'denied', approved_by = $2, approved_at = now()
    WHERE client_id = $1 AND kind = 'registered' RETURNING ${COLUMNS}`,
    [req.params.client_id, must(req.principal, 'the principal the bearer check sets before this route').subject],
  );
  if (!rows[0]) throw notFound(`Client ${req.params.client_id} does not exist.`);
  await audit(pool, req, 'client.denied', req.params.client_id, {});
  return summary(rows[0]);
}
