/**
 * Alert rules evaluated on the stream of stored observations, per patient, in Kafka order (the
 * order of the patient's partition). Pure and in-memory: the ingest instance that owns a partition
 * owns its patients' rule state. Times are the observations' effective times (device clocks), so
 * a replayed backlog raises the same alerts as live data.
 *
 * Rules (raise / clear, with hysteresis so a value hovering at the threshold does not flap):
 *  - spo2-low:    SpO2 < 90 % continuously for >= 10 s      / clears at SpO2 >= 92 %
 *  - hr-high:     heart rate > 130 /min                     / clears at <= 120 /min
 *  - news2-high:  NEWS2 (latest value per code) >= 7        / clears at NEWS2 <= 4
 * Which alerts are active is restored from the event store the first time a patient is seen
 * (`knows`/`restore`), so an instance that (re)starts or takes over a partition clears an alert
 * raised before and does not raise it twice. The latest values (NEWS2) and the SpO2 low-since
 * window start empty then: a NEWS2 from fewer parameters is lower, never higher.
 */
import { news2FromLatestVitals } from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';

export const CODES = { heartRate: VITAL_CODE.heartRate, spo2: VITAL_CODE.spo2 } as const;

export interface RuleInput {
  patient_id: string;
  code: string;
  value: number;
  /** Effective time, ms since the epoch. */
  at: number;
}

export interface AlertDecision {
  rule: RuleId;
  state: 'raised' | 'cleared';
  severity: 'high' | 'medium';
  message: string;
  value: number;
}

export type RuleId = 'spo2-low' | 'hr-high' | 'news2-high';

export const THRESHOLDS = {
  spo2Low: 90,
  spo2Clear: 92,
  spo2Seconds: 10,
  hrHigh: 130,
  hrClear: 120,
  news2High: 7,
  news2Clear: 4,
} as const;

interface PatientState {
  latest: Record<string, number>;
  spo2LowSince?: number;
  active: Set<RuleId>;
  touchedAt: number;
}

export class AlertEngine {
  readonly #patients = new Map<string, PatientState>();

  /** Decisions for one observation (usually none), in a fixed rule order. */
  evaluate(o: RuleInput): AlertDecision[] {
    const s = this.#state(o.patient_id);
    s.touchedAt = Date.now();
    s.latest[o.code] = o.value;
    const out: AlertDecision[] = [];
    const decide = (rule: RuleId, raise: boolean, clear: boolean, d: Omit<AlertDecision, 'rule' | 'state'>) => {
      if (raise && !s.active.has(rule)) {
        s.active.add(rule);
        out.push({ rule, state: 'raised', ...d });
      } else if (clear && s.active.has(rule)) {
        s.active.delete(rule);
        out.push({ rule, state: 'cleared', ...d });
      }
    };

    if (o.code === CODES.spo2) {
      if (o.value < THRESHOLDS.spo2Low) s.spo2LowSince ??= o.at;
      else s.spo2LowSince = undefined;
      const lowFor = s.spo2LowSince === undefined ? 0 : (o.at - s.spo2LowSince) / 1000;
      decide('spo2-low', lowFor >= THRESHOLDS.spo2Seconds, o.value >= THRESHOLDS.spo2Clear, {
        severity: 'high',
        message: `SpO2 ${o.value} % (below ${THRESHOLDS.spo2Low} % for ${Math.round(lowFor)} s)`,
        value: o.value,
      });
    }
    if (o.code === CODES.heartRate) {
      decide('hr-high', o.value > THRESHOLDS.hrHigh, o.value <= THRESHOLDS.hrClear, {
        severity: 'medium',
        message: `Heart rate ${o.value} /min (above ${THRESHOLDS.hrHigh})`,
        value: o.value,
      });
    }
    const news2 = news2FromLatestVitals(s.latest);
    decide('news2-high', news2.score >= THRESHOLDS.news2High, news2.score <= THRESHOLDS.news2Clear, {
      severity: 'high',
      message: `NEWS2 ${news2.score} (${news2.risk} risk${news2.complete ? '' : `, missing ${news2.missing.join(', ')}`})`,
      value: news2.score,
    });
    return out;
  }

  knows(patientId: string): boolean {
    return this.#patients.has(patientId);
  }

  /** Seeds a patient's active alerts (from the event store) before its first evaluation. */
  restore(patientId: string, activeRules: string[]): void {
    const s = this.#state(patientId);
    for (const r of activeRules) if (r === 'spo2-low' || r === 'hr-high' || r === 'news2-high') s.active.add(r);
  }

  /** Forgets patients not seen for `idleMs` (bounded memory). */
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
    if (!s) this.#patients.set(patientId, (s = { latest: {}, active: new Set(), touchedAt: Date.now() }));
    return s;
  }
}
