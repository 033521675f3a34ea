/**
 * Catalog REST v1 — PUBLIC (no token): it holds reference data only, nothing about patients,
 * so anyone (including the booking form before sign-in) may read it.
 *  GET /api/v1/catalog                    index of the sections
 *  GET /api/v1/catalog/clinicians         FHIR Practitioner list
 *  GET /api/v1/catalog/appointment-types
 *  GET /api/v1/catalog/vital-signs        LOINC/MDC codes, UCUM units, possible and normal ranges
 *  GET /api/v1/catalog/scopes             OAuth scopes and the roles that hold them
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { GatewayDeps } from '../deps';
import { APPOINTMENT_TYPES, CLINICIANS, scopesAndRoles, vitalCodes } from './data';
import { practitionerOut, toFhirPractitioner } from './fhir';

const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
const appointmentType = z
  .strictObject({ code: z.string(), display: z.string(), minutes: z.number().int() })
  .meta({ id: 'AppointmentType', description: 'A bookable appointment type and its length' });
const range = z.object({ min: z.number(), max: z.number() });
const vitalSign = z
  .strictObject({
    code: z.string(),
    system: z.string(),
    display: z.string(),
    unit: z.string().describe('UCUM'),
    possible: range.optional().describe('What a device may report (numeric vitals)'),
    normal: z.object({ low: z.number(), high: z.number() }).optional().describe('The adult normal range (the NEWS2 0-point band)'),
    waveform: z.literal(true).optional().describe('A waveform (ECG lead II)'),
  })
  .meta({ id: 'VitalSign', description: 'A vital-sign code with its unit and ranges' });

export function catalogRoutes(_deps: GatewayDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const cache = (reply: { header: (k: string, v: string) => unknown }) => reply.header('cache-control', 'public, max-age=300');
    app.get(
      '/api/v1/catalog',
      {
        schema: {
          tags: ['catalog'],
          summary: 'Catalog index (public)',
          response: { 200: z.object({ sections: z.array(z.object({ name: z.string(), href: z.string() })) }) },
        },
      },
      async (_req, reply) => {
        cache(reply);
        return {
          sections: ['clinicians', 'appointment-types', 'vital-signs', 'scopes'].map((name) => ({ name, href: `/api/v1/catalog/${name}` })),
        };
      },
    );
    app.get(
      '/api/v1/catalog/clinicians',
      {
        schema: { tags: ['catalog'], summary: 'Clinicians as FHIR Practitioner (public)', response: { 200: listOf(practitionerOut) } },
      },
      async (_req, reply) => {
        cache(reply);
        return { data: CLINICIANS.map(toFhirPractitioner) };
      },
    );
    app.get(
      '/api/v1/catalog/appointment-types',
      {
        schema: { tags: ['catalog'], summary: 'Appointment types (public)', response: { 200: listOf(appointmentType) } },
      },
      async (_req, reply) => {
        cache(reply);
        return { data: APPOINTMENT_TYPES.map((t) => ({ ...t })) };
      },
    );
    app.get(
      '/api/v1/catalog/vital-signs',
      {
        schema: { tags: ['catalog'], summary: 'Vital-sign codes, units and ranges (public)', response: { 200: listOf(vitalSign) } },
      },
      async (_req, reply) => {
        cache(reply);
        return { data: vitalCodes() as z.infer<typeof vitalSign>[] };
      },
    );
    app.get(
      '/api/v1/catalog/scopes',
      {
        schema: {
          tags: ['catalog'],
          summary: 'OAuth scopes and standard roles (public)',
          response: {
            200: z.object({
              scopes: z.array(z.object({ name: z.string(), description: z.string() })),
              roles: z.array(z.object({ role: z.string(), scopes: z.array(z.string()) })),
            }),
          },
        },
      },
      async (_req, reply) => {
        cache(reply);
        return scopesAndRoles();
      },
    );
  };
}
