/**
 * Bedside alarm notices on the clinical channel (issue 31): the hub hands an acknowledged, escalated
 * or watchdog alarm notice to the subscribers of its patient that asked for alarms, as an `alarm`
 * message without an id (the resume position stays the vitals'), and critical-result notices only
 * to those that asked for those. The transports' wire forms: SSE `event: alarm`, WebSocket
 * `{"type":"alarm",…}`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeAlarmNotice, encodeCriticalNotice } from '@vitalis/live';
import { frame } from '../../../apps/gateway/src/live/sse';
import { wireMessage } from '../../../apps/gateway/src/live/ws';
import type { LiveMessage } from '../../../apps/gateway/src/vitals/hub';
import { closeHubs, observation, rig, settle, until } from './support';

afterEach(closeHubs);

const ack = (patient: string) =>
  encodeAlarmNotice({
    v: 1,
    kind: 'alarm',
    patient_id: patient,
    event: 'VitalsAlertAcknowledged',
    data: { alert_id: 'a-1', rule: 'spo2-low', by: { user: 'usr-1', name: 'Ann', client_id: 'cli_x' }, at: '2026-11-25T08:00:40.000Z' },
  });
const critical = (patient: string) =>
  encodeCriticalNotice({ v: 1, kind: 'critical-result', patient_id: patient, event: 'CriticalResultRaised', data: { report_id: 'dr-1' } });

describe('alarm notices', () => {
  it("reach the patient's subscribers that asked for alarms, without an id, between the vitals events", async () => {
    const { channel, commit, open } = await rig();
    const { sink: both } = await open({ patients: ['p1'], alarms: true, criticalResults: true });
    const { sink: vitalsOnly } = await open({ patients: ['p1'] });
    const { sink: other } = await open({ patients: ['p2'], alarms: true });
    commit(0, [observation('p1', 0, 1)]);
    channel.handlers!.critical!(ack('p1'));
    channel.handlers!.critical!(critical('p1'));
    commit(0, [observation('p1', 0, 2)]);
    await until(() => both.messages.length === 4, 'two events and two notices');
    await settle();
    expect(both.messages.map((m) => m.type)).toEqual(['observation', 'alarm', 'critical-result', 'observation']);
    expect(both.ids).toEqual(['0-1', '0-2']);
    const alarm = both.messages[1] as Extract<LiveMessage, { type: 'alarm' }>;
    expect(alarm.event).toBe('VitalsAlertAcknowledged');
    expect(alarm.data).toMatchObject({
      alert_id: 'a-1',
      patient_id: 'p1',
      event: 'VitalsAlertAcknowledged',
      by: { user: 'usr-1', name: 'Ann' },
    });
    expect(JSON.parse(alarm.json)).toEqual(alarm.data);
    // a subscriber that did not ask for alarms (or for critical results) gets neither; another patient's nothing
    expect(vitalsOnly.messages.map((m) => m.type)).toEqual(['observation', 'observation']);
    expect(other.messages).toEqual([]);
  });

  it('a malformed or foreign message on the channel is ignored', async () => {
    const { channel, open } = await rig();
    const { sink } = await open({ patients: ['p1'], alarms: true, criticalResults: true });
    channel.handlers!.critical!('not json');
    channel.handlers!.critical!(JSON.stringify({ v: 1, kind: 'something-else', patient_id: 'p1', event: 'X', data: {} }));
    channel.handlers!.critical!(JSON.stringify({ v: 2, kind: 'alarm', patient_id: 'p1', event: 'VitalsAlertAcknowledged', data: {} }));
    await settle();
    expect(sink.messages).toEqual([]);
  });

  it('SSE writes `event: alarm` with no id; WebSocket a {"type":"alarm"} message naming the event', () => {
    const data = { alert_id: 'a-1', patient_id: 'p1', event: 'VitalsAlertAcknowledged' };
    const m: LiveMessage = { type: 'alarm', event: 'VitalsAlertAcknowledged', data, json: JSON.stringify(data) };
    expect(frame(m)).toBe(`event: alarm\ndata: ${JSON.stringify(data)}\n\n`);
    expect(JSON.parse(wireMessage('s1', m))).toEqual({ type: 'alarm', sub: 's1', event: 'VitalsAlertAcknowledged', data });
  });
});
