/**
 * Emergency Severity Index (ESI v4, AHRQ): the five-level ED triage scale.
 * 1 needs immediate life-saving intervention; 5 needs no resources.
 */
export const ESI_LEVELS = [1, 2, 3, 4, 5] as const;
export type EsiLevel = (typeof ESI_LEVELS)[number];

export const ESI_DESCRIPTIONS: Record<EsiLevel, string> = {
  1: 'Resuscitation: immediate life-saving intervention',
  2: 'Emergent: high risk, confused/lethargic/disoriented, or severe pain or distress',
  3: 'Urgent: stable, needs two or more resources',
  4: 'Less urgent: stable, needs one resource',
  5: 'Non-urgent: stable, needs no resources',
};

export function isEsiLevel(value: unknown): value is EsiLevel {
  return typeof value === 'number' && (ESI_LEVELS as readonly number[]).includes(value);
}
