export * from './errors';
export * from './auth';
export {
  Transport,
  buildUrl,
  type DeprecationNotice,
  type Method,
  type PathsFor,
  type RequestOptions,
  type ResponseOf,
  type SuccessBody,
} from './http';
export * from './stream';
export * from './client';
export * from './bulk';
export type { paths, components } from './generated/openapi';
