/**
 * Stream names `<category>-<id>`: the category cannot hold `-`, so names of different categories
 * never collide, whatever the ids (the old alert stream `patient-alerts-<id>` was also the record
 * stream of patient `alerts-<id>`).
 */
import { describe, expect, it } from 'vitest';
import { STREAM_CATEGORIES, StreamNameError, parseStreamName, streamCategory, streamIdIn, streamName } from '@vitalis/eventstore';
import { alertStream, patientOfAlertStream } from '@vitalis/live';
import { patientStream, slotStream, triageStream } from '@vitalis/records';

describe('stream names', () => {
  it('refuse a category that could collide (a `-`, or a LIKE wildcard)', () => {
    expect(() => streamName('patient-alerts', 'x')).toThrow(StreamNameError);
    expect(() => streamName('patient_alerts', 'x')).toThrow(StreamNameError);
    expect(() => streamName('', 'x')).toThrow(StreamNameError);
    expect(streamName('patientAlerts', 'x')).toBe('patientAlerts-x');
  });

  it('categories are distinct and each is a valid category', () => {
    const categories = Object.values(STREAM_CATEGORIES);
    expect(new Set(categories).size).toBe(categories.length);
    for (const c of categories) expect(streamName(c, 'id')).toBe(`${c}-id`);
  });

  it('parse back to (category, id) whatever the id holds', () => {
    for (const id of ['x', 'alerts-x', 'a-b-c', '-lead', 'trail-', '']) {
      for (const category of Object.values(STREAM_CATEGORIES)) {
        expect(parseStreamName(streamName(category, id))).toEqual({ category, id });
      }
    }
    expect(parseStreamName('nocategory')).toBeUndefined();
    expect(streamCategory('nocategory')).toBe('');
  });

  it('a patient whose id starts like the alert category has its own stream, not the alerts', () => {
    for (const id of ['x', 'pat-1']) {
      const patientNamedLikeAlerts = patientStream(`alerts-${id}`);
      expect(patientNamedLikeAlerts).not.toBe(alertStream(id));
      expect(streamCategory(patientNamedLikeAlerts)).toBe(STREAM_CATEGORIES.patient);
      expect(streamCategory(alertStream(id))).toBe(STREAM_CATEGORIES.patientAlerts);
      expect(patientOfAlertStream(alertStream(id))).toBe(id);
      expect(patientOfAlertStream(patientNamedLikeAlerts)).toBeUndefined();
    }
    // every builder, every pair of ids: equal names only for equal (category, id)
    const ids = ['x', 'alerts-x', 'patient-x', 'patientAlerts-x', 'slot-x', 'triage-x'];
    const builders = [patientStream, slotStream, triageStream, alertStream];
    const names = builders.flatMap((b) => ids.map((id) => b(id)));
    expect(new Set(names).size).toBe(names.length);
    expect(streamIdIn(STREAM_CATEGORIES.triage, triageStream('alerts-x'))).toBe('alerts-x');
  });
});
