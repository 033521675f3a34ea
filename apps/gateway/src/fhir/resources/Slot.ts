/** FHIR Slot (appointments service): slots by start over the projection; read and vread folded from the slot's event stream (ETag). */
import { z } from 'zod';
import { decodeKey, encodeKey } from '../../access/http';
import { toFhirSlot } from '../../appointments/fhir';
import { getSlot, listSlots } from '../../appointments/service';
import { countParam, defineFhirResource, searchParam } from '../definition';
import { fhirSlot, fhirSlotBundle } from '../schemas';
import { cursor, format, isoBounds, listOf, oneOrMany, referenceIdOf } from '../search-params';

export const slotResource = defineFhirResource({
  type: 'Slot',
  auth: { scopes: ['read:appointments'] },
  interactions: ['read', 'vread', 'search-type'],
  schema: fhirSlot,
  bundle: fhirSlotBundle,
  search: {
    description:
      "Slots by start: schedule (Schedule/{id}), start (ge/gt/le/lt/eq, repeatable), status (free|busy), _count. Served by the appointments service's listing (the projection; a sandbox token: synthetic slots).",
    query: z.strictObject({
      schedule: searchParam(z.string().max(300).optional(), 'reference', 'Schedule/{id} or {id}.'),
      start: searchParam(oneOrMany.optional(), 'date', 'Prefixes ge, gt, le, lt, eq (repeatable, combined as AND).'),
      status: searchParam(z.enum(['free', 'busy']).optional(), 'token', 'free | busy.'),
      _count: countParam(500, 100),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match }) => {
      const { from, to } = isoBounds(listOf(q.start));
      const after = decodeKey(q._cursor, ['t', 's']);
      const clinician = q.schedule === undefined ? undefined : referenceIdOf('Schedule', 'schedule', q.schedule);
      const { slots, more } = await listSlots(deps.pool, caller(), { clinician, from, to, status: q.status, limit: q._count, after });
      const last = slots[slots.length - 1];
      return {
        entries: slots.map((s) => match('Slot', s.id, toFhirSlot(s))),
        nextCursor: more && last ? encodeKey({ t: last.start, s: last.id }) : null,
      };
    },
  },
  read: {
    description: 'The current Slot, folded from its event stream. ETag W/"<versionId>".',
    read: async ({ deps, caller, id, vid }) => {
      const s = await getSlot(deps.pool, caller(), id, vid);
      return { resource: toFhirSlot(s), version: s.version };
    },
  },
  vread: { description: 'The Slot as it was at versionId `vid`.' },
});
