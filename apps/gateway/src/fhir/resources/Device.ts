/** FHIR Device (vitals service: the devices the append log knows): the devices reporting a patient's vitals now, and one device with the patient it last reported for. */
import { z } from 'zod';
import { decodeKey, encodeKey } from '../../access/http';
import { toFhirDevice } from '../../vitals/fhir';
import { readDevice, readDevices } from '../../vitals/service';
import { countParam, defineFhirResource, patientParam } from '../definition';
import { fhirDevice, fhirDeviceBundle } from '../schemas';
import { cursor, format, patientIdOf, referenceParam } from '../search-params';

export const deviceResource = defineFhirResource({
  type: 'Device',
  auth: { scopes: ['read:vitals'] },
  interactions: ['read', 'search-type'],
  schema: fhirDevice,
  bundle: fhirDeviceBundle,
  documentation:
    "The devices that report vitals (id = the device id the Observations reference). Read: the device and the patient it last reported for. Search: the devices of the patient's latest observation per code (those reporting now).",
  search: {
    description:
      "The devices reporting a patient's vitals now (those of its latest observation per code): patient (required), _count. The vitals service's access rule (a patient user: its own; a sandbox token: synthetic patients) and audit.",
    query: z.strictObject({
      patient: patientParam(referenceParam('Patient').describe('Patient/{id} or {id} (required)'), true),
      _count: countParam(100, 50),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, deps, caller, match, count }) => {
      const patientId = patientIdOf('patient', q.patient);
      const after = decodeKey(q._cursor, ['i'])?.i;
      const devices = await readDevices(deps.pool, caller(), patientId, 'fhir');
      if (count === true) return { entries: [], total: devices.length };
      const all = devices.filter((d) => after === undefined || d > after);
      const page = all.slice(0, q._count);
      const last = page[page.length - 1];
      return {
        entries: page.map((d) => match('Device', d, toFhirDevice(d, patientId))),
        nextCursor: all.length > q._count && last !== undefined ? encodeKey({ i: last }) : null,
      };
    },
  },
  read: {
    description:
      'A device of the append log and the patient it last reported for (the vitals access rule on that patient; audited vitals.read).',
    read: async ({ deps, caller, id }) => {
      const { deviceId, patientId } = await readDevice(deps.pool, caller(), id, 'fhir');
      return { resource: toFhirDevice(deviceId, patientId) };
    },
  },
});
