/**
 * The simulator's own ids and sequence numbers; the signal generators themselves are pure and
 * shared (@vitalis/clinical signals.ts).
 */

/** Stable demo ids pat-0001 ... so simulated data lines up with seeded patients. */
export const demoPatientId = (index: number) => `pat-${String(index + 1).padStart(4, '0')}`;

/** Restart-safe sequence seed: microseconds since the epoch, so a restarted device continues upward. */
export const seqSeed = (nowMs = Date.now()) => nowMs * 1000;
