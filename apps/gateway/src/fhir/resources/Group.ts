/**
 * FHIR Group (issue 33 item 6): the wards and cohorts of patients that `Group/{id}/$export` exports
 * (groups/service.ts: the access policy's Patient read cell, audited `group.read`/`group.search`),
 * read and searched; read-only (the operator keeps them: `npm run admin -- export-group`). The
 * statement lists the Bulk Data group-level `$export` under Group (GROUP_EXPORT_OPERATION, the
 * kick-off's route is operations/export-kickoff.ts).
 */
import { z } from 'zod';
import { nonBlankText } from '@vitalis/schemas';
import { PATIENT_READ_SCOPES } from '../../access/caller';
import { decodeKey, encodeKey } from '../../access/http';
import { toFhirGroup } from '../../groups/fhir';
import { readGroup, searchGroups } from '../../groups/service';
import { countParam, defineFhirResource, searchParam, type FhirOperationEntry } from '../definition';
import { fhirGroup, fhirGroupBundle } from '../schemas';
import { anyOfCodes, cursor, format, tokenList } from '../search-params';

/** The statement's Group-level `$export` (Bulk Data Access IG: group-export), served by operations/export-kickoff.ts. */
export const GROUP_EXPORT_OPERATION: FhirOperationEntry = {
  name: 'export',
  definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export',
  documentation: "Bulk Data export of the Group's members (Group/{id}/$export; Prefer: respond-async; docs/export.md).",
};

export const groupResource = defineFhirResource({
  type: 'Group',
  auth: { anyOf: PATIENT_READ_SCOPES },
  interactions: ['read', 'search-type'],
  schema: fhirGroup,
  bundle: fhirGroupBundle,
  documentation:
    'Wards and cohorts of patients (type person, actual), the members Group/{id}/$export exports. Patient data: read as patients are (read:patients or write:patients; a patient user only a Group of itself alone), audited.',
  operations: [GROUP_EXPORT_OPERATION],
  search: {
    description:
      'The Groups the caller may read whole: _id (comma: any of), name (case-insensitive substring), _count. By id. Audited group.search.',
    query: z.strictObject({
      _id: searchParam(tokenList(1_000).optional(), 'token', 'Group ids, comma-separated (any of).'),
      name: searchParam(nonBlankText(100).optional(), 'string', 'Case-insensitive substring of the name.'),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match }) => {
      const ids = anyOfCodes(q._id);
      if (ids === null) return { entries: [], nextCursor: null };
      const { groups, more } = await searchGroups(deps.pool, caller(), {
        ids,
        name: q.name,
        after: decodeKey(q._cursor, ['i'])?.i,
        limit: q._count,
      });
      const last = groups[groups.length - 1];
      return {
        entries: groups.map((g) => match('Group', g.id, toFhirGroup(g))),
        nextCursor: more && last ? encodeKey({ i: last.id }) : null,
      };
    },
  },
  read: {
    description: 'A Group and its members, for a caller who may read every member (403 otherwise); audited group.read.',
    read: async ({ deps, caller, id }) => ({ resource: toFhirGroup(await readGroup(deps.pool, caller(), id)) }),
  },
});
