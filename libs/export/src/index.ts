export * from './jobs';
export * from './storage';
export { gzipKeyOf } from './export-file';
export * from './worker';
export * from './s3-storage';
export * from './elements';
export * from './groups';
