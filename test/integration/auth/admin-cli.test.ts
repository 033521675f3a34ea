/**
 * The operator's command line reads its words exactly: a signing key's kid is base64url, so one in
 * 64 begins with '-'; `withdraw-key` must take it as the kid, not as an unknown option (it crashed
 * with no answer before: the disruptive key-rotation test hit it at random). Unknown options are a
 * usage error (exit 2), never a crash. Only unknown kids are withdrawn here: the suite's keys stay.
 * The command line is also the one way to a `system` initial access token (issue 30: the admin API
 * refuses it, iat-minting.test.ts), which `make run`'s demo client is registered with.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testEnv } from '../../helpers/env';
import { startGateway } from '../../helpers/gateway';

function admin(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/gateway/src/admin-cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: testEnv.APP_DATABASE_URL, NODE_ENV: 'test' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run admin -- withdraw-key', () => {
  it('takes a kid that begins with "-" as the kid (with or without "--" before it)', () => {
    for (const args of [
      ['withdraw-key', '-Zz9_unknown-kid'],
      ['withdraw-key', '--', '-Zz9_unknown-kid'],
    ]) {
      const r = admin(...args);
      expect(r.status, r.stderr).toBe(1); // no such key: nothing withdrawn
      expect(JSON.parse(r.stdout)).toEqual({ kid: '-Zz9_unknown-kid', withdrawn: false });
    }
  });

  it('a missing kid, extra words or an unknown option are usage errors (exit 2), not crashes', () => {
    for (const args of [['withdraw-key'], ['withdraw-key', 'a', 'b'], ['rotate-key', '--bogus'], ['initial-access-token', '--role']]) {
      const r = admin(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('usage: npm run admin');
      expect(r.stdout).toBe('');
    }
  });
});

describe('npm run admin -- initial-access-token', () => {
  it('mints the system role (the admin API never does), and a client registered with it gets the role', async () => {
    const label = `cli system ${randomUUID()}`;
    const r = admin('initial-access-token', '--role', 'system', '--uses', '1', '--ttl', '600', '--label', label);
    expect(r.status, r.stderr).toBe(0);
    const minted = JSON.parse(r.stdout) as { initial_access_token: string; role: string; max_uses: number; label: string };
    expect(minted).toMatchObject({ role: 'system', max_uses: 1, label });
    const gw = await startGateway();
    try {
      const res = await fetch(`${gw.url}/api/auth/register`, {
        method: 'POST',
        headers: { authorization: `Bearer ${minted.initial_access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'cli-system',
          grant_types: ['client_credentials'],
          token_endpoint_auth_method: 'client_secret_post',
          scope: 'write:vitals read:audit',
        }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ role: 'system', scope: 'write:vitals read:audit' });
    } finally {
      await gw.close();
    }
  });
});
