/** FHIR Practitioner: the clinicians of the catalog (public reference data, no patient data, no token). */
import { z } from 'zod';
import { nonBlankText, resourceId } from '@vitalis/schemas';
import { notFound } from '@vitalis/http';
import { decodeKey, encodeKey } from '../../access/http';
import { CLINICIANS } from '../../catalog/data';
import { toFhirPractitioner } from '../../catalog/fhir';
import { countParam, defineFhirResource, searchParam } from '../definition';
import { fhirPractitioner, fhirPractitionerBundle, outcomes } from '../schemas';
import { cursor, format } from '../search-params';

export const practitionerResource = defineFhirResource({
  type: 'Practitioner',
  interactions: ['read', 'search-type'],
  schema: fhirPractitioner,
  bundle: fhirPractitionerBundle,
  documentation: 'Public reference data (the clinicians of the catalog).',
  search: {
    description: 'The clinicians of the catalog (public reference data, no patient data): _id, name (case-insensitive substring), _count.',
    query: z.strictObject({
      _id: searchParam(resourceId.optional(), 'token', 'The practitioner id.'),
      name: searchParam(nonBlankText(100).optional(), 'string', 'Case-insensitive substring of the name.'),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    errors: outcomes(400, 406),
    search: async ({ q, match }) => {
      const after = decodeKey(q._cursor, ['i'])?.i;
      const all = [...CLINICIANS]
        .sort((a, b) => a.id.localeCompare(b.id))
        .filter(
          (c) =>
            (q._id === undefined || c.id === q._id) &&
            (q.name === undefined || c.name.toLowerCase().includes(q.name.toLowerCase())) &&
            (after === undefined || c.id > after),
        );
      const page = all.slice(0, q._count);
      const last = page[page.length - 1];
      return {
        entries: page.map((c) => match('Practitioner', c.id, toFhirPractitioner(c))),
        nextCursor: all.length > q._count && last ? encodeKey({ i: last.id }) : null,
      };
    },
  },
  read: {
    description: 'A clinician of the catalog (public).',
    errors: outcomes(400, 404, 406),
    read: async ({ id }) => {
      const c = CLINICIANS.find((x) => x.id === id);
      if (!c) throw notFound(`Practitioner ${id} does not exist.`);
      return { resource: toFhirPractitioner(c) };
    },
  },
});
