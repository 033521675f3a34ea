export { createKafka, ensureTopics, kafkaProbe, waitForLeaders, type KafkaOptions, type VitalisKafka } from './client';
export {
  createVitalsProducer,
  vitalsPartition,
  type RecordBytes,
  type SentBatch,
  type VitalsMessage,
  type VitalsProducer,
  type VitalsProducerOptions,
  type VitalsRecord,
} from './producer';
export { SINGLE_BROKER, TOPICS, topicSpecs, type TopicDurability, type TopicNames, type TopicSpec } from './topics';
export { batchOrigin, sendTraced, startBatchSpan, TRACEPARENT_HEADER } from './trace-headers';
export { tolerateStrayKafkaRejections } from './stray-rejections';
