/**
 * FHIR DiagnosticReport (diagnostics service): reports newest first over the projection (a
 * patient user: its own final reports); read and vread folded from the report's event stream (ETag).
 */
import { z } from 'zod';
import { DIAGNOSTIC_REPORT_STATUSES } from '@vitalis/records';
import { decodeKey } from '../../access/http';
import { codesInSection, SECTION_SYSTEM, toFhirDiagnosticReport } from '../../diagnostics/fhir';
import { getReport, searchReports } from '../../diagnostics/service';
import { countParam, defineFhirResource, lastUpdatedParam, patientParam, searchParam } from '../definition';
import { fhirDiagnosticReport, fhirDiagnosticReportBundle } from '../schemas';
import {
  cursor,
  format,
  isoDateFilter,
  listOf,
  loincCodes,
  patientIdOf,
  positionCursor,
  referenceParam,
  statusesOf,
  tokenCodes,
  tokenList,
} from '../search-params';

/** The codes a search asks for: `code` (LOINC) narrowed to the `category` sections; null when none can match. */
function reportCodesOf(code: string | undefined, category: string | undefined): string[] | undefined | null {
  const codes = loincCodes(code);
  if (category === undefined) return codes;
  const inCategory = tokenCodes(category, SECTION_SYSTEM).flatMap((s) => (s === null ? [] : codesInSection(s)));
  const narrowed = codes === null ? null : codes === undefined ? inCategory : codes.filter((c) => inCategory.includes(c));
  return narrowed !== null && narrowed.length === 0 ? null : narrowed;
}

export const diagnosticReportResource = defineFhirResource({
  type: 'DiagnosticReport',
  auth: { anyOf: ['read:diagnostics', 'patient/DiagnosticReport.rs'] },
  interactions: ['read', 'vread', 'search-type'],
  schema: fhirDiagnosticReport,
  bundle: fhirDiagnosticReportBundle,
  search: {
    description:
      'Diagnostic reports, newest first: patient, code (LOINC), status, category (v2-0074 section, e.g. LAB) (each comma-separated: any of), _lastUpdated (every date prefix), _count. A patient user (patient/DiagnosticReport.rs): its own final reports. Served by the diagnostics service (audited diagnostics.report.list).',
    query: z.strictObject({
      patient: patientParam(referenceParam('Patient').optional(), false),
      code: searchParam(tokenList().optional(), 'token', 'system|code or code (LOINC, the orderable tests), comma-separated (any of).'),
      status: searchParam(
        tokenList(200).optional(),
        'token',
        'registered | partial | preliminary | final | amended | corrected | cancelled | entered-in-error (comma-separated: any of them).',
      ),
      category: searchParam(
        tokenList().optional(),
        'token',
        'system|code or code (v2-0074 diagnostic service section, e.g. LAB, EC), comma-separated (any of).',
      ),
      _lastUpdated: lastUpdatedParam(),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match, count }) => {
      const status = statusesOf(q.status, DIAGNOSTIC_REPORT_STATUSES);
      const codes = reportCodesOf(q.code, q.category);
      const updated = isoDateFilter('_lastUpdated', listOf(q._lastUpdated));
      const patientId = q.patient === undefined ? undefined : patientIdOf('patient', q.patient);
      // nothing can match: the access rule still holds (a refusal is a 403, audited)
      const none = status === null || codes === null || updated.none;
      const { reports, next, total } = await searchReports(deps.pool, caller(), {
        patientId,
        codes: none ? [] : codes,
        status: status ?? undefined,
        updatedFrom: updated.from,
        updatedTo: updated.to,
        countOnly: count === true && updated.exact,
        limit: none ? 0 : q._count,
        after: decodeKey(q._cursor, ['t', 'i']),
      });
      if (total !== undefined) return { entries: [], total };
      return {
        entries: reports
          .filter((r) => updated.exact || updated.matches(r.updatedAt))
          .map((r) => match('DiagnosticReport', r.id, toFhirDiagnosticReport(r))),
        nextCursor: positionCursor(next),
      };
    },
  },
  read: {
    description: 'A report with its Observations contained; a patient user: its own final report. ETag W/"<versionId>".',
    read: async ({ deps, caller, id, vid }) => {
      const r = await getReport(deps.pool, caller(), id, 'diagnostics.report.read', vid);
      return { resource: toFhirDiagnosticReport(r), version: r.version };
    },
  },
  vread: { description: 'The report as it was at versionId `vid` (its event stream folded to that version).' },
});
