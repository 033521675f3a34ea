/**
 * NEWS2 on the card's NEWS2 table: a value's parameter score, as `news2BandScore` computes it
 * (rounded to the charted decimals, first band whose inclusive upper bound holds it), the tile
 * alarm of that score, and the aggregate of the latest value of each parameter with its clinical
 * risk, as `news2()` computes them (RCP 2017: aggregate bands, a single red parameter lifting a low
 * aggregate to low-medium). The tables are data (`DATA`), never numbers here;
 * test/unit/ui/monitor-alarms.test.ts and monitor-news2.test.ts run this module's bundled code, as
 * the card document carries it, at every band edge and against the server's `news2()`.
 */

import type { MonitorData, Risk, Score, TileAlarm } from './data';

export function news2Score(data: MonitorData, code: string, v: number): Score | null {
  const scale = data.scales[code];
  if (!scale) return null;
  const f = Math.pow(10, scale.decimals);
  const charted = Math.round(v * f) / f;
  for (const [upTo, score] of scale.bands) {
    if (upTo === null || charted <= upTo) return score;
  }
  return null;
}

export function alarmOf(data: MonitorData, code: string, v: number): TileAlarm {
  const score = news2Score(data, code, v);
  return score === null ? 'none' : data.alarmByScore[score];
}

export interface News2Total {
  score: number;
  risk: Risk;
  /** The codes scored (those of `values` the table scores). */
  codes: string[];
}

/** The aggregate NEWS2 of the latest value per code (`values`), or null when no scored code has a value. */
export function news2Total(data: MonitorData, values: Readonly<Record<string, number>>): News2Total | null {
  let score = 0,
    red = false;
  const codes: string[] = [];
  for (const [code, value] of Object.entries(values)) {
    const s = news2Score(data, code, value);
    if (s === null) continue;
    codes.push(code);
    score += s;
    if (s === data.risk.redScore) red = true;
  }
  if (!codes.length) return null;
  const [first] = data.risk.bands;
  if (!first) throw new Error('the NEWS2 risk table has no bands');
  // the first band the score is within, else the last
  let risk: Risk = first[1];
  for (const [upTo, r] of data.risk.bands) {
    risk = r;
    if (upTo === null || score <= upTo) break;
  }
  if (risk === first[1] && red) risk = data.risk.redRisk;
  return { score, risk, codes };
}
