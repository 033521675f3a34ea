/**
 * FHIR Practitioner: the catalog's clinicians and the staff users (catalog/practitioners.ts says
 * who is one and who sees which; every staff user's `fhirUser` is Practitioner/{user id}). Any
 * valid token reads the clinicians; the staff directory is the access policy's Practitioner read
 * cell; a signed-in user reads its own with the SMART `fhirUser` scope. No patient data: not audited.
 */
import { z } from 'zod';
import { nonBlankText } from '@vitalis/schemas';
import { decodeKey, encodeKey } from '../../access/http';
import { readPractitioner, searchPractitioners } from '../../catalog/practitioners';
import { countParam, defineFhirResource, searchParam } from '../definition';
import { fhirPractitioner, fhirPractitionerBundle, outcomes } from '../schemas';
import { anyOfCodes, cursor, format, tokenList } from '../search-params';

export const practitionerResource = defineFhirResource({
  type: 'Practitioner',
  auth: { scopes: [] },
  interactions: ['read', 'search-type'],
  schema: fhirPractitioner,
  bundle: fhirPractitionerBundle,
  documentation:
    "The catalog's clinicians (any token) and the staff users (every signed-in staff user's fhirUser): the staff directory needs read:patients or write:patients and a staff role; a signed-in user reads its own Practitioner with the fhirUser scope.",
  search: {
    description:
      "The catalog's clinicians and the staff users the caller may see (the staff directory; its own with fhirUser): _id (comma: any of), name (case-insensitive substring), _count. By id.",
    query: z.strictObject({
      _id: searchParam(tokenList(1_000).optional(), 'token', 'Practitioner ids, comma-separated (any of).'),
      name: searchParam(nonBlankText(100).optional(), 'string', 'Case-insensitive substring of the name.'),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    errors: outcomes(400, 401, 403, 406),
    search: async ({ q, deps, caller, match }) => {
      const { practitioners, more } = await searchPractitioners(deps.pool, caller(), {
        ids: anyOfCodes(q._id),
        name: q.name,
        after: decodeKey(q._cursor, ['i'])?.i,
        limit: q._count,
      });
      const last = practitioners[practitioners.length - 1];
      return {
        entries: practitioners.map((p) => match('Practitioner', p.id, p)),
        nextCursor: more && last ? encodeKey({ i: last.id }) : null,
      };
    },
  },
  read: {
    description: "A clinician of the catalog (any token), or a staff user: the staff directory's, or one's own (the fhirUser scope).",
    errors: outcomes(400, 401, 403, 404, 406),
    read: async ({ deps, caller, id }) => ({ resource: await readPractitioner(deps.pool, caller(), id) }),
  },
});
