/**
 * The physiological alarm conditions (IEC 60601-1-8, issue 31) evaluated on the stream of stored
 * observations, per patient, in Kafka order (the order of the patient's partition). Pure and
 * in-memory: the ingest instance that owns a partition owns its patients' condition state. Times
 * are the observations' effective times (device clocks), so a replayed backlog raises the same
 * alarms as live data.
 *
 * What raises what is not written here: the conditions are `AlarmSettings.conditions`
 * (@vitalis/clinical alarms.ts, the defaults with the site's VITALIS_ALARMS overrides), every one
 * whose source is `limit` (a vital sign in a NEWS2 band, `limitConditionHolds`) or `news2` (the
 * aggregate from the latest value of each parameter). The technical `disconnect` condition is the
 * projector's watchdog's, never the ingest's.
 *
 * Per patient and condition:
 *  - onset: the condition must hold on every observation of its code (NEWS2: on every observation)
 *    for `onsetDelaySeconds` of device time since the first one where it held (0: at once); a
 *    single observation where it does not hold restarts the wait;
 *  - raise: the decision carries the condition's priority, kind, latching and label, and a message
 *    with the value and the limit ("SpO2 low: 88 % (≤ 91 % for 12 s)");
 *  - end: a limit condition is absent on an observation of its code whose NEWS2 score on the
 *    condition's side falls below the condition's score (SpO2 ≥ 92 %, heart rate ≤ 130 /min…);
 *    NEWS2 at `endAt` or below (raised at ≥ 7, absent at ≤ 4: the band between is hysteresis). It
 *    ends once it has been absent on every such observation for `endDelaySeconds` of device time
 *    (the clear is decided on the observation that reaches it); one observation where it holds
 *    again cancels the wait. So a value hovering at a limit (systolic 90, 91, 90… mmHg) keeps one
 *    alarm instead of ending and raising again with each reading, and a latching alarm whose
 *    condition comes back before anyone acknowledged it is the same alarm again (the records fold).
 * Which alarms are active is restored from the event store the first time a patient is seen
 * (`knows`/`restore`), so an instance that (re)starts or takes over a partition clears an alarm
 * raised before and does not raise it twice. The latest values (NEWS2), the onset waits and the end
 * waits start empty then: a wait starts again (an alarm is raised or ended later, never earlier),
 * and a NEWS2 from fewer parameters is lower, never higher (a restored NEWS2 alarm may end early;
 * it latches by default).
 */
import {
  DEFAULT_ALARM_SETTINGS,
  NEWS2_PARAMETER_WORDS,
  NEWS2_SCALE_BY_VITAL_CODE,
  limitConditionHolds,
  news2FromLatestVitals,
  NEWS2_INPUT_CODES,
  type AlarmCondition,
  type AlarmKind,
  type AlarmPriority,
  type AlarmRule,
  type AlarmSettings,
  type LimitCondition,
  type News2Condition,
  type News2Result,
} from '@vitalis/clinical';
import { must } from '@vitalis/runtime';
import { vitalDefinition } from '@vitalis/schemas';

export interface RuleInput {
  patient_id: string;
  code: string;
  value: number;
  /** Effective time, ms since the epoch. */
  at: number;
}

export interface AlertDecision {
  rule: AlarmRule;
  state: 'raised' | 'cleared';
  priority: AlarmPriority;
  kind: AlarmKind;
  latching: boolean;
  label: string;
  message: string;
  /** The observation's value (limit conditions) or the NEWS2 aggregate. */
  value: number;
}

/** A condition the ingest evaluates (every source but the watchdog's `disconnect`). */
export type EvaluatedCondition = LimitCondition | News2Condition;

export const isEvaluatedCondition = (c: AlarmCondition): c is EvaluatedCondition => c.source === 'limit' || c.source === 'news2';

/** The conditions of the settings the ingest evaluates, in the table's order (the order of a batch's decisions). */
export const evaluatedConditions = (settings: AlarmSettings): EvaluatedCondition[] =>
  Object.values(settings.conditions).filter(isEvaluatedCondition);

/**
 * Where a limit condition starts, in charted units, read from its NEWS2 scale (never restated):
 * on the low side the top of the last band scoring at least the condition's score ("≤ 91" for
 * SpO2 at 3), on the high side the bottom of the first one ("≥ 131" for heart rate at 3).
 * Undefined when the scale has no such band (the condition can never hold).
 */
export function limitEdge(c: LimitCondition): { op: '≤' | '≥'; value: number } | undefined {
  const scale = NEWS2_SCALE_BY_VITAL_CODE[c.code];
  if (!scale) return undefined;
  const zero = scale.bands.findIndex(([, s]) => s === 0);
  if (c.side === 'low') {
    // the bands below the 0-point one, nearest first: each has an upper bound (only the last band is open)
    const band = scale.bands
      .slice(0, Math.max(zero, 0))
      .reverse()
      .find(([, s]) => s >= c.score);
    return band ? { op: '≤', value: must(band[0], 'the upper bound of a band below the 0-point band') } : undefined;
  }
  for (const [i, [, s]] of scale.bands.entries()) {
    if (i <= zero || s < c.score) continue;
    const below = must(scale.bands[i - 1]?.[0], `the upper bound of the band below band ${i}`);
    return { op: '≥', value: Number((below + 10 ** -scale.decimals).toFixed(scale.decimals)) };
  }
  return undefined;
}

/** A vital's unit as a person reads it in a message (its definition's screen unit). */
const unitOf = (code: string) => vitalDefinition(code)?.screenUnit ?? '';
const withUnit = (value: number, unit: string) => (unit ? `${value} ${unit}` : String(value));

function limitMessage(c: LimitCondition, value: number, state: 'raised' | 'cleared', heldSeconds: number): string {
  const unit = unitOf(c.code);
  const edge = limitEdge(c);
  const limit = edge ? `${edge.op} ${withUnit(edge.value, unit)}` : `NEWS2 ${c.score}`;
  if (state === 'cleared') return `${c.label} ended: ${withUnit(value, unit)} (alarm at ${limit})`;
  return `${c.label}: ${withUnit(value, unit)} (${limit}${c.onsetDelaySeconds > 0 ? ` for ${Math.round(heldSeconds)} s` : ''})`;
}

function news2Message(c: News2Condition, n: News2Result, state: 'raised' | 'cleared', heldSeconds: number): string {
  const detail = `${n.risk} risk${n.complete ? '' : `, missing ${n.missing.map((m) => NEWS2_PARAMETER_WORDS[m]).join(', ')}`}`;
  if (state === 'cleared') return `${c.label} ended: ${n.score} (≤ ${c.endAt}, ${detail})`;
  return `${c.label}: ${n.score} (≥ ${c.raiseAt}${c.onsetDelaySeconds > 0 ? ` for ${Math.round(heldSeconds)} s` : ''}, ${detail})`;
}

interface PatientState {
  /** The latest value per code (NEWS2's input). */
  latest: Record<string, number>;
  /** Per condition not raised: the device time (ms) since which it has held. */
  since: Map<AlarmRule, number>;
  /** Per condition raised: the device time (ms) since which it has been absent (its end delay running). */
  absentSince: Map<AlarmRule, number>;
  active: Set<AlarmRule>;
  touchedAt: number;
  /** NEWS2 of `latest`, computed when a condition needs it and kept until an input changes (a pure function of `latest`). */
  news2: News2Result | undefined;
}

/** The decision for condition `c` (one function, not a closure per observation: the hot path runs it for every numeric). */
function decision(
  c: EvaluatedCondition,
  state: AlertDecision['state'],
  heldSeconds: number,
  value: number,
  news2: News2Result | undefined,
): AlertDecision {
  return {
    rule: c.rule,
    state,
    priority: c.priority,
    kind: c.kind,
    latching: c.latching,
    label: c.label,
    value,
    message:
      c.source === 'limit'
        ? limitMessage(c, value, state, heldSeconds)
        : news2Message(c, must(news2, 'the NEWS2 score computed for a NEWS2 condition'), state, heldSeconds),
  };
}

export class AlertEngine {
  readonly #patients = new Map<string, PatientState>();
  readonly #conditions: EvaluatedCondition[];
  readonly #rules: ReadonlySet<string>;

  constructor(settings: AlarmSettings = DEFAULT_ALARM_SETTINGS) {
    this.#conditions = evaluatedConditions(settings);
    this.#rules = new Set(this.#conditions.map((c) => c.rule));
  }

  /** Decisions for one observation (usually none), in the conditions' order. */
  evaluate(o: RuleInput): AlertDecision[] {
    const s = this.#state(o.patient_id);
    s.touchedAt = Date.now();
    if (s.latest[o.code] !== o.value) {
      s.latest[o.code] = o.value;
      if (NEWS2_INPUT_CODES.has(o.code)) s.news2 = undefined;
    }
    let news2: News2Result | undefined;
    const out: AlertDecision[] = [];
    for (const c of this.#conditions) {
      if (c.source === 'limit' && c.code !== o.code) continue;
      const active = s.active.has(c.rule);
      let holds: boolean;
      let value: number;
      if (c.source === 'limit') {
        value = o.value;
        holds = limitConditionHolds(c, value);
      } else {
        news2 = s.news2 ??= news2FromLatestVitals(s.latest);
        value = news2.score;
        // hysteresis: raised at raiseAt or above, ended only at endAt or below
        holds = active ? news2.score > c.endAt : news2.score >= c.raiseAt;
      }
      if (active) {
        if (holds) {
          s.absentSince.delete(c.rule);
          continue;
        }
        const absentSince = s.absentSince.get(c.rule) ?? o.at;
        if ((o.at - absentSince) / 1_000 >= c.endDelaySeconds) {
          s.absentSince.delete(c.rule);
          s.active.delete(c.rule);
          out.push(decision(c, 'cleared', 0, value, news2));
        } else {
          s.absentSince.set(c.rule, absentSince);
        }
        continue;
      }
      if (!holds) {
        s.since.delete(c.rule);
        continue;
      }
      const since = s.since.get(c.rule) ?? o.at;
      s.since.set(c.rule, since);
      const heldSeconds = (o.at - since) / 1_000;
      if (heldSeconds >= c.onsetDelaySeconds) {
        s.since.delete(c.rule);
        s.active.add(c.rule);
        out.push(decision(c, 'raised', heldSeconds, value, news2));
      }
    }
    return out;
  }

  knows(patientId: string): boolean {
    return this.#patients.has(patientId);
  }

  /** Seeds a patient's active alarms (from the event store) before its first evaluation; rules the ingest does not evaluate are ignored. */
  restore(patientId: string, activeRules: readonly string[]): void {
    const s = this.#state(patientId);
    for (const r of activeRules) if (this.#rules.has(r)) s.active.add(r as AlarmRule);
  }

  /** Forgets patients not seen for `idleMs` with no active alarm (bounded memory). */
  sweep(idleMs: number, now = Date.now()): number {
    let removed = 0;
    for (const [id, s] of this.#patients) {
      if (now - s.touchedAt > idleMs && s.active.size === 0) {
        this.#patients.delete(id);
        removed += 1;
      }
    }
    return removed;
  }

  get size(): number {
    return this.#patients.size;
  }

  #state(patientId: string): PatientState {
    let s = this.#patients.get(patientId);
    if (!s)
      this.#patients.set(
        patientId,
        (s = { latest: {}, since: new Map(), absentSince: new Map(), active: new Set(), touchedAt: Date.now(), news2: undefined }),
      );
    return s;
  }
}
