/**
 * The independent FHIR R4 validator for tests: HAPI FHIR's instance validator with the R4 base
 * StructureDefinitions and the vital-signs profiles (infra/fhir-validator/, a Java server on
 * 127.0.0.1; see docs/testing.md). Nothing in Vitalis calls it: it checks Vitalis from outside.
 *
 *   const issues = await validateFhir(resource);                       // errors only
 *   await expectValidFhir(bundle.entry.map((e) => e.resource), { profiles: [VITAL_SIGNS_PROFILE] });
 *
 * Severity policy: `error` and `fatal` fail; `warning` and `information` are left out unless
 * `{ warnings: true }`. The warnings HAPI gives offline are best practice (dom-6 "should have
 * narrative", "observations should have a performer") and terminology it cannot check without a
 * terminology server (LOINC and MDC codes: "CodeSystem is unknown"). Codes it CAN check offline
 * (the FHIR code systems, UCUM units, required bindings such as gender) are errors when wrong.
 *
 * One server per test run: the first call in any worker takes a lock (an atomic mkdir in the run's
 * directory, provided by fhir-validator-setup.ts), starts `infra/bin/fhir-validator serve` (which
 * builds it when missing) and every worker waits for the port file the server writes once it has
 * warmed up. The setup's teardown stops it; the server also exits when the vitest process is gone.
 * Outside that setup a worker starts its own and stops it when the worker exits.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { stopValidatorIn } from './fhir-validator-setup';

export type FhirSeverity = 'fatal' | 'error' | 'warning' | 'information';
export interface FhirIssue {
  severity: FhirSeverity;
  /** FHIRPath-like location, e.g. `Patient.gender` or `Bundle.entry[0].resource/*Slot/s1*\/.schedule`. */
  location: string;
  message: string;
  /** HAPI's message id (e.g. `Terminology_TX_NoValid_16`), when it has one. */
  messageId?: string;
  /** Position of the resource in the array passed in (0 for a single resource). */
  index: number;
  /** `<resourceType>/<id>` of that resource, for messages. */
  resource: string;
}
export interface ValidateOptions {
  /** Profiles (canonical URLs) to validate against in addition to the base definition and meta.profile. */
  profiles?: string[];
  /** Also return warnings and information (default: errors and fatals only). */
  warnings?: boolean;
}

export const VITAL_SIGNS_PROFILE = 'http://hl7.org/fhir/StructureDefinition/vitalsigns';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const READY_TIMEOUT_MS = 300_000;

declare module 'vitest' {
  export interface ProvidedContext {
    /** Directory of this run's validator (lock, pid, port, log); see fhir-validator-setup.ts. */
    fhirValidatorDir: string;
    /** The vitest main process: the validator exits when it is gone. */
    fhirValidatorParentPid: number;
  }
}

let base: Promise<string> | undefined;

function runDir(): { dir: string; parentPid: number } {
  try {
    const dir = inject('fhirValidatorDir');
    const parentPid = inject('fhirValidatorParentPid');
    if (dir && parentPid) return { dir, parentPid };
  } catch {
    /* not in a vitest worker with the setup */
  }
  const dir = mkdtempSync(join(tmpdir(), 'vitalis-fhir-validator-'));
  process.once('exit', () => stopValidatorIn(dir));
  return { dir, parentPid: process.pid };
}

function startIn(dir: string, parentPid: number): void {
  const log = openSync(join(dir, 'server.log'), 'a');
  const child = spawn(
    join(ROOT, 'infra/bin/fhir-validator'),
    ['serve', '--port-file', join(dir, 'port'), '--parent-pid', String(parentPid)],
    {
      cwd: ROOT,
      detached: true, // outlives this worker; the setup's teardown (or the parent-pid watchdog) stops it
      stdio: ['ignore', log, log],
    },
  );
  writeFileSync(join(dir, 'pid'), String(child.pid));
  child.once('exit', (code) => {
    if (!existsSync(join(dir, 'port'))) writeFileSync(join(dir, 'failed'), `exited with ${code}`);
  });
  child.unref();
}

/** The server process named by the pid file has exited without writing its port. */
function starterGone(dir: string): boolean {
  if (!existsSync(join(dir, 'pid')) || existsSync(join(dir, 'port'))) return false;
  try {
    process.kill(Number(readFileSync(join(dir, 'pid'), 'utf8')), 0);
    return false;
  } catch {
    if (!existsSync(join(dir, 'failed'))) writeFileSync(join(dir, 'failed'), 'the validator process is gone');
    return true;
  }
}

async function waitForPort(dir: string): Promise<string> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (existsSync(join(dir, 'port'))) {
      const url = `http://127.0.0.1:${readFileSync(join(dir, 'port'), 'utf8').trim()}`;
      const res = await fetch(`${url}/health`).catch(() => undefined);
      if (res?.ok) return url;
    }
    if (existsSync(join(dir, 'failed')) || starterGone(dir)) {
      throw new Error(
        `The FHIR validator did not start (${readFileSync(join(dir, 'failed'), 'utf8')}); see ${join(dir, 'server.log')}. Build it alone with \`make fhir-validator\`.`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The FHIR validator was not ready after ${READY_TIMEOUT_MS / 1000} s; see ${join(dir, 'server.log')}.`);
}

/** The validator's base URL, starting it on first use (once per run, whichever worker comes first). */
export function fhirValidatorUrl(): Promise<string> {
  return (base ??= (async () => {
    const { dir, parentPid } = runDir();
    let mine = false;
    try {
      mkdirSync(join(dir, 'lock'));
      mine = true;
    } catch {
      /* another worker is starting it */
    }
    if (mine) startIn(dir, parentPid);
    return waitForPort(dir);
  })().catch((err: unknown) => {
    base = undefined;
    throw err;
  }));
}

const label = (r: unknown): string => {
  const o = (r ?? {}) as { resourceType?: unknown; id?: unknown };
  return `${String(o.resourceType ?? '?')}${o.id !== undefined ? `/${String(o.id)}` : ''}`;
};

/** Validates one resource or an array of them; the issues of the requested severities. */
export async function validateFhir(resource: unknown | unknown[], options: ValidateOptions = {}): Promise<FhirIssue[]> {
  const resources = Array.isArray(resource) ? resource : [resource];
  if (resources.length === 0) return [];
  const url = new URL(`${await fhirValidatorUrl()}/validate`);
  for (const p of options.profiles ?? []) url.searchParams.append('profile', p);
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(resources) });
  if (!res.ok) throw new Error(`FHIR validator answered ${res.status}: ${await res.text()}`);
  const results = (await res.json()) as { index: number; issues: Omit<FhirIssue, 'index' | 'resource'>[] }[];
  const wanted = new Set<FhirSeverity>(options.warnings ? ['fatal', 'error', 'warning', 'information'] : ['fatal', 'error']);
  return results.flatMap((r) =>
    r.issues.filter((i) => wanted.has(i.severity)).map((i) => ({ ...i, index: r.index, resource: label(resources[r.index]) })),
  );
}

/** One line per issue, for assertion messages. */
export function formatIssues(issues: FhirIssue[]): string {
  return issues.map((i) => `  [${i.severity}] ${i.resource} @ ${i.location}: ${i.message}`).join('\n');
}

/** Fails (throws) with every issue listed when the resource(s) are not valid FHIR R4. */
export async function expectValidFhir(resource: unknown | unknown[], options: ValidateOptions = {}): Promise<void> {
  const issues = await validateFhir(resource, options);
  if (issues.length > 0) throw new Error(`Not valid FHIR R4 (${issues.length} issue(s)):\n${formatIssues(issues)}`);
}
