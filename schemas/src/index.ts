export * from './scopes';
export * from './vitals';
export * from './fhir';
