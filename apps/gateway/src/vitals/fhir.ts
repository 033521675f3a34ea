/**
 * The vitals domain's FHIR R4 mapping beyond the Observations (those are @vitalis/schemas',
 * fhir.ts and fhir-json.ts): a device that reports vitals for a
 * patient as a Device, and its response schema (/fhir/R4/Device, fhir/resources/Device.ts).
 */
import { z } from 'zod';

export const deviceOut = z
  .strictObject({
    resourceType: z.literal('Device'),
    id: z.string(),
    status: z.literal('active'),
    patient: z.object({ reference: z.string().describe('Patient/<id>') }),
  })
  .meta({
    id: 'FhirDevice',
    description: 'FHIR R4 Device (https://hl7.org/fhir/R4/device.html): a device that reports vitals for the patient',
  });

/** A device of the append log, bound to the patient it reports for. */
export const toFhirDevice = (deviceId: string, patientId: string): z.infer<typeof deviceOut> => ({
  resourceType: 'Device' as const,
  id: deviceId,
  status: 'active' as const,
  patient: { reference: `Patient/${patientId}` },
});
