/**
 * A value's NEWS2 score on the card's NEWS2 table, as `news2BandScore` computes it (rounded to the
 * charted decimals, first band whose inclusive upper bound holds it), and the tile alarm of that
 * score. The table is data (`DATA`), never numbers here; test/unit/ui/monitor-alarms.test.ts runs
 * this module's bundled code, as the card document carries it, at every band edge.
 */
import type { MonitorData, Score, TileAlarm } from './data';

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
