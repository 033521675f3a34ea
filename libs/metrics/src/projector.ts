/**
 * The projector's series: the event store's head position and each projection's checkpoint and
 * lag behind it, read from PostgreSQL at scrape time (two small queries), so they are current
 * whenever Prometheus looks and cost nothing between scrapes.
 */
import client from 'prom-client';
import { METRIC } from './names';

export interface ProjectionPositions {
  head: number;
  /** Checkpoint position by projection name. */
  projections: Map<string, number>;
}

export function observeProjections(registry: client.Registry, read: () => Promise<ProjectionPositions>): void {
  // One read per scrape, shared by the three gauges. PostgreSQL down: the head reads NaN and the
  // projection series are left out, rather than failing the whole scrape.
  const none: ProjectionPositions = { head: Number.NaN, projections: new Map() };
  let current: Promise<ProjectionPositions> | undefined;
  const positions = () =>
    (current ??= read()
      .catch(() => none)
      .finally(() => setTimeout(() => (current = undefined), 0)));
  new client.Gauge({
    name: METRIC.eventstoreHead,
    help: 'Global position of the newest event in the event store',
    registers: [registry],
    async collect() {
      this.set((await positions()).head); // NaN when unknown
    },
  });
  new client.Gauge({
    name: METRIC.projectionPosition,
    help: 'Global position each projection has applied up to (its checkpoint)',
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      const { projections } = await positions();
      if (projections.size === 0) this.reset();
      for (const [name, position] of projections) this.set({ projection: name }, position);
    },
  });
  new client.Gauge({
    name: METRIC.projectionLag,
    help: "Events between the event store head and each projection's checkpoint",
    labelNames: ['projection'] as const,
    registers: [registry],
    async collect() {
      const { head, projections } = await positions();
      if (projections.size === 0) this.reset();
      for (const [name, position] of projections) this.set({ projection: name }, Math.max(0, head - position));
    },
  });
}
