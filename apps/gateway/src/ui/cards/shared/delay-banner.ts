/**
 * The "Data delayed" banner every card shows while the vitals pipeline is late (issue 31): at the
 * top of the card's <main>, role="alert", in words (never colour only), removed on recovery.
 *
 * What it reads is the gateway's own judgement, never a threshold of the card's: `pipeline.delayed`
 * (GET /api/v1/health: a partition stalled, or messages waiting while the newest stored reading is
 * older than HEALTH_DATA_AGE_AFTER_MS; docs/operations.md#health-and-the-vitals-pipeline).
 *  - Browser mode: GET /api/v1/health (public) every 5 s, once the card has a token (without one it
 *    shows no data and only says how to open it).
 *  - MCP mode (no same-origin fetch in a host's sandbox): the tool get_pipeline_status through the
 *    host every 15 s (one tool call each; the host may refuse or not forward it: then the card
 *    keeps polling more slowly, shows nothing, and logs nothing).
 * A reading that fails leaves the banner as it is (no news is not good news, nor bad news); a
 * hidden page skips its polls. The card's main.ts calls startDelayBanner() once.
 */
import { delayMessage, type PipelineStatus } from './delay-message';
import { V } from './runtime';

const EVERY_MS = V.mode === 'mcp' ? 15_000 : 5_000;
const MAX_BACKOFF_MS = 60_000;

/** Shows, updates or removes the banner at the top of <main>. */
export function renderDelayBanner(message: string | null): void {
  let banner = document.getElementById('data-delayed');
  if (message === null) {
    banner?.remove();
    return;
  }
  if (!banner) {
    banner = document.createElement('div');
    banner.id = 'data-delayed';
    banner.className = 'delay-banner';
    banner.setAttribute('role', 'alert');
    const main = document.querySelector('main');
    if (!main) return;
    main.prepend(banner);
  }
  // Only a change of words is re-announced (the age moves in whole minutes).
  if (banner.textContent !== message) banner.textContent = message;
}

function readPipeline(): Promise<PipelineStatus | null> {
  if (V.mode === 'mcp')
    return V.ready.then(() => V.callTool('get_pipeline_status')).then((r) => (r && typeof r === 'object' ? (r as PipelineStatus) : null));
  // 503 (PostgreSQL down) still carries the health document.
  return fetch('/api/v1/health', { headers: { accept: 'application/json' }, cache: 'no-store' })
    .then((res) => res.json())
    .then((body: any) => (body && typeof body.pipeline === 'object' ? (body.pipeline as PipelineStatus) : null));
}

let started = false;

/** Starts polling (once per page, whatever calls it). */
export function startDelayBanner(): void {
  // Opened in a browser without a token, a card shows no data (it says how to open it): nothing can be delayed, so nothing is asked.
  if (started || (V.mode === 'rest' && !V.hasToken)) return;
  started = true;
  let wait = EVERY_MS;
  const tick = () => {
    if (document.hidden) {
      setTimeout(tick, wait);
      return;
    }
    readPipeline()
      .then((p) => {
        wait = EVERY_MS;
        if (p) renderDelayBanner(delayMessage(p));
      })
      .catch(() => {
        wait = Math.min(MAX_BACKOFF_MS, wait * 2);
      })
      .then(() => setTimeout(tick, wait));
  };
  tick();
}
