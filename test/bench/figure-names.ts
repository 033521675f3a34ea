/**
 * The names of the figures one bench records and another phase, or the runner, reads back
 * (run.ts weighs the drain against the COPY and the Kafka clients against the drain): written once
 * here, so a renamed figure cannot silently drop a ratio. Side-effect free (the benches are scripts).
 */

/** The record shapes the pipeline benches produce: as the simulator's burst takes them, and as figures name them. */
export const RECORD_SHAPES = {
  v1: { label: 'v1 records', args: [] },
  frames: { label: 'frames', args: ['--frames'] },
} as const satisfies Record<string, { label: string; args: readonly string[] }>;
export type RecordShape = keyof typeof RECORD_SHAPES;

/** The ingest's drain of a backlog of `shape` (ingest.bench.ts); its CPU figure is `${drainFigure}: ingest CPU per observation`. */
export const drainFigure = (shape: RecordShape) => `ingest drain, ${RECORD_SHAPES[shape].label}, production configuration`;

/** The Kafka clients compared (kafka-clients.bench.ts). @platformatic/kafka 1.22.0: the newest 1.x whose dependencies run on Node 20. */
export const KAFKA_CLIENTS = { kafkajs: 'kafkajs 2', platformatic: '@platformatic/kafka 1' } as const;
export type KafkaClient = keyof typeof KAFKA_CLIENTS;

/** One client producing a recorded burst of `shape`; its figures are `${produceFigure}: producer CPU per observation` and `: kafka CPU per observation`. */
export const produceFigure = (shape: RecordShape, client: KafkaClient) =>
  `produce recorded device bytes, ${RECORD_SHAPES[shape].label}, ${KAFKA_CLIENTS[client]}`;

/** One client consuming a backlog of `shape`; its CPU figure is `${consumeFigure}: consumer CPU per observation`. */
export const consumeFigure = (shape: RecordShape, client: KafkaClient) =>
  `consume only, ${RECORD_SHAPES[shape].label}, ${KAFKA_CLIENTS[client]}`;
