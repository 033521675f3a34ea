/** FHIR ServiceRequest (diagnostics service): diagnostic orders, newest first, over the projection; read and vread folded from the order's event stream (ETag). */
import { z } from 'zod';
import { SERVICE_REQUEST_STATUSES, type ServiceRequestStatus } from '@vitalis/records';
import { LOINC_SYSTEM } from '@vitalis/schemas';
import { decodeKey } from '../../access/http';
import { toFhirServiceRequest } from '../../diagnostics/fhir';
import { getOrder, searchOrders } from '../../diagnostics/service';
import { countParam, defineFhirResource, lastUpdatedParam, patientParam, searchParam } from '../definition';
import { fhirServiceRequest, fhirServiceRequestBundle } from '../schemas';
import {
  anyOfCodes,
  cursor,
  format,
  isoDateFilter,
  listOf,
  patientIdOf,
  positionCursor,
  referenceParam,
  statusesOf,
  tokenList,
} from '../search-params';

export const serviceRequestResource = defineFhirResource({
  type: 'ServiceRequest',
  auth: { scopes: ['read:diagnostics'] },
  interactions: ['read', 'vread', 'search-type'],
  schema: fhirServiceRequest,
  bundle: fhirServiceRequestBundle,
  search: {
    description:
      'Diagnostic orders, newest first: patient, status and code (LOINC; comma-separated: any of), _lastUpdated (every date prefix), _count. Served by the diagnostics service (the projection; audited diagnostics.order.list).',
    query: z.strictObject({
      patient: patientParam(referenceParam('Patient').optional(), false),
      status: searchParam(
        tokenList(200).optional(),
        'token',
        'draft | active | on-hold | revoked | completed | entered-in-error (comma-separated: any of them).',
      ),
      code: searchParam(tokenList().optional(), 'token', 'system|code or code (LOINC, the orderable tests), comma-separated (any of).'),
      _lastUpdated: lastUpdatedParam(),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match, count }) => {
      const status = statusesOf<ServiceRequestStatus>(q.status, SERVICE_REQUEST_STATUSES);
      const codes = anyOfCodes(q.code, LOINC_SYSTEM);
      const updated = isoDateFilter('_lastUpdated', listOf(q._lastUpdated));
      const patientId = q.patient === undefined ? undefined : patientIdOf('patient', q.patient);
      // nothing can match: the access rule still holds (a refusal is a 403, audited)
      const none = status === null || codes === null || updated.none;
      const { orders, next, total } = await searchOrders(deps.pool, caller(), {
        patientId,
        status: status ?? undefined,
        codes: none ? [] : codes,
        updatedFrom: updated.from,
        updatedTo: updated.to,
        countOnly: count === true && updated.exact,
        limit: none ? 0 : q._count,
        after: decodeKey(q._cursor, ['t', 'i']),
      });
      if (total !== undefined) return { entries: [], total };
      return {
        entries: orders
          .filter((o) => updated.exact || updated.matches(o.updatedAt))
          .map((o) => match('ServiceRequest', o.id, toFhirServiceRequest(o))),
        nextCursor: positionCursor(next),
      };
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
