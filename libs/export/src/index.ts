export * from './jobs';
export * from './storage';
export * from './worker';
export * from './s3-storage';
export * from './elements';
export * from './groups';
