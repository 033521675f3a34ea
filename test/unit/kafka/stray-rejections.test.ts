/**
 * kafkajs's stray request rejections (libs/kafka stray-rejections.ts), in real Node processes: a
 * transport failure nobody awaited is logged and the process keeps running; any other unhandled
 * rejection still ends it (exit 1), as Node's default does.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const run = (kind: string) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'test/unit/kafka/stray-rejection-process.ts', kind], {
    encoding: 'utf8',
    timeout: 30_000,
  });

describe('an unhandled rejection in a process that runs Kafka clients', () => {
  it.each(['closed', 'timeout'])('a Kafka transport failure (%s) nobody awaited: logged, the process runs on', (kind) => {
    const p = run(kind);
    expect(p.status).toBe(0);
    expect(p.stdout).toContain('warn: a Kafka request nobody awaited failed with its broker connection');
    expect(p.stdout).toContain('still running');
  });

  it('any other error: the process ends (exit 1), its stack on stderr', () => {
    const p = run('other');
    expect(p.status).toBe(1);
    expect(p.stdout).not.toContain('still running');
    expect(p.stderr).toContain('a real bug');
  });
});
