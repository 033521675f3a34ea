/**
 * Blood-pressure panels on the read side (docs/adr/0026): a device publishes systolic (8480-6) and
 * diastolic (8462-4) as two rows of the append log; an Observation search serves them as one R4
 * `bp` panel (85354-9). Pure functions: which stored codes a search reads for the codes it was
 * asked for, and how a page of rows becomes the entries it serves.
 *
 * The pairing rule, the same whatever page a row falls on: readings pair within one device and one
 * instant; there, the systolics and the diastolics are each taken in seq order and the n-th pairs
 * with the n-th. A paired systolic becomes the panel (it takes the systolic's place in the order and
 * its id); a paired diastolic is served inside that panel, not on its own; a reading whose partner
 * has not arrived (or never will) is served alone, under its own code, never dropped.
 */
import { BP_PANEL_CODE, VITAL_CODE, isEcg, type BloodPressurePanel, type ObservationEntry, type VitalsObservation } from '@vitalis/schemas';

const SYSTOLIC = VITAL_CODE.systolic;
const DIASTOLIC = VITAL_CODE.diastolic;
const BP_CODES: readonly string[] = [SYSTOLIC, DIASTOLIC, BP_PANEL_CODE];

/**
 * The stored codes a search reads for the codes it was asked for (undefined: every code). A panel
 * sits where its systolic row sits, so asking for the panel or either part reads the systolics;
 * the diastolics are read only for those served alone (asked for 8462-4).
 */
export function storedCodesFor(wanted: readonly string[] | undefined): string[] | undefined {
  if (wanted === undefined) return undefined;
  const stored = new Set(wanted.filter((c) => !BP_CODES.includes(c)));
  if (wanted.some((c) => BP_CODES.includes(c))) stored.add(SYSTOLIC);
  if (wanted.includes(DIASTOLIC)) stored.add(DIASTOLIC);
  return [...stored];
}

/** The instants of a page's blood-pressure rows: where the partners are looked up. */
export function bloodPressureInstants(rows: readonly VitalsObservation[]): string[] {
  return [...new Set(rows.filter((o) => o.code === SYSTOLIC || o.code === DIASTOLIC).map((o) => o.effective_at))];
}

const rowKey = (o: Pick<VitalsObservation, 'device_id' | 'seq'>) => `${o.device_id}\u0000${o.seq}`;
const valueOf = (o: VitalsObservation) => (isEcg(o) ? Number.NaN : o.value);

/**
 * The pairs among the blood-pressure readings of some instants (all of them at those instants, of
 * every device): the systolic row's key to its diastolic, and the keys of the paired diastolics.
 */
export function pairReadings(readings: readonly VitalsObservation[]): {
  partnerOf: Map<string, VitalsObservation>;
  pairedDiastolics: Set<string>;
} {
  const groups = new Map<string, { sys: VitalsObservation[]; dia: VitalsObservation[] }>();
  for (const o of readings) {
    if (o.code !== SYSTOLIC && o.code !== DIASTOLIC) continue;
    const key = `${o.device_id}\u0000${o.effective_at}`;
    const group = groups.get(key) ?? { sys: [], dia: [] };
    (o.code === SYSTOLIC ? group.sys : group.dia).push(o);
    groups.set(key, group);
  }
  const partnerOf = new Map<string, VitalsObservation>();
  const pairedDiastolics = new Set<string>();
  const bySeq = (a: VitalsObservation, b: VitalsObservation) => a.seq - b.seq;
  for (const { sys, dia } of groups.values()) {
    sys.sort(bySeq);
    dia.sort(bySeq);
    for (let i = 0; i < Math.min(sys.length, dia.length); i++) {
      const [s, d] = [sys[i], dia[i]];
      if (!s || !d) continue;
      partnerOf.set(rowKey(s), d);
      pairedDiastolics.add(rowKey(d));
    }
  }
  return { partnerOf, pairedDiastolics };
}

/** The panel of a systolic row and its diastolic partner. */
export function panelOf(systolic: VitalsObservation, diastolic: VitalsObservation): BloodPressurePanel {
  return {
    kind: 'bp-panel',
    patient_id: systolic.patient_id,
    device_id: systolic.device_id,
    seq: systolic.seq,
    diastolic_seq: diastolic.seq,
    effective_at: systolic.effective_at,
    systolic: valueOf(systolic),
    diastolic: valueOf(diastolic),
  };
}

/**
 * A page of stored rows (in the search's order) as the entries a search serves, given the
 * blood-pressure readings at the page's instants (`readings`, bloodPressureInstants): a paired
 * systolic as its panel, a paired diastolic left out (it is in its panel), a lone reading alone;
 * then only what the search asked for (`wanted`, undefined: everything; the panel matches
 * 85354-9, 8480-6 and 8462-4, a lone reading its own code).
 */
export function entriesOfPage(
  rows: readonly VitalsObservation[],
  readings: readonly VitalsObservation[],
  wanted: readonly string[] | undefined,
): ObservationEntry[] {
  const { partnerOf, pairedDiastolics } = pairReadings(readings);
  const asked = (code: string) => wanted === undefined || wanted.includes(code);
  const panelAsked = wanted === undefined || wanted.some((c) => BP_CODES.includes(c));
  const out: ObservationEntry[] = [];
  for (const o of rows) {
    const partner = o.code === SYSTOLIC ? partnerOf.get(rowKey(o)) : undefined;
    if (partner) {
      if (panelAsked) out.push(panelOf(o, partner));
    } else if (o.code === DIASTOLIC && pairedDiastolics.has(rowKey(o))) {
      continue;
    } else if (asked(o.code)) {
      out.push(o);
    }
  }
  return out;
}
