/**
 * The four interactive UI cards (MCP Apps style). Each card is one self-contained HTML document
 * (inline CSS + JS, no external sources). The MCP server registers each as `ui://vitalis/<name>`
 * (mimeType `text/html;profile=mcp-app`); the gateway also serves it at `GET /ui/<name>`.
 * Inside an MCP host a card calls the server's tools through the host (postMessage JSON-RPC);
 * opened directly it calls the REST/SSE API of its origin (see ./README.md).
 * A card is built (bundled, hashed) once per process, on first use: ./build.ts.
 */
import { DEFAULT_ALARM_SETTINGS, type AlarmSettings } from '@vitalis/clinical';
import { bookingCard } from './booking';
import { monitorCard } from './monitor';
import { searchCard } from './search';
import type { BuiltCard } from './shared';
import { triageCard } from './triage';

export interface UiCard {
  /** URL-safe name: `ui://vitalis/<name>` and `/ui/<name>`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The complete HTML document (the same bytes for MCP hosts and browsers). */
  html(): string;
  /** The document with the CSP hashes of its inline script and style, computed from the bytes inlined. */
  built(): BuiltCard;
}

/** A card built once, on first use, then served from memory. */
function card(name: string, title: string, description: string, build: () => BuiltCard): UiCard {
  let built: BuiltCard | undefined;
  const get = () => (built ??= build());
  return { name, title, description, built: get, html: () => get().html };
}

/** The MIME type MCP Apps hosts expect for a UI resource. */
export const UI_CARD_MIME_TYPE = 'text/html;profile=mcp-app';

/** `ui://vitalis/<name>` */
export const uiCardUri = (name: string): string => `ui://vitalis/${name}`;

const built = new WeakMap<AlarmSettings, ReadonlyArray<UiCard>>();

/**
 * The cards as a gateway serves them: the monitor's data carries the site's alarm settings
 * (config.alarms: the stale threshold per code, the device-disconnect delay). Built once per settings.
 */
export function uiCards(alarms: AlarmSettings = DEFAULT_ALARM_SETTINGS): ReadonlyArray<UiCard> {
  const known = built.get(alarms);
  if (known) return known;
  const cards: ReadonlyArray<UiCard> = [
    card(
      'appointment-booking-form',
      'Appointment booking',
      'Pick a date and a clinician, see the free slots and book one (tools: find_available_slots, book_appointment, cancel_appointment).',
      bookingCard,
    ),
    card(
      'vitals-telemetry-monitor',
      'Vitals telemetry monitor',
      "Bedside monitor for one patient: 250 Hz ECG sweep, SpO2 and blood pressure trends, numerics with alarm colours, each value's age and stale mark, the NEWS2 total with its band, a badge that says Live only while fresh data arrives, alerts (tools: get_latest_vitals, get_patient).",
      () => monitorCard(alarms),
    ),
    card(
      'emergency-triage-board',
      'Emergency triage board',
      'Live emergency department board: ESI levels 1 to 5, NEWS2, latest vitals with their ages and alerts, sorted by acuity then arrival; critical results with an Acknowledge action for a signed-in clinician and the acknowledged history (tools: get_triage_board, set_triage_level, acknowledge_critical_result).',
      () => triageCard(alarms),
    ),
    card(
      'patient-search-card',
      'Patient search',
      'Master patient index: search by name, demographics, identifiers and allergies, latest vitals with their ages (tools: search_patients, get_patient).',
      () => searchCard(alarms),
    ),
  ];
  built.set(alarms, cards);
  return cards;
}

/** The cards with the default alarm settings (a site without VITALIS_ALARMS). */
export const UI_CARDS: ReadonlyArray<UiCard> = uiCards();
