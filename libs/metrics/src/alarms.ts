/**
 * The projector's bedside-alarm series (issue 31): the alarm load per bed (IEC 60601-1-8 alarm
 * fatigue is counted per bed and hour), escalations, and the device-disconnect alarms now active.
 * Labels: the alarm priority only (high, medium, low), never a patient, a device or a rule's value.
 *
 * The gauges are read at scrape time (one small query of the alarm read model, shared by both,
 * like the projection positions): PostgreSQL down, they are left out rather than failing the
 * scrape. The bed count comes from the projector's device watchdog (patients with a reading in the
 * last hour); before it has scanned once, the per-bed gauge is left out.
 */
import client from 'prom-client';
import { METRIC } from './names';

export const ALARM_PRIORITY_LABELS = ['high', 'medium', 'low'] as const;

export interface AlarmFigures {
  /** Alarms raised in the last hour, by priority (absent: 0). */
  raisedLastHour: Partial<Record<string, number>>;
  /** Patients with a reading in the last hour, or null when not known yet. */
  beds: number | null;
  /** Device-disconnected alarms not resolved. */
  disconnectActive: number;
}

export interface AlarmMetrics {
  /** One escalation appended (vitalis_alarms_escalated_total). */
  escalated(priority: (typeof ALARM_PRIORITY_LABELS)[number]): void;
}

/** Raised per bed, 3 decimals; no beds: 0 (nothing is being monitored, nothing is raised by data). */
export const perBed = (raised: number, beds: number) => (beds === 0 ? 0 : Math.round((raised / beds) * 1_000) / 1_000);

export function createAlarmMetrics(registry: client.Registry, read: () => Promise<AlarmFigures>): AlarmMetrics {
  let current: Promise<AlarmFigures | undefined> | undefined;
  const figures = () =>
    (current ??= read()
      .catch(() => undefined)
      .finally(() => setTimeout(() => (current = undefined), 0)));
  new client.Gauge({
    name: METRIC.alarmsPerBedHour,
    help: 'Alarms raised in the last hour per monitored bed (a patient with a reading in the last hour), by priority',
    labelNames: ['priority'] as const,
    registers: [registry],
    async collect() {
      const f = await figures();
      this.reset();
      if (!f || f.beds === null) return;
      for (const p of ALARM_PRIORITY_LABELS) this.set({ priority: p }, perBed(f.raisedLastHour[p] ?? 0, f.beds));
    },
  });
  new client.Gauge({
    name: METRIC.deviceDisconnectAlarmsActive,
    help: 'Device-disconnected (technical) alarms not resolved',
    registers: [registry],
    async collect() {
      const f = await figures();
      this.set(f ? f.disconnectActive : Number.NaN);
    },
  });
  const escalated = new client.Counter({
    name: METRIC.alarmsEscalated,
    help: 'Unacknowledged alarms escalated to the next recipient, by priority',
    labelNames: ['priority'] as const,
    registers: [registry],
  });
  for (const p of ALARM_PRIORITY_LABELS) escalated.labels(p).inc(0);
  return {
    escalated: (priority) => escalated.labels(priority).inc(),
  };
}
