/**
 * Bedside alarms, REST v1 (issue 31, docs/api.md "Alarms"): list (one patient's, or the active ones
 * across the patients a clinician reaches), read one, acknowledge. Thin: the service (./service.ts)
 * checks the access policy (`Alarm` read / acknowledge), folds, decides, appends and audits; FHIR
 * (DetectedIssue) and MCP call the same service. Bodies are snake_case, one named schema each.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { instant, resourceId } from '@vitalis/schemas';
import type { GatewayDeps } from '../deps';
import { callerOf, problems } from '../access/http';
import { alarmAcknowledgement, alarmJson, alarmListOut, alarmOut, STATE_FILTERS, statesOf } from './json';
import { acknowledgeAlarm, alarmsDepsOf, DEFAULT_HISTORY_SECONDS, getAlarm, listAlarms } from './service';

const idParams = z.object({ id: resourceId });

export function alarmRoutes(deps: GatewayDeps): FastifyPluginAsyncZod {
  const d = alarmsDepsOf(deps);
  const settings = deps.config.alarms;
  return async (app) => {
    app.get(
      '/api/v1/alarms',
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['alarms'],
          summary: 'List bedside alarms',
          description: `One patient's alarms (\`patient\`), or without it the alarms across every patient the caller reaches (a ward or board view: the patients the alarm read model lists, one projector tick behind, each read current). \`state\`: active (default: raised, acknowledged, latched — what a person must still see, whatever its age), one state, or all. \`since\`: only alarms shown at any time since then (still active, or resolved at or after it); a history (resolved, all) without it covers the last ${DEFAULT_HISTORY_SECONDS / 3_600} h. Highest priority first, then the newest. Doctors, nurses (read:vitals); audited alarm.read.`,
          querystring: z.object({
            patient: resourceId.optional(),
            state: z.enum(STATE_FILTERS).optional().describe('active (default), raised, acknowledged, latched, resolved or all'),
            since: instant.optional().describe('Only alarms shown at any time since this instant'),
            limit: z.coerce.number().int().min(1).max(500).default(100),
          }),
          response: { 200: alarmListOut, ...problems(400, 401, 403) },
        },
      },
      async (req) => {
        const q = req.query;
        const alarms = await listAlarms(
          d,
          callerOf(req),
          { patientId: q.patient, states: statesOf(q.state), since: q.since, limit: q.limit },
          'rest',
        );
        return { count: alarms.length, alarms: alarms.map((a) => alarmJson(settings, a)) };
      },
    );

    app.get(
      '/api/v1/alarms/:id',
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['alarms'],
          summary: 'Read a bedside alarm',
          description: "The alarm as its patient's alert stream says now (read-your-writes). Audited alarm.read.",
          params: idParams,
          response: { 200: alarmOut, ...problems(401, 403, 404) },
        },
      },
      async (req) => alarmJson(settings, await getAlarm(d, callerOf(req), req.params.id, 'rest')),
    );

    app.post(
      '/api/v1/alarms/:id/acknowledge',
      {
        config: { auth: { scopes: ['read:vitals'] } },
        schema: {
          tags: ['alarms'],
          summary: 'Acknowledge a bedside alarm',
          description:
            'A signed-in clinician (role doctor or nurse, a token that names the user: authorization code) acknowledges a raised or latched alarm: the user (id and display name), the app and when are recorded in the event store and the audit trail (alarm.acknowledge), the live streams get an `alarm` event, and it stops escalating; a latched alarm whose condition ended is then resolved. A token that names no user (client credentials: an app acting for itself) is refused 403: a person must acknowledge. Already acknowledged: 409 naming who and when; resolved: 409.',
          params: idParams,
          body: alarmAcknowledgement,
          response: { 200: alarmOut, ...problems(400, 401, 403, 404, 409) },
        },
      },
      async (req) => alarmJson(settings, await acknowledgeAlarm(d, callerOf(req), req.params.id, req.body?.note, 'rest')),
    );
  };
}
