/**
 * The cards inside an MCP Apps host: a test host page (on the gateway's origin, so the card's
 * `frame-ancestors 'self'` admits it) renders each card in an iframe and answers the card's
 * postMessage JSON-RPC as a real host does: `ui/initialize`, then every `tools/call` forwarded to
 * the REAL MCP server at /.well-known/mcp through the SDK's own Client (Streamable HTTP, Bearer
 * token), and `ui/notifications/tool-input` / `tool-result` pushed to the card. Data is produced
 * for real (Kafka → ingest → live stage; REST writes; projections).
 *
 * Runs when the gateway serves the MCP server (part A of issue 7); skipped on a tree without it.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSlot } from '../../../apps/gateway/src/appointments/service';
import { startRig, waitFor, type LiveRig } from '../live/support';
import { countStored } from '../vitals/support';
import { eventually, launchBrowser, screenshot } from '../../helpers/browser';
import { openInMcpHost } from '../../helpers/mcp-host';
import { api, ecgChunk, registerPatient, runProjections, tokenFor, uid, vital } from './support';

const HAS_MCP = existsSync('apps/gateway/src/mcp/index.ts');

let rig: LiveRig;
let projector: { stop: () => Promise<void> };
let browser: Browser;
let mcp: Client;
let writer: string;
const calls: string[] = [];

/** Opens `card` in the test MCP host; its tools/call go to the real MCP server through the SDK client. */
const host = (card: string, fragment = '') =>
  openInMcpHost(
    browser,
    rig.gw.url,
    card,
    async (name, args) => {
      calls.push(name);
      return mcp.callTool({ name, arguments: args });
    },
    { fragment },
  );

beforeAll(async () => {
  if (!HAS_MCP) return;
  rig = await startRig('ui-mcp-host');
  projector = runProjections(rig.pool);
  writer = await tokenFor(rig.gw, ['write:patients', 'read:patients', 'write:triage']);
  const token = await tokenFor(rig.gw, ['read:patients', 'read:vitals', 'read:appointments', 'write:appointments', 'write:triage']);
  const transport = new StreamableHTTPClientTransport(new URL(`${rig.gw.url}/.well-known/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  mcp = new Client({ name: 'vitalis-test-host', version: '1.0.0' }, { capabilities: {} });
  await mcp.connect(transport);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mcp?.close();
  await projector?.stop();
  await rig?.close();
});

describe.skipIf(!HAS_MCP)('the cards inside an MCP Apps host, calling the real MCP server', () => {
  it('vitals-telemetry-monitor: the patient from tool-input, every value produced through Kafka via get_vitals_history', async () => {
    const patient = await registerPatient(rig.gw, writer, 'Iris', `McpMonitor${uid()}`);
    const { tp, frame } = await host('vitals-telemetry-monitor');
    await tp.page.evaluate(`window.pushToolInput(${JSON.stringify({ patient_id: patient })})`);
    await eventually(
      () => frame.locator('#patient-label').innerText(),
      (t) => t.includes('Iris McpMonitor'),
      'the patient name from get_patient',
    );
    const device = `mcp-mon-${uid()}`;
    const ecgDevice = `mcp-ecg-${uid()}`;
    const now = Date.now();
    await rig.send(patient, [
      vital(patient, device, 0, new Date(now), '8867-4', 64),
      vital(patient, device, 1, new Date(now + 1), '59408-5', 97),
      vital(patient, device, 2, new Date(now + 2), '8480-6', 121),
      vital(patient, device, 3, new Date(now + 3), '8462-4', 79),
      // two consecutive seconds of ECG: every chunk is read, not only the latest (the card keeps at
      // most 2 s queued, so a bigger burst would be trimmed on purpose)
      ...[0, 1].map((i) => ecgChunk(patient, ecgDevice, i, new Date(now + i * 1000))),
      vital(patient, device, 4, new Date(now + 4), '59408-5', 95),
    ]);
    await eventually(
      () => frame.locator('#v-bp').innerText(),
      (t) => t === '121/79',
      'the blood pressure via get_vitals_history',
    );
    expect(await frame.locator('#v-8867-4').innerText()).toBe('64');
    await eventually(
      () => frame.locator('#v-59408-5').innerText(),
      (t) => t === '95',
      'the newest SpO2',
    );
    // both SpO2 values are trend points (history, not only the latest), however the reads interleave
    await eventually(
      async () => Number(await frame.locator('#spo2-trend').getAttribute('data-points')),
      (n) => n === 2,
      'both SpO2 values on the trend',
    );
    await eventually(
      async () => Number(await frame.locator('#ecg').getAttribute('data-drawn')),
      (n) => n >= 500,
      'both ECG chunks drawn',
    );
    expect(calls).toEqual(expect.arrayContaining(['get_latest_vitals', 'get_vitals_history']));
    expect(calls).toContain('get_patient');
    await screenshot(tp.page, 'ui-mcp-vitals-telemetry-monitor');
    expect(tp.errors).toEqual([]);
  });

  it('vitals-telemetry-monitor opened on a patient already sending: the trends hold the last seconds, not only the latest values', async () => {
    // get_latest_vitals at open gives the newest value of each code; the polls must still read what
    // came before it (the card once polled only what was newer than the newest value it had seen)
    const patient = await registerPatient(rig.gw, writer, 'Ada', `McpOpened${uid()}`);
    const device = `mcp-open-${uid()}`;
    const now = Date.now();
    await rig.send(patient, [
      vital(patient, device, 0, new Date(now - 3_000), '59408-5', 97),
      vital(patient, device, 1, new Date(now - 3_000), '8480-6', 118),
      vital(patient, device, 2, new Date(now - 3_000), '8462-4', 76),
      vital(patient, device, 3, new Date(now - 1_000), '59408-5', 95),
      vital(patient, device, 4, new Date(now - 1_000), '8480-6', 121),
      vital(patient, device, 5, new Date(now - 1_000), '8462-4', 79),
    ]);
    await waitFor(
      () => countStored(rig.pool, { patient }),
      (c) => c.rows === 6,
      45_000,
      'the six values stored',
    );
    const { tp, frame } = await host('vitals-telemetry-monitor');
    await tp.page.evaluate(`window.pushToolInput(${JSON.stringify({ patient_id: patient })})`);
    await eventually(
      () => frame.locator('#v-bp').innerText(),
      (t) => t === '121/79',
      'the newest blood pressure',
    );
    expect(await frame.locator('#v-59408-5').innerText()).toBe('95');
    await eventually(
      async () => [
        Number(await frame.locator('#spo2-trend').getAttribute('data-points')),
        Number(await frame.locator('#bp-trend').getAttribute('data-points')),
      ],
      ([spo2, bp]) => spo2 === 2 && bp === 4,
      'both SpO2 values and both blood pressures on the trends',
    );
    // every poll reads the last seconds again: two more polls, and no value is drawn twice
    const polls = () => calls.filter((c) => c === 'get_vitals_history').length;
    const before = polls();
    await eventually(
      async () => polls(),
      (n) => n >= before + 2,
      'two more polls',
    );
    expect(Number(await frame.locator('#spo2-trend').getAttribute('data-points'))).toBe(2);
    expect(await frame.locator('#v-59408-5').innerText()).toBe('95');
    expect(tp.errors).toEqual([]);
  });

  it('emergency-triage-board: the board from get_triage_board, re-triage through set_triage_level', async () => {
    const patient = await registerPatient(rig.gw, writer, 'Jonas', `McpTriage${uid()}`);
    expect(
      (await api(rig.gw, writer, 'POST', '/api/v1/triage', { patient_id: patient, esi: 2, complaint: 'Chest pain on exertion' })).status,
    ).toBe(201);
    const { tp, frame } = await host('emergency-triage-board');
    const row = frame.locator(`#rows tr[data-patient="${patient}"]`);
    await eventually(
      () => row.count(),
      (n) => n === 1,
      'the admitted patient on the board',
    );
    expect(await row.getAttribute('data-esi')).toBe('2');
    expect(await row.innerText()).toContain('Chest pain on exertion');
    expect(calls).toContain('get_triage_board');
    // re-triage from the board: set_triage_level with the version read (expected_version)
    await row.getByRole('button', { name: /^Re-triage Jonas/ }).click();
    await frame.locator('#retriage input[value="1"]').check();
    await frame.locator('#retriage-save').click();
    await eventually(
      () => row.getAttribute('data-esi'),
      (e) => e === '1',
      'ESI 1 via set_triage_level',
    );
    expect(calls).toContain('set_triage_level');
    await api(rig.gw, writer, 'POST', `/api/v1/triage/${patient}/discharge`);
    expect(tp.errors).toEqual([]);
  });

  it('appointment-booking-form: find_available_slots, then book_appointment; the slot is really booked', async () => {
    const patient = await registerPatient(rig.gw, writer, 'Kemal', `McpBooking${uid()}`);
    const day = Date.UTC(2040 + Math.floor(Math.random() * 50), Math.floor(Math.random() * 12), 1 + Math.floor(Math.random() * 28), 14);
    const slot = await createSlot(rig.gw.deps.pool, {
      clinicianId: 'clin-002',
      appointmentType: 'consultation',
      start: new Date(day).toISOString(),
      end: new Date(day + 1_800_000).toISOString(),
    });
    const reader = await tokenFor(rig.gw, ['read:appointments']);
    await eventually(
      async () =>
        (
          (
            await api(
              rig.gw,
              reader,
              'GET',
              `/api/v1/appointments?clinician=clin-002&from=${new Date(day).toISOString()}&status=free&limit=1`,
            )
          ).body.entry ?? []
        ).filter((e: { resource: { resourceType: string } }) => e.resource.resourceType === 'Slot').length,
      (n: number) => n === 1,
      'the projected slot',
    );
    const { tp, frame } = await host(
      'appointment-booking-form',
      new URLSearchParams({ patient, clinician: 'clin-002', date: new Date(day).toISOString().slice(0, 10) }).toString(),
    );
    await eventually(
      () => frame.locator('#slots input').count(),
      (n) => n === 1,
      'the free slot via find_available_slots',
    );
    await frame.locator('#slots label').first().click();
    await frame.locator('#book').click();
    const box = frame.locator('#confirmation');
    await eventually(
      () => box.getAttribute('data-status'),
      (s) => s === 'booked',
      'the confirmation via book_appointment',
    );
    const id = (await box.getAttribute('data-appointment'))!;
    expect(id.startsWith(`${slot.id}.`)).toBe(true);
    const read = await api(rig.gw, reader, 'GET', `/api/v1/appointments/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.participant[0].actor.reference).toBe(`Patient/${patient}`);
    expect(calls).toEqual(expect.arrayContaining(['find_available_slots', 'book_appointment']));
    await screenshot(tp.page, 'ui-mcp-appointment-booking-form');
    expect(tp.errors).toEqual([]);
  });

  it('patient-search-card: search_patients and get_patient show the allergy', async () => {
    const family = `McpSearch${uid()}`;
    const patient = await registerPatient(rig.gw, writer, 'Lena', family);
    expect(
      (await api(rig.gw, writer, 'POST', `/api/v1/patients/${patient}/allergies`, { code: { text: 'Sulfonamides' }, criticality: 'high' }))
        .status,
    ).toBe(201);
    await eventually(
      async () => ((await api(rig.gw, writer, 'GET', `/api/v1/patients?name=${family}`)).body.entry ?? []).length,
      (n: number) => n === 1,
      'the projected patient',
    );
    const { tp, frame } = await host('patient-search-card');
    // 1. the agent's own search_patients call, pushed by the host as the tool the card is shown for:
    //    the single match is listed and opened (get_patient through the host)
    const pushed = await mcp.callTool({ name: 'search_patients', arguments: { name: family } });
    await tp.page.evaluate(`window.pushToolInput(${JSON.stringify({ name: family })}); window.pushToolResult(${JSON.stringify(pushed)})`);
    await eventually(
      () => frame.locator('#allergy-banner').innerText(),
      (t) => t === 'Allergy alert: Sulfonamides',
      'the pushed result opened, with the allergy',
    );
    expect(await frame.locator('#q').inputValue()).toBe(family);
    expect(await frame.locator('#results button').count()).toBe(1);
    // 2. the user searching in the card calls search_patients itself
    const before = calls.filter((c) => c === 'search_patients').length;
    await frame.getByRole('button', { name: 'Search', exact: true }).click();
    await eventually(
      () => Promise.resolve(calls.filter((c) => c === 'search_patients').length),
      (n) => n === before + 1,
      'the card calling search_patients',
    );
    await eventually(
      () => frame.locator('#result-count').innerText(),
      (t) => t === '1 patient found.',
      'the result via search_patients',
    );
    await frame.locator('#results button').first().click();
    await eventually(
      () => frame.locator('#record').getAttribute('data-patient'),
      (p) => p === patient,
      'the record via get_patient',
    );
    expect(await frame.locator('#record-h').innerText()).toBe(`Lena ${family}`);
    expect(calls).toEqual(expect.arrayContaining(['search_patients', 'get_patient']));
    expect(tp.errors).toEqual([]);
  });
});
