export * from './scopes';
export * from './vitals';
export * from './fhir';
export * from './fhir-json';
export * from './smart';
export * from './query';
export * from './stored-form';
export * from './clock';
