export * from './patient';
export * from './slot';
export * from './triage';
