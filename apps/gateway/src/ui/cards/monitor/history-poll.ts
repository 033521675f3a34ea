/**
 * The monitor's poll inside an MCP host (./main.ts), where no stream reaches a view: every second,
 * every page of get_vitals_history over the poll window (./ledger.ts), each row handed to the card,
 * which applies it once through its ledger. One poll at a time; a failed poll is reported and the
 * next one reads the same window again.
 */
import { newestTime, pollFromMs, pollWindow, type Identified } from './ledger';

type CallTool = (name: string, args: Record<string, unknown>) => Promise<any>;

export interface HistoryPoll {
  /** Where the next poll starts (ms): the ledger forgets nothing after it. */
  nextFromMs(): number;
}

export function startHistoryPoll<O extends Identified>(
  patient: string,
  callTool: CallTool,
  rowsOf: (page: unknown) => O[],
  apply: (o: O) => void,
  report: (err: unknown) => void,
): HistoryPoll {
  /** The newest time get_vitals_history has given: where the next poll starts, less its overlap. */
  let polledNewest: number | null = null;
  async function pollOnce(): Promise<void> {
    const span = pollWindow(polledNewest, Date.now());
    let cursor: string | null = null;
    let newest = polledNewest;
    do {
      const page: any = await callTool('get_vitals_history', {
        patient_id: patient,
        from: span.from,
        to: span.to,
        limit: 500,
        ...(cursor ? { cursor } : {}),
      });
      const rows = rowsOf(page);
      rows.forEach(apply);
      newest = newestTime(rows, newest);
      cursor = page && typeof page.next_cursor === 'string' ? page.next_cursor : null;
    } while (cursor);
    polledNewest = newest;
  }
  let busy = false;
  setInterval(() => {
    if (busy) return;
    busy = true;
    pollOnce().then(
      () => {
        busy = false;
        report(null);
      },
      (err) => {
        busy = false;
        report(err);
      },
    );
  }, 1000);
  return { nextFromMs: () => pollFromMs(polledNewest, Date.now()) };
}
