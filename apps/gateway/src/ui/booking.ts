/**
 * appointment-booking-form: patient, clinician (catalog), date → the clinician's free slots that
 * day as a radio group (keyboard: arrows) → book → confirmation (with cancel). A slot taken in
 * the meantime (409) is said plainly and the list is re-read. With no free slot that day the
 * card offers the clinician's next free day.
 * REST: GET /api/v1/catalog/clinicians, GET /api/v1/appointments?clinician&from&to&status=free,
 * POST /api/v1/appointments, POST /api/v1/appointments/{id}/cancel.
 * MCP: find_available_slots, book_appointment, cancel_appointment (the clinician list is embedded).
 */
import { CLINICIANS } from '../catalog/data';
import { renderCard } from './shared';

const STYLE = `
.booking{display:grid;grid-template-columns:minmax(260px,340px) minmax(0,1fr);gap:12px}
@media (max-width:760px){.booking{grid-template-columns:1fr}}
.field{margin-bottom:12px}
.field input,.field select,.field textarea{width:100%}
.hint{font-size:.8rem;color:var(--muted);margin-top:2px}
fieldset{border:0;margin:0;padding:0;min-width:0}
legend{font-weight:650;font-size:1rem;margin-bottom:8px;padding:0}
.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(110px,1fr));gap:8px;margin-bottom:12px}
.slot{position:relative}
.slot input{position:absolute;opacity:0;width:1px;height:1px}
.slot label{display:block;margin:0;text-align:center;border:2px solid #8792a2;border-radius:8px;padding:8px 4px;font-weight:650;cursor:pointer;background:#fff;font-size:1rem}
.slot label .dur{display:block;font-weight:400;font-size:.75rem;color:var(--muted)}
.slot input:checked + label{background:var(--accent);border-color:var(--accent);color:#fff}
.slot input:checked + label .dur{color:#e8f0fa}
.slot input:focus-visible + label{outline:3px solid #f5a623;outline-offset:2px}
.none{color:var(--muted);margin:4px 0 12px}
.confirm{border:2px solid var(--ok);background:#eaf6ee;border-radius:8px;padding:12px 14px;margin-top:12px}
.confirm h2{margin:0 0 6px;font-size:1.05rem;color:#145128}
.confirm dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 10px}
.confirm dt{font-weight:600;color:var(--muted)}
.confirm dd{margin:0}
.confirm[data-status=cancelled]{border-color:#8792a2;background:#f1f3f6}
.confirm[data-status=cancelled] h2{color:var(--muted)}
.actions{display:flex;gap:8px;flex-wrap:wrap}
`;

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

const SCRIPT = String.raw`
(function () {
  'use strict';
  var V = window.Vitalis;
  var clinicianName = {};
  Array.from(V.$('#clinician').options).forEach(function (o) { clinicianName[o.value] = o.textContent.split(' · ')[0]; });
  var slotsById = new Map();
  var busy = false;
  // Slots this card booked: the list reads a projection (one tick behind), so a re-read right
  // after booking could still offer the slot just taken.
  var bookedHere = new Set();

  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function isoDate(d) { return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate()); }
  function dayRange(value) {
    var p = value.split('-').map(Number);
    var from = new Date(p[0], p[1] - 1, p[2]);
    var to = new Date(p[0], p[1] - 1, p[2] + 1);
    return { from: from.toISOString(), to: to.toISOString() };
  }
  /**
   * REST: a Bundle of FHIR Slot (+ Appointment), with the Schedules they belong to (search mode
   * include; a Schedule's actor is the clinician's Practitioner); MCP tool: { slots: [{ slot_id,
   * clinician_id, … }] }.
   */
  function slotsOf(body) {
    if (!body) return [];
    var list = body.entry ? body.entry.map(function (e) { return e.resource; }) : (body.slots || (Array.isArray(body) ? body : []));
    var practitionerOf = {};
    list.forEach(function (r) { if (r.resourceType === 'Schedule') practitionerOf['Schedule/' + r.id] = r.actor && r.actor[0] && r.actor[0].reference; });
    return list.filter(function (r) { return (!r.resourceType || r.resourceType === 'Slot') && r.status === 'free'; }).map(function (r) {
      var schedule = (r.schedule && r.schedule.reference) || '';
      return {
        id: r.id || r.slot_id, start: r.start, end: r.end, status: r.status,
        clinician: r.clinician_id || (practitionerOf[schedule] || schedule).replace(/^(Practitioner|Schedule)\//, ''),
      };
    });
  }
  function query(extra) {
    var q = new URLSearchParams({ clinician: V.$('#clinician').value, status: 'free' });
    Object.keys(extra).forEach(function (k) { q.set(k, extra[k]); });
    return q;
  }
  function find(args, q) {
    return V.op('find_available_slots', args, { path: '/api/v1/appointments?' + q });
  }

  function loadSlots(keepError) {
    var date = V.$('#date').value;
    if (!date) return Promise.resolve();
    var r = dayRange(date);
    var legend = V.$('#slots-legend');
    legend.textContent = 'Free slots · ' + V.fmtDate(r.from) + ' · ' + clinicianName[V.$('#clinician').value];
    if (keepError !== true) V.setStatus('Loading…', '');
    return find({ clinician_id: V.$('#clinician').value, from: r.from, to: r.to }, query({ from: r.from, to: r.to })).then(function (body) {
      if (keepError !== true) { V.showError(null); V.setStatus('Ready', 'live'); }
      renderSlots(slotsOf(body).filter(function (s) { return !bookedHere.has(s.id); }));
    }, function (err) { V.setStatus('Error', 'error'); V.showError(err); });
  }

  function renderSlots(slots) {
    var box = V.$('#slots');
    var checked = document.querySelector('input[name=slot]:checked');
    var keep = checked ? checked.value : null;
    box.textContent = '';
    slotsById.clear();
    slots.sort(function (a, b) { return Date.parse(a.start) - Date.parse(b.start); });
    slots.forEach(function (s, i) {
      slotsById.set(s.id, s);
      var id = 'slot-' + i;
      var minutes = Math.round((Date.parse(s.end) - Date.parse(s.start)) / 60000);
      var input = V.el('input', { type: 'radio', name: 'slot', id: id, value: s.id, 'data-start': s.start });
      var label = V.el('label', { for: id }, [document.createTextNode(V.fmtTime(s.start)), V.el('span', { class: 'dur', text: minutes + ' min' })]);
      box.append(V.el('div', { class: 'slot' }, [input, label]));
    });
    V.$('#no-slots').hidden = slots.length > 0;
    V.$('#book').disabled = true;
    V.$('#book').textContent = 'Book appointment';
    // a periodic re-read keeps the user's choice while the slot is still free
    var again = keep && box.querySelector('input[value="' + keep + '"]');
    if (again) { again.checked = true; again.dispatchEvent(new Event('change', { bubbles: true })); }
    var next = V.$('#next-free');
    next.hidden = true;
    if (!slots.length) offerNextFree();
  }

  function offerNextFree() {
    var r = dayRange(V.$('#date').value);
    find({ clinician_id: V.$('#clinician').value, from: r.to, limit: 1 }, query({ from: r.to, limit: '1' })).then(function (body) {
      var s = slotsOf(body)[0];
      if (!s) return;
      var next = V.$('#next-free');
      next.textContent = 'Next free day: ' + V.fmtDate(s.start);
      next.setAttribute('data-date', isoDate(new Date(s.start)));
      next.hidden = false;
    }, function () { /* optional hint */ });
  }

  V.$('#slots').addEventListener('change', function (e) {
    var s = slotsById.get(e.target.value);
    if (!s) return;
    var book = V.$('#book');
    book.disabled = busy;
    book.textContent = 'Book ' + V.fmtTime(s.start) + ' with ' + clinicianName[V.$('#clinician').value];
  });

  V.$('#next-free').addEventListener('click', function (e) {
    V.$('#date').value = e.currentTarget.getAttribute('data-date');
    loadSlots();
  });

  V.$('#book-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var chosen = document.querySelector('input[name=slot]:checked');
    var patient = V.$('#patient').value.trim();
    if (!chosen) return;
    if (!patient) { V.showError(new Error('Enter the patient id first.')); V.$('#patient').focus(); return; }
    var slot = slotsById.get(chosen.value);
    var reason = V.$('#reason').value.trim();
    var args = { slot_id: slot.id, patient_id: patient };
    if (reason) args.reason = reason;
    busy = true;
    V.$('#book').disabled = true;
    V.setStatus('Booking…', '');
    V.op('book_appointment', args, { method: 'POST', path: '/api/v1/appointments', body: args }).then(function (appt) {
      busy = false;
      V.showError(null);
      V.setStatus('Booked', 'live');
      bookedHere.add(slot.id);
      confirm(appt, slot, patient);
      loadSlots(true);
    }, function (err) {
      busy = false;
      V.setStatus('Not booked', 'error');
      V.showError(err.status === 409 ? new Error('That slot was just booked by someone else. The free slots have been refreshed: please choose another.') : err);
      if (err.status === 409) bookedHere.add(slot.id);
      loadSlots(true);
    });
  });

  function confirm(appt, slot, patient) {
    // REST: FHIR Appointment { id }; MCP tool: { appointment: { appointment_id } }
    appt = appt && appt.appointment ? appt.appointment : appt;
    var apptId = appt.id || appt.appointment_id;
    var box = V.$('#confirmation');
    box.textContent = '';
    box.setAttribute('data-status', appt.status || 'booked');
    box.setAttribute('data-appointment', apptId);
    var dl = V.el('dl', {}, [
      V.el('dt', { text: 'When' }), V.el('dd', { text: V.fmtDate(slot.start) + ', ' + V.fmtTime(slot.start) + '–' + V.fmtTime(slot.end) }),
      V.el('dt', { text: 'Clinician' }), V.el('dd', { text: clinicianName[slot.clinician] || V.$('#clinician').selectedOptions[0].textContent }),
      V.el('dt', { text: 'Patient' }), V.el('dd', { text: patient }),
      V.el('dt', { text: 'Reference' }), V.el('dd', { class: 'ref', text: apptId }),
    ]);
    var cancel = V.el('button', { type: 'button', class: 'secondary', text: 'Cancel this appointment' });
    cancel.addEventListener('click', function () {
      cancel.disabled = true;
      V.op('cancel_appointment', { appointment_id: apptId }, { method: 'POST', path: '/api/v1/appointments/' + encodeURIComponent(apptId) + '/cancel', body: {} }).then(function () {
        box.setAttribute('data-status', 'cancelled');
        box.querySelector('h2').textContent = 'Appointment cancelled';
        cancel.remove();
        bookedHere.delete(slot.id);
        loadSlots(true);
      }, function (err) { cancel.disabled = false; V.showError(err); });
    });
    box.append(V.el('h2', { text: 'Appointment booked' }), dl, V.el('div', { class: 'actions' }, [cancel]));
    box.hidden = false;
    box.focus();
  }

  function loadClinicians() {
    if (V.mode !== 'rest') return Promise.resolve();
    return V.rest('GET', '/api/v1/catalog/clinicians').then(function (body) {
      var sel = V.$('#clinician');
      var keep = sel.value;
      sel.textContent = '';
      (body.data || []).forEach(function (p) {
        var name = (p.name && p.name[0] && p.name[0].text) || p.id;
        var spec = p.qualification && p.qualification[0] && p.qualification[0].code && p.qualification[0].code.text;
        clinicianName[p.id] = name;
        sel.append(V.el('option', { value: p.id, text: name + (spec ? ' · ' + spec : '') }));
      });
      if (keep) sel.value = keep;
    }, function () { /* keep the embedded list */ });
  }

  // The agent's own find_available_slots result (pushed by the host): show those slots.
  V.onToolResult(function (r) { if (r && r.slots) renderSlots(slotsOf(r)); });
  V.$('#confirmation').setAttribute('tabindex', '-1');
  V.$('#patient').value = V.params.patient || '';
  V.$('#date').value = V.params.date || isoDate(new Date());
  V.$('#date').min = isoDate(new Date());
  V.$('#clinician').addEventListener('change', function () { loadSlots(); });
  V.$('#date').addEventListener('change', function () { loadSlots(); });
  // Others book too: re-read the day every 15 s while the page is visible.
  setInterval(function () { if (!busy && document.visibilityState === 'visible') loadSlots(true); }, 15000);
  V.$('#criteria').addEventListener('submit', function (e) { e.preventDefault(); loadSlots(); });
  loadClinicians().then(function () {
    if (V.params.clinician) V.$('#clinician').value = V.params.clinician;
    return loadSlots();
  });
})();
`;

export function bookingHtml(): string {
  return renderCard({ name: 'appointment-booking-form', title: 'Appointment booking', style: STYLE, body: body(), script: SCRIPT });
}
