/**
 * GET /auth.md is public Markdown naming this server, with every step. Its ```sh blocks are RUN,
 * verbatim and in order, as a reader pastes them, by walkthrough.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

let gw: RunningGateway;
let res: Response;
let markdown: string;

beforeAll(async () => {
  gw = await startGateway();
  res = await fetch(`${gw.url}/auth.md`);
  markdown = await res.text();
});
afterAll(async () => {
  await gw?.close();
});

describe('GET /auth.md', () => {
  it('is public Markdown naming this server', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(markdown).toMatch(/^# Vitalis authentication walkthrough/);
    expect(markdown).toContain(`BASE=${gw.url}\n`);
    for (const step of [
      'Discover',
      'Register',
      'client credentials',
      'Probe',
      'Token exchange',
      'Use the token',
      'Revoke',
      'Sandbox',
      'PKCE',
    ]) {
      expect(markdown).toContain(step);
    }
  });
});
