/**
 * FHIR DetectedIssue: bedside alarms (alarms service; ADR 0020), highest severity first, not
 * paged; a read folds the alarm's patient alert stream (ETag).
 */
import { z } from 'zod';
import { ACTIVE_ALARM_STATES, type AlarmState } from '@vitalis/records';
import { toFhirDetectedIssue } from '../../alarms/fhir';
import { alarmsDepsOf, getAlarm, listAlarms } from '../../alarms/service';
import { countParam, defineFhirResource, lastUpdatedParam, searchParam } from '../definition';
import { fhirDetectedIssue, fhirDetectedIssueBundle } from '../schemas';
import { format, isoDateFilter, listOf, patientIdOf, referenceParam, statusesOf, tokenList } from '../search-params';

/** DetectedIssue.status → the alarm states it stands for (preliminary: must still be seen; final: resolved). */
const ISSUE_STATUS_STATES: Record<'preliminary' | 'final', readonly AlarmState[]> = {
  preliminary: ACTIVE_ALARM_STATES,
  final: ['resolved'],
};

export const detectedIssueResource = defineFhirResource({
  type: 'DetectedIssue',
  auth: { scopes: ['read:vitals'] },
  interactions: ['read', 'search-type'],
  schema: fhirDetectedIssue,
  bundle: fhirDetectedIssueBundle,
  documentation:
    'A bedside alarm (docs/fhir.md, "Alarms"): status preliminary while it must still be seen, final once resolved; severity from its IEC 60601-1-8 priority; code from urn:vitalis:alert-rule; its acknowledgement (by a signed-in clinician) and escalation as mitigations. Acknowledge through REST (POST /api/v1/alarms/{id}/acknowledge) or MCP.',
  search: {
    summary: 'Search DetectedIssue (bedside alarms)',
    description:
      'Bedside alarms as DetectedIssues, highest severity first: patient (without it: across every patient the caller reaches, a ward view), status (preliminary: must still be seen, the default; final: resolved in the last 24 h; comma-separated), _lastUpdated (meta.lastUpdated: every date prefix), _count. Doctors, nurses (read:vitals). Served by the alarms service (audited alarm.read).',
    query: z.strictObject({
      patient: searchParam(
        referenceParam('Patient').optional(),
        'reference',
        'Patient/{id} or {id}; without it, the alarms across every patient the caller reaches (a ward view).',
      ),
      status: searchParam(
        tokenList(200).optional(),
        'token',
        'preliminary (raised, acknowledged or latched: the default) | final (resolved in the last 24 h); comma-separated: any of them.',
      ),
      _lastUpdated: lastUpdatedParam(),
      _count: countParam(500, 100, 'At most this many, 1-500 (default 100), highest severity first; not paged.'),
      _format: format,
    }),
    search: async ({ q, deps, caller, match }) => {
      const alarms = alarmsDepsOf(deps);
      const wanted = statusesOf(q.status, ['preliminary', 'final'] as const);
      const states = wanted === undefined ? ACTIVE_ALARM_STATES : (wanted ?? []).flatMap((s) => ISSUE_STATUS_STATES[s]);
      const patientId = q.patient === undefined ? undefined : patientIdOf('patient', q.patient);
      const updated = isoDateFilter('_lastUpdated', listOf(q._lastUpdated));
      // nothing can match (an unknown status): the access rule still holds (a refusal is a 403, audited)
      const found = await listAlarms(
        alarms,
        caller(),
        {
          patientId,
          states: states.length > 0 ? states : ACTIVE_ALARM_STATES,
          lastChanged: (at) => updated.matches(at), // meta.lastUpdated, before the page is cut
          limit: wanted === null ? 0 : q._count,
        },
        'fhir',
      );
      return { entries: found.map((a) => match('DetectedIssue', a.id, toFhirDetectedIssue(alarms.settings, a))) };
    },
  },
  read: {
    summary: 'Read DetectedIssue (a bedside alarm)',
    description:
      "One alarm, current (its patient's alert stream folded): status preliminary or final, severity from its priority, its acknowledgement and escalation as mitigations. Audited alarm.read.",
    read: async ({ deps, caller, id }) => {
      const alarms = alarmsDepsOf(deps);
      const a = await getAlarm(alarms, caller(), id, 'fhir');
      return { resource: toFhirDetectedIssue(alarms.settings, a), version: a.version };
    },
  },
});
