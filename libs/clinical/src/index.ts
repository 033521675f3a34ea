export { news2, news2FromLatestVitals, NEWS2_LOINC } from './news2';
export type { Consciousness, News2Input, News2Parameter, News2Result, News2Risk } from './news2';
export { ESI_LEVELS, ESI_DESCRIPTIONS, isEsiLevel } from './esi';
export type { EsiLevel } from './esi';
export { rng, gaussian, makeProfile, deteriorationProgress, trend, sampleVital, ecgAtPhase, ecgChunk, countRPeaks, ECG_HZ, ECG_PERIOD_MS } from './signals';
export type { PatientProfile } from './signals';
