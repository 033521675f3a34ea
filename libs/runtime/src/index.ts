/**
 * Process lifecycle shared by every app: liveness and readiness (probes.ts) and the shutdown
 * sequence that drains before it closes (shutdown.ts); `must` (must.ts) for a value present by
 * construction that the type cannot show.
 */
export * from './byte-writer';
export * from './must';
export * from './probes';
export * from './shutdown';

/** Reads the package version of the running app (for health documents and logs). */
export const VITALIS_VERSION = '0.2.0';
