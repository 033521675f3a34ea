/**
 * appointment-booking-form (browser code; markup and the embedded clinician list in
 * ../../booking.ts). Free slots of a clinician's day as a radio group, book, confirm, cancel; a
 * slot taken meanwhile (409) is said plainly and the list re-read; with no free slot that day the
 * card offers the clinician's next free day.
 */
import { must } from '../shared/must';
import { V } from '../shared/runtime';
import { startDelayBanner } from '../shared/delay-banner';
startDelayBanner(); // "Data delayed" banner while the vitals pipeline is late (docs/ui.md)

interface Slot {
  id: string;
  start: string;
  end: string;
  status: string;
  clinician: string;
}

const clinicianName: Record<string, string> = {};
Array.from(V.$<HTMLSelectElement>('#clinician').options).forEach((o) => {
  clinicianName[o.value] = (o.textContent || '').replace(/ · [\s\S]*/, ''); // the name before its details
});
const slotsById = new Map<string, Slot>();
let busy = false;
// Slots this card booked: the list reads a projection (one tick behind), so a re-read right
// after booking could still offer the slot just taken.
const bookedHere = new Set<string>();

const input = (sel: string) => V.$<HTMLInputElement>(sel);
const clinician = () => V.$<HTMLSelectElement>('#clinician');

function pad(n: number): string {
  return (n < 10 ? '0' : '') + n;
}
function isoDate(d: Date): string {
  return d.getFullYear() + '-' + pad(d.getMonth() + 1) + '-' + pad(d.getDate());
}
function dayRange(value: string): { from: string; to: string } {
  const p = value.split('-').map(Number) as [number, number, number];
  const from = new Date(p[0], p[1] - 1, p[2]);
  const to = new Date(p[0], p[1] - 1, p[2] + 1);
  return { from: from.toISOString(), to: to.toISOString() };
}
/** REST: a Bundle of FHIR Slot (+ Appointment); MCP tool: { slots: [{ slot_id, clinician_id, … }] }. */
/**
 * REST: a Bundle of FHIR Slot (+ Appointment), with the Schedules they belong to (search mode
 * include; a Schedule's actor is the clinician's Practitioner); MCP tool: { slots: [{ slot_id,
 * clinician_id, … }] }.
 */
function slotsOf(body: any): Slot[] {
  if (!body) return [];
  const list: any[] = body.entry ? body.entry.map((e: any) => e.resource) : body.slots || (Array.isArray(body) ? body : []);
  const practitionerOf: Record<string, string | undefined> = {};
  list.forEach((r) => {
    if (r.resourceType === 'Schedule') practitionerOf['Schedule/' + r.id] = r.actor && r.actor[0] && r.actor[0].reference;
  });
  return list
    .filter((r) => (!r.resourceType || r.resourceType === 'Slot') && r.status === 'free')
    .map((r) => {
      const schedule: string = (r.schedule && r.schedule.reference) || '';
      return {
        id: r.id || r.slot_id,
        start: r.start,
        end: r.end,
        status: r.status,
        clinician: r.clinician_id || (practitionerOf[schedule] || schedule).replace(/^(Practitioner|Schedule)\//, ''),
      };
    });
}
function query(extra: Record<string, string>): URLSearchParams {
  const q = new URLSearchParams({ clinician: clinician().value, status: 'free' });
  Object.entries(extra).forEach(([k, v]) => q.set(k, v));
  return q;
}
function find(args: Record<string, unknown>, q: URLSearchParams): Promise<any> {
  return V.op('find_available_slots', args, { path: '/api/v1/appointments?' + q });
}

function loadSlots(keepError?: boolean): Promise<void> {
  const date = input('#date').value;
  if (!date) return Promise.resolve();
  const r = dayRange(date);
  const legend = V.$('#slots-legend');
  legend.textContent = 'Free slots · ' + V.fmtDate(r.from) + ' · ' + clinicianName[clinician().value];
  if (keepError !== true) V.setStatus('Loading…', '');
  return find({ clinician_id: clinician().value, from: r.from, to: r.to }, query({ from: r.from, to: r.to })).then(
    (body) => {
      if (keepError !== true) {
        V.showError(null);
        V.setStatus('Ready', 'live');
      }
      renderSlots(slotsOf(body).filter((s) => !bookedHere.has(s.id)));
    },
    (err) => {
      V.setStatus('Error', 'error');
      V.showError(err);
    },
  );
}

function renderSlots(slots: Slot[]): void {
  const box = V.$('#slots');
  const checked = document.querySelector<HTMLInputElement>('input[name=slot]:checked');
  const keep = checked ? checked.value : null;
  box.textContent = '';
  slotsById.clear();
  slots.sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  slots.forEach((s, i) => {
    slotsById.set(s.id, s);
    const id = 'slot-' + i;
    const minutes = Math.round((Date.parse(s.end) - Date.parse(s.start)) / 60000);
    const radio = V.el('input', { type: 'radio', name: 'slot', id: id, value: s.id, 'data-start': s.start });
    const label = V.el('label', { for: id }, [
      document.createTextNode(V.fmtTime(s.start)),
      V.el('span', { class: 'dur', text: minutes + ' min' }),
    ]);
    box.append(V.el('div', { class: 'slot' }, [radio, label]));
  });
  V.$('#no-slots').hidden = slots.length > 0;
  V.$<HTMLButtonElement>('#book').disabled = true;
  V.$('#book').textContent = 'Book appointment';
  // a periodic re-read keeps the user's choice while the slot is still free
  const again = keep && box.querySelector<HTMLInputElement>('input[value="' + keep + '"]');
  if (again) {
    again.checked = true;
    again.dispatchEvent(new Event('change', { bubbles: true }));
  }
  V.$('#next-free').hidden = true;
  if (!slots.length) offerNextFree();
}

function offerNextFree(): void {
  const r = dayRange(input('#date').value);
  find({ clinician_id: clinician().value, from: r.to, limit: 1 }, query({ from: r.to, limit: '1' })).then(
    (body) => {
      const s = slotsOf(body)[0];
      if (!s) return;
      const next = V.$('#next-free');
      next.textContent = 'Next free day: ' + V.fmtDate(s.start);
      next.setAttribute('data-date', isoDate(new Date(s.start)));
      next.hidden = false;
    },
    () => {
      /* optional hint */
    },
  );
}

V.$('#slots').addEventListener('change', (e) => {
  const s = slotsById.get((e.target as HTMLInputElement).value);
  if (!s) return;
  const book = V.$<HTMLButtonElement>('#book');
  book.disabled = busy;
  book.textContent = 'Book ' + V.fmtTime(s.start) + ' with ' + clinicianName[clinician().value];
});

V.$('#next-free').addEventListener('click', (e) => {
  input('#date').value = (e.currentTarget as HTMLElement).getAttribute('data-date') || '';
  loadSlots();
});

V.$('#book-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const chosen = document.querySelector<HTMLInputElement>('input[name=slot]:checked');
  const patient = input('#patient').value.trim();
  if (!chosen) return;
  if (!patient) {
    V.showError(new Error('Enter the patient id first.'));
    input('#patient').focus();
    return;
  }
  const slot = must(slotsById.get(chosen.value), 'the slot of the chosen option');
  const reason = V.$<HTMLTextAreaElement>('#reason').value.trim();
  const args: Record<string, unknown> = { slot_id: slot.id, patient_id: patient };
  if (reason) args.reason = reason;
  busy = true;
  V.$<HTMLButtonElement>('#book').disabled = true;
  V.setStatus('Booking…', '');
  V.op('book_appointment', args, { method: 'POST', path: '/api/v1/appointments', body: args }).then(
    (appt) => {
      busy = false;
      V.showError(null);
      V.setStatus('Booked', 'live');
      bookedHere.add(slot.id);
      confirm(appt, slot, patient);
      loadSlots(true);
    },
    (err) => {
      busy = false;
      V.setStatus('Not booked', 'error');
      V.showError(
        err.status === 409
          ? new Error('That slot was just booked by someone else. The free slots have been refreshed: please choose another.')
          : err,
      );
      if (err.status === 409) bookedHere.add(slot.id);
      loadSlots(true);
    },
  );
});

function confirm(appt: any, slot: Slot, patient: string): void {
  // REST: FHIR Appointment { id }; MCP tool: { appointment: { appointment_id } }
  appt = appt && appt.appointment ? appt.appointment : appt;
  const apptId: string = appt.id || appt.appointment_id;
  const box = V.$('#confirmation');
  box.textContent = '';
  box.setAttribute('data-status', appt.status || 'booked');
  box.setAttribute('data-appointment', apptId);
  const dl = V.el('dl', {}, [
    V.el('dt', { text: 'When' }),
    V.el('dd', { text: V.fmtDate(slot.start) + ', ' + V.fmtTime(slot.start) + '–' + V.fmtTime(slot.end) }),
    V.el('dt', { text: 'Clinician' }),
    V.el('dd', { text: clinicianName[slot.clinician] || must(clinician().selectedOptions[0], 'the selected clinician').textContent }),
    V.el('dt', { text: 'Patient' }),
    V.el('dd', { text: patient }),
    V.el('dt', { text: 'Reference' }),
    V.el('dd', { class: 'ref', text: apptId }),
  ]);
  const cancel = V.el('button', { type: 'button', class: 'secondary', text: 'Cancel this appointment' });
  cancel.addEventListener('click', () => {
    cancel.disabled = true;
    V.op(
      'cancel_appointment',
      { appointment_id: apptId },
      { method: 'POST', path: '/api/v1/appointments/' + encodeURIComponent(apptId) + '/cancel', body: {} },
    ).then(
      () => {
        box.setAttribute('data-status', 'cancelled');
        must(box.querySelector('h2'), "the confirmation's heading").textContent = 'Appointment cancelled';
        cancel.remove();
        bookedHere.delete(slot.id);
        loadSlots(true);
      },
      (err) => {
        cancel.disabled = false;
        V.showError(err);
      },
    );
  });
  box.append(V.el('h2', { text: 'Appointment booked' }), dl, V.el('div', { class: 'actions' }, [cancel]));
  box.hidden = false;
  box.focus();
}

function loadClinicians(): Promise<void> {
  if (V.mode !== 'rest') return Promise.resolve();
  return V.rest('GET', '/api/v1/catalog/clinicians').then(
    (body) => {
      const sel = clinician();
      const keep = sel.value;
      sel.textContent = '';
      (body.data || []).forEach((p: any) => {
        const name = (p.name && p.name[0] && p.name[0].text) || p.id;
        const spec = p.qualification && p.qualification[0] && p.qualification[0].code && p.qualification[0].code.text;
        clinicianName[p.id] = name;
        sel.append(V.el('option', { value: p.id, text: name + (spec ? ' · ' + spec : '') }));
      });
      if (keep) sel.value = keep;
    },
    () => {
      /* keep the embedded list */
    },
  );
}

// The agent's own find_available_slots result (pushed by the host): show those slots.
V.onToolResult((r) => {
  if (r && r.slots) renderSlots(slotsOf(r));
});
V.$('#confirmation').setAttribute('tabindex', '-1');
input('#patient').value = V.params.patient || '';
input('#date').value = V.params.date || isoDate(new Date());
input('#date').min = isoDate(new Date());
clinician().addEventListener('change', () => loadSlots());
input('#date').addEventListener('change', () => loadSlots());
// Others book too: re-read the day every 15 s while the page is visible.
setInterval(() => {
  if (!busy && document.visibilityState === 'visible') loadSlots(true);
}, 15000);
V.$('#criteria').addEventListener('submit', (e) => {
  e.preventDefault();
  loadSlots();
});
loadClinicians().then(() => {
  if (V.params.clinician) clinician().value = V.params.clinician;
  return loadSlots();
});
