export * from './position';
export * from './wire';
