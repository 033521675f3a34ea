/**
 * appointment-booking-form in headless Chromium against a real gateway: slots created with the
 * domain service (as the seed does) and projected; the patient registered through REST. The
 * card lists the free slots of the chosen clinician and day, books one with the keyboard,
 * confirms it, and the slot is really booked (read back over REST); a slot taken behind the
 * card's back is refused plainly (409) and the list refreshed; cancelling frees the slot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { startGateway, type RunningGateway } from '../../helpers/gateway';
import { contrastIssues, eventually, inPage, launchBrowser, openPage, screenshot, type TestPage } from '../../helpers/browser';
import { api, openCard, registerPatient, runProjections, tokenFor, uid } from './support';

let gw: RunningGateway;
let projector: { stop: () => Promise<void> };
let browser: Browser;
let tp: TestPage;
let token: string;
let patient: string;
const CLINICIAN = 'clin-003'; // Dr. Mei Tanaka, from the catalog
// A day of our own far in the future: reruns and other tests never share it.
const dayMs = Date.UTC(2040 + Math.floor(Math.random() * 50), Math.floor(Math.random() * 12), 1 + Math.floor(Math.random() * 28), 9);
const DATE = new Date(dayMs).toISOString().slice(0, 10);
const starts = [0, 1, 2, 3].map((i) => new Date(dayMs + i * 1_800_000).toISOString());
const slotIds: string[] = [];

const slotTimes = () =>
  tp.page
    .locator('#slots label')
    .evaluateAll((ls) => ls.map((l) => (l as unknown as { firstChild: { textContent: string } }).firstChild.textContent));

beforeAll(async () => {
  gw = await startGateway();
  projector = runProjections(gw.deps.pool);
  for (const start of starts) {
    const s = await createSlot(gw.deps.pool, {
      clinicianId: CLINICIAN,
      appointmentType: 'consultation',
      start,
      end: new Date(Date.parse(start) + 1_800_000).toISOString(),
    });
    slotIds.push(s.id);
  }
  const writer = await tokenFor(gw, ['write:patients']);
  patient = await registerPatient(gw, writer, 'Hedy', `Booking${uid()}`);
  token = await tokenFor(gw, ['read:appointments', 'write:appointments']);
  // the slots are projected (GET /api/v1/appointments reads the projection)
  await eventually(
    async () =>
      (
        (await api(gw, token, 'GET', `/api/v1/appointments?clinician=${CLINICIAN}&from=${starts[0]}&status=free&limit=10`)).body.entry ?? []
      ).filter((e: { resource: { resourceType: string } }) => e.resource.resourceType === 'Slot').length,
    (n: number) => n >= 4,
    'the projected slots',
  );
  browser = await launchBrowser();
  tp = await openPage(browser);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await projector?.stop();
  await gw?.close();
});

describe('appointment-booking-form in a browser', () => {
  it('lists the free slots of the chosen clinician and day', async () => {
    expect(await openCard(tp.page, gw, 'appointment-booking-form', { token, patient, clinician: CLINICIAN, date: DATE })).toBe(200);
    expect(tp.page.url()).not.toContain('token');
    await eventually(slotTimes, (t) => t.length === 4, 'four free slots');
    expect(await slotTimes()).toEqual(['09:00', '09:30', '10:00', '10:30']);
    expect(await tp.page.locator('#clinician').inputValue()).toBe(CLINICIAN);
    expect(await tp.page.locator('#clinician option').count()).toBe(4); // the catalog's clinicians
    expect(await tp.page.locator('#patient').inputValue()).toBe(patient);
    expect(await tp.page.locator('#slots-legend').innerText()).toContain('Dr. Mei Tanaka');
    // every control has a label
    const unlabelled = await inPage<number>(
      tp.page,
      `Array.from(document.querySelectorAll('input:not([type=radio]),select,textarea')).filter((e) => !e.labels || e.labels.length === 0).length`,
    );
    expect(unlabelled).toBe(0);
    expect(await tp.page.locator('#book').isDisabled()).toBe(true);
  });

  it('books a slot chosen with the keyboard, confirms it, and the slot is really booked', async () => {
    await tp.page.locator('#slots input').first().focus();
    await tp.page.keyboard.press('ArrowRight'); // radio group: arrows move the choice to 09:30
    expect(await tp.page.locator('#slots input:checked').getAttribute('value')).toBe(slotIds[1]);
    await tp.page.locator('#reason').fill('Follow-up, persistent cough');
    expect(await tp.page.locator('#book').innerText()).toBe('Book 09:30 with Dr. Mei Tanaka');
    await tp.page.locator('#book').click();
    const box = tp.page.locator('#confirmation');
    await eventually(
      () => box.isVisible(),
      (v) => v,
      'the confirmation',
    );
    expect(await box.getAttribute('data-status')).toBe('booked');
    const text = await box.innerText();
    expect(text).toContain('Appointment booked');
    expect(text).toContain('09:30–10:00');
    expect(text).toContain('Dr. Mei Tanaka');
    const appointmentId = (await box.getAttribute('data-appointment'))!;
    expect(text).toContain(appointmentId);

    const read = await api(gw, token, 'GET', `/api/v1/appointments/${appointmentId}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      status: 'booked',
      start: starts[1],
      description: 'Follow-up, persistent cough',
      slot: [{ reference: `Slot/${slotIds[1]}` }],
    });
    expect(read.body.participant[0].actor.reference).toBe(`Patient/${patient}`);
    // the booked slot leaves the list once the projection has it
    await eventually(slotTimes, (t) => t.length === 3, 'three free slots after booking');
    expect(await slotTimes()).toEqual(['09:00', '10:00', '10:30']);
    expect(await tp.page.locator('#error').innerText()).toBe('');
    await screenshot(tp.page, 'ui-appointment-booking-form');
    // every visible text, including the alarm/ESI/allergy colours now on screen, is legible (WCAG AA)
    expect(await contrastIssues(tp.page)).toEqual([]);
    expect(tp.errors).toEqual([]);
  });

  it('refuses a slot taken meanwhile with a plain message and refreshes the list', async () => {
    await tp.page.locator(`#slots input[value="${slotIds[2]}"]`).check();
    const other = await tokenFor(gw, ['write:appointments']);
    const taken = await api(gw, other, 'POST', '/api/v1/appointments', { slot_id: slotIds[2], patient_id: patient });
    expect(taken.status).toBe(201);
    await tp.page.locator('#book').click();
    await eventually(
      () => tp.page.locator('#error').innerText(),
      (t) => t.includes('just booked by someone else'),
      'the conflict message',
    );
    expect(await tp.page.locator('#conn').getAttribute('data-state')).toBe('error');
    await eventually(slotTimes, (t) => t.length === 2, 'the taken slot gone from the list');
    expect(await slotTimes()).toEqual(['09:00', '10:30']);
    // the browser logs the refused request itself; nothing else may be logged
    expect(tp.errors.filter((e) => !/Failed to load resource.*409/.test(e))).toEqual([]);
  });

  it('cancels the booked appointment from the confirmation, freeing the slot', async () => {
    const box = tp.page.locator('#confirmation');
    const appointmentId = (await box.getAttribute('data-appointment'))!;
    await box.getByRole('button', { name: 'Cancel this appointment' }).click();
    await eventually(
      () => box.getAttribute('data-status'),
      (s) => s === 'cancelled',
      'the cancellation',
    );
    // a cancelled appointment is no longer an appointment (404); its slot is free again
    expect((await api(gw, token, 'GET', `/api/v1/appointments/${appointmentId}`)).status).toBe(404);
    await eventually(
      async () =>
        (
          (await api(gw, token, 'GET', `/api/v1/appointments?clinician=${CLINICIAN}&from=${starts[1]}&to=${starts[2]}`)).body.entry ?? []
        ).map((e: { resource: { id: string; status: string } }) => `${e.resource.id}:${e.resource.status}`),
      (l: string[]) => l.includes(`${slotIds[1]}:free`),
      'the slot free again',
    );
    expect(await box.innerText()).toContain('Appointment cancelled');
    // (the refused request of the previous test may be reported late: only that one is allowed)
    expect(tp.errors.filter((e) => !/Failed to load resource.*409/.test(e))).toEqual([]);
  });

  it('offers the next free day when the chosen day has none', async () => {
    const dayBefore = new Date(dayMs - 86_400_000).toISOString().slice(0, 10);
    await tp.page.locator('#date').fill(dayBefore);
    await eventually(
      () => tp.page.locator('#no-slots').isVisible(),
      (v) => v,
      'no free slots that day',
    );
    const next = tp.page.locator('#next-free');
    await eventually(
      () => next.isVisible(),
      (v) => v,
      'the next-free-day offer',
    );
    expect(await next.getAttribute('data-date')).toBe(DATE);
    await next.click();
    expect(await tp.page.locator('#date').inputValue()).toBe(DATE);
    await eventually(slotTimes, (t) => t.length > 0 && t[0] === '09:00', 'the slots of the next free day');
    expect(tp.errors.filter((e) => !/Failed to load resource.*409/.test(e))).toEqual([]);
  });
});
