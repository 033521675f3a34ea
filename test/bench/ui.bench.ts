/**
 * UI bench (plain script: node --import tsx test/bench/ui.bench.ts): the vitals-telemetry-monitor
 * card in headless Chromium, fed a live 250 Hz ECG for BENCH_SECONDS (20) through the real path
 * (Kafka → ingest + live stage → Redis → gateway SSE → the card), one 200 ms chunk (50 samples)
 * every 200 ms plus a numeric set every second, effective_at = send time.
 *
 * Figures, each against a baseline measured in the same run:
 *  - frame interval p50/p99 of the page while sweeping vs the same card idle (no data): does
 *    drawing the ECG cost frames?
 *  - samples drawn / samples produced over the streaming window (1.0 = nothing dropped);
 *  - sweep lag: how far behind the device the trace is (samples produced − drawn, in ms), p50/p99,
 *    vs the stream's own device → SSE delivery p50/p99 measured by a Node SSE client in parallel.
 * Never asserts. Database: DATABASE_URL (default: the test database vitalis_test, migrated here);
 * the private topic is deleted afterwards.
 */
import { performance } from 'node:perf_hooks';
import { startRig, openSse, uid } from '../integration/live/support';
import { launchBrowser, openPage } from '../helpers/browser';
import { clientCredentialsToken, registerClient } from '../helpers/auth';
import prepareInfrastructure from '../helpers/global-setup';
import { ecgChunk, vital } from '../integration/ui/support';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CHUNK = 50; // samples per chunk: 200 ms at 250 Hz

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

/** Frame intervals of the page for `seconds`, measured in the page with requestAnimationFrame. */
async function frameIntervals(page: import('playwright-core').Page, seconds: number): Promise<number[]> {
  return page.evaluate<number[]>(`new Promise((resolve) => {
    const out = []; let last = 0; const end = performance.now() + ${seconds * 1000};
    const tick = (t) => { if (last) out.push(t - last); last = t; if (t < end) requestAnimationFrame(tick); else resolve(out); };
    requestAnimationFrame(tick);
  })`);
}

async function main(): Promise<void> {
  await prepareInfrastructure(); // migrations and topics, as the test suite's global setup does
  const rig = await startRig('ui-bench');
  const browser = await launchBrowser();
  try {
    const writerClient = await registerClient(rig.gw.url, ['write:patients', 'read:vitals', 'read:patients']);
    const token = await clientCredentialsToken(rig.gw.url, writerClient);
    const reg = await fetch(`${rig.gw.url}/api/v1/patients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: [{ family: `Bench${uid()}`, given: ['Ecg'] }] }),
    });
    const patient = ((await reg.json()) as { id: string }).id;
    const tp = await openPage(browser);
    await tp.page.goto(`${rig.gw.url}/ui/vitals-telemetry-monitor#token=${token}&patient=${patient}`, { waitUntil: 'load' });
    for (let i = 0; i < 200 && (await tp.page.locator('#conn').getAttribute('data-state')) !== 'connected'; i++)
      await new Promise((r) => setTimeout(r, 100));

    // Baseline 1: the same card, idle (live stream open, no data).
    const idle = await frameIntervals(tp.page, 5);

    // Baseline 2: device → SSE delivery, measured by a Node client on the same stream.
    const sse = await openSse(`${rig.gw.url}/api/v1/vitals/stream?patient=${patient}`, { authorization: `Bearer ${token}` });

    const ecgDevice = `bench-ecg-${uid()}`;
    const numDevice = `bench-num-${uid()}`;
    let produced = 0;
    let seq = 0;
    let nseq = 0;
    const drawnAtStart = Number(await tp.page.locator('#ecg').getAttribute('data-drawn'));
    const t0 = performance.now();
    const lags: number[] = [];
    const sampler = setInterval(() => {
      void tp.page
        .locator('#ecg')
        .getAttribute('data-drawn')
        .then((d) => {
          const behind = produced - (Number(d) - drawnAtStart);
          lags.push((behind / 250) * 1000);
        })
        .catch(() => undefined);
    }, 250);
    const framesP = frameIntervals(tp.page, SECONDS - 2);
    while (performance.now() - t0 < SECONDS * 1000) {
      const now = new Date();
      const chunk = ecgChunk(patient, ecgDevice, seq++, now);
      chunk.waveform.samples = chunk.waveform.samples.slice(0, CHUNK);
      const msgs: object[] = [chunk];
      if (seq % 5 === 0)
        msgs.push(
          vital(patient, numDevice, nseq++, now, '8867-4', 70 + (nseq % 10)),
          vital(patient, numDevice, nseq++, new Date(now.getTime() + 1), '59408-5', 95 + (nseq % 4)),
        );
      await rig.send(patient, msgs);
      produced += CHUNK;
      const next = t0 + seq * 200;
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
    }
    // let the tail drain (the sweep plays at real time)
    await new Promise((r) => setTimeout(r, 1500));
    clearInterval(sampler);
    const busy = await framesP;
    const drawn = Number(await tp.page.locator('#ecg').getAttribute('data-drawn')) - drawnAtStart;
    sse.close();
    const deliveries = sse.events
      .filter((e) => e.event === 'observation' && e.data.code === '131330')
      .map((e) => e.data as { effective_at: string });
    // baseline: how long the append log took to hold each chunk (ingested_at − effective_at)
    const { rows } = await rig.pool.query<{ p50: number; p99: number }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99
         FROM (SELECT extract(epoch FROM (ingested_at - effective_at)) * 1000 AS ms FROM vitals_observations WHERE patient_id = $1 AND code = '131330') x`,
      [patient],
    );
    const steady = lags.slice(Math.floor(lags.length / 5)); // skip the start-up (jitter buffer filling)

    console.log(
      `UI bench: vitals-telemetry-monitor, ${SECONDS} s of 250 Hz ECG in ${CHUNK}-sample chunks + 2 numerics/s, headless Chromium`,
    );
    console.log('| | value | ratio |');
    console.log('|---|---|---|');
    console.log(`| baseline: frame interval, card idle p50 / p99 | ${ms(pct(idle, 50))} / ${ms(pct(idle, 99))} | 1 |`);
    console.log(
      `| frame interval while sweeping p50 / p99 | ${ms(pct(busy, 50))} / ${ms(pct(busy, 99))} | ${(pct(busy, 50) / pct(idle, 50)).toFixed(2)} / ${(pct(busy, 99) / pct(idle, 99)).toFixed(2)} × idle |`,
    );
    console.log(`| ECG samples drawn / produced | ${drawn} / ${produced} | ${(drawn / produced).toFixed(4)} |`);
    console.log(`| baseline: device → append log (ingest) p50 / p99 | ${ms(rows[0]!.p50)} / ${ms(rows[0]!.p99)} | 1 |`);
    console.log(
      `| sweep lag (device → trace on screen) p50 / p99 | ${ms(pct(steady, 50))} / ${ms(pct(steady, 99))} | ${(pct(steady, 50) / rows[0]!.p50).toFixed(2)} / ${(pct(steady, 99) / rows[0]!.p99).toFixed(2)} × ingest |`,
    );
    console.log(
      `| ECG chunks delivered to a parallel Node SSE client | ${deliveries.length} / ${seq} | ${(deliveries.length / seq).toFixed(4)} |`,
    );
    console.log(`| console errors in the page | ${tp.errors.length} | |`);
  } finally {
    await browser.close();
    await rig.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
