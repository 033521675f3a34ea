/**
 * Alarm and freshness settings: the one table of what raises a bedside alarm, how urgent it is,
 * how long a condition must last before it sounds, whether it latches, when an unacknowledged
 * alarm escalates and to whom, when a device counts as disconnected, and when a vital value is too
 * old to be shown as current. The ingest (physiological alarms), the projector (escalation, the
 * device-disconnect watchdog), the gateway (REST, FHIR, MCP) and the UI cards (ages, stale marks,
 * the "Live" badge) all read it from here; a site overrides it with one JSON document
 * (`VITALIS_ALARMS`, parsed by `parseAlarmSettings`), never by editing a second copy.
 *
 * Model: IEC 60601-1-8 (alarm priorities high / medium / low, onset delay, latching, technical
 * alarms) and IHE PCD Alarm Communication Management (an alarm is raised, may be acknowledged,
 * escalates to a second recipient when nobody acknowledges it, and ends). The physiological limits
 * are not written here: each condition names a vital code and the NEWS2 score that raises it, and
 * the band edges come from NEWS2_SCALES (the same table that colours the monitor's tiles), so an
 * alarm and a red tile cannot disagree.
 */
import { z } from 'zod';
import { VITAL_CODE, type VitalCode } from '@vitalis/schemas';
import { NEWS2_SCALE_BY_VITAL_CODE, news2BandScore } from './news2';

export const ALARM_PRIORITIES = ['high', 'medium', 'low'] as const;
export type AlarmPriority = (typeof ALARM_PRIORITIES)[number];

/** IEC 60601-1-8: a physiological alarm is about the patient, a technical alarm about the equipment or the data path. */
export type AlarmKind = 'physiological' | 'technical';

export type AlarmRule =
  | 'spo2-low'
  | 'hr-high'
  | 'hr-low'
  | 'rr-high'
  | 'rr-low'
  | 'sys-low'
  | 'sys-high'
  | 'temp-high'
  | 'temp-low'
  | 'news2-high'
  | 'device-disconnected';

interface ConditionBase {
  rule: AlarmRule;
  kind: AlarmKind;
  /** What a person reads (cards, FHIR code text, MCP). */
  label: string;
  priority: AlarmPriority;
  /** The condition must hold this long (device time) before the alarm is raised: fewer false alarms from motion or a loose probe. */
  onsetDelaySeconds: number;
  /** A latching alarm stays shown after its condition ends until a clinician acknowledges it (IEC 60601-1-8 6.7). */
  latching: boolean;
}

/** A condition the ingest evaluates on the data: it ends only once it has been absent for a while. */
interface EvaluatedConditionBase extends ConditionBase {
  /**
   * The condition must be absent on every observation (of its code; NEWS2: of any) for this long
   * (device time) before it ends: a value hovering at a limit keeps one alarm instead of ending and
   * raising again with each reading. With readings further apart than this (a cuff every 5 min),
   * the second reading outside the condition ends it. 0: the first one does.
   */
  endDelaySeconds: number;
}

/** A vital sign in a NEWS2 band scoring `score` on the `side` of normal (e.g. heart rate ≥ 131: side high, score 3). */
export interface LimitCondition extends EvaluatedConditionBase {
  kind: 'physiological';
  source: 'limit';
  code: VitalCode;
  side: 'low' | 'high';
  /** The NEWS2 parameter score at or above which the condition holds (on `side`). It ends when the score falls below it. */
  score: 2 | 3;
}

/** The aggregate NEWS2 from the latest value of each parameter: raised at `raiseAt`, ended at `endAt` or below (hysteresis). */
export interface News2Condition extends EvaluatedConditionBase {
  kind: 'physiological';
  source: 'news2';
  raiseAt: number;
  endAt: number;
}

/** No observation from a patient's device for `onsetDelaySeconds` (IEC 60601-1-8 technical alarm: the patient is not being monitored). */
export interface DisconnectCondition extends ConditionBase {
  kind: 'technical';
  source: 'disconnect';
}

export type AlarmCondition = LimitCondition | News2Condition | DisconnectCondition;

const C = VITAL_CODE;

/**
 * The default conditions. Priorities follow the urgency of the NEWS2 red band (a single parameter
 * scoring 3 calls for an urgent review): the ones that kill within minutes (hypoxaemia,
 * bradycardia, hypotension, apnoea-range respiratory rate) are high and latch; the ones that need
 * a prompt but not immediate response are medium; a fever is low (advisory).
 */
export const DEFAULT_ALARM_CONDITIONS: Readonly<Record<AlarmRule, AlarmCondition>> = {
  'spo2-low': {
    rule: 'spo2-low',
    kind: 'physiological',
    source: 'limit',
    code: C.spo2,
    side: 'low',
    score: 3,
    label: 'SpO2 low',
    priority: 'high',
    onsetDelaySeconds: 10,
    endDelaySeconds: 10,
    latching: true,
  },
  'hr-high': {
    rule: 'hr-high',
    kind: 'physiological',
    source: 'limit',
    code: C.heartRate,
    side: 'high',
    score: 3,
    label: 'Heart rate high',
    priority: 'high',
    onsetDelaySeconds: 5,
    endDelaySeconds: 10,
    latching: true,
  },
  'hr-low': {
    rule: 'hr-low',
    kind: 'physiological',
    source: 'limit',
    code: C.heartRate,
    side: 'low',
    score: 3,
    label: 'Heart rate low',
    priority: 'high',
    onsetDelaySeconds: 5,
    endDelaySeconds: 10,
    latching: true,
  },
  'rr-high': {
    rule: 'rr-high',
    kind: 'physiological',
    source: 'limit',
    code: C.respiratoryRate,
    side: 'high',
    score: 3,
    label: 'Respiratory rate high',
    priority: 'medium',
    onsetDelaySeconds: 10,
    endDelaySeconds: 10,
    latching: false,
  },
  'rr-low': {
    rule: 'rr-low',
    kind: 'physiological',
    source: 'limit',
    code: C.respiratoryRate,
    side: 'low',
    score: 3,
    label: 'Respiratory rate low',
    priority: 'high',
    onsetDelaySeconds: 10,
    endDelaySeconds: 10,
    latching: true,
  },
  'sys-low': {
    rule: 'sys-low',
    kind: 'physiological',
    source: 'limit',
    code: C.systolic,
    side: 'low',
    score: 3,
    label: 'Systolic pressure low',
    priority: 'high',
    onsetDelaySeconds: 0,
    endDelaySeconds: 10,
    latching: true,
  },
  'sys-high': {
    rule: 'sys-high',
    kind: 'physiological',
    source: 'limit',
    code: C.systolic,
    side: 'high',
    score: 3,
    label: 'Systolic pressure high',
    priority: 'medium',
    onsetDelaySeconds: 0,
    endDelaySeconds: 10,
    latching: false,
  },
  'temp-high': {
    rule: 'temp-high',
    kind: 'physiological',
    source: 'limit',
    code: C.temperature,
    side: 'high',
    score: 2,
    label: 'Temperature high',
    priority: 'low',
    onsetDelaySeconds: 0,
    endDelaySeconds: 10,
    latching: false,
  },
  'temp-low': {
    rule: 'temp-low',
    kind: 'physiological',
    source: 'limit',
    code: C.temperature,
    side: 'low',
    score: 3,
    label: 'Temperature low',
    priority: 'medium',
    onsetDelaySeconds: 0,
    endDelaySeconds: 10,
    latching: false,
  },
  'news2-high': {
    rule: 'news2-high',
    kind: 'physiological',
    source: 'news2',
    raiseAt: 7,
    endAt: 4,
    label: 'NEWS2 high',
    priority: 'high',
    onsetDelaySeconds: 0,
    endDelaySeconds: 10,
    latching: true,
  },
  'device-disconnected': {
    rule: 'device-disconnected',
    kind: 'technical',
    source: 'disconnect',
    label: 'No data from the monitor',
    priority: 'medium',
    onsetDelaySeconds: 30,
    latching: false,
  },
};

export const ALARM_RULES = Object.keys(DEFAULT_ALARM_CONDITIONS) as AlarmRule[];
export const isAlarmRule = (rule: string): rule is AlarmRule => Object.hasOwn(DEFAULT_ALARM_CONDITIONS, rule);

/**
 * How old a value may be before a screen marks it stale and stops calling the patient "Live".
 * Continuous parameters (ECG-derived heart rate, pulse oximetry, impedance respiration) arrive
 * every second or two: 10 s is several missed periods with the pipeline's own latency on top.
 * Non-invasive blood pressure and temperature are intermittent (a cuff cycles every 5–15 min):
 * a reading is current for one cycle plus a margin.
 */
export const DEFAULT_STALE_AFTER_SECONDS: Readonly<Record<VitalCode, number>> = {
  [C.heartRate]: 10,
  [C.spo2]: 10,
  [C.respiratoryRate]: 10,
  [C.ecgLeadII]: 3,
  [C.systolic]: 900,
  [C.diastolic]: 900,
  [C.temperature]: 1_800,
};

export interface AlarmSettings {
  conditions: Readonly<Record<AlarmRule, AlarmCondition>>;
  /** Seconds after the raise an unacknowledged alarm escalates, per priority (null: never). */
  escalationSeconds: Readonly<Record<AlarmPriority, number | null>>;
  /** Who an escalation goes to (IHE ACM: the next recipient in the chain), shown to people and sent on the stream. */
  escalateTo: string;
  /** Per vital code: a value older than this is stale. */
  staleAfterSeconds: Readonly<Record<VitalCode, number>>;
}

export const DEFAULT_ALARM_SETTINGS: AlarmSettings = {
  conditions: DEFAULT_ALARM_CONDITIONS,
  escalationSeconds: { high: 60, medium: 180, low: null },
  escalateTo: 'charge nurse',
  staleAfterSeconds: DEFAULT_STALE_AFTER_SECONDS,
};

const seconds = z.number().int().min(0).max(86_400);
const conditionOverride = z
  .object({
    priority: z.enum(ALARM_PRIORITIES).optional(),
    onset_delay_s: seconds.optional(),
    end_delay_s: seconds.optional(),
    latching: z.boolean().optional(),
  })
  .strict();

/** The site's overrides (`VITALIS_ALARMS`, JSON): every key optional, unknown keys refused. */
export const alarmOverridesSchema = z
  .object({
    conditions: z
      .partialRecord(z.enum(ALARM_RULES as [AlarmRule, ...AlarmRule[]]), conditionOverride)
      .refine((c) => c['device-disconnected']?.end_delay_s === undefined, {
        message: 'device-disconnected has no end delay (its alarm ends on the first reading stored from the device)',
        path: ['device-disconnected', 'end_delay_s'],
      })
      .optional(),
    escalation_s: z
      .object({ high: seconds.nullable().optional(), medium: seconds.nullable().optional(), low: seconds.nullable().optional() })
      .strict()
      .optional(),
    escalate_to: z.string().trim().min(2).max(80).optional(),
    stale_after_s: z
      .partialRecord(z.enum(Object.values(VITAL_CODE) as [VitalCode, ...VitalCode[]]), z.number().int().min(1).max(86_400))
      .optional(),
  })
  .strict();
export type AlarmOverrides = z.infer<typeof alarmOverridesSchema>;

/** The defaults with a site's overrides applied (pure). */
export function alarmSettings(overrides: AlarmOverrides = {}): AlarmSettings {
  const conditions = { ...DEFAULT_ALARM_CONDITIONS } as Record<AlarmRule, AlarmCondition>;
  for (const [rule, o] of Object.entries(overrides.conditions ?? {}) as [AlarmRule, z.infer<typeof conditionOverride>][]) {
    conditions[rule] = {
      ...conditions[rule],
      ...(o.priority !== undefined ? { priority: o.priority } : {}),
      ...(o.onset_delay_s !== undefined ? { onsetDelaySeconds: o.onset_delay_s } : {}),
      ...(o.end_delay_s !== undefined ? { endDelaySeconds: o.end_delay_s } : {}),
      ...(o.latching !== undefined ? { latching: o.latching } : {}),
    } as AlarmCondition;
  }
  const escalation = { ...DEFAULT_ALARM_SETTINGS.escalationSeconds };
  for (const p of ALARM_PRIORITIES) {
    const v = overrides.escalation_s?.[p];
    if (v !== undefined) escalation[p] = v;
  }
  return {
    conditions,
    escalationSeconds: escalation,
    escalateTo: overrides.escalate_to ?? DEFAULT_ALARM_SETTINGS.escalateTo,
    staleAfterSeconds: { ...DEFAULT_STALE_AFTER_SECONDS, ...(overrides.stale_after_s ?? {}) },
  };
}

/**
 * Parses `VITALIS_ALARMS` (unset or empty: the defaults). Throws an Error naming the problem on
 * bad JSON or a bad key: an app refuses to start with alarm settings it cannot honour.
 */
export function parseAlarmSettings(raw: string | undefined): AlarmSettings {
  if (raw === undefined || raw.trim() === '') return alarmSettings();
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error('VITALIS_ALARMS is not JSON');
  }
  const parsed = alarmOverridesSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(`VITALIS_ALARMS: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return alarmSettings(parsed.data);
}

/**
 * The `VITALIS_ALARMS` variable in an app's configuration shape (libs/config): the raw document,
 * validated by `parseAlarmSettings` at start, so a bad one stops the app naming the problem. The
 * gateway, the ingest and the projector declare it with this one schema.
 */
export const alarmSettingsVariable = z
  .string()
  .optional()
  .superRefine((raw, ctx) => {
    try {
      parseAlarmSettings(raw);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message.replace(/^VITALIS_ALARMS:? ?/, '') || 'invalid' });
    }
  });

/** Whether a limit condition holds for a value (the value's NEWS2 score on the condition's side reaches its score). */
export function limitConditionHolds(c: LimitCondition, value: number): boolean {
  const scale = NEWS2_SCALE_BY_VITAL_CODE[c.code];
  if (!scale) return false;
  const score = news2BandScore(scale, value);
  if (score < c.score) return false;
  // which side of the 0-point band the value is on: a band below the first 0-scoring band is "low"
  const zero = scale.bands.findIndex(([, s]) => s === 0);
  const factor = 10 ** scale.decimals;
  const charted = Math.round(value * factor) / factor;
  const lowEdge = zero > 0 ? scale.bands[zero - 1]?.[0] : -Infinity;
  // unreachable: only the last band is open-ended, and a band lies above this one
  if (lowEdge === undefined || lowEdge === null) throw new RangeError(`the band below ${c.code}'s 0-point band has no upper bound`);
  return c.side === 'low' ? charted <= lowEdge : charted > lowEdge;
}

/** When an alarm raised at `raisedAt` escalates if nobody acknowledges it (null: it does not). */
export function escalationDueAt(settings: AlarmSettings, priority: AlarmPriority, raisedAt: string): string | null {
  const s = settings.escalationSeconds[priority];
  return s === null ? null : new Date(Date.parse(raisedAt) + s * 1_000).toISOString();
}

/** A value's age and whether it is stale, at `now` (ms). Unknown codes use the shortest continuous threshold. */
export function freshness(
  settings: AlarmSettings,
  code: string,
  effectiveAt: string,
  now: number,
): { age_s: number; stale: boolean; stale_after_s: number } {
  const after = (settings.staleAfterSeconds as Record<string, number>)[code] ?? DEFAULT_STALE_AFTER_SECONDS[C.heartRate];
  const age = Math.max(0, (now - Date.parse(effectiveAt)) / 1_000);
  return { age_s: Math.round(age), stale: age > after, stale_after_s: after };
}
