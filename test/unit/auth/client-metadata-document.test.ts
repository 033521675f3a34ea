/**
 * The pure rules of Client ID Metadata Documents (auth/client-metadata-document.ts): which URLs may
 * be a client_id, how long a document is trusted, and how a fetched document is read.
 */
import { describe, expect, it } from 'vitest';
import {
  CLIENT_DOCUMENT_DEFAULT_TTL_SECONDS,
  CLIENT_DOCUMENT_MAX_TTL_SECONDS,
  CLIENT_DOCUMENT_MIN_TTL_SECONDS,
  documentTtlSeconds,
  documentUrlProblem,
  readDocument,
} from '../../../apps/gateway/src/auth/client-metadata-document';
import { OAuthError } from '../../../apps/gateway/src/auth/oauth-errors';

const none = new Set<string>();
const URL_ID = 'https://mcp-host.example.com/oauth/client.json';

describe('documentUrlProblem', () => {
  it('accepts an https URL with a path on a public name', () => {
    expect(documentUrlProblem(URL_ID, none)).toBeUndefined();
  });
  it.each([
    ['https://mcp-host.example.com', /path/],
    ['https://mcp-host.example.com/', /path/],
    ['https://mcp-host.example.com/client.json?v=2', /query/],
    ['https://mcp-host.example.com/a/../client.json', /dot segments/],
    ['https://mcp-host.example.com/./client.json', /dot segments/],
    ['https://mcp-host.example.com/client.json#x', /fragment/],
    ['https://user:pw@mcp-host.example.com/client.json', /credentials/],
    ['http://mcp-host.example.com/client.json', /https/],
    ['https://MCP-Host.example.com/client.json', /canonical form/],
    ['https://127.0.0.1/client.json', /non-public address/],
    ['https://10.0.0.7/client.json', /non-public address/],
    ['https://[::1]/client.json', /non-public address/],
    ['https://metadata.google.internal/client.json', /internal host name/],
    ['https://localhost/client.json', /internal host name/],
    [`https://mcp-host.example.com/${'a'.repeat(2000)}`, /longer than/],
  ])('refuses %s', (url, problem) => {
    expect(documentUrlProblem(url, none)).toMatch(problem);
  });
  it('a test-only exempt host may be a loopback address (refused in production by config.ts)', () => {
    expect(documentUrlProblem('https://127.0.0.1:8443/client.json', new Set(['127.0.0.1']))).toBeUndefined();
  });
});

describe('documentTtlSeconds', () => {
  it('follows max-age within the bounds', () => {
    expect(documentTtlSeconds('public, max-age=900')).toBe(900);
    expect(documentTtlSeconds('max-age=1')).toBe(CLIENT_DOCUMENT_MIN_TTL_SECONDS);
    expect(documentTtlSeconds('max-age=99999999')).toBe(CLIENT_DOCUMENT_MAX_TTL_SECONDS);
  });
  it('no-store / no-cache: the minimum; nothing said: the default', () => {
    expect(documentTtlSeconds('no-store')).toBe(CLIENT_DOCUMENT_MIN_TTL_SECONDS);
    expect(documentTtlSeconds('no-cache, max-age=900')).toBe(CLIENT_DOCUMENT_MIN_TTL_SECONDS);
    expect(documentTtlSeconds(undefined)).toBe(CLIENT_DOCUMENT_DEFAULT_TTL_SECONDS);
  });
});

describe('readDocument', () => {
  const doc = (extra: Record<string, unknown> = {}) =>
    Buffer.from(JSON.stringify({ client_id: URL_ID, redirect_uris: ['http://127.0.0.1:5000/cb'], ...extra }));
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(OAuthError);
      return (err as OAuthError).description;
    }
    throw new Error('not refused');
  };

  it('reads a public client: token_endpoint_auth_method none and client_name from the host by default', () => {
    expect(readDocument(URL_ID, doc(), 'application/json; charset=utf-8')).toMatchObject({
      client_name: 'mcp-host.example.com',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['http://127.0.0.1:5000/cb'],
    });
  });
  it('refuses another client_id, secrets, shared-secret methods, software statements, non-JSON', () => {
    expect(refusal(() => readDocument(URL_ID, doc({ client_id: `${URL_ID}x` }), 'application/json'))).toMatch(/different client_id/);
    expect(refusal(() => readDocument(URL_ID, doc({ client_secret: 's' }), 'application/json'))).toMatch(/client secret/);
    for (const method of ['client_secret_basic', 'client_secret_post', 'client_secret_jwt']) {
      expect(refusal(() => readDocument(URL_ID, doc({ token_endpoint_auth_method: method }), 'application/json'))).toMatch(/shared secret/);
    }
    expect(refusal(() => readDocument(URL_ID, doc({ software_statement: 'e.y.z' }), 'application/json'))).toMatch(/software statement/);
    expect(refusal(() => readDocument(URL_ID, doc(), 'text/plain'))).toMatch(/not application\/json/);
    expect(refusal(() => readDocument(URL_ID, Buffer.from('{'), 'application/json'))).toMatch(/not JSON/);
    expect(refusal(() => readDocument(URL_ID, Buffer.from('[]'), 'application/json'))).toMatch(/not a JSON object/);
  });
});
