export { createKafka, ensureTopics, type KafkaOptions } from './client';
export { TOPICS, topicSpecs, type TopicSpec } from './topics';
