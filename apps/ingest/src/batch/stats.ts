/**
 * The ingest worker's running counts (the /stats probe, the tests): what the batch steps
 * (context.ts) and the batch writer (write.ts) both add to, in a module of its own so neither
 * imports the other for it.
 */

export interface IngestStats {
  batches: number;
  messages: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  /** Redelivered records not written again: before their offset, the database already held them. */
  skipped: number;
  /** Partition assignments whose stored offsets were read (one per rebalance this member joined). */
  assignmentChecks: number;
  /** Writes the database refused as a whole, whose refused rows were then isolated. */
  isolations: number;
  /** Statements those isolations took (isolate.ts: 2 or 3 per refused row COPY names, up to 2·log2(rows) bisecting). */
  isolationWrites: number;
  /** Milliseconds those isolations took (their transactions). */
  isolationMs: number;
}

export const emptyIngestStats = (): IngestStats => ({
  batches: 0,
  messages: 0,
  stored: 0,
  duplicates: 0,
  deadLettered: 0,
  skipped: 0,
  assignmentChecks: 0,
  isolations: 0,
  isolationWrites: 0,
  isolationMs: 0,
});
