/**
 * GET /api/v1/audit (read:audit, admin): the audit trail, newest first, filtered by resource,
 * actor, action, outcome and time; keyset-paginated by id. Querying the trail is itself audited.
 */
import { z } from 'zod';
import { nextPageUrl } from '@vitalis/http';
import { instant } from '@vitalis/schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { audit, requireAccess } from '../access/caller';
import { callerOf, decodeKey, encodeKey, problems } from '../access/http';

const isoDateTime = instant;
const entry = z.object({
  id: z.number().int(),
  occurred_at: z.string(),
  action: z.string(),
  outcome: z.enum(['success', 'failure']),
  actor_client_id: z.string().nullable(),
  actor_subject: z.string().nullable(),
  scope: z.string().nullable(),
  resource_type: z.string().nullable(),
  resource_id: z.string().nullable(),
  request_id: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});

export function auditRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const { pool } = deps;
  return async (app) => {
    app.get(
      '/api/v1/audit',
      {
        config: { auth: { scopes: ['read:audit'] } },
        schema: {
          tags: ['audit'],
          summary: 'Query the audit trail',
          description:
            'Who did what to which record, when, under which scope. Filters: resource_type, resource_id, client_id, subject, action (exact or prefix with *), outcome, from/to.',
          querystring: z.object({
            resource_type: z.string().max(64).optional(),
            resource_id: z.string().max(128).optional(),
            client_id: z.string().max(128).optional(),
            subject: z.string().max(128).optional(),
            action: z.string().max(64).optional(),
            outcome: z.enum(['success', 'failure']).optional(),
            from: isoDateTime.optional(),
            to: isoDateTime.optional(),
            limit: z.coerce.number().int().min(1).max(500).default(100),
            cursor: z.string().max(256).optional(),
          }),
          response: {
            200: z.object({ count: z.number().int(), data: z.array(entry), next: z.string().nullable() }),
            ...problems(400, 401, 403),
          },
        },
      },
      async (req) => {
        await requireAccess(pool, callerOf(req), 'AuditEvent', 'read', [], { auditAction: 'audit.query', resourceType: 'AuditTrail' });
        const q = req.query;
        const after = decodeKey(q.cursor, ['id']);
        const where: string[] = [];
        const args: unknown[] = [];
        const arg = (v: unknown) => `$${args.push(v)}`;
        if (q.resource_type) where.push(`resource_type = ${arg(q.resource_type)}`);
        if (q.resource_id) where.push(`resource_id = ${arg(q.resource_id)}`);
        if (q.client_id) where.push(`actor_client_id = ${arg(q.client_id)}`);
        if (q.subject) where.push(`actor_subject = ${arg(q.subject)}`);
        if (q.action)
          where.push(
            q.action.endsWith('*')
              ? `action LIKE ${arg(`${q.action.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`
              : `action = ${arg(q.action)}`,
          );
        if (q.outcome) where.push(`outcome = ${arg(q.outcome)}`);
        if (q.from) where.push(`occurred_at >= ${arg(q.from)}`);
        if (q.to) where.push(`occurred_at < ${arg(q.to)}`);
        if (after) where.push(`id < ${arg(after.id)}`); // a bigint's digits, as text (exact beyond 2^53)
        const { rows } = await pool.query(
          `SELECT id, occurred_at, action, outcome, actor_client_id, actor_subject, scope, resource_type, resource_id, request_id, detail
           FROM audit_events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ${arg(q.limit + 1)}`,
          args,
        );
        const data = rows.slice(0, q.limit).map((r) => ({ ...r, occurred_at: (r.occurred_at as Date).toISOString() }));
        await audit(pool, callerOf(req), {
          action: 'audit.query',
          scope: 'read:audit',
          resourceType: 'AuditTrail',
          detail: { results: data.length, resource_id: q.resource_id ?? null },
        });
        const last = data[data.length - 1];
        const next =
          rows.length > q.limit && last
            ? nextPageUrl(`${deps.config.baseUrl}/api/v1/audit`, q, encodeKey({ id: String(last.id) }), 'cursor')
            : null;
        return { count: data.length, data, next };
      },
    );
  };
}
