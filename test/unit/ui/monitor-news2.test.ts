/**
 * The monitor's NEWS2 total is the server's: the card's own code (cards/monitor/tile-alarm.ts
 * bundled as the card's script carries it, asserted verbatim in the document) fed the DATA the
 * document carries, against `news2()` of @vitalis/clinical on the same values, for the issue's
 * patient and for every combination of band edges of the five parameters the monitor measures
 * (each present or missing): the same total and the same risk band (RCP 2017, the single red
 * parameter rule included). And the site's freshness settings reach the card's DATA.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_ALARM_SETTINGS,
  news2,
  NEWS2_RISK,
  NEWS2_SCALE_BY_VITAL_CODE,
  parseAlarmSettings,
  type News2Input,
  type News2Scale,
} from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';
import { bundleModule } from '../../../apps/gateway/src/ui/build';
import { uiCards } from '../../../apps/gateway/src/ui/cards';
import { monitorHtml, monitorScriptData, MONITOR_SCRIPT_DATA } from '../../../apps/gateway/src/ui/monitor';
import { scriptData } from '../../../apps/gateway/src/ui/vitals';

const CODE = bundleModule('./monitor/tile-alarm.ts').replace(/export \{[^}]*\};\s*$/, '');

type Total = { score: number; risk: string; codes: string[] } | null;

/** The card's news2Total, fed the data the card document carries (parsed back from it). */
function cardTotal(html = monitorHtml()): (values: Record<string, number>) => Total {
  const data = /\n {2}var DATA = (.*);\n/.exec(html)?.[1];
  if (!data) throw new Error('the card carries no DATA');
  return new Function('DATA', `${CODE}\nreturn function (values) { return news2Total(DATA, values); };`)(JSON.parse(data));
}

const total = cardTotal();
const C = VITAL_CODE;
/** The News2Input parameter of each code the monitor scores. */
const PARAMETER = {
  [C.heartRate]: 'heartRate',
  [C.spo2]: 'spo2',
  [C.systolic]: 'systolic',
  [C.respiratoryRate]: 'respiratoryRate',
  [C.temperature]: 'temperature',
} as const;

function server(values: Record<string, number>) {
  const input: News2Input = {};
  for (const [code, v] of Object.entries(values)) if (code in PARAMETER) input[PARAMETER[code as keyof typeof PARAMETER]] = v;
  return news2(input);
}

/** A value in each band of a scale: each band's upper bound, and one above the last bound. */
function oneValuePerBandEdge(scale: News2Scale): number[] {
  const step = 10 ** -scale.decimals;
  const bounds = scale.bands.flatMap(([upTo]) => (upTo === null ? [] : [upTo]));
  return [...bounds, Number((bounds[bounds.length - 1]! + step).toFixed(scale.decimals))];
}

describe('the monitor NEWS2 total', () => {
  it('is in the card document verbatim, with the clinical risk table as data', () => {
    const html = monitorHtml();
    expect(html).toContain(CODE);
    expect(CODE).toMatch(/function news2Total\(data, values\)/);
    expect(MONITOR_SCRIPT_DATA.risk).toEqual(NEWS2_RISK);
    expect(html).toContain(`var DATA = ${scriptData(MONITOR_SCRIPT_DATA)};`);
  });

  it("for the issue's patient (HR 137, SpO2 85 %, BP 87/50, RR 27, temperature 37.0) is 12, high, as the server's news2()", () => {
    const values = {
      [C.heartRate]: 137,
      [C.spo2]: 85,
      [C.systolic]: 87,
      [C.diastolic]: 50,
      [C.respiratoryRate]: 27,
      [C.temperature]: 37.0,
    };
    const s = server(values);
    expect(s).toMatchObject({ score: 12, risk: 'high' });
    expect(total(values)).toEqual({
      score: s.score,
      risk: s.risk,
      codes: [C.heartRate, C.spo2, C.systolic, C.respiratoryRate, C.temperature],
    });
  });

  it('applies the single red parameter rule: one parameter at 3 with a total of 3 is low-medium; 4 without one is low', () => {
    expect(total({ [C.respiratoryRate]: 26 })).toMatchObject({ score: 3, risk: 'low-medium' });
    expect(total({ [C.heartRate]: 120, [C.spo2]: 93 })).toMatchObject({ score: 4, risk: 'low' });
    expect(total({ [C.heartRate]: 120, [C.spo2]: 93, [C.temperature]: 38.5 })).toMatchObject({ score: 5, risk: 'medium' });
  });

  it('has no total before a scored value (diastolic alone scores nothing)', () => {
    expect(total({})).toBeNull();
    expect(total({ [C.diastolic]: 40 })).toBeNull();
  });

  it('equals the server at every combination of band edges, each parameter present or missing', () => {
    const codes = Object.keys(PARAMETER);
    const choices = codes.map((code) => [
      undefined,
      ...oneValuePerBandEdge(NEWS2_SCALE_BY_VITAL_CODE[code as keyof typeof NEWS2_SCALE_BY_VITAL_CODE]!),
    ]);
    let checked = 0;
    const risks = new Set<string>();
    const walk = (i: number, values: Record<string, number>) => {
      if (i === codes.length) {
        const s = server(values);
        const t = total(values);
        if (Object.keys(values).length === 0) expect(t).toBeNull();
        else {
          expect(t && { score: t.score, risk: t.risk }, JSON.stringify(values)).toEqual({ score: s.score, risk: s.risk });
          risks.add(s.risk);
        }
        checked += 1;
        return;
      }
      for (const v of choices[i]!) walk(i + 1, v === undefined ? values : { ...values, [codes[i]!]: v });
    };
    walk(0, {});
    expect(checked).toBe(choices.reduce((n, c) => n * c.length, 1));
    expect([...risks].sort()).toEqual(['high', 'low', 'low-medium', 'medium']);
  });
});

describe("the monitor's freshness data", () => {
  it('is the alarm settings: stale threshold per code and the device-disconnect delay, nothing of its own', () => {
    expect(MONITOR_SCRIPT_DATA.staleAfter).toEqual(DEFAULT_ALARM_SETTINGS.staleAfterSeconds);
    expect(MONITOR_SCRIPT_DATA.noDataAfter).toBe(DEFAULT_ALARM_SETTINGS.conditions['device-disconnected'].onsetDelaySeconds);
  });

  it("carries a site's VITALIS_ALARMS overrides into the document the gateway serves", () => {
    const site = parseAlarmSettings(
      JSON.stringify({ stale_after_s: { [C.heartRate]: 45 }, conditions: { 'device-disconnected': { onset_delay_s: 90 } } }),
    );
    const data = monitorScriptData(site);
    expect(data.staleAfter[C.heartRate]).toBe(45);
    expect(data.noDataAfter).toBe(90);
    const served = uiCards(site)
      .find((c) => c.name === 'vitals-telemetry-monitor')!
      .html();
    expect(served).toContain(`var DATA = ${scriptData(data)};`);
    expect(served).not.toBe(monitorHtml());
    expect(uiCards(site)).toBe(uiCards(site)); // built once per settings
  });
});
