export * from './position';
export * from './wire';
export * from './alerts';
export * from './observation';
export * from './critical';
