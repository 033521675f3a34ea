/**
 * emergency-triage-board: the ED board. Patients sorted by ESI (1 resuscitation … 5 non-urgent)
 * then arrival, each with the chief complaint, waiting time, NEWS2 (colour by RCP risk band, with
 * the time of its oldest input), latest vitals (each with its age, marked stale past its code's
 * threshold), active vitals alerts and unacknowledged critical diagnostic results (with
 * read:diagnostics). The critical results also have a panel of their own: the analyte's clinical
 * name, value, unit and the critical limit crossed, the interpretation in words, the report
 * status, raised and due times, escalation, and an Acknowledge button for a signed-in clinician;
 * once acknowledged a result moves to the "Acknowledged" history (last 12 h) with who and when.
 * Every time is 24-hour (cards/shared/time.ts). Live: the board is re-read every 3 s (GET
 * /api/v1/triage or the get_triage_board tool); changes are announced politely (new arrivals,
 * ESI changes, new critical results), the board itself is not a live region (it would flood a
 * screen reader). Holders of write:triage re-triage from the board (a modal dialog; PUT …/esi
 * with If-Match, or set_triage_level with expected_version), so a change made meanwhile by
 * someone else is refused.
 * Here: the markup and the data; the browser code and style are cards/triage/ (main.ts, style.css).
 */
import { DEFAULT_ALARM_SETTINGS, INTERPRETATION_DISPLAY, NEWS2_SCALE_BY_VITAL_CODE, type AlarmSettings } from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';
import type { TriageData, VitalColumn } from './cards/triage/data';
import { renderCard, type BuiltCard } from './shared';
import { ANALYTE_UNIT_TEXT, VITAL_LABELS } from './vitals';

/** The board's vitals columns per code (the card's `DATA.vitalColumns`). */
const VITAL_COLUMNS = {
  [VITAL_CODE.heartRate]: 'hr',
  [VITAL_CODE.spo2]: 'spo2',
  [VITAL_CODE.systolic]: 'sys',
  [VITAL_CODE.diastolic]: 'dia',
  [VITAL_CODE.respiratoryRate]: 'rr',
  [VITAL_CODE.temperature]: 'temp',
} as const satisfies Record<string, VitalColumn>;

/**
 * What the card's script reads (`DATA`): the vitals columns, the site's stale threshold per code
 * (config.alarms, VITALIS_ALARMS), the NEWS2 inputs (the codes the score is computed from: its
 * time is the oldest of theirs), screen labels and units, the interpretation words, screen units of results.
 */
export function triageScriptData(alarms: AlarmSettings = DEFAULT_ALARM_SETTINGS) {
  return {
    vitalColumns: VITAL_COLUMNS,
    staleAfter: alarms.staleAfterSeconds,
    news2Codes: Object.keys(NEWS2_SCALE_BY_VITAL_CODE),
    labels: Object.fromEntries(Object.entries(VITAL_LABELS).map(([code, v]) => [code, v.label])),
    units: Object.fromEntries(Object.entries(VITAL_LABELS).map(([code, v]) => [code, v.unit])),
    interpretation: INTERPRETATION_DISPLAY,
    unitText: ANALYTE_UNIT_TEXT,
    alarmLabels: Object.fromEntries(Object.values(alarms.conditions).map((c) => [c.rule, c.label])),
  } as const satisfies TriageData;
}

const BODY = `
<div class="card">
<header class="card-header">
  <h1>Emergency department · triage board</h1>
  <span class="sub" id="count">–</span>
  <span class="spacer"></span>
  <span class="pill" id="conn" role="status">Connecting…</span>
</header>
<main id="main">
  <div id="error" class="error" role="alert"></div>
  <ul class="summary" id="summary" aria-label="Patients per ESI level"></ul>
  <section class="panel critical-panel" id="critical-panel" aria-labelledby="critical-h" hidden>
    <h2 id="critical-h">Critical results waiting for acknowledgement</h2>
    <p class="muted" id="critical-none">None waiting.</p>
    <ul class="critical-list" id="critical-list"></ul>
  </section>
  <div class="panel table-wrap">
    <table class="board" aria-describedby="sort-note">
      <caption>Patients in the department</caption>
      <thead><tr>
        <th scope="col">ESI</th><th scope="col">Patient</th><th scope="col">Chief complaint</th><th scope="col">Arrived</th>
        <th scope="col">NEWS2</th><th scope="col">${VITAL_LABELS[VITAL_CODE.heartRate].label}</th><th scope="col">${VITAL_LABELS[VITAL_CODE.spo2].label}</th><th scope="col">BP</th><th scope="col">${VITAL_LABELS[VITAL_CODE.respiratoryRate].label}</th><th scope="col">${VITAL_LABELS[VITAL_CODE.temperature].label}</th><th scope="col">Alerts</th>
      </tr></thead>
      <tbody id="rows"><tr><td colspan="11" class="empty">Loading…</td></tr></tbody>
    </table>
  </div>
  <section class="panel acked-panel" id="acked-panel" aria-labelledby="acked-h" hidden>
    <h2 id="acked-h" tabindex="-1">Acknowledged critical results (last 12 h)</h2>
    <p class="muted" id="acked-none">None acknowledged in the last 12 hours.</p>
    <ul class="acked-list" id="acked-list"></ul>
  </section>
  <p class="footer"><span id="sort-note">Sorted by ESI level, then arrival time.</span> Values show their age; a value past its freshness limit is marked stale. Times are 24-hour. <span id="updated"></span></p>
  <div class="sr-only" id="announce" aria-live="polite"></div>
  <dialog id="retriage" aria-labelledby="retriage-h">
    <form id="retriage-form" method="dialog">
      <h2 id="retriage-h">Re-triage</h2>
      <fieldset class="levels"><legend>Emergency Severity Index</legend>
        <label class="esi-1"><input type="radio" name="esi" value="1" required> 1 · Resuscitation</label>
        <label class="esi-2"><input type="radio" name="esi" value="2"> 2 · Emergent</label>
        <label class="esi-3"><input type="radio" name="esi" value="3"> 3 · Urgent</label>
        <label class="esi-4"><input type="radio" name="esi" value="4"> 4 · Less urgent</label>
        <label class="esi-5"><input type="radio" name="esi" value="5"> 5 · Non-urgent</label>
      </fieldset>
      <label for="retriage-reason">Reason <span class="muted">(optional)</span></label>
      <textarea id="retriage-reason" name="reason" rows="2" maxlength="500"></textarea>
      <div id="retriage-error" class="error" role="alert"></div>
      <div class="actions"><button type="button" class="secondary" id="retriage-cancel">Cancel</button><button type="submit" id="retriage-save">Save ESI level</button></div>
    </form>
  </dialog>
</main>
</div>
`;

/** The card's document, with the site's alarm settings (config.alarms) in its data. */
export function triageCard(alarms: AlarmSettings = DEFAULT_ALARM_SETTINGS): BuiltCard {
  return renderCard({
    name: 'emergency-triage-board',
    title: 'Emergency triage board',
    sources: 'triage',
    body: BODY,
    data: triageScriptData(alarms),
  });
}
