/**
 * A bedside alarm as a FHIR R4 DetectedIssue (ADR 0020, docs/fhir.md "Alarms"): an issue a device
 * detected about the patient, with what clinicians did about it as its mitigations.
 *
 *   status          preliminary while it must still be seen (raised, acknowledged, latched); final once resolved
 *   severity        high | moderate | low, from the IEC 60601-1-8 priority (high | medium | low)
 *   code            the condition, from the Vitalis alarm-rule code system (the Flag of the live alert uses the same;
 *                   R4 has no category: the rule names the kind, device-disconnected being the technical one)
 *   patient         Patient/<id>
 *   identifiedDateTime  the raise (the confirming observation's time)
 *   author          Device/<id>: the device whose data raised it (served at /fhir/R4/Device/<id>)
 *   detail          the message
 *   mitigation[]    the acknowledgement (action "Acknowledged", date, author: the signed-in user by
 *                   identifier and display name) and the escalation (action "Escalated", to whom, date), in time order
 *
 * Every object built here is meant to validate as FHIR R4 (the tests check it with the HAPI validator).
 */
import { z } from 'zod';
import type { AlarmSettings } from '@vitalis/clinical';
import type { Alarm } from '@vitalis/records';
import { SUBJECT_SYSTEM } from '../diagnostics/fhir';
import { labelOf, lastChangedAt } from './service';

/** The alarm conditions (the ingest's live Flag codes its alerts with the same system). */
export const ALARM_RULE_SYSTEM = 'urn:vitalis:alert-rule';
/** What was done about an alarm: acknowledged, escalated (IHE PCD ACM). */
export const ALARM_ACTION_SYSTEM = 'urn:vitalis:alarm-action';

const SEVERITY = { high: 'high', medium: 'moderate', low: 'low' } as const;

const coding = z.object({ system: z.string(), code: z.string(), display: z.string() });
const codeable = z.object({ coding: z.array(coding), text: z.string() });

const mitigationOut = z.strictObject({
  action: codeable.describe(`${ALARM_ACTION_SYSTEM}: acknowledged | escalated`),
  date: z.string(),
  author: z
    .object({
      type: z.literal('Practitioner'),
      identifier: z.object({ system: z.literal(SUBJECT_SYSTEM), value: z.string().describe('The user id') }),
      display: z.string().describe("The user's display name (their id when the user store has none)"),
    })
    .optional()
    .describe('The signed-in clinician who acknowledged (absent on an escalation: the system escalates)'),
});

export const detectedIssueOut = z
  .strictObject({
    resourceType: z.literal('DetectedIssue'),
    id: z.string(),
    meta: z.object({
      versionId: z.string().describe("The version of the patient's alert stream at the alarm's last change"),
      lastUpdated: z.string(),
    }),
    status: z
      .enum(['preliminary', 'final'])
      .describe('preliminary while it must still be seen (raised, acknowledged, latched); final once resolved'),
    severity: z.enum(['high', 'moderate', 'low']).describe('From the IEC 60601-1-8 priority: high → high, medium → moderate, low → low'),
    code: codeable.describe(`${ALARM_RULE_SYSTEM}: the alarm condition`),
    patient: z.object({ reference: z.string() }),
    identifiedDateTime: z.string().describe('The raise: the effective time of the observation that confirmed the condition'),
    author: z.object({ reference: z.string().describe('Device/<id>') }).optional(),
    detail: z.string(),
    mitigation: z.array(mitigationOut).optional().describe('The acknowledgement and the escalation, in time order'),
  })
  .meta({
    id: 'DetectedIssue',
    description:
      'FHIR R4 DetectedIssue (https://hl7.org/fhir/R4/detectedissue.html): a bedside alarm; its acknowledgement and escalation as mitigations (docs/fhir.md, "Alarms")',
  });

export type FhirDetectedIssue = z.infer<typeof detectedIssueOut>;
type Mitigation = z.infer<typeof mitigationOut>;

const action = (code: 'acknowledged' | 'escalated', display: string, text: string) => ({
  coding: [{ system: ALARM_ACTION_SYSTEM, code, display }],
  text,
});

export function toFhirDetectedIssue(settings: AlarmSettings, a: Alarm): FhirDetectedIssue {
  const label = labelOf(settings, a.rule);
  const mitigation: Mitigation[] = [];
  if (a.acknowledgedAt !== null && a.acknowledgedBy) {
    mitigation.push({
      action: action('acknowledged', 'Acknowledged', a.note ? `Acknowledged: ${a.note}` : 'Acknowledged'),
      date: a.acknowledgedAt,
      author: {
        type: 'Practitioner',
        identifier: { system: SUBJECT_SYSTEM, value: a.acknowledgedBy.user },
        display: a.acknowledgedBy.name ?? a.acknowledgedBy.user,
      },
    });
  }
  if (a.escalatedAt !== null)
    mitigation.push({
      action: action('escalated', 'Escalated', `Escalated to ${a.escalatedTo ?? 'the next recipient'}`),
      date: a.escalatedAt,
    });
  mitigation.sort((x, y) => Date.parse(x.date) - Date.parse(y.date));
  return {
    resourceType: 'DetectedIssue',
    id: a.id,
    meta: { versionId: String(a.version), lastUpdated: lastChangedAt(a) },
    status: a.state === 'resolved' ? 'final' : 'preliminary',
    severity: SEVERITY[a.priority],
    code: { coding: [{ system: ALARM_RULE_SYSTEM, code: a.rule, display: label }], text: label },
    patient: { reference: `Patient/${a.patientId}` },
    identifiedDateTime: a.raisedAt,
    ...(a.deviceId ? { author: { reference: `Device/${a.deviceId}` } } : {}),
    detail: a.message,
    ...(mitigation.length > 0 ? { mitigation } : {}),
  };
}
