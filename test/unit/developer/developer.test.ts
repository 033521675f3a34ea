/** Pure parts of the developer surface: deprecation headers, OpenAPI derivations, key order, the catalog. */
import { describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import {
  assertDeprecation,
  attachDeprecationHeaders,
  deprecationHeader,
  deprecationLinks,
  sunsetHeader,
} from '../../../apps/gateway/src/developer/deprecation';
import { addProblemResponses, securityFor, sortKeys } from '../../../apps/gateway/src/developer/openapi';
import { renderPortal } from '../../../apps/gateway/src/developer/portal';
import { openapiPath, RouteCatalog, type RouteDeprecation } from '../../../apps/gateway/src/developer/route-meta';

const dep: RouteDeprecation = {
  since: '2026-11-23T00:00:00Z',
  sunset: '2027-12-31T23:59:59Z',
  replacement: '/api/v1/vitals/latest',
  migration: 'use `it`',
};

describe('deprecation headers', () => {
  it('formats RFC 9745 Deprecation as @unix-seconds and RFC 8594 Sunset as an HTTP-date', () => {
    expect(deprecationHeader('2026-11-23T00:00:00Z')).toBe('@1795392000');
    expect(sunsetHeader('2027-12-31T23:59:59Z')).toBe('Fri, 31 Dec 2027 23:59:59 GMT');
  });

  it('links the deprecation notice and the successor', () => {
    expect(deprecationLinks('https://api.example', dep)).toBe(
      '<https://api.example/developers#deprecation>; rel="deprecation", <https://api.example/api/v1/vitals/latest>; rel="successor-version"',
    );
  });

  it('refuses metadata that would emit malformed headers', () => {
    expect(() => assertDeprecation('/x', { ...dep, sunset: 'soon' })).toThrow(/ISO 8601/);
    expect(() => assertDeprecation('/x', { ...dep, sunset: '2020-01-01T00:00:00Z' })).toThrow(/after/);
    expect(() => assertDeprecation('/x', { ...dep, replacement: 'vitals/latest' })).toThrow(/path/);
  });

  it('adds one onSend hook to a deprecated route and leaves others alone', () => {
    const own = async () => undefined;
    const route = { method: 'GET', url: '/old', handler: own, config: { deprecation: dep }, onSend: own } as unknown as RouteOptions;
    attachDeprecationHeaders(route, () => 'http://b');
    expect(route.onSend).toHaveLength(2);
    const plain = { method: 'GET', url: '/new', handler: own } as unknown as RouteOptions;
    attachDeprecationHeaders(plain, () => 'http://b');
    expect(plain.onSend).toBeUndefined();
  });
});

describe('OpenAPI derivations', () => {
  it('turns the route contract into security requirements', () => {
    expect(securityFor(undefined)).toEqual([]);
    expect(securityFor({ scopes: ['read:vitals'] })).toEqual([{ oauth2: ['read:vitals'] }, { bearerAuth: ['read:vitals'] }]);
    expect(securityFor({ scopes: [] })).toEqual([{ oauth2: [] }, { bearerAuth: [] }]);
  });

  it('adds problem responses from the operation shape without overwriting declared ones', () => {
    const op: Record<string, any> = {
      requestBody: {},
      security: [{ oauth2: [] }],
      responses: { '200': {}, '400': { description: 'oauth' } },
    };
    addProblemResponses('/a/{id}', op);
    // 414: a path segment over the router's limit, on any templated path; 431: a request line (a long
    // path value) past Node's header limit, on any templated path too
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '401', '403', '404', '413', '414', '415', '431', '500', '503']);
    expect(op.responses['400']).toEqual({ description: 'oauth' });
    const open: Record<string, any> = { responses: {} };
    addProblemResponses('/health', open);
    expect(Object.keys(open.responses).sort()).toEqual(['500', '503']);
    const limited: Record<string, any> = { 'x-rate-limited': true, responses: {} };
    addProblemResponses('/sandbox', limited);
    expect(limited.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    const withHeader: Record<string, any> = { parameters: [{ in: 'header', name: 'if-match' }], responses: {} };
    addProblemResponses('/p', withHeader);
    expect(withHeader.responses['431']).toEqual({ $ref: '#/components/responses/RequestHeaderFieldsTooLarge' });
    const websocket: Record<string, any> = { 'x-websocket': true, security: [], responses: { '101': {} } };
    addProblemResponses('/ws', websocket);
    expect(Object.keys(websocket.responses).sort()).toEqual(['101', '401', '403', '426', '500', '503']);
  });

  it('sorts keys recursively and keeps arrays in order', () => {
    expect(JSON.stringify(sortKeys({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 2 } }))).toBe('{"a":{"c":2,"d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('converts fastify patterns to OpenAPI path templates', () => {
    expect(openapiPath('/api/v1/patients/:id/vitals/:code_x')).toBe('/api/v1/patients/{id}/vitals/{code_x}');
  });
});

describe('route catalog', () => {
  it('records every method and recognises HEAD twins of GET routes', () => {
    const catalog = new RouteCatalog();
    const handler = async () => undefined;
    catalog.add({ method: 'GET', url: '/a/:id', handler, config: { deprecation: dep } } as unknown as RouteOptions);
    catalog.add({ method: 'HEAD', url: '/a/:id', handler } as unknown as RouteOptions);
    catalog.add({ method: ['POST', 'HEAD'], url: '/b', handler } as unknown as RouteOptions);
    expect(catalog.routes.map((r) => [r.method, r.path, r.headTwin])).toEqual([
      ['GET', '/a/{id}', false],
      ['HEAD', '/a/{id}', true],
      ['POST', '/b', false],
      ['HEAD', '/b', false],
    ]);
    expect(catalog.deprecated().map((r) => r.path)).toEqual(['/a/{id}']);
  });
});

describe('portal', () => {
  it('escapes what it interpolates', () => {
    const html = renderPortal({ baseUrl: 'http://x"><script>', version: '1', deprecated: [] }, 'n');
    expect(html).not.toContain('<script>');
    expect(html).toContain('No endpoint is deprecated.');
  });
});
