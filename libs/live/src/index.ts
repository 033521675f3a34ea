export * from './position';
export * from './wire';
export * from './observation';
