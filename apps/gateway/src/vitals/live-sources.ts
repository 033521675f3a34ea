/**
 * Where a live subscription's events come from, chosen in this one place for SSE, WebSocket and MCP:
 * synthetic sandbox patients (`sbx-` ids) from the generator (synthetic-live.ts), every other patient
 * from the live hub (Redis + the append log). Both keep the hub's contract: `subscribe(options,
 * sink)`, the same messages, ids, resume and token rules. A subscription mixing both kinds is
 * refused before it opens (vitals service `startVitalsStream`: 400); here it would throw the same.
 */
import { dataSourceOf } from '../access/sandbox';
import type { LiveSink, SubscribeOptions, Subscription } from './hub';

export interface LiveSource {
  subscribe(options: SubscribeOptions, sink: LiveSink): Subscription;
}

export class LiveSources implements LiveSource {
  constructor(
    private readonly log: LiveSource,
    private readonly synthetic: LiveSource,
  ) {}

  subscribe(options: SubscribeOptions, sink: LiveSink): Subscription {
    return (dataSourceOf(options.patients) === 'synthetic' ? this.synthetic : this.log).subscribe(options, sink);
  }
}
