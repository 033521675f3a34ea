/**
 * patient-search-card: the master patient index at a glance. Search by name → results (name,
 * birth date, sex, identifiers) → the record: demographics, identifiers, contacts and the
 * allergies (high criticality first, with an allergy banner), plus latest vitals and NEWS2 when
 * the token allows. Reception tokens (write:patients without read:patients) get demographics only
 * and the card says so instead of implying "no allergies".
 * REST: GET /api/v1/patients?name=, GET /api/v1/patients/{id}. MCP: search_patients, get_patient.
 * Here: the markup and the data; the browser code and style are cards/search/ (main.ts, style.css).
 */
import { renderCard, type BuiltCard } from './shared';
import { VITAL_LABELS } from './vitals';

/** Screen label and unit per vital code, for the record's latest vitals. */
const VITAL_NAMES = Object.fromEntries(Object.entries(VITAL_LABELS).map(([code, v]) => [code, [v.label, v.unit]]));

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

export function searchCard(): BuiltCard {
  return renderCard({ name: 'patient-search-card', title: 'Patient search', sources: 'search', body: BODY, data: { vitalNames: VITAL_NAMES } });
}
