/**
 * What a resource URI names, parsed the way the MCP SDK parses it before it picks a resource:
 * `new URL(uri)` (WHATWG), which drops leading and trailing spaces and C0 controls, removes tabs and
 * newlines anywhere, and lower-cases the scheme. So ` VITALIS://patients/p1/vitals` is the same
 * resource as `vitalis://patients/p1/vitals` to the SDK, and must be to every check. The HTTP gate
 * (auth.ts) and the resource handlers (resources.ts, server.ts) both classify URIs here, so the
 * two never disagree on what a message touches.
 *
 * Schemes: `ui:` (public card documents) and `vitalis:` (patient data, read:vitals). Anything else,
 * or a URI `new URL` cannot parse, is refused.
 */

/** The one patient resource: the canonical (normalised) form only; a percent-encoded id is not one. */
export const VITALS_URI = /^vitalis:\/\/patients\/([A-Za-z0-9\-.]{1,64})\/vitals$/;

export type ResourceRef =
  /** A public ui:// card (the SDK serves only the registered ones). */
  | { kind: 'ui'; uri: string }
  /** vitalis://patients/{id}/vitals in its canonical form. */
  | { kind: 'patient-vitals'; uri: string; patientId: string }
  /** Another vitalis:// URI: patient data's scheme, but no resource of ours. */
  | { kind: 'vitalis'; uri: string }
  /** An unknown scheme, or not a URI. */
  | { kind: 'refused'; reason: string };

export function parseResourceUri(raw: string): ResourceRef {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { kind: 'refused', reason: 'not a URI' };
  }
  const uri = url.href;
  if (url.protocol === 'ui:') return { kind: 'ui', uri };
  if (url.protocol !== 'vitalis:')
    return { kind: 'refused', reason: `unknown resource scheme "${url.protocol.slice(0, -1).slice(0, 40)}" (known: ui, vitalis)` };
  const [, patientId] = VITALS_URI.exec(uri) ?? [];
  return patientId !== undefined ? { kind: 'patient-vitals', uri, patientId } : { kind: 'vitalis', uri };
}
