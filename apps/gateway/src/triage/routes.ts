/**
 * ED triage board REST v1:
 *  GET  /api/v1/triage                        read:patients  the board (ESI 1-5, arrival, complaint; with read:vitals latest vitals + NEWS2)
 *  POST /api/v1/triage                        write:triage   admit a patient (PatientArrived)
 *  PUT  /api/v1/triage/{patientId}/esi        write:triage   set/change the ESI level (If-Match optional)
 *  POST /api/v1/triage/{patientId}/discharge  write:triage   remove from the board
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { resourceId, nonBlankText } from '@vitalis/schemas';
import type { TriageState } from '@vitalis/records';
import { boardAlarmJson, boardAlarmOut } from './board-alarm';
import type { GatewayDeps } from '../deps';
import type { RouteApp } from '../route-app';
import { etag, expectedFromIfMatch } from '../access/caller';
import { callerOf, problems } from '../access/http';
import { latestVitalOut, news2Out } from '../patients/fhir';
import { criticalJson, criticalOut } from '../diagnostics/json';
import { admitPatient, dischargePatient, setTriageLevel, triageBoard } from './service';

const esi = z.coerce.number().int().min(1).max(5).describe('Emergency Severity Index, 1 (resuscitation) to 5 (non-urgent)');
const entryOut = z.object({
  patient_id: z.string(),
  version: z.number().int(),
  esi: z.number().int(),
  complaint: z.string(),
  arrived_at: z.string(),
  updated_at: z.string(),
  name: z.string().nullable().optional(),
  latest_vitals: z.array(latestVitalOut).optional(),
  news2: news2Out.optional(),
  alerts: z.array(z.string()).optional().describe('The alarm conditions present now, by rule (with read:vitals)'),
  alarms: z
    .array(boardAlarmOut)
    .optional()
    .describe(
      'The active bedside alarms (raised, acknowledged, latched), highest priority first (with Alarm read: doctors, nurses); the detail and the acknowledgement are /api/v1/alarms',
    ),
  critical_results: z
    .array(criticalOut)
    .optional()
    .describe('Unacknowledged critical diagnostic results (with read:diagnostics), shown until acknowledged'),
  acknowledged_critical_results: z
    .array(criticalOut)
    .optional()
    .describe(
      'Critical results acknowledged in the last 12 h (with read:diagnostics), newest first: who (user id and name), the app and when',
    ),
});

const out = (t: TriageState) => ({
  patient_id: t.patientId,
  version: t.version,
  esi: t.esi,
  complaint: t.complaint,
  arrived_at: t.arrivedAt,
  updated_at: t.updatedAt,
});

/** GET /api/v1/triage: the ED triage board. */
function triageBoardRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.get(
    '/api/v1/triage',
    {
      config: { auth: { scopes: ['read:patients'] } },
      schema: {
        tags: ['triage'],
        summary: 'ED triage board',
        description:
          'Patients in the department, most urgent first (ESI, then arrival). With read:vitals each entry also carries the latest vitals (each with its effective_at), the NEWS2 score computed from them and the active vitals alerts; with read:diagnostics its unacknowledged critical results and those acknowledged in the last 12 h. Reads the projection.',
        response: { 200: z.object({ count: z.number().int(), entries: z.array(entryOut) }), ...problems(401, 403) },
      },
    },
    async (req) => {
      const board = await triageBoard(pool, callerOf(req));
      return {
        count: board.length,
        entries: board.map((b) => ({
          patient_id: b.patientId,
          version: b.version,
          esi: b.esi,
          complaint: b.complaint,
          arrived_at: b.arrivedAt,
          updated_at: b.updatedAt,
          name: b.name,
          ...(b.news2 ? { latest_vitals: b.latestVitals ?? [], news2: b.news2, alerts: b.alerts } : {}),
          ...(b.alarms ? { alarms: b.alarms.map(boardAlarmJson) } : {}),
          ...(b.criticalResults ? { critical_results: b.criticalResults.map(criticalJson) } : {}),
          ...(b.acknowledgedCriticalResults ? { acknowledged_critical_results: b.acknowledgedCriticalResults.map(criticalJson) } : {}),
        })),
      };
    },
  );
}

/** POST /api/v1/triage: admit a patient to the ED board. */
function admitPatientRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.post(
    '/api/v1/triage',
    {
      config: { auth: { scopes: ['write:triage'] } },
      schema: {
        tags: ['triage'],
        summary: 'Admit a patient to the ED board',
        body: z
          .object({ patient_id: resourceId, esi, complaint: nonBlankText(500) })
          .meta({ example: { patient_id: 'pat-0001', esi: 2, complaint: 'chest pain radiating to the left arm' } }),
        response: { 201: entryOut, ...problems(400, 401, 403, 409, 422) },
      },
    },
    async (req, reply) => {
      const t = await admitPatient(pool, callerOf(req), {
        patientId: req.body.patient_id,
        esi: req.body.esi as 1 | 2 | 3 | 4 | 5,
        complaint: req.body.complaint,
      });
      return reply.code(201).header('etag', etag(t.version)).send(out(t));
    },
  );
}

/** PUT /api/v1/triage/:patientId/esi: set or change the ESI level. */
function setEsiRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.put(
    '/api/v1/triage/:patientId/esi',
    {
      config: { auth: { scopes: ['write:triage'] } },
      schema: {
        tags: ['triage'],
        summary: 'Set or change the ESI level',
        description: 'Appends TriageLevelSet. If-Match (the ETag from admit/board version) optional; 412 when stale.',
        params: z.object({ patientId: resourceId }),
        headers: z.object({ 'if-match': z.string().max(100).optional() }),
        body: z.object({ esi, reason: nonBlankText(500).optional() }).meta({ example: { esi: 1, reason: 'SpO2 falling despite oxygen' } }),
        response: { 200: entryOut, ...problems(400, 401, 403, 404, 409, 412) },
      },
    },
    async (req, reply) => {
      const expected = expectedFromIfMatch(req.headers['if-match'], false);
      const t = await setTriageLevel(
        pool,
        callerOf(req),
        req.params.patientId,
        expected,
        req.body.esi as 1 | 2 | 3 | 4 | 5,
        req.body.reason,
      );
      return reply.header('etag', etag(t.version)).send(out(t));
    },
  );
}

/** POST /api/v1/triage/:patientId/discharge: remove a patient from the board. */
function dischargePatientRoute(app: RouteApp, { pool }: GatewayDeps): void {
  app.post(
    '/api/v1/triage/:patientId/discharge',
    {
      config: { auth: { scopes: ['write:triage'] } },
      schema: {
        tags: ['triage'],
        summary: 'Remove a patient from the board',
        params: z.object({ patientId: resourceId }),
        response: { 200: entryOut, ...problems(401, 403, 404, 409) },
      },
    },
    async (req) => out(await dischargePatient(pool, callerOf(req), req.params.patientId)),
  );
}

/** The triage REST routes, registered in the order the OpenAPI document lists them. */
export function triageRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    triageBoardRoute(app, deps);
    admitPatientRoute(app, deps);
    setEsiRoute(app, deps);
    dischargePatientRoute(app, deps);
  };
}
