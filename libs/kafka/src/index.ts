export { createKafka, ensureTopics, kafkaProbe, type KafkaOptions } from './client';
export { createVitalsProducer, vitalsPartitioner, type VitalsProducerOptions } from './producer';
export { TOPICS, topicSpecs, type TopicSpec } from './topics';
export { batchOrigin, sendTraced, startBatchSpan, TRACEPARENT_HEADER } from './trace-headers';
