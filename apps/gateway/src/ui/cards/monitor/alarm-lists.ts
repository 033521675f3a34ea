/**
 * The alarm panel's lists and how they are read (./alarm-panel.ts): the patient's active alarms and
 * its critical results, each with how it stands (loading, answered, refused, failed), read by a
 * debounced reader (at most once a second, one read at a time); a failed read is retried after 5 s,
 * a refusal is not. The critical results are read from a projection one tick behind a notice: until
 * the list shows what a notice said, it is read again (a few times, a second apart).
 */
import { V } from '../shared/runtime';
import { ApiError } from '../shared/access';
import type { CriticalResult, ResultTables } from '../shared/critical-result';
import { byPriority, criticalOrder, type AlarmRecord } from './alarm-text';

/** How a list stands: not answered yet, answered, refused (scope, role), or failed (network, server). */
type ListState = 'loading' | 'ok' | 'refused' | 'failed';
export interface List<T> {
  state: ListState;
  items: T[];
  /** The refusal's or failure's words. */
  error: string;
  /** When the list shown was read. */
  readAt: string | null;
}

/** What a critical-result notice said the list must show, and how many reads have not shown it yet. */
type Expected = { state: CriticalResult['state'] | 'present'; tries: number };

/** What the panel knows, shared by its reading, rendering and acknowledging. */
export interface PanelState {
  patient: string;
  tables: ResultTables;
  alarms: List<AlarmRecord>;
  critical: List<CriticalResult>;
  /** Acknowledgements this card made or was told of: final, so a re-read of a projection not there yet cannot undo them. */
  acknowledged: Map<string, CriticalResult>;
  /** What critical-result notices said (critical id → the state the list must show), read again until it does. */
  expected: Map<string, Expected>;
  /** What waits for the next answer of a list (the words of a conflict: who acknowledged first). */
  afterAlarms: Array<() => void>;
  afterCritical: Array<() => void>;
  /** After an acknowledgement: focus the next Acknowledge button once the rows are drawn again. */
  focusNextAck: boolean;
}

export function panelState(patient: string, tables: ResultTables): PanelState {
  return {
    patient,
    tables,
    alarms: { state: 'loading', items: [], error: '', readAt: null },
    critical: { state: 'loading', items: [], error: '', readAt: null },
    acknowledged: new Map(),
    expected: new Map(),
    afterAlarms: [],
    afterCritical: [],
    focusNextAck: false,
  };
}

/** One debounced reader: at most one read a second, one at a time, a trailing read when asked meanwhile. */
function reader(run: () => Promise<void>, minGapMs = 1000): (delayMs?: number) => void {
  let busy = false,
    again = false,
    lastStart = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const go = (): void => {
    timer = null;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    lastStart = Date.now();
    run().finally(() => {
      busy = false;
      if (again) {
        again = false;
        schedule();
      }
    });
  };
  function schedule(delayMs = 0): void {
    if (timer) return;
    timer = setTimeout(go, Math.max(delayMs, lastStart + minGapMs - Date.now(), 0));
  }
  return schedule;
}

export const statusOf = (err: unknown): number => (err instanceof ApiError ? err.status : 0);
export const messageOf = (err: unknown): string => (err instanceof Error && err.message) || String(err);
/** A refusal (not retried): 401/403 over REST; in MCP mode the tool's error names the scope or role. */
const isRefusal = (err: unknown): boolean =>
  statusOf(err) === 401 ||
  statusOf(err) === 403 ||
  (V.mode === 'mcp' && /scope|forbidden|not allowed|role|insufficient/i.test(messageOf(err)));

/** The patient's critical results (waiting, and acknowledged in the last 12 h): REST and MCP list them alike. */
async function fetchCritical(patient: string): Promise<CriticalResult[]> {
  const since = new Date(Date.now() - 12 * 3_600_000).toISOString();
  const body = await V.op(
    'list_critical_results',
    { patient_id: patient, states: ['open', 'escalated', 'acknowledged'], since },
    {
      path:
        '/api/v1/diagnostics/critical-results?patient=' +
        encodeURIComponent(patient) +
        '&state=open,escalated,acknowledged&since=' +
        encodeURIComponent(since),
    },
  );
  return body && Array.isArray(body.critical_results) ? body.critical_results : [];
}

/** The patient's active alarms (raised, acknowledged, latched), by priority. */
async function fetchAlarms(patient: string): Promise<AlarmRecord[]> {
  const body = await V.op('list_alarms', { patient_id: patient }, { path: '/api/v1/alarms?patient=' + encodeURIComponent(patient) });
  const items: AlarmRecord[] = (body && Array.isArray(body.alarms) ? body.alarms : []).filter(
    (a: AlarmRecord) => a && a.state !== 'resolved',
  );
  return items.sort(byPriority);
}

/** Reads one list into `list` (or says why it cannot), retrying a failure after 5 s. */
async function readInto<T>(list: List<T>, fetch: () => Promise<T[]>, retry: (delayMs?: number) => void): Promise<void> {
  try {
    Object.assign(list, { state: 'ok', items: await fetch(), error: '', readAt: new Date().toISOString() });
  } catch (err) {
    const refused = isRefusal(err);
    Object.assign(list, { state: refused ? 'refused' : 'failed', error: messageOf(err) });
    if (!refused) retry(5000);
  }
}

export interface Readers {
  /** Reads the alarms again (now, or after `delayMs`; at most once a second). */
  readAlarms: (delayMs?: number) => void;
  /** Reads the critical results again (the same). */
  readCritical: (delayMs?: number) => void;
}

/** The panel's two readers: each read fills its list, draws the panel (`render`), then runs what waited for it. */
export function panelReaders(s: PanelState, render: () => void): Readers {
  const readAlarms = reader(async () => {
    if (!V.mayUse(['read:vitals'])) {
      Object.assign(s.alarms, {
        state: 'refused',
        items: [],
        error: 'Alarms are not shown: this sign-in cannot read vitals (read:vitals).',
      });
      render();
      return;
    }
    await readInto(s.alarms, () => fetchAlarms(s.patient), readAlarms);
    render();
    s.afterAlarms.splice(0).forEach((fn) => fn());
  });
  const readCritical = reader(async () => {
    if (!V.mayUse(['read:diagnostics'])) {
      Object.assign(s.critical, {
        state: 'refused',
        items: [],
        error: 'Critical results are not shown: this sign-in cannot read diagnostic results (read:diagnostics).',
      });
      render();
      return;
    }
    await readInto(s.critical, () => fetchCritical(s.patient), readCritical);
    render();
    s.afterCritical.splice(0).forEach((fn) => fn());
    // a notice the projection does not show yet: read again, a second apart, a few times
    for (const [id, e] of s.expected) {
      if (shown(s.critical, id, e.state) || ++e.tries > 8) s.expected.delete(id);
    }
    if (s.expected.size) readCritical(1000);
  });
  return { readAlarms, readCritical };
}

/**
 * The critical results as shown, one per critical id, the furthest state winning (acknowledged is
 * final, escalated follows open): the list mixes the waiting ones, read from a projection that may
 * be a tick behind, with the acknowledged history, folded from the reports' streams, so for a
 * moment one result can be in both; and an acknowledgement made here is known before either.
 */
export function criticalShown(s: Pick<PanelState, 'critical' | 'acknowledged'>): CriticalResult[] {
  const rank = (c: CriticalResult) => (c.state === 'acknowledged' ? 2 : c.state === 'escalated' ? 1 : 0);
  const byId = new Map<string, CriticalResult>();
  for (const c of [...s.critical.items, ...s.acknowledged.values()]) {
    const had = byId.get(c.critical_id);
    if (!had || rank(c) > rank(had)) byId.set(c.critical_id, c);
  }
  return [...byId.values()].sort(criticalOrder);
}

/** Whether the list read shows what a notice said (a result may be listed twice for a moment: any of them will do). */
function shown(critical: List<CriticalResult>, id: string, state: Expected['state']): boolean {
  return critical.items.some(
    (c) => c.critical_id === id && (state === 'present' || (state === 'escalated' ? c.state !== 'open' : c.state === state)),
  );
}

/** A critical-result notice: what the list must show for its result (read again until it does). */
export function expectNotice(s: PanelState, data: any): void {
  const id = data && typeof data.critical_id === 'string' ? data.critical_id : null;
  const name = data && data.event;
  if (id)
    s.expected.set(id, {
      state: name === 'CriticalResultAcknowledged' ? 'acknowledged' : name === 'CriticalResultEscalated' ? 'escalated' : 'present',
      tries: 0,
    });
}
