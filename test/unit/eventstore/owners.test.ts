/**
 * One owner per concept, enforced on the sources: SQL naming the `events` table lives only in
 * libs/eventstore; alert stream names only in libs/live/src/alerts.ts (and the category registry,
 * libs/eventstore/src/streams.ts); the alarm event types only in the alarm lifecycle's decider,
 * libs/records/src/alarm.ts. Scans every .ts file of apps/,
 * libs/ and schemas/ except tests, migrations (SQL, not .ts) and generated code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SKIP_DIRS = new Set(['node_modules', 'generated', 'migrations', 'dist']);

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) out.push(...sources(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) {
      out.push(relative(ROOT, path).split(sep).join('/'));
    }
  }
  return out;
}

const FILES = ['apps', 'libs', 'schemas'].flatMap((d) => sources(join(ROOT, d)));

/** The files (outside `owners`) in which `pattern` occurs, with the matching lines. */
function offenders(pattern: RegExp, owners: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const file of FILES) {
    if (owners(file)) continue;
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

/** Where the pattern does occur (so a rule cannot pass because its pattern matches nothing). */
const occurrences = (pattern: RegExp) => FILES.filter((f) => pattern.test(readFileSync(join(ROOT, f), 'utf8'))).sort();

const EVENTS_SQL = /\b(FROM|INTO|UPDATE|JOIN|TABLE)\s+events\b/;
const ALERT_STREAM = /patient-alerts|['"`]patientAlerts\b/;
const ALERT_TYPES = /VitalsAlert(Raised|Cleared)/;

const inEventStore = (f: string) => f.startsWith('libs/eventstore/src/');
const alertOwners = (f: string) => f === 'libs/live/src/alerts.ts' || f === 'libs/eventstore/src/streams.ts';
const alarmTypeOwner = (f: string) => f === 'libs/records/src/alarm.ts';

describe('owners of the event store and of alert events', () => {
  it('scans the sources (and the owners hold what the rules look for)', () => {
    expect(FILES.length).toBeGreaterThan(50);
    expect(FILES).not.toContain('libs/client-ts/src/generated/openapi.ts');
    expect(occurrences(EVENTS_SQL)).toEqual(['libs/eventstore/src/store.ts']);
    expect(occurrences(ALERT_STREAM)).toEqual(['libs/eventstore/src/streams.ts', 'libs/live/src/alerts.ts']);
    expect(occurrences(ALERT_TYPES)).toEqual(['libs/records/src/alarm.ts']);
  });

  it('no module outside libs/eventstore writes SQL against the events table', () => {
    expect(offenders(EVENTS_SQL, inEventStore)).toEqual([]);
  });

  it('alert stream names and alarm event types are spelled only by their owners', () => {
    expect(offenders(ALERT_STREAM, alertOwners)).toEqual([]);
    expect(offenders(ALERT_TYPES, alarmTypeOwner)).toEqual([]);
  });

  it('the rules catch an offender (self-check of the patterns)', () => {
    expect(EVENTS_SQL.test("pool.query('SELECT * FROM events WHERE stream_id = $1')")).toBe(true);
    expect(EVENTS_SQL.test('INSERT INTO events (event_id) VALUES ($1)')).toBe(true);
    expect(EVENTS_SQL.test('SELECT * FROM audit_events')).toBe(false);
    expect(EVENTS_SQL.test('SELECT * FROM events_archive')).toBe(false);
    expect(ALERT_STREAM.test('`patient-alerts-${id}`')).toBe(true);
    expect(ALERT_STREAM.test("streamName('patientAlerts', id)")).toBe(true);
    expect(ALERT_TYPES.test("type: 'VitalsAlertRaised'")).toBe(true);
  });
});
