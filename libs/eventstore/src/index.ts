export { append, readStream, readAll, headPosition, subscribe, listenForEvents, EVENTS_CHANNEL, ConcurrencyError, DuplicateEventError, ANY, NO_STREAM } from './store';
export type { NewEvent, StoredEvent, EventMetadata, ExpectedVersion, Queryable, Subscription } from './store';
