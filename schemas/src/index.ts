export * from './scopes';
export * from './vitals';
export * from './fhir';
export * from './smart';
export * from './query';
