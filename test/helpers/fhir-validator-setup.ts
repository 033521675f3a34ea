/**
 * Vitest global setup for the FHIR validator (test/helpers/fhir-validator.ts): gives the run a
 * directory for the validator's lock, pid and port files, and stops the validator at the end if a
 * test started one. Nothing starts here: a run whose tests never validate FHIR pays nothing.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'vitalis-fhir-validator-'));
  project.provide('fhirValidatorDir', dir);
  project.provide('fhirValidatorParentPid', process.pid);
  return () => {
    stopValidatorIn(dir);
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Stops the validator started in `dir`, if any (only that pid, read from its pid file). */
export function stopValidatorIn(dir: string): void {
  const pidFile = join(dir, 'pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}
