/**
 * The audit checkpoint settings (docs/security.md, "Audit integrity"): development defaults, and
 * production refusing the public development key and an unnamed directory.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@vitalis/config';
import { auditCheckpointSettings, gatewayConfigShape } from '../../../apps/gateway/src/config';

const settings = (env: Record<string, string>) => auditCheckpointSettings(parseConfig(gatewayConfigShape, env));
const KEY = 'a-real-checkpoint-key-from-the-vault-0123';

describe('audit checkpoint settings', () => {
  it('development: every minute, a development key, a directory per database under .data/', () => {
    const dev = settings({ NODE_ENV: 'development', DATABASE_URL: 'postgres://postgres@127.0.0.1:55432/vitalis' });
    expect(dev.seconds).toBe(60);
    expect(dev.dir).toMatch(/\/\.data\/audit-checkpoints\/vitalis$/);
    expect(dev.key.length).toBeGreaterThanOrEqual(32);
    expect(settings({ NODE_ENV: 'development', DATABASE_URL: 'postgres://postgres@127.0.0.1:55432/other' }).dir).toMatch(
      /audit-checkpoints\/other$/,
    );
  });

  it('production: the key and the directory must be named', () => {
    expect(() => settings({ AUDIT_CHECKPOINT_DIR: '/mnt/worm/audit' })).toThrow(/AUDIT_CHECKPOINT_KEY: must be set in production/);
    expect(() => settings({ AUDIT_CHECKPOINT_KEY: KEY })).toThrow(/AUDIT_CHECKPOINT_DIR: must be set in production/);
    expect(settings({ AUDIT_CHECKPOINT_KEY: KEY, AUDIT_CHECKPOINT_DIR: '/mnt/worm/audit', AUDIT_CHECKPOINT_SECONDS: '300' })).toEqual({
      key: KEY,
      previousKeys: [],
      dir: '/mnt/worm/audit',
      seconds: 300,
    });
    expect(settings({ NODE_ENV: 'development', AUDIT_CHECKPOINT_PREVIOUS_KEYS: ' old-one , old-two,' }).previousKeys).toEqual([
      'old-one',
      'old-two',
    ]);
    expect(() => settings({ NODE_ENV: 'development', AUDIT_CHECKPOINT_KEY: 'short' })).toThrow(
      /AUDIT_CHECKPOINT_KEY: must be at least 32 characters/,
    );
  });

  it('a production gateway without a checkpoint key exits 78 naming it', () => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: '1',
      KEY_ENCRYPTION_SECRET: 'a-real-secret-from-the-vault',
      SANDBOX_ENABLED: 'false',
      AUDIT_CHECKPOINT_DIR: '/tmp/x',
    };
    delete env.NODE_ENV;
    delete env.AUDIT_CHECKPOINT_KEY;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('AUDIT_CHECKPOINT_KEY: must be set in production');
  });
});
