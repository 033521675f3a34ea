/**
 * Which stored events of an alert stream the alarm fold may read. The fold (@vitalis/records
 * alarm.ts) trusts the shape of the data its writers give it; an event of an alarm type without
 * the fields the fold reads (written by hand, by a test, or by an old writer) would make it throw,
 * and a projection that throws stops for every patient, the escalator and the watchdog for every
 * patient after it. Such an event changes nothing, like an event of another type, everywhere the
 * projector folds (the read model, the escalator, the watchdog), so they all agree.
 */
import { ALARM_EVENTS, foldAlarms, type FoldableAlarmEvent, type PatientAlarms } from '@vitalis/records';

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const time = (v: unknown): v is string => text(v) && !Number.isNaN(Date.parse(v));
const object = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isFoldableAlarmEvent(e: Pick<FoldableAlarmEvent, 'type' | 'data'>): boolean {
  const d = e.data;
  switch (e.type) {
    case ALARM_EVENTS.raised:
      return text(d.alert_id) && text(d.rule) && text(d.patient_id) && typeof d.message === 'string' && typeof d.value === 'number' && Number.isFinite(d.value)
        && object(d.triggered_by) && text(d.triggered_by.device_id) && time(d.triggered_by.effective_at)
        && (d.due_at === undefined || d.due_at === null || time(d.due_at));
    case ALARM_EVENTS.cleared:
      return text(d.rule) && object(d.triggered_by) && time(d.triggered_by.effective_at);
    case ALARM_EVENTS.acknowledged:
      return text(d.alert_id) && time(d.at) && object(d.by);
    case ALARM_EVENTS.escalated:
      return text(d.alert_id) && time(d.at) && text(d.to);
    default:
      return true;
  }
}

/** The records fold over the events it can read (the others advance nothing, see above). */
export const foldAlarmStream = (events: readonly FoldableAlarmEvent[]): PatientAlarms => {
  const s = foldAlarms(events.filter(isFoldableAlarmEvent));
  return { ...s, version: events.length > 0 ? events[events.length - 1]!.streamVersion : 0 };
};
