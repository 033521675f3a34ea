/**
 * Diagnostic reports: FHIR R4 DiagnosticReport with its Observations, one event stream per report
 * (`diagnosticReport-<id>`), and the report's critical results on the same stream (raised,
 * escalated, acknowledged), so a result and its critical flag commit together and a rebuild sees
 * both. A pure decider in the Emmett style (decide(command, state) → events | error; evolve): a
 * posted result that cannot be interpreted is a refusal (`invalid-result`), like any other.
 *
 * The decider computes each numeric result's interpretation from @vitalis/clinical ANALYTES (one
 * table of ranges and critical limits); an LL, HH or AA result raises a critical result (unless one
 * is still unacknowledged on the report), due for escalation at `now + escalationSeconds`.
 *
 * Report statuses (FHIR diagnostic-report-status): registered → partial → preliminary → final
 * (each step optional, a step may repeat with new data); final | amended | corrected → amended |
 * corrected (with a reason; every earlier revision stays readable); registered | partial |
 * preliminary → cancelled; anything but entered-in-error → entered-in-error.
 *
 * Long: one domain's decider: its events, commands, refusals, decide and evolve belong together (ADR 0024); the two long functions are one case per command and per event.
 */
import { STREAM_CATEGORIES, streamName, type Decider } from '@vitalis/eventstore';
import { ANALYTES, interpretQuantity, isCriticalInterpretation, type Interpretation } from '@vitalis/clinical';
import type { DecideError, Decision } from './service-request';

export const diagnosticReportStream = (id: string) => streamName(STREAM_CATEGORIES.diagnosticReport, id);

export const DIAGNOSTIC_REPORT_STATUSES = [
  'registered',
  'partial',
  'preliminary',
  'final',
  'amended',
  'corrected',
  'cancelled',
  'entered-in-error',
] as const;
export type DiagnosticReportStatus = (typeof DIAGNOSTIC_REPORT_STATUSES)[number];
/** The statuses a lab posts results with (amended/corrected come through amend). */
export type ResultStatus = 'registered' | 'partial' | 'preliminary' | 'final';
export type AmendStatus = 'amended' | 'corrected';

/** A result as posted: a known analyte code and either a number (in the analyte's unit) or words. */
export interface ResultInput {
  code: string;
  value?: number | undefined;
  text?: string | undefined;
  /** For narrative findings only (the performer's call): A abnormal, AA critical. */
  interpretation?: 'N' | 'A' | 'AA' | undefined;
  /**
   * A stored telemetry observation (an ECG chunk with its samples, a vital sign), as the FHIR
   * Observation the vitals mapping (@vitalis/schemas fhir.ts) makes of it. Only the gateway's
   * fulfilment from the append log builds these; posted results never carry one.
   */
  telemetry?: { display: string; observation: Record<string, unknown> } | undefined;
}

/** A result as stored: with its unit, range and the interpretation the decider computed. */
export interface ResultValue {
  code: string;
  display: string;
  value?: number;
  unit?: string;
  text?: string;
  /** Absent for telemetry (nothing to interpret it against here). */
  interpretation?: Interpretation;
  referenceRange?: { low?: number; high?: number };
  /** A telemetry observation, verbatim (see ResultInput.telemetry). */
  observation?: Record<string, unknown>;
}

export interface ReportContent {
  status: DiagnosticReportStatus;
  results: ResultValue[];
  conclusion: string | null;
}

export interface ReportRevision extends ReportContent {
  /** 1 for the first post; +1 per update or amendment. */
  revision: number;
  at: string;
  by: string | null;
  reason: string | null;
}

export type CriticalState = 'open' | 'escalated' | 'acknowledged';

export interface CriticalResult {
  /** `<reportId>.<n>`: the n-th critical result raised on this report. */
  id: string;
  state: CriticalState;
  results: ResultValue[];
  raisedAt: string;
  dueAt: string;
  escalatedAt: string | null;
  acknowledgedAt: string | null;
  /** Who acknowledged: the signed-in user's id (the token's subject). */
  acknowledgedBy: string | null;
  /** That user's display name when the user store had one at the time (what a person reads). */
  acknowledgedByName: string | null;
  /** The app (OAuth client id) the user acknowledged with. */
  acknowledgedWith: string | null;
  note: string | null;
}

export interface DiagnosticReportState extends ReportContent {
  id: string;
  version: number;
  patientId: string;
  orderId: string;
  /** The ordered test's LOINC code (the report's code). */
  code: string;
  /** The filler's identifier (DiagnosticReport.identifier): a re-post with it is stored once. */
  identifier: { system: string; value: string };
  performer: string;
  effectiveAt: string;
  issuedAt: string;
  updatedAt: string;
  /** Hash of the posted content: a re-post with the same identifier and hash is a redelivery. */
  contentHash: string;
  revisions: ReportRevision[];
  critical: CriticalResult | null;
  /** The report's earlier critical results (each acknowledged before the next was raised), oldest first: they stay readable. */
  earlierCritical: CriticalResult[];
  /** How many critical results this report raised (ids count up). */
  criticalCount: number;
}

export const DIAGNOSTIC_REPORT_EVENTS = {
  registered: 'DiagnosticReportRegistered',
  updated: 'DiagnosticReportUpdated',
  amended: 'DiagnosticReportAmended',
  cancelled: 'DiagnosticReportCancelled',
  enteredInError: 'DiagnosticReportEnteredInError',
  criticalRaised: 'CriticalResultRaised',
  criticalEscalated: 'CriticalResultEscalated',
  criticalAcknowledged: 'CriticalResultAcknowledged',
} as const;

export const CRITICAL_RESULT_EVENT_TYPES = [
  DIAGNOSTIC_REPORT_EVENTS.criticalRaised,
  DIAGNOSTIC_REPORT_EVENTS.criticalEscalated,
  DIAGNOSTIC_REPORT_EVENTS.criticalAcknowledged,
] as const;
export type CriticalResultEventType = (typeof CRITICAL_RESULT_EVENT_TYPES)[number];

export interface ReportEvent {
  type: string;
  data: Record<string, unknown>;
}

export type DiagnosticReportCommand =
  | {
      type: 'post';
      details: {
        id: string;
        patientId: string;
        orderId: string;
        code: string;
        identifier: { system: string; value: string };
        performer: string;
        effectiveAt: string;
        contentHash: string;
      };
      status: ResultStatus;
      results: ResultInput[];
      conclusion: string | null;
      by: string;
      now: string;
      escalationSeconds: number;
    }
  | {
      type: 'update';
      status: ResultStatus;
      results: ResultInput[];
      conclusion: string | null;
      contentHash: string;
      by: string;
      now: string;
      escalationSeconds: number;
    }
  | {
      type: 'amend';
      status: AmendStatus;
      results: ResultInput[];
      conclusion: string | null;
      reason: string;
      by: string;
      now: string;
      escalationSeconds: number;
    }
  | { type: 'cancel'; reason?: string | undefined; by: string }
  | { type: 'enterInError'; reason?: string | undefined; by: string }
  | { type: 'escalate'; now: string }
  /**
   * `by`: the signed-in user (who, never an app: the gateway's access policy lets only a token
   * naming a user acknowledge); `byName`: their display name, if known; `client`: the app used.
   */
  | { type: 'acknowledge'; by: string; byName?: string | undefined; client?: string | undefined; note?: string | undefined; now: string };

/** A result that cannot be interpreted (unknown code, number for words, words for a number). */
export class ResultInputError extends Error {
  override name = 'ResultInputError';
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/** Stores a posted result with its unit, range and computed interpretation; throws ResultInputError. */
export function interpretResult(r: ResultInput, index: number): ResultValue {
  if (r.telemetry) return { code: r.code, display: r.telemetry.display, observation: r.telemetry.observation };
  const a = ANALYTES[r.code];
  if (!a) throw new ResultInputError(index, `${r.code} is not a result code Vitalis knows (see GET /api/v1/diagnostics/catalog)`);
  if (a.kind === 'quantity') {
    if (typeof r.value !== 'number' || !Number.isFinite(r.value))
      throw new ResultInputError(index, `${r.code} (${a.display}) needs a numeric value in ${a.unit}`);
    if (r.interpretation !== undefined)
      throw new ResultInputError(index, `${r.code}: the interpretation of a numeric result is computed from its ranges, not posted`);
    const range = {
      ...(a.reference.low !== undefined ? { low: a.reference.low } : {}),
      ...(a.reference.high !== undefined ? { high: a.reference.high } : {}),
    };
    return {
      code: a.code,
      display: a.display,
      value: r.value,
      unit: a.unit,
      interpretation: interpretQuantity(a, r.value),
      referenceRange: range,
    };
  }
  if (typeof r.text !== 'string' || r.text.trim() === '' || r.value !== undefined)
    throw new ResultInputError(index, `${r.code} (${a.display}) is a finding in words: give text, not a value`);
  return { code: a.code, display: a.display, text: r.text, interpretation: r.interpretation ?? 'N' };
}

/** FHIR diagnostic-report-status transitions. */
export const DIAGNOSTIC_REPORT_TRANSITIONS: Record<DiagnosticReportStatus, readonly DiagnosticReportStatus[]> = {
  registered: ['registered', 'partial', 'preliminary', 'final', 'cancelled', 'entered-in-error'],
  partial: ['partial', 'preliminary', 'final', 'cancelled', 'entered-in-error'],
  preliminary: ['preliminary', 'final', 'cancelled', 'entered-in-error'],
  final: ['amended', 'corrected', 'entered-in-error'],
  amended: ['amended', 'corrected', 'entered-in-error'],
  corrected: ['amended', 'corrected', 'entered-in-error'],
  cancelled: ['entered-in-error'],
  'entered-in-error': [],
};

/** Why a report command was refused: the orders' refusals, or a posted result that cannot be interpreted (its index and why). */
export type DiagnosticReportDecideError = DecideError | { kind: 'invalid-result'; index: number; message: string };

const illegal = (from: string, to: string): { ok: false; error: DecideError } => ({
  ok: false,
  error: { kind: 'illegal-transition', from, to },
});

/** Every posted result interpreted, or the refusal naming the first that cannot be. */
function interpretResults(results: ResultInput[]): { ok: true; values: ResultValue[] } | { ok: false; error: DiagnosticReportDecideError } {
  try {
    return { ok: true, values: results.map(interpretResult) };
  } catch (err) {
    if (err instanceof ResultInputError) return { ok: false, error: { kind: 'invalid-result', index: err.index, message: err.message } };
    throw err;
  }
}

/** Raises a critical result when a result is critical and none is waiting for acknowledgement. */
function raiseIfCritical(
  state: DiagnosticReportState | null,
  reportId: string,
  patientId: string,
  results: ResultValue[],
  now: string,
  escalationSeconds: number,
): ReportEvent[] {
  const critical = results.filter((r) => r.interpretation !== undefined && isCriticalInterpretation(r.interpretation));
  if (critical.length === 0) return [];
  if (state?.critical && state.critical.state !== 'acknowledged') return [];
  const n = (state?.criticalCount ?? 0) + 1;
  const dueAt = new Date(Date.parse(now) + escalationSeconds * 1000).toISOString();
  return [
    {
      type: DIAGNOSTIC_REPORT_EVENTS.criticalRaised,
      data: { criticalId: `${reportId}.${n}`, reportId, patientId, results: critical, raisedAt: now, dueAt },
    },
  ];
}

/**
 * Decides a command on a report (null: none yet): its events, or why it is refused.
 * Long: one case per command of a report (post, update, amend, cancel, enter in error, escalate, acknowledge), each a few checks and its events.
 */
export function decideDiagnosticReport(
  command: DiagnosticReportCommand,
  state: DiagnosticReportState | null,
): Decision<ReportEvent, DiagnosticReportDecideError> {
  if (command.type === 'post') {
    if (state) return { ok: false, error: { kind: 'already-exists' } };
    const interpreted = interpretResults(command.results);
    if (!interpreted.ok) return interpreted;
    const results = interpreted.values;
    const d = command.details;
    return {
      ok: true,
      events: [
        {
          type: DIAGNOSTIC_REPORT_EVENTS.registered,
          data: { ...d, status: command.status, results, conclusion: command.conclusion, by: command.by },
        },
        ...raiseIfCritical(null, d.id, d.patientId, results, command.now, command.escalationSeconds),
      ],
    };
  }
  if (!state) return { ok: false, error: { kind: 'not-found' } };
  switch (command.type) {
    case 'update':
    case 'amend': {
      if (!DIAGNOSTIC_REPORT_TRANSITIONS[state.status].includes(command.status)) return illegal(state.status, command.status);
      const interpreted = interpretResults(command.results);
      if (!interpreted.ok) return interpreted;
      const results = interpreted.values;
      const data: Record<string, unknown> = { status: command.status, results, conclusion: command.conclusion, by: command.by };
      if (command.type === 'update') data.contentHash = command.contentHash;
      else data.reason = command.reason;
      const type = command.type === 'update' ? DIAGNOSTIC_REPORT_EVENTS.updated : DIAGNOSTIC_REPORT_EVENTS.amended;
      return {
        ok: true,
        events: [{ type, data }, ...raiseIfCritical(state, state.id, state.patientId, results, command.now, command.escalationSeconds)],
      };
    }
    case 'cancel':
      if (!DIAGNOSTIC_REPORT_TRANSITIONS[state.status].includes('cancelled')) return illegal(state.status, 'cancelled');
      return {
        ok: true,
        events: [
          { type: DIAGNOSTIC_REPORT_EVENTS.cancelled, data: { by: command.by, ...(command.reason ? { reason: command.reason } : {}) } },
        ],
      };
    case 'enterInError':
      if (!DIAGNOSTIC_REPORT_TRANSITIONS[state.status].includes('entered-in-error')) return illegal(state.status, 'entered-in-error');
      return {
        ok: true,
        events: [
          {
            type: DIAGNOSTIC_REPORT_EVENTS.enteredInError,
            data: { by: command.by, ...(command.reason ? { reason: command.reason } : {}) },
          },
        ],
      };
    case 'escalate': {
      const c = state.critical;
      if (!c || c.state !== 'open') return illegal(`critical result ${c?.state ?? 'none'}`, 'escalated');
      if (Date.parse(command.now) < Date.parse(c.dueAt)) return illegal('critical result open, not yet due', 'escalated');
      return {
        ok: true,
        events: [
          {
            type: DIAGNOSTIC_REPORT_EVENTS.criticalEscalated,
            data: { criticalId: c.id, reportId: state.id, patientId: state.patientId, escalatedAt: command.now, dueAt: c.dueAt },
          },
        ],
      };
    }
    case 'acknowledge': {
      const c = state.critical;
      if (!c || c.state === 'acknowledged') return illegal(`critical result ${c?.state ?? 'none'}`, 'acknowledged');
      return {
        ok: true,
        events: [
          {
            type: DIAGNOSTIC_REPORT_EVENTS.criticalAcknowledged,
            data: {
              criticalId: c.id,
              reportId: state.id,
              patientId: state.patientId,
              by: command.by,
              at: command.now,
              ...(command.byName ? { byName: command.byName } : {}),
              ...(command.client ? { client: command.client } : {}),
              ...(command.note ? { note: command.note } : {}),
            },
          },
        ],
      };
    }
  }
}

interface Folded {
  type: string;
  data: Record<string, unknown>;
  streamVersion: number;
  recordedAt: string;
}

function revise(state: DiagnosticReportState, content: ReportContent, at: string, by: unknown, reason: unknown): ReportRevision[] {
  return [
    ...state.revisions,
    {
      ...content,
      revision: state.revisions.length + 1,
      at,
      by: typeof by === 'string' ? by : null,
      reason: typeof reason === 'string' ? reason : null,
    },
  ];
}

/**
 * Applies one event to a report's state (pure: a new state).
 * Long: one case per event type of a report, each the state it leaves.
 */
export function evolveDiagnosticReport(state: DiagnosticReportState | null, e: Folded): DiagnosticReportState | null {
  const d = e.data;
  const at = e.recordedAt;
  if (e.type === DIAGNOSTIC_REPORT_EVENTS.registered) {
    const r = d as unknown as DiagnosticReportState & { by: string };
    const content: ReportContent = { status: r.status, results: r.results, conclusion: r.conclusion ?? null };
    return {
      ...content,
      id: r.id,
      version: e.streamVersion,
      patientId: r.patientId,
      orderId: r.orderId,
      code: r.code,
      identifier: r.identifier,
      performer: r.performer,
      effectiveAt: r.effectiveAt,
      issuedAt: at,
      updatedAt: at,
      contentHash: r.contentHash,
      critical: null,
      earlierCritical: [],
      criticalCount: 0,
      revisions: [{ ...content, revision: 1, at, by: r.by ?? null, reason: null }],
    };
  }
  if (!state) return null;
  const next: DiagnosticReportState = { ...state, version: e.streamVersion };
  switch (e.type) {
    case DIAGNOSTIC_REPORT_EVENTS.updated:
    case DIAGNOSTIC_REPORT_EVENTS.amended: {
      const content: ReportContent = {
        status: d.status as DiagnosticReportStatus,
        results: d.results as ResultValue[],
        conclusion: (d.conclusion as string | null) ?? null,
      };
      return {
        ...next,
        ...content,
        issuedAt: at,
        updatedAt: at,
        contentHash: typeof d.contentHash === 'string' ? d.contentHash : state.contentHash,
        revisions: revise(state, content, at, d.by, d.reason),
      };
    }
    case DIAGNOSTIC_REPORT_EVENTS.cancelled:
    case DIAGNOSTIC_REPORT_EVENTS.enteredInError: {
      const status: DiagnosticReportStatus = e.type === DIAGNOSTIC_REPORT_EVENTS.cancelled ? 'cancelled' : 'entered-in-error';
      const content: ReportContent = { status, results: state.results, conclusion: state.conclusion };
      return { ...next, status, updatedAt: at, revisions: revise(state, content, at, d.by, d.reason) };
    }
    case DIAGNOSTIC_REPORT_EVENTS.criticalRaised:
      return {
        ...next,
        criticalCount: state.criticalCount + 1,
        earlierCritical: state.critical ? [...(state.earlierCritical ?? []), state.critical] : (state.earlierCritical ?? []),
        critical: {
          id: d.criticalId as string,
          state: 'open',
          results: d.results as ResultValue[],
          raisedAt: d.raisedAt as string,
          dueAt: d.dueAt as string,
          escalatedAt: null,
          acknowledgedAt: null,
          acknowledgedBy: null,
          acknowledgedByName: null,
          acknowledgedWith: null,
          note: null,
        },
      };
    case DIAGNOSTIC_REPORT_EVENTS.criticalEscalated:
      return state.critical ? { ...next, critical: { ...state.critical, state: 'escalated', escalatedAt: d.escalatedAt as string } } : next;
    case DIAGNOSTIC_REPORT_EVENTS.criticalAcknowledged:
      return state.critical
        ? {
            ...next,
            critical: {
              ...state.critical,
              state: 'acknowledged',
              acknowledgedAt: d.at as string,
              acknowledgedBy: d.by as string,
              acknowledgedByName: typeof d.byName === 'string' ? d.byName : null,
              acknowledgedWith: typeof d.client === 'string' ? d.client : null,
              note: (d.note as string | undefined) ?? null,
            },
          }
        : next;
    default:
      return next;
  }
}

export const foldDiagnosticReport = (events: Folded[]) => events.reduce<DiagnosticReportState | null>(evolveDiagnosticReport, null);

/** The report decider for the command handler. */
export const DIAGNOSTIC_REPORT_DECIDER: Decider<
  DiagnosticReportState | null,
  DiagnosticReportCommand,
  ReportEvent,
  DiagnosticReportDecideError
> = {
  initialState: () => null,
  evolve: evolveDiagnosticReport,
  decide: decideDiagnosticReport,
};

/** Final results: what a patient may read of its own reports. */
export const isReleasedStatus = (s: DiagnosticReportStatus) => s === 'final' || s === 'amended' || s === 'corrected';
