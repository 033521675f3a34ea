import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, infraShape, migrationShape, port, hostPortList } from '@vitalis/config';
import { alarmSettings } from '@vitalis/clinical';
import { VITAL_CODE } from '@vitalis/schemas';
import { gatewayConfigShape, withBaseUrl } from '../../../apps/gateway/src/config';

describe('config', () => {
  it('applies documented defaults', () => {
    const config = withBaseUrl(parseConfig(gatewayConfigShape, { NODE_ENV: 'development' }));
    expect(config.PORT).toBe(8080);
    // The apps connect as the least-privileged role; only the migration step uses the owner.
    expect(config.DATABASE_URL).toBe('postgres://vitalis_app@127.0.0.1:55432/vitalis');
    expect(parseConfig(migrationShape, {}).MIGRATION_DATABASE_URL).toBe('postgres://postgres@127.0.0.1:55432/vitalis');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:56379');
    expect(config.KAFKA_BROKERS).toEqual(['127.0.0.1:59092']);
    expect(config.baseUrl).toBe('http://127.0.0.1:8080');
  });

  it('VITALIS_ALARMS: the defaults when unset, a site override applied, a bad document refused naming the variable', () => {
    const load = (env: Record<string, string>) => withBaseUrl(parseConfig(gatewayConfigShape, { NODE_ENV: 'development', ...env }));
    expect(load({}).alarms).toEqual(alarmSettings());
    expect(
      load({ VITALIS_ALARMS: JSON.stringify({ stale_after_s: { [VITAL_CODE.systolic]: 300 } }) }).alarms.staleAfterSeconds[
        VITAL_CODE.systolic
      ],
    ).toBe(300);
    expect(() => load({ VITALIS_ALARMS: '{' })).toThrow(/VITALIS_ALARMS: is not JSON/);
    expect(() => load({ VITALIS_ALARMS: '{"stale_after_s":{"nope":1}}' })).toThrow(/VITALIS_ALARMS: .*stale_after_s/);
  });

  it('names the bad variable in one line', () => {
    expect(() => parseConfig({ PORT: port(8080) }, { PORT: 'eighty' })).toThrow(ConfigError);
    try {
      parseConfig({ PORT: port(8080), KAFKA_BROKERS: hostPortList('x:1') }, { PORT: '70000', KAFKA_BROKERS: 'nope' });
    } catch (err) {
      const message = (err as Error).message;
      expect(message).not.toContain('\n');
      expect(message).toContain('PORT: must be a TCP port from 1 to 65535 (got "70000")');
      expect(message).toContain('KAFKA_BROKERS: must be a comma-separated list of host:port (got "nope")');
    }
  });

  it('NODE_ENV unset means production: the development key secret, an implicit sandbox and demo users are refused or off (security finding 12)', () => {
    expect(parseConfig(infraShape, {}).NODE_ENV).toBe('production');
    const load = (env: Record<string, string>) => withBaseUrl(parseConfig(gatewayConfigShape, env));
    expect(() => load({})).toThrow(/KEY_ENCRYPTION_SECRET: must be set in production/);
    const secret = { KEY_ENCRYPTION_SECRET: 'a-real-secret-from-the-vault' };
    expect(() => load(secret)).toThrow(/SANDBOX_ENABLED: must be set explicitly in production/);
    expect(load({ ...secret, SANDBOX_ENABLED: 'true' })).toMatchObject({ NODE_ENV: 'production', sandbox: true, demoUsers: false });
    expect(load({ ...secret, SANDBOX_ENABLED: 'false' })).toMatchObject({ sandbox: false, demoUsers: false });
    expect(load({ ...secret, SANDBOX_ENABLED: 'false', DEMO_USERS_ENABLED: 'true' }).demoUsers).toBe(true); // only when named
    expect(load({ NODE_ENV: 'development' })).toMatchObject({ sandbox: true, demoUsers: true });
  });

  it('a gateway started without NODE_ENV (production) and the development secret exits 78 naming it', () => {
    const env: Record<string, string | undefined> = { ...process.env, PORT: '1' };
    delete env.NODE_ENV;
    delete env.KEY_ENCRYPTION_SECRET;
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(78);
    expect(result.stderr).toContain('KEY_ENCRYPTION_SECRET: must be set in production');
  });

  it('refuses a DATABASE_URL of the wrong scheme', () => {
    expect(() => parseConfig(infraShape, { DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL: must be a URL with scheme postgres: or postgresql:/,
    );
  });

  it('an app started with a bad variable exits 78 with one clear line', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/gateway/src/main.ts'], {
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(78);
    expect(result.stderr.trim().split('\n')).toEqual([
      'vitalis-gateway: invalid configuration: PORT: must be a TCP port from 1 to 65535 (got "abc")',
    ]);
  });
});
