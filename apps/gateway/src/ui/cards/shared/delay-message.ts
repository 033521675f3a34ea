/**
 * The words of the "Data delayed" banner (./delay-banner.ts), pure (no DOM: the unit tests import
 * this file directly): from the gateway's pipeline judgement, never a threshold of the card's.
 */
import { age } from './time';

/** What the banner reads: health's `pipeline` (browser) or get_pipeline_status's result (MCP). */
export interface PipelineStatus {
  status?: string;
  delayed?: boolean;
  delayed_s?: number;
  newest_observation_at?: string | null;
  newest_observation_age_s?: number | null;
}

/** The newest stored reading older than this is what the banner names; younger, some devices' readings wait. */
const OLD_READING_S = 60;
const TAIL = 'vitals on this screen may not be current';

/**
 * The banner's sentence, or null when the pipeline is not delayed. `now`: ms since the epoch.
 * The newest stored reading's age comes from its time and the browser clock (as every age on the
 * cards), or from the server's age when the time is absent.
 */
export function delayMessage(p: PipelineStatus | null | undefined, now: number = Date.now()): string | null {
  if (!p || p.delayed !== true) return null;
  const ageOf = (seconds: number) => age(new Date(now - seconds * 1_000).toISOString(), now);
  const newestAge = p.newest_observation_at
    ? age(p.newest_observation_at, now)
    : typeof p.newest_observation_age_s === 'number'
      ? ageOf(p.newest_observation_age_s)
      : null;
  const newestSeconds = p.newest_observation_at ? (now - new Date(p.newest_observation_at).getTime()) / 1_000 : p.newest_observation_age_s;
  if (newestAge === null || newestSeconds === null || newestSeconds === undefined)
    return `Data delayed — no reading is being stored; ${TAIL}`;
  if (newestSeconds >= OLD_READING_S) return `Data delayed — the newest stored reading is ${newestAge} old; ${TAIL}`;
  // A stalled partition while the others store: recent readings exist, some devices' do not.
  const waited = typeof p.delayed_s === 'number' && p.delayed_s > 0 ? ` for ${ageOf(p.delayed_s)}` : '';
  return `Data delayed — readings from some devices have been waiting${waited} to be stored; ${TAIL}`;
}
