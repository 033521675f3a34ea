/**
 * The monitor's tile colours are the NEWS2 score of the value: critical at a parameter score of 3
 * (an RCP "red score"), warning at 1–2, none at 0. Pinned two ways, at every band edge of every
 * scored parameter: against the RCP NEWS2 chart (2017, chart 1) written out here, and against the
 * server's own `news2()`. The card's own browser code (cards/monitor/tile-alarm.ts bundled as the
 * card's script carries it, with the table the card document carries) is what runs here, so the
 * colours cannot drift from the score again.
 */
import { describe, expect, it } from 'vitest';
import { news2, news2BandScore, NEWS2_SCALE_BY_VITAL_CODE, type News2Input, type News2Parameter, type News2Scale } from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';
import { bundleModule } from '../../../apps/gateway/src/ui/build';
import { monitorHtml, MONITOR_SCRIPT_DATA, TILE_ALARM_BY_NEWS2_SCORE } from '../../../apps/gateway/src/ui/monitor';
import { scriptData } from '../../../apps/gateway/src/ui/vitals';

type Alarm = 'none' | 'warn' | 'crit';

/**
 * The tile alarm's browser code as the card's script carries it: the module bundled alone, with the
 * same build, minus its `export` clause (an ES module's last statement). The card must contain it
 * verbatim (asserted below), so running it here runs the card's own code.
 */
const TILE_ALARM_CODE = bundleModule('./monitor/tile-alarm.ts').replace(/export \{[^}]*\};\s*$/, '');

/** The card's script functions, fed the data the card document carries (parsed back from it). */
function cardScript(): { alarmOf: (code: string, v: number) => Alarm; news2Score: (code: string, v: number) => number | null } {
  const html = monitorHtml();
  const data = /\n {2}var DATA = (.*);\n/.exec(html)?.[1];
  if (!data) throw new Error('the card carries no DATA');
  return new Function(
    'DATA',
    `${TILE_ALARM_CODE}\nreturn { alarmOf: function (c, v) { return alarmOf(DATA, c, v); }, news2Score: function (c, v) { return news2Score(DATA, c, v); } };`,
  )(JSON.parse(data));
}

const card = cardScript();

/** RCP NEWS2 chart 1, at every band edge: [value, parameter score] (SpO2 on scale 1). */
const RCP_CHART: Record<string, { parameter: News2Parameter & keyof News2Input; edges: Array<[number, 0 | 1 | 2 | 3]> }> = {
  [VITAL_CODE.respiratoryRate]: {
    parameter: 'respiratoryRate',
    edges: [
      [8, 3],
      [9, 1],
      [11, 1],
      [12, 0],
      [20, 0],
      [21, 2],
      [24, 2],
      [25, 3],
    ],
  },
  [VITAL_CODE.spo2]: {
    parameter: 'spo2',
    edges: [
      [91, 3],
      [92, 2],
      [93, 2],
      [94, 1],
      [95, 1],
      [96, 0],
      [100, 0],
    ],
  },
  [VITAL_CODE.systolic]: {
    parameter: 'systolic',
    edges: [
      [90, 3],
      [91, 2],
      [100, 2],
      [101, 1],
      [110, 1],
      [111, 0],
      [219, 0],
      [220, 3],
    ],
  },
  [VITAL_CODE.heartRate]: {
    parameter: 'heartRate',
    edges: [
      [40, 3],
      [41, 1],
      [50, 1],
      [51, 0],
      [90, 0],
      [91, 1],
      [110, 1],
      [111, 2],
      [130, 2],
      [131, 3],
    ],
  },
  [VITAL_CODE.temperature]: {
    parameter: 'temperature',
    edges: [
      [35.0, 3],
      [35.1, 1],
      [36.0, 1],
      [36.1, 0],
      [38.0, 0],
      [38.1, 1],
      [39.0, 1],
      [39.1, 2],
    ],
  },
};

const COLOUR: Record<number, Alarm> = { 0: 'none', 1: 'warn', 2: 'warn', 3: 'crit' };

/** Every edge of a scale: each band's upper bound and the first charted value above it. */
function edgesOf(scale: News2Scale): number[] {
  const step = 10 ** -scale.decimals;
  return scale.bands.flatMap(([upTo]) => (upTo === null ? [] : [upTo, Number((upTo + step).toFixed(scale.decimals))]));
}

describe('monitor tile colours follow NEWS2', () => {
  it('colours by parameter score: 3 critical, 1–2 warning, 0 none', () => {
    expect(TILE_ALARM_BY_NEWS2_SCORE).toEqual(COLOUR);
  });

  it('scores exactly the NEWS2 parameters of the vitals stream (SpO2 on scale 1)', () => {
    expect(Object.keys(MONITOR_SCRIPT_DATA.scales).sort()).toEqual(Object.keys(RCP_CHART).sort());
  });

  describe.each(Object.entries(RCP_CHART))('code %s', (code, { parameter, edges }) => {
    it.each(edges)("%d scores %i on the RCP chart, and the tile shows that score's colour", (value, score) => {
      expect(card.news2Score(code, value)).toBe(score);
      expect(card.alarmOf(code, value)).toBe(COLOUR[score]);
      // the server's score of the same value agrees
      expect(news2({ [parameter]: value } as News2Input).parameters[parameter]).toBe(score);
    });
  });

  it('agrees with news2BandScore at every edge of every scale the card carries', () => {
    let checked = 0;
    for (const [code, scale] of Object.entries(NEWS2_SCALE_BY_VITAL_CODE)) {
      for (const value of edgesOf(scale!)) {
        expect(card.alarmOf(code, value), `${code} ${value}`).toBe(TILE_ALARM_BY_NEWS2_SCORE[news2BandScore(scale!, value)]);
        checked += 1;
      }
    }
    expect(checked).toBe(40);
  });

  it('fixes the reported disagreements: SpO2 90–91 critical, HR 91–110 warning, systolic 181–219 normal', () => {
    for (const v of [90, 91]) expect(card.alarmOf(VITAL_CODE.spo2, v)).toBe('crit');
    for (const v of [91, 100, 110]) expect(card.alarmOf(VITAL_CODE.heartRate, v)).toBe('warn');
    for (const v of [181, 200, 219]) expect(card.alarmOf(VITAL_CODE.systolic, v)).toBe('none');
  });

  it('rounds to the charted value first, as the server does (91.6 % is charted 92 %, 38.04 °C is 38.0)', () => {
    expect(card.alarmOf(VITAL_CODE.spo2, 91.6)).toBe('warn');
    expect(card.alarmOf(VITAL_CODE.spo2, 91.4)).toBe('crit');
    expect(card.alarmOf(VITAL_CODE.temperature, 38.04)).toBe('none');
    expect(card.alarmOf(VITAL_CODE.temperature, 38.06)).toBe('warn');
  });

  it('leaves codes NEWS2 does not score uncoloured (diastolic pressure)', () => {
    expect(card.news2Score(VITAL_CODE.diastolic, 30)).toBeNull();
    expect(card.alarmOf(VITAL_CODE.diastolic, 30)).toBe('none');
  });

  it('carries the table as data, not as numbers in its script, and captions tiles with the 0-point band', () => {
    const html = monitorHtml();
    expect(html).toContain(`var DATA = ${scriptData(MONITOR_SCRIPT_DATA)};`);
    expect(TILE_ALARM_CODE).toMatch(/function news2Score\(data, code, v\)[\s\S]*function alarmOf\(data, code, v\)/);
    expect(html).toContain(TILE_ALARM_CODE);
    expect(html).not.toContain('LIMITS');
    const caption = (code: string) => new RegExp(`data-code="${code}"[^>]*><h2>[^<]*<span class="lim">([^<]*)</span>`).exec(html)?.[1];
    expect(caption(VITAL_CODE.heartRate)).toBe('51–90');
    expect(caption(VITAL_CODE.spo2)).toBe('≥ 96');
    expect(caption(VITAL_CODE.respiratoryRate)).toBe('12–20');
    expect(caption(VITAL_CODE.temperature)).toBe('36.1–38.0');
    expect(caption('bp')).toBe('sys 111–219');
  });
});
