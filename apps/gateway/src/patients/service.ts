/**
 * Patient commands and queries, independent of HTTP (the MCP server calls these with a Principal).
 *
 * Writes are commands: check access → the command handler (@vitalis/eventstore handleCommand with
 * the patient decider of @vitalis/records: fold the stream, decide, append at the expected version,
 * with its audit row in the same transaction; a concurrent change → 412 with If-Match, 409 without)
 * → answer from the state folded from the stream including the new event (read-your-writes, no
 * waiting for the projector). Refusals become problems in one table (`patientRefusal`). Single-record
 * reads fold the stream too (always current, and the ETag is the stream version); search reads the
 * rm_patients projection (eventually consistent, usually within a projector tick).
 *
 * The reads are in reads.ts and the commands in commands.ts; this module is their public face (the
 * same exports), so importers keep importing from service.ts.
 */
export {
  loadPatient,
  vitalsSummary,
  getPatientVersion,
  getAllergies,
  getAllergy,
  getPatient,
  patientHistory,
  rowToState,
  searchPatients,
} from './reads';
export type { LatestVital, PatientRecord, SearchQuery } from './reads';
export { registerPatient, updatePatient, implausibleInput, recordAllergy, removeAllergy } from './commands';
export type { AllergyFields } from './commands';
