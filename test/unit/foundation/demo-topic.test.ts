/** The demo-topic check's rule (test/helpers/demo-topic.ts): only the demo simulator's records pass. */
import { describe, expect, it } from 'vitest';
import { strangerReason } from '../../helpers/demo-topic';

const frame = (patient: string, device: string) =>
  JSON.stringify({
    envelope: 'vitals.frame.v1',
    patient_id: patient,
    device_id: device,
    effective_at: '2026-11-28T00:00:00Z',
    observations: [],
  });

describe('demo topic check', () => {
  it("passes the simulator's frames and single observations", () => {
    expect(strangerReason('pat-0001', frame('pat-0001', 'pat-0001-monitor'))).toBeUndefined();
    expect(strangerReason('pat-0020', JSON.stringify({ patient_id: 'pat-0020', device_id: 'pat-0020-ecg', seq: 1 }))).toBeUndefined();
  });

  it("names a test's record: another key, another device, a mismatched patient, or not JSON", () => {
    expect(strangerReason('pat-test-1', frame('pat-test-1', 'pat-test-1-monitor'))).toMatch(/^key/);
    expect(strangerReason('pat-0001', JSON.stringify({ patient_id: 'pat-0001', device_id: 'fuzz-device', seq: 1 }))).toMatch(/^device/);
    expect(strangerReason('pat-0001', frame('pat-0002', 'pat-0002-monitor'))).toMatch(/^patient/);
    expect(strangerReason('pat-0001', '{not json')).toBe('a value that is not JSON');
    expect(strangerReason(null, null)).toMatch(/^key/);
  });
});
