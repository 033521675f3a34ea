/**
 * A device frame's envelope (ADR 0015, ADR 0029): the versions a frame record names and how many
 * observations one frame may carry. Read by the frame schemas (./vitals-records.ts) and by the
 * ingest's compiled check of a frame's head (./plain-records.ts), so neither restates them.
 */
export const FRAME_ENVELOPE = 'vitals.frame.v1';
/** The frame whose ECG chunks carry whole 0.1 µV steps (ADR 0029). */
export const FRAME_ENVELOPE_V2 = 'vitals.frame.v2';
/** Most observations one frame may carry (a monitor's numerics and waveform chunks at one tick, with room). */
export const MAX_FRAME_OBSERVATIONS = 64;
