/** FHIR ServiceRequest (diagnostics service): diagnostic orders, newest first, over the projection; read and vread folded from the order's event stream (ETag). */
import { z } from 'zod';
import { SERVICE_REQUEST_STATUSES, type ServiceRequestStatus } from '@vitalis/records';
import { decodeKey } from '../../access/http';
import { toFhirServiceRequest } from '../../diagnostics/fhir';
import { getOrder, searchOrders } from '../../diagnostics/service';
import { countParam, defineFhirResource, patientParam, searchParam } from '../definition';
import { fhirServiceRequest, fhirServiceRequestBundle } from '../schemas';
import { cursor, format, loincCodes, notSupported, patientIdOf, positionCursor, statusesOf } from '../search-params';

export const serviceRequestResource = defineFhirResource({
  type: 'ServiceRequest',
  auth: { scopes: ['read:diagnostics'] },
  interactions: ['read', 'vread', 'search-type'],
  schema: fhirServiceRequest,
  bundle: fhirServiceRequestBundle,
  search: {
    description:
      'Diagnostic orders, newest first: patient, status (comma-separated), code (LOINC), _count. Served by the diagnostics service (the projection; audited diagnostics.order.list).',
    query: z.strictObject({
      patient: patientParam(z.string().max(300).optional(), false),
      status: searchParam(
        z.string().max(200).optional(),
        'token',
        'draft | active | on-hold | revoked | completed | entered-in-error (comma-separated: any of them).',
      ),
      code: searchParam(z.string().max(300).optional(), 'token', 'system|code or code (LOINC, the orderable tests).'),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match }) => {
      const status = statusesOf<ServiceRequestStatus>(q.status, SERVICE_REQUEST_STATUSES);
      const codes = loincCodes(q.code);
      if (codes !== undefined && codes !== null && codes.length > 1)
        throw notSupported('code accepts one token here; a comma-separated list is not supported.');
      const patientId = q.patient === undefined ? undefined : patientIdOf('patient', q.patient);
      // nothing can match: the access rule still holds (a refusal is a 403, audited)
      const { orders, next } = await searchOrders(deps.pool, caller(), {
        patientId,
        status: status ?? undefined,
        code: codes?.[0],
        limit: status === null || codes === null ? 0 : q._count,
        after: decodeKey(q._cursor, ['t', 'i']),
      });
      return { entries: orders.map((o) => match('ServiceRequest', o.id, toFhirServiceRequest(o))), nextCursor: positionCursor(next) };
    },
  },
  read: {
    description: 'A diagnostic order, folded from its event stream. ETag W/"<versionId>".',
    read: async ({ deps, caller, id, vid }) => {
      const o = await getOrder(deps.pool, caller(), id, vid);
      return { resource: toFhirServiceRequest(o), version: o.version };
    },
  },
  vread: { description: 'The order as it was at versionId `vid`.' },
});
