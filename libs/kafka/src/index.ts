export { createKafka, ensureTopics, kafkaProbe, waitForLeaders, type KafkaOptions } from './client';
export { createVitalsProducer, vitalsPartitioner, type VitalsProducerOptions } from './producer';
export { SINGLE_BROKER, TOPICS, topicSpecs, type TopicDurability, type TopicNames, type TopicSpec } from './topics';
export { batchOrigin, sendTraced, startBatchSpan, TRACEPARENT_HEADER } from './trace-headers';
export { tolerateStrayKafkaRejections } from './stray-rejections';
