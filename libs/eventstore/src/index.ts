export { append, readStream, readAll, headPosition, subscribe, ConcurrencyError, DuplicateEventError, ANY, NO_STREAM } from './store';
export type { NewEvent, StoredEvent, EventMetadata, ExpectedVersion, Queryable, Subscription } from './store';
