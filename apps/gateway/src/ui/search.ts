/**
 * patient-search-card: the master patient index at a glance. Search by name → results (name,
 * birth date, sex, identifiers) → the record: demographics, identifiers, contacts and the
 * allergies (high criticality first, with an allergy banner), plus latest vitals and NEWS2 when
 * the token allows: each value with its age (marked stale past its code's threshold, the site's
 * VITALIS_ALARMS), blood pressure as one "BP 120/80" (systolic first), NEWS2 with the time of its
 * oldest input. A search with exactly one match opens that patient at once. Reception tokens
 * (write:patients without read:patients) get demographics only and the card says so instead of
 * implying "no allergies".
 * REST: GET /api/v1/patients?name=, GET /api/v1/patients/{id}. MCP: search_patients, get_patient.
 * Here: the markup and the data; the browser code and style are cards/search/ (main.ts, style.css).
 */
import { DEFAULT_ALARM_SETTINGS, NEWS2_SCALE_BY_VITAL_CODE, type AlarmSettings } from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';
import type { SearchData } from './cards/search/data';
import { renderCard, type BuiltCard } from './shared';
import { VITAL_LABELS } from './vitals';

/** Screen label and unit per vital code, for the record's latest vitals. */
const VITAL_NAMES = Object.fromEntries(Object.entries(VITAL_LABELS).map(([code, v]) => [code, [v.label, v.unit] as const]));

/**
 * What the card's script reads (`DATA`): labels and units, the order the vitals are shown in
 * (blood pressure as one value, systolic then diastolic), the site's stale threshold per code
 * (config.alarms) and the NEWS2 inputs (its time is the oldest of theirs).
 */
export function searchScriptData(alarms: AlarmSettings = DEFAULT_ALARM_SETTINGS) {
  return {
    vitalNames: VITAL_NAMES,
    order: [VITAL_CODE.heartRate, VITAL_CODE.spo2, VITAL_CODE.systolic, VITAL_CODE.respiratoryRate, VITAL_CODE.temperature],
    bp: { systolic: VITAL_CODE.systolic, diastolic: VITAL_CODE.diastolic },
    staleAfter: alarms.staleAfterSeconds,
    news2Codes: Object.keys(NEWS2_SCALE_BY_VITAL_CODE),
  } as const satisfies SearchData;
}

const BODY = `
<div class="card">
<header class="card-header">
  <h1>Patient search</h1>
  <span class="sub">Master patient index</span>
  <span class="spacer"></span>
  <span class="pill" id="conn" role="status">Ready</span>
</header>
<main id="main">
  <div id="error" class="error" role="alert"></div>
  <div class="layout">
    <section class="panel" aria-labelledby="results-h">
      <form class="search" id="search" role="search" aria-label="Patients">
        <div class="grow"><label for="q">Name</label><input id="q" name="name" type="search" required minlength="1" maxlength="100" autocomplete="off" spellcheck="false" placeholder="Family or given name"></div>
        <button type="submit">Search</button>
      </form>
      <h2 id="results-h" class="sr-only">Results</h2>
      <p class="muted" id="result-count" aria-live="polite"></p>
      <ul id="results"></ul>
    </section>
    <section class="panel record" id="record" aria-labelledby="record-h" tabindex="-1">
      <h2 id="record-h">No patient selected</h2>
      <p class="placeholder" id="record-empty">Search by name, then choose a patient.</p>
      <div id="record-body" hidden></div>
    </section>
  </div>
</main>
</div>
`;

/** The card's document, with the site's alarm settings (config.alarms) in its data. */
export function searchCard(alarms: AlarmSettings = DEFAULT_ALARM_SETTINGS): BuiltCard {
  return renderCard({
    name: 'patient-search-card',
    title: 'Patient search',
    sources: 'search',
    body: BODY,
    data: searchScriptData(alarms),
  });
}
