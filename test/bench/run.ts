/**
 * `make bench`: the benches of record in one run of at most 20 minutes, then one summary table and a
 * JSON file of every figure (bench-results/bench-<time>.json), so runs can be compared: the table
 * shows the previous run's value beside each figure (the newest earlier file, or BENCH_COMPARE).
 * Each phase is a child process (its own lines stream through); one that fails is reported and the
 * others still run. BENCH_RESEARCH=1 (`make bench-research`) adds the research phases: the
 * index-design study, the vitals bench (history, traces, burst A/Bs), the ward scenario and the
 * other surfaces' benches. BENCH_ONLY=copy,drain,... runs the named phases alone.
 * Run it on a quiet machine: no test run or other session at the same time (the load average before
 * each phase is in the figures).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadAverage } from './proc-cpu';
import { consumeFigure, drainFigure, RECORD_SHAPES, type RecordShape } from './figure-names';
import { fmt, metGoal, out, type Figure } from './report';

interface Phase {
  name: string;
  script: string;
  env?: Record<string, string>;
  research?: boolean;
}

const PHASES: Phase[] = [
  { name: 'calibrate', script: 'calibrate.bench.ts' },
  // a broker JVM just started costs 2-3 times its warm CPU per observation (warmup.bench.ts): warmed before any Kafka phase
  { name: 'warmup', script: 'warmup.bench.ts' },
  { name: 'hot', script: 'hot-path.bench.ts' },
  { name: 'copy', script: 'copy.bench.ts' },
  { name: 'drain', script: 'ingest.bench.ts', env: { BENCH_PHASES: 'drain', BENCH_DRAIN_OBSERVATIONS: '1000000' } },
  { name: 'e2e', script: 'ingest.bench.ts', env: { BENCH_PHASES: 'e2e' } },
  { name: 'live-frames', script: 'live.bench.ts', env: { BENCH_LIVE_FRAMES: '1', BENCH_SECONDS: '30' } },
  { name: 'live-v1', script: 'live.bench.ts', env: { BENCH_SECONDS: '30' } },
  { name: 'export', script: 'export.bench.ts', env: { BENCH_EXPORT_ROWS: '2000000' } },
  { name: 'live-ward', script: 'live.bench.ts', env: { BENCH_LIVE_SCENARIO: 'ward' }, research: true },
  { name: 'vitals', script: 'vitals.bench.ts', research: true },
  { name: 'indexes', script: 'indexes.bench.ts', research: true },
  { name: 'wal', script: 'wal.bench.ts', research: true },
  { name: 'kafka-clients', script: 'kafka-clients.bench.ts', research: true },
  ...['audit', 'auth', 'clients', 'diagnostics', 'eventstore', 'fhir', 'fhir-subscriptions', 'mcp', 'ui'].map((name) => ({
    name,
    script: `${name}.bench.ts`,
    research: true,
  })),
];
/** The whole of `make bench` (issue 34). */
const BUDGET_SECONDS = 20 * 60;
const RESULTS_DIR = process.env.BENCH_RESULTS_DIR ?? 'bench-results';

const only = process.env.BENCH_ONLY?.split(',');
const research = process.env.BENCH_RESEARCH === '1';
const selected = PHASES.filter((p) => (only ? only.includes(p.name) : research || !p.research));
const figuresFile = join(tmpdir(), `vitalis-bench-figures-${process.pid}.jsonl`);
rmSync(figuresFile, { force: true });

function runPhase(phase: Phase): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('test/bench', phase.script)], {
      env: { ...process.env, ...phase.env, BENCH_FIGURES_FILE: figuresFile, BENCH_PHASE_NAME: phase.name },
      stdio: 'inherit',
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();
const startedAt = new Date();
const loadBefore = loadAverage();
out(
  `make bench: ${startedAt.toISOString()}, commit ${commit}, ${cpus().length} cores, load average ${loadBefore.toFixed(2)}; phases ${selected.map((p) => p.name).join(', ')}`,
);
const ran: { name: string; seconds: number; exitCode: number; load: number }[] = [];
for (const phase of selected) {
  const load = loadAverage();
  out(`\n== ${phase.name} (test/bench/${phase.script}); load average ${load.toFixed(2)}`);
  const t0 = Date.now();
  const exitCode = await runPhase(phase);
  ran.push({ name: phase.name, seconds: (Date.now() - t0) / 1000, exitCode, load });
  if (exitCode !== 0) out(`== ${phase.name} FAILED (exit ${exitCode}); the other phases still run`);
}
const wallSeconds = (Date.now() - startedAt.getTime()) / 1000;

const figures: Figure[] = (() => {
  try {
    return readFileSync(figuresFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Figure);
  } catch {
    return [];
  }
})();
rmSync(figuresFile, { force: true });
const value = (name: string) => figures.find((f) => f.name === name)?.value ?? NaN;
// across phases: the ingest's capacity against the indexed COPY of the same rows, same connections
for (const [shape, rows] of [
  ['v1', 'numeric rows'],
  ['frames', 'monitor mix (6 numerics : 1 ECG chunk)'],
] as const) {
  const drain = value(drainFigure(shape));
  const copy = value(`indexed COPY, ${rows}`);
  if (Number.isFinite(drain) && Number.isFinite(copy))
    figures.push({
      phase: 'drain',
      name: `ingest capacity / indexed COPY, ${RECORD_SHAPES[shape].label} vs ${rows}`,
      value: drain / copy,
      unit: 'x',
      goal: { op: '>=', target: 0.9 },
    });
}
// the Kafka client's share of the ingest (item 3: switch only for more than 25 % of the ingest's CPU)
for (const shape of Object.keys(RECORD_SHAPES) as RecordShape[]) {
  const { label } = RECORD_SHAPES[shape];
  const ingest = value(`${drainFigure(shape)}: ingest CPU per observation`);
  const kafkajs = value(`${consumeFigure(shape, 'kafkajs')}: consumer CPU per observation`);
  const platformatic = value(`${consumeFigure(shape, 'platformatic')}: consumer CPU per observation`);
  if (!Number.isFinite(ingest) || !Number.isFinite(kafkajs)) continue;
  figures.push({ phase: 'clients', name: `kafkajs's share of the ingest's CPU, ${label}`, value: (100 * kafkajs) / ingest, unit: '%' });
  if (Number.isFinite(platformatic))
    figures.push({
      phase: 'clients',
      name: `what @platformatic/kafka would save of the ingest's CPU, ${label} (switch above 25 %)`,
      value: (100 * (kafkajs - platformatic)) / ingest,
      unit: '%',
    });
}
if (!only && !research)
  figures.push({ phase: 'bench', name: 'make bench wall time', value: wallSeconds, unit: 's', goal: { op: '<=', target: BUDGET_SECONDS } });

// the previous run, to compare with
mkdirSync(RESULTS_DIR, { recursive: true });
const previousFile =
  process.env.BENCH_COMPARE ??
  readdirSync(RESULTS_DIR)
    .filter((f) => /^bench-.*\.json$/.test(f))
    .sort()
    .map((f) => join(RESULTS_DIR, f))
    .pop();
const previous = new Map<string, number>();
if (previousFile) {
  for (const f of (JSON.parse(readFileSync(previousFile, 'utf8')) as { figures: Figure[] }).figures)
    previous.set(`${f.phase}|${f.name}`, f.value);
}

const shown = (n: number) => (!Number.isFinite(n) ? '-' : Math.abs(n) >= 100 ? fmt(n) : n.toFixed(2));
const width = Math.min(110, Math.max(...figures.map((f) => f.name.length), 10));
const row = (f: Figure) => {
  const met = metGoal(f);
  const before = previous.get(`${f.phase}|${f.name}`);
  return `${f.phase.padEnd(9)} ${f.name.slice(0, width).padEnd(width)} ${shown(f.value).padStart(10)} ${f.unit.padEnd(6)} ${(f.goal ? `${f.goal.op} ${shown(f.goal.target)}` : '').padEnd(11)} ${(met === undefined ? '' : met ? 'met' : 'NOT MET').padEnd(7)} ${(before === undefined ? '' : shown(before)).padStart(10)} ${f.load === undefined ? '' : f.load.toFixed(2)}`;
};
out(
  `\n== summary: ${figures.length} figures, ${ran.filter((r) => r.exitCode !== 0).length} phases failed, ${(wallSeconds / 60).toFixed(1)} min; previous: ${previousFile ?? 'none'}`,
);
out(
  `${'phase'.padEnd(9)} ${'figure'.padEnd(width)} ${'value'.padStart(10)} ${'unit'.padEnd(6)} ${'goal'.padEnd(11)} ${''.padEnd(7)} ${'previous'.padStart(10)} load`,
);
out('-- goal lines');
for (const f of figures.filter((f) => f.goal)) out(row(f));
out('-- every figure');
for (const f of figures.filter((f) => !f.goal)) out(row(f));
for (const r of ran)
  out(
    `phase ${r.name}: ${r.seconds.toFixed(0)} s, load average ${r.load.toFixed(2)} before${r.exitCode === 0 ? '' : `, FAILED (exit ${r.exitCode})`}`,
  );

const file = join(RESULTS_DIR, `bench-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ startedAt: startedAt.toISOString(), commit, cores: cpus().length, node: process.version, loadBefore, wallSeconds, phases: ran, figures }, null, 2)}\n`,
);
out(`figures written to ${file}`);
process.exit(ran.some((r) => r.exitCode !== 0) ? 1 : 0);
