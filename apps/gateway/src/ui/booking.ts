/**
 * appointment-booking-form: patient, clinician (catalog), date → the clinician's free slots that
 * day as a radio group (keyboard: arrows) → book → confirmation (with cancel). A slot taken in
 * the meantime (409) is said plainly and the list is re-read. With no free slot that day the
 * card offers the clinician's next free day.
 * REST: GET /api/v1/catalog/clinicians, GET /api/v1/appointments?clinician&from&to&status=free,
 * POST /api/v1/appointments, POST /api/v1/appointments/{id}/cancel.
 * MCP: find_available_slots, book_appointment, cancel_appointment (the clinician list is embedded).
 * Here: the markup; the browser code and style are cards/booking/ (main.ts, style.css).
 */
import { CLINICIANS } from '../catalog/data';
import { renderCard, type BuiltCard } from './shared';

function body(): string {
  const options = CLINICIANS.map((c) => `<option value="${c.id}">${c.name} · ${c.specialty}</option>`).join('');
  return `
<div class="card">
<header class="card-header">
  <h1>Book an appointment</h1>
  <span class="spacer"></span>
  <span class="pill" id="conn" role="status">Ready</span>
</header>
<main id="main">
  <div id="error" class="error" role="alert"></div>
  <div class="booking">
    <form class="panel" id="criteria" aria-label="Appointment criteria">
      <div class="field"><label for="patient">Patient id</label><input id="patient" name="patient" required autocomplete="off" spellcheck="false" aria-describedby="patient-hint"><div class="hint" id="patient-hint">For example pat-0001</div></div>
      <div class="field"><label for="clinician">Clinician</label><select id="clinician" name="clinician">${options}</select></div>
      <div class="field"><label for="date">Date</label><input id="date" name="date" type="date" required></div>
      <div class="field"><label for="reason">Reason for visit <span class="muted">(optional)</span></label><textarea id="reason" name="reason" rows="3" maxlength="500"></textarea></div>
    </form>
    <section class="panel" aria-labelledby="slots-legend">
      <form id="book-form">
        <fieldset>
          <legend id="slots-legend">Free slots</legend>
          <div class="slots" id="slots" role="radiogroup" aria-labelledby="slots-legend"></div>
          <p class="none" id="no-slots" hidden>No free slots on this day.</p>
          <div class="actions">
            <button type="submit" id="book" disabled>Book appointment</button>
            <button type="button" class="secondary" id="next-free" hidden>Next free day</button>
          </div>
        </fieldset>
      </form>
      <div id="confirmation" class="confirm" role="status" aria-live="polite" hidden></div>
    </section>
  </div>
</main>
</div>`;
}

export function bookingCard(): BuiltCard {
  return renderCard({ name: 'appointment-booking-form', title: 'Appointment booking', sources: 'booking', body: body() });
}
