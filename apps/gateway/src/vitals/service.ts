/**
 * Vitals reads, streams and writes, independent of the transport. REST (routes.ts), the MCP tools,
 * resources and subscriptions (mcp/), SSE and WebSocket (live/) call these with a `Caller`, like the
 * patients, appointments and triage services. This module is the one owner of:
 *  - who may read or publish a patient's vitals (`vitalsDenial`): the access policy's Observation
 *    cells (access/policy.ts: the scope, the role, a patient user's own, the sandbox's synthetic ids),
 *    and a patient user only their own patient id. Refusals are audited;
 *  - where a patient's vitals come from (`vitalsStoreFor`): `sbx-` ids from the synthetic generator
 *    (synthetic.ts), every other id from the append log, in the same shapes;
 *  - the history rules: an ordered range, the longest range per query shape, aggregates, and cursors
 *    bound to the query (and channel) that minted them;
 *  - the audit of every read, stream, replay and accepted write, through the one audit helper
 *    (access/caller `audit`): an audit row that cannot be written is a 503, everywhere, streams
 *    included (a stream is refused before anything is streamed);
 *  - where a live subscription starts (`startVitalsStream`): the resume id checked against the log and
 *    bounded to LIVE_REPLAY_WINDOW_SECONDS (resume.ts), and each replay audited.
 * Audit rows carry ids and counts, never values.
 * The rules live in sibling modules by concern (access.ts, history-rules.ts, reads.ts, streams.ts,
 * writes.ts); this module is their public face.
 */
export {
  type VitalsChannel,
  type VitalsScope,
  type VitalsDenial,
  vitalsDenial,
  assertMayAccessVitals,
  requireVitalsAccess,
  type VitalsAuditEntry,
  auditVitals,
} from './access';
export {
  DAY_MS,
  MAX_RANGE_MS,
  type FieldPrefix,
  type HistoryRange,
  orderedRange,
  aggregatesOf,
  rangeLimitMs,
  assertRangeWithinLimit,
  pageCursor,
  type VitalsStore,
  vitalsStoreFor,
} from './history-rules';
export {
  type HistoryQuery,
  type HistoryPage,
  readHistory,
  readObservation,
  readDevices,
  readDevice,
  readLatest,
  type FreshObservation,
  withFreshness,
  readLatestWithNews2,
} from './reads';
export {
  type LiveStreamDeps,
  liveStreamDeps,
  type StreamRequest,
  type StreamStart,
  parseResumeId,
  startVitalsStream,
  restoreVitalsStream,
} from './streams';
export { recordVitalsWrite, recordVitalsWriteFailed } from './writes';
export { type ObservationPageQuery, readObservationPage, readObservationEntry, readLatestEntries } from './observation-reads';
