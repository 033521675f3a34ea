export * from './patient';
export * from './slot';
export * from './triage';
export * from './service-request';
export * from './diagnostic-report';
export * from './alarm';
