/** FHIR Slot (appointments service): slots by start over the projection; read and vread folded from the slot's event stream (ETag). */
import { z } from 'zod';
import { decodeKey, encodeKey } from '../../access/http';
import { toFhirSlot } from '../../appointments/fhir';
import { getSlot, listSlots } from '../../appointments/service';
import { countParam, defineFhirResource, searchParam } from '../definition';
import { fhirSlot, fhirSlotBundle } from '../schemas';
import {
  DATE_DOC,
  cursor,
  dateParam,
  format,
  isoDateFilter,
  listOf,
  referenceIdOf,
  referenceParam,
  statusesOf,
  tokenList,
} from '../search-params';

const SLOT_STATUSES = ['free', 'busy'] as const;

export const slotResource = defineFhirResource({
  type: 'Slot',
  auth: { scopes: ['read:appointments'] },
  interactions: ['read', 'vread', 'search-type'],
  schema: fhirSlot,
  bundle: fhirSlotBundle,
  search: {
    description:
      "Slots by start: schedule (Schedule/{id}), start (every date prefix: eq ne gt lt ge le sa eb ap; repeatable as AND, commas as OR), status (free|busy, comma: any of), _count. Served by the appointments service's listing (the projection; a sandbox token: synthetic slots).",
    query: z.strictObject({
      schedule: searchParam(referenceParam('Schedule').optional(), 'reference', 'Schedule/{id} or {id}.'),
      start: searchParam(dateParam.optional(), 'date', DATE_DOC),
      status: searchParam(tokenList(100).optional(), 'token', 'free | busy, comma-separated (any of).'),
      _count: countParam(500, 100),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match, count }) => {
      const start = isoDateFilter('start', listOf(q.start));
      const statuses = statusesOf(q.status, SLOT_STATUSES);
      const after = decodeKey(q._cursor, ['t', 's']);
      const clinician = q.schedule === undefined ? undefined : referenceIdOf('Schedule', 'schedule', q.schedule);
      const none = statuses === null || start.none;
      const { slots, more, total } = await listSlots(deps.pool, caller(), {
        clinician,
        from: start.from,
        to: start.to,
        status: statuses?.length === 1 ? statuses[0] : undefined,
        countOnly: count === true && start.exact && !none,
        limit: none ? 0 : q._count,
        after,
      });
      if (total !== undefined) return { entries: [], total };
      const last = slots[slots.length - 1];
      return {
        entries: slots.filter((s) => start.exact || start.matches(s.start)).map((s) => match('Slot', s.id, toFhirSlot(s))),
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
