/**
 * The four interactive UI cards (MCP Apps style). Each card is one self-contained HTML document
 * (inline CSS + JS, no external sources). The MCP server registers each as `ui://vitalis/<name>`
 * (mimeType `text/html;profile=mcp-app`); the gateway also serves it at `GET /ui/<name>`.
 */
export interface UiCard {
  /** URL-safe name: `ui://vitalis/<name>` and `/ui/<name>`. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** The complete HTML document. */
  html(): string;
}

import { bookingHtml } from './booking';
import { monitorHtml } from './monitor';
import { triageHtml } from './triage';
import { renderCard } from './shared';

function placeholder(title: string): string {
  return renderCard({ name: title, title, style: '', body: `<main id="main"><h1>${title}</h1></main>`, script: '' });
}

export const UI_CARDS: ReadonlyArray<UiCard> = [
  {
    name: 'appointment-booking-form',
    title: 'Appointment booking',
    description: 'Pick a date and a clinician, see the free slots and book one.',
    html: bookingHtml,
  },
  {
    name: 'vitals-telemetry-monitor',
    title: 'Vitals telemetry monitor',
    description: 'Live bedside monitor: 250 Hz ECG sweep, SpO2 and blood pressure trends, numerics with alarm colours.',
    html: monitorHtml,
  },
  {
    name: 'emergency-triage-board',
    title: 'Emergency triage board',
    description: 'Live emergency department board: ESI levels 1 to 5, NEWS2, sorted by acuity then arrival.',
    html: triageHtml,
  },
  {
    name: 'patient-search-card',
    title: 'Patient search',
    description: 'Master patient index: search by name, demographics and allergies.',
    html: () => placeholder('Patient search'),
  },
];
