export {
  append,
  appendToStreams,
  readStream,
  readStreams,
  readAll,
  readCategory,
  readLatestPerKey,
  readStreamsAfterSource,
  streamOfEvent,
  sourcePositionMetadata,
  sourcePositionOf,
  headPosition,
  subscribe,
  listenForEvents,
  listenOnChannel,
  EVENTS_CHANNEL,
  ConcurrencyError,
  DuplicateEventError,
  ANY,
  NO_STREAM,
} from './store';
export type {
  NewEvent,
  StreamEvent,
  StoredEvent,
  EventMetadata,
  ExpectedVersion,
  Queryable,
  EventSubscription,
  SourcePosition,
} from './store';
export { STREAM_CATEGORIES, StreamNameError, streamName, parseStreamName, streamCategory, streamIdIn } from './streams';
export type { StreamCategory } from './streams';
export { handleCommand, inTransaction, loadStream, settle } from './command';
export type {
  Appended,
  CommandOutcome,
  DecidedEvent,
  Decider,
  Decision,
  HandleOptions,
  InTransaction,
  Loaded,
  VersionConflict,
} from './command';
