/**
 * The four interactive UI cards (MCP Apps style). Each card is one self-contained HTML document
 * (inline CSS + JS, no external sources). The MCP server registers each as `ui://vitalis/<name>`
 * (mimeType `text/html;profile=mcp-app`); the gateway also serves it at `GET /ui/<name>`.
 * Inside an MCP host a card calls the server's tools through the host (postMessage JSON-RPC);
 * opened directly it calls the REST/SSE API of its origin (see ./README.md).
 */
import { bookingHtml } from './booking';
import { monitorHtml } from './monitor';
import { searchHtml } from './search';
import { triageHtml } from './triage';

export interface UiCard {
  /** URL-safe name: `ui://vitalis/<name>` and `/ui/<name>`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The complete HTML document (the same bytes for MCP hosts and browsers). */
  html(): string;
}

/** The MIME type MCP Apps hosts expect for a UI resource. */
export const UI_CARD_MIME_TYPE = 'text/html;profile=mcp-app';

/** `ui://vitalis/<name>` */
export const uiCardUri = (name: string): string => `ui://vitalis/${name}`;

export const UI_CARDS: ReadonlyArray<UiCard> = [
  {
    name: 'appointment-booking-form',
    title: 'Appointment booking',
    description: 'Pick a date and a clinician, see the free slots and book one (tools: find_available_slots, book_appointment, cancel_appointment).',
    html: bookingHtml,
  },
  {
    name: 'vitals-telemetry-monitor',
    title: 'Vitals telemetry monitor',
    description: 'Live bedside monitor for one patient: 250 Hz ECG sweep, SpO2 and blood pressure trends, numerics with alarm colours, alerts (tools: get_latest_vitals, get_patient).',
    html: monitorHtml,
  },
  {
    name: 'emergency-triage-board',
    title: 'Emergency triage board',
    description: 'Live emergency department board: ESI levels 1 to 5, NEWS2, latest vitals and alerts, sorted by acuity then arrival (tool: get_triage_board).',
    html: triageHtml,
  },
  {
    name: 'patient-search-card',
    title: 'Patient search',
    description: 'Master patient index: search by name, demographics, identifiers and allergies (tools: search_patients, get_patient).',
    html: searchHtml,
  },
];
