/**
 * The re-triage dialog (set_triage_level / PUT /api/v1/triage/{id}/esi) for write:triage holders: a
 * modal with the ESI levels and a reason, guarded by the version read with the board (If-Match /
 * expected_version), the focus back on the row's button when it closes.
 */
import { must } from '../shared/must';
import { V } from '../shared/runtime';
import type { Entry } from './entry';

const canRetriage = V.mayUse(['write:triage']);
let editing: { entry: Entry; opener: HTMLElement } | null = null;
/** The row's Re-triage button, for write:triage holders (null for others). */
export function retriageButton(e: Entry): HTMLButtonElement | null {
  if (!canRetriage) return null;
  const b = V.el('button', {
    type: 'button',
    class: 'secondary retriage',
    'aria-label': 'Re-triage ' + (e.name || e.patient_id),
    text: 'Re-triage',
  });
  b.addEventListener('click', () => openRetriage(e, b));
  return b;
}
function openRetriage(e: Entry, opener: HTMLElement): void {
  editing = { entry: e, opener: opener };
  V.$('#retriage-h').textContent = 'Re-triage ' + (e.name || e.patient_id);
  const current = document.querySelector<HTMLInputElement>('#retriage input[value="' + e.esi + '"]');
  if (current) current.checked = true;
  V.$<HTMLTextAreaElement>('#retriage-reason').value = '';
  V.$('#retriage-error').textContent = '';
  V.$<HTMLButtonElement>('#retriage-save').disabled = false;
  V.$<HTMLDialogElement>('#retriage').showModal();
  if (current) current.focus();
}
function closeRetriage(): void {
  V.$<HTMLDialogElement>('#retriage').close();
  const id = editing && editing.entry.patient_id;
  editing = null;
  const again = id && document.querySelector<HTMLElement>('#rows tr[data-patient="' + id + '"] .retriage');
  if (again) again.focus();
}
/** Wires the dialog's buttons and form; `refresh` re-reads the board after a change or a refusal. */
export function wireRetriage(refresh: () => void): void {
  V.$('#retriage-cancel').addEventListener('click', closeRetriage);
  V.$('#retriage').addEventListener('cancel', (ev) => {
    ev.preventDefault();
    closeRetriage();
  });
  V.$('#retriage-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!editing) return;
    const e = editing.entry;
    const esi = Number(must(document.querySelector<HTMLInputElement>('#retriage input[name=esi]:checked'), 'the checked ESI level').value);
    const reason = V.$<HTMLTextAreaElement>('#retriage-reason').value.trim();
    const args: Record<string, unknown> = { patient_id: e.patient_id, esi: esi, expected_version: e.version };
    const body: Record<string, unknown> = { esi: esi };
    if (reason) {
      args.reason = reason;
      body.reason = reason;
    }
    V.$<HTMLButtonElement>('#retriage-save').disabled = true;
    // The version read with the board guards the change: someone else's change meanwhile is refused.
    V.op('set_triage_level', args, {
      method: 'PUT',
      path: '/api/v1/triage/' + encodeURIComponent(e.patient_id) + '/esi',
      body: body,
      headers: { 'if-match': '"' + e.version + '"' },
    }).then(
      () => {
        V.$('#announce').textContent = (e.name || e.patient_id) + ' set to ESI ' + esi + '.';
        closeRetriage();
        refresh();
      },
      (err) => {
        V.$<HTMLButtonElement>('#retriage-save').disabled = false;
        V.$('#retriage-error').textContent =
          err.status === 412 || err.status === 409
            ? 'Someone changed this patient’s triage meanwhile. Close, check the refreshed board, and try again.'
            : err.message || String(err);
        refresh();
      },
    );
  });
}
