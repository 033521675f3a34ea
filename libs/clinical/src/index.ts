export {
  news2,
  NEWS2_PARAMETERS,
  NEWS2_PARAMETER_WORDS,
  news2BandScore,
  news2FromLatestVitals,
  NEWS2_INPUT_CODES,
  news2ZeroBand,
  NEWS2_LOINC,
  NEWS2_RISK,
  NEWS2_SCALES,
  NEWS2_SCALE_BY_VITAL_CODE,
} from './news2';
export type { Consciousness, News2Bands, News2Input, News2Parameter, News2Result, News2Risk, News2Scale, News2Score } from './news2';
export { ESI_LEVELS, ESI_DESCRIPTIONS, isEsiLevel } from './esi';
export type { EsiLevel } from './esi';
export {
  rng,
  gaussian,
  makeProfile,
  deteriorationProgress,
  trend,
  sampleVital,
  ecgAtPhase,
  ecgChunk,
  countRPeaks,
  ECG_HZ,
  ECG_PERIOD_MS,
} from './signals';
export type { PatientProfile } from './signals';
export {
  ANALYTES,
  DIAGNOSTIC_CODE,
  INTERPRETATION_DISPLAY,
  INTERPRETATION_SYSTEM,
  LOINC,
  ORDERABLE_CODES,
  ORDERABLE_TESTS,
  UCUM,
  criticalLimitCrossed,
  interpretQuantity,
  isAnalyteCode,
  isCriticalInterpretation,
  isOrderableCode,
} from './diagnostics';
export type {
  Analyte,
  DiagnosticSection,
  Interpretation,
  Limits,
  NarrativeAnalyte,
  OrderableCode,
  OrderableTest,
  QuantityAnalyte,
} from './diagnostics';
export {
  ALARM_PRIORITIES,
  ALARM_RULES,
  alarmSettingsVariable,
  DEFAULT_ALARM_CONDITIONS,
  DEFAULT_ALARM_SETTINGS,
  DEFAULT_STALE_AFTER_SECONDS,
  alarmOverridesSchema,
  alarmSettings,
  escalationDueAt,
  freshness,
  isAlarmRule,
  limitConditionHolds,
  parseAlarmSettings,
} from './alarms';
export type {
  AlarmCondition,
  AlarmKind,
  AlarmOverrides,
  AlarmPriority,
  AlarmRule,
  AlarmSettings,
  DisconnectCondition,
  LimitCondition,
  News2Condition,
} from './alarms';
