/**
 * The sandbox data rule, once. `POST /api/v1/sandbox` hands anyone a token (read:appointments,
 * read:vitals) without registration, so a sandbox principal (and every token exchanged from it,
 * `Principal.sandbox`) must never reach real data: it sees synthetic patients and slots only, whose
 * ids carry the reserved prefix `sbx-` (generated on demand: vitals.ts, live.ts, slots.ts). The
 * prefix is reserved both ways: nobody may write data for an `sbx-` id, so real data can never be
 * smuggled to sandbox users under a synthetic id.
 *
 * The vitals service applies `sandboxDenial` inside its one access rule (`vitalsDenial`, audited
 * with reason `sandbox`) for REST, MCP, SSE and WebSocket; `dataSourceOf` says where an id's data
 * comes from (the synthetic generator or the append log).
 */
import { badRequest } from '@vitalis/http';

/** Patient, practitioner and slot ids of synthetic sandbox data start with this; no real id may. */
export const SANDBOX_ID_PREFIX = 'sbx-';

export const isSandboxPatientId = (id: string): boolean => id.startsWith(SANDBOX_ID_PREFIX);

export interface SandboxDenial {
  /** The patient ids refused. */
  patients: string[];
  /** The problem's detail. */
  detail: string;
}

/**
 * A sandbox principal may touch only `sbx-` patient ids; nobody may write for an `sbx-` id.
 * Undefined when every id is allowed.
 */
export function sandboxDenial(p: { sandbox: boolean }, patientIds: readonly string[], access: 'read' | 'write'): SandboxDenial | undefined {
  if (access === 'write') {
    const reserved = patientIds.filter(isSandboxPatientId);
    if (reserved.length > 0) {
      return { patients: reserved, detail: `Patient ids starting with "${SANDBOX_ID_PREFIX}" are reserved for the sandbox's synthetic data: nothing can be written for them.` };
    }
  }
  if (p.sandbox) {
    const real = patientIds.filter((id) => !isSandboxPatientId(id));
    if (real.length > 0) {
      return { patients: real, detail: `A sandbox token sees synthetic sandbox patients only (ids starting with "${SANDBOX_ID_PREFIX}", e.g. sbx-0001).` };
    }
  }
  return undefined;
}

/** Where the data of these patients comes from; 400 when a request mixes synthetic and real ids. */
export function dataSourceOf(patientIds: readonly string[]): 'synthetic' | 'log' {
  const synthetic = patientIds.filter(isSandboxPatientId).length;
  if (synthetic === 0) return 'log';
  if (synthetic === patientIds.length) return 'synthetic';
  throw badRequest(`A subscription cannot mix synthetic sandbox patients ("${SANDBOX_ID_PREFIX}" ids) with other patients: subscribe to them separately.`);
}
