export { append, readStream, readAll, headPosition, subscribe, ConcurrencyError, ANY, NO_STREAM } from './store';
export type { NewEvent, StoredEvent, EventMetadata, ExpectedVersion, Queryable, Subscription } from './store';
