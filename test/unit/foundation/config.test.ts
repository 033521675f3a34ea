import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, infraShape, port, hostPortList } from '@vitalis/config';
import { gatewayConfigShape, withBaseUrl } from '../../../apps/gateway/src/config';

describe('config', () => {
  it('applies documented defaults', () => {
    const config = withBaseUrl(parseConfig(gatewayConfigShape, {}));
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:55432/vitalis');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:56379');
    expect(config.KAFKA_BROKERS).toEqual(['127.0.0.1:59092']);
    expect(config.baseUrl).toBe('http://127.0.0.1:8080');
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

  it('refuses a DATABASE_URL of the wrong scheme', () => {
    expect(() => parseConfig(infraShape, { DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a URL with scheme postgres: or postgresql:/);
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
