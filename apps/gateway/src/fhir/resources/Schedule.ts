/** FHIR Schedule (appointments service): each clinician's Schedule, id = the clinician id; its Slots reference it. */
import { z } from 'zod';
import { notFound } from '@vitalis/http';
import { decodeKey, encodeKey } from '../../access/http';
import { toFhirSchedule } from '../../appointments/fhir';
import { listSchedules } from '../../appointments/service';
import { countParam, defineFhirResource, searchParam } from '../definition';
import { fhirSchedule, fhirScheduleBundle } from '../schemas';
import { anyOfCodes, cursor, format, referenceIdOf, referenceParam, tokenList } from '../search-params';

export const scheduleResource = defineFhirResource({
  type: 'Schedule',
  auth: { scopes: ['read:appointments'] },
  interactions: ['read', 'search-type'],
  schema: fhirSchedule,
  bundle: fhirScheduleBundle,
  documentation: "A clinician's Schedule (id = the clinician id); its Slots reference it.",
  search: {
    description:
      "Each clinician's Schedule (id = the clinician id): _id (comma: any of), actor (Practitioner/{id}), _count. A sandbox token: the synthetic clinicians.",
    query: z.strictObject({
      _id: searchParam(tokenList(1_000).optional(), 'token', 'Schedule ids, comma-separated (any of).'),
      actor: searchParam(referenceParam('Practitioner').optional(), 'reference', 'Practitioner/{id} or {id}.'),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match }) => {
      const actor = q.actor === undefined ? undefined : referenceIdOf('Practitioner', 'actor', q.actor);
      const anyOf = anyOfCodes(q._id);
      // _id (any of) and actor together: the ids both name; null or [] matches nothing
      const ids =
        anyOf === undefined
          ? actor === undefined
            ? undefined
            : [actor]
          : (anyOf ?? []).filter((id) => actor === undefined || id === actor);
      const { ids: page, more } = await listSchedules(deps.pool, caller(), {
        ids,
        limit: q._count,
        after: decodeKey(q._cursor, ['i'])?.i,
      });
      const last = page[page.length - 1];
      return {
        entries: page.map((id) => match('Schedule', id, toFhirSchedule(id))),
        nextCursor: more && last !== undefined ? encodeKey({ i: last }) : null,
      };
    },
  },
  read: {
    description: "A clinician's Schedule.",
    read: async ({ deps, caller, id }) => {
      const { ids } = await listSchedules(deps.pool, caller(), { ids: [id], limit: 1 });
      if (ids.length === 0) throw notFound(`Schedule ${id} does not exist.`);
      return { resource: toFhirSchedule(id) };
    },
  },
});
