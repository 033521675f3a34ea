/**
 * The FHIR resource definitions and their one registrar (issue 32 item 3): a query schema's
 * registered parameters are the statement's (and stay out of the OpenAPI's JSON Schema), a
 * definition's statement entry follows its interactions, every served type is defined once with
 * its vread where it lists one, and the registrar's search, read and vread routes page, version and
 * reply as FHIR (a definition over a fake service, no database).
 */
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { GatewayDeps } from '../../../apps/gateway/src/deps';
import {
  capabilityEntryOf,
  countParam,
  defineFhirResource,
  defineUpdate,
  searchParam,
  searchParamsOf,
} from '../../../apps/gateway/src/fhir/definition';
import { registerFhirResource } from '../../../apps/gateway/src/fhir/register';
import { FHIR_RESOURCE_DEFINITIONS } from '../../../apps/gateway/src/fhir/resources';
import { cursor, format, positionCursor, statusesOf, loincCodes } from '../../../apps/gateway/src/fhir/search-params';

const ITEMS = ['a', 'b', 'c', 'd', 'e'];
const widget = defineFhirResource({
  type: 'Widget',
  interactions: ['read', 'vread', 'search-type', 'update'],
  schema: z.looseObject({ resourceType: z.literal('Widget') }),
  bundle: z.looseObject({ resourceType: z.literal('Bundle') }),
  search: {
    description: 'Widgets.',
    query: z.strictObject({
      name: searchParam(z.string().max(10).optional(), 'string', 'The name.'),
      _count: countParam(3, 2),
      _cursor: cursor,
      _format: format,
    }),
    search: async ({ q, match }) => {
      const from = q._cursor === undefined ? 0 : ITEMS.indexOf(q._cursor) + 1;
      const page = ITEMS.slice(from, from + q._count);
      const last = page[page.length - 1];
      return {
        entries: page.map((id) => match('Widget', id, { resourceType: 'Widget', id })),
        nextCursor: from + q._count < ITEMS.length && last !== undefined ? last : null,
      };
    },
  },
  read: {
    description: 'A widget.',
    conditional: true,
    read: async ({ id, vid }) => ({
      resource: { resourceType: 'Widget', id, vid },
      version: vid ?? 3,
      lastModified: '2026-01-02T03:04:05Z',
    }),
  },
  vread: { description: 'A widget version.' },
  update: defineUpdate({
    auth: { scopes: ['write:patients'] },
    description: 'Replaces a widget.',
    body: z.looseObject({ resourceType: z.literal('Widget'), id: z.string().optional(), name: z.string() }),
    update: async ({ id, expected, body }) => ({
      resource: { resourceType: 'Widget', id, name: body.name, expected },
      version: 4,
      lastModified: '2026-01-02T03:04:05Z',
    }),
  }),
});

async function widgetApp() {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerFhirResource(app, widget, { config: { baseUrl: 'https://x.example' } } as unknown as GatewayDeps);
  await app.ready();
  return app;
}

describe('search parameters registered on the query schema', () => {
  it('lists the registered ones in key order, with their FHIR type and documentation, and not _cursor or _format', () => {
    expect(searchParamsOf(widget.search.query)).toEqual([
      { name: 'name', type: 'string', documentation: 'The name.' },
      { name: '_count', type: 'number', documentation: 'Page size, 1-3 (default 2); further pages via Bundle.link next.' },
    ]);
  });

  it('leaves the JSON Schema of the query (what the OpenAPI publishes) as it was', () => {
    const plain = z.strictObject({ name: z.string().max(10).optional() });
    const registered = z.strictObject({ name: searchParam(z.string().max(10).optional(), 'string', 'The name.') });
    expect(z.toJSONSchema(registered)).toEqual(z.toJSONSchema(plain));
  });
});

describe('capabilityEntryOf', () => {
  it('follows the interactions: versioned with history for vread, no updateCreate for update, conditionalRead for a conditional read', () => {
    expect(capabilityEntryOf(widget)).toEqual({
      type: 'Widget',
      interaction: [{ code: 'read' }, { code: 'vread' }, { code: 'search-type' }, { code: 'update' }],
      versioning: 'versioned',
      readHistory: true,
      updateCreate: false,
      conditionalRead: 'not-match',
      searchParam: searchParamsOf(widget.search.query),
    });
  });

  it('every served type is defined once, reads and searches, and has a vread route exactly when it lists vread', () => {
    const types = FHIR_RESOURCE_DEFINITIONS.map((d) => d.type);
    expect(new Set(types).size).toBe(types.length);
    for (const d of FHIR_RESOURCE_DEFINITIONS) {
      expect(d.interactions, d.type).toEqual(expect.arrayContaining(['read', 'search-type']));
      expect(d.vread !== undefined, d.type).toBe(d.interactions.includes('vread'));
      expect(d.create !== undefined, d.type).toBe(d.interactions.includes('create'));
      expect(d.update !== undefined, d.type).toBe(d.interactions.includes('update'));
    }
  });
});

describe('registerFhirResource', () => {
  it('answers a searchset with self and a next link carrying the query as given and the cursor last', async () => {
    const app = await widgetApp();
    const res = await app.inject({ url: '/fhir/R4/Widget?name=x&_count=2' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as { link: { relation: string; url: string }[]; entry: { fullUrl: string }[] };
    expect(body.entry.map((e) => e.fullUrl)).toEqual(['https://x.example/fhir/R4/Widget/a', 'https://x.example/fhir/R4/Widget/b']);
    expect(body.link).toEqual([
      { relation: 'self', url: 'https://x.example/fhir/R4/Widget?name=x&_count=2' },
      { relation: 'next', url: 'https://x.example/fhir/R4/Widget?name=x&_count=2&_cursor=b' },
    ]);
    const last = (await app.inject({ url: '/fhir/R4/Widget?_count=3&_cursor=b' })).json() as { link: unknown[] };
    expect(last.link).toHaveLength(1);
    // an unknown parameter is refused by the query schema (the gateway's problem plugin makes it a 400 OperationOutcome)
    expect((await app.inject({ url: '/fhir/R4/Widget?colour=red' })).statusCode).toBeGreaterThanOrEqual(400);
    await app.close();
  });

  it('reads with ETag and Last-Modified, 304 on If-None-Match; a vread passes the version and never answers 304', async () => {
    const app = await widgetApp();
    const read = await app.inject({ url: '/fhir/R4/Widget/w1' });
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('W/"3"');
    expect(read.headers['last-modified']).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect((await app.inject({ url: '/fhir/R4/Widget/w1', headers: { 'if-none-match': 'W/"3"' } })).statusCode).toBe(304);
    const vread = await app.inject({ url: '/fhir/R4/Widget/w1/_history/2', headers: { 'if-none-match': 'W/"2"' } });
    expect(vread.statusCode).toBe(200);
    expect(vread.json()).toMatchObject({ id: 'w1', vid: 2 });
    expect(vread.headers.etag).toBe('W/"2"');
    await app.close();
  });

  it('updates with If-Match required (428 without), the body id the URL one (400), ETag and Last-Modified of the new version', async () => {
    const app = await widgetApp();
    const put = (headers: Record<string, string>, body: object) =>
      app.inject({ method: 'PUT', url: '/fhir/R4/Widget/w1', headers: { 'content-type': 'application/json', ...headers }, payload: body });
    const ok = await put({ 'if-match': 'W/"3"' }, { resourceType: 'Widget', id: 'w1', name: 'n' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id: 'w1', name: 'n', expected: 3 });
    expect(ok.headers.etag).toBe('W/"4"');
    expect(ok.headers['last-modified']).toBe('Fri, 02 Jan 2026 03:04:05 GMT');
    expect(ok.headers['content-type']).toMatch(/^application\/fhir\+json/);
    expect((await put({}, { resourceType: 'Widget', name: 'n' })).statusCode).toBe(428);
    // a bad request (the gateway's problem plugin makes it a 400 OperationOutcome)
    const otherId = await put({ 'if-match': 'W/"3"' }, { resourceType: 'Widget', id: 'w2', name: 'n' });
    expect(otherId.statusCode).toBeGreaterThanOrEqual(400);
    expect(otherId.body).toContain("The Widget's id (w2) is not the one in the URL (w1).");
    await app.close();
  });

  it('refuses a definition that lists a write it does not define', () => {
    const { update: _update, ...unwritable } = widget;
    expect(() => registerFhirResource(Fastify(), unwritable, {} as GatewayDeps)).toThrow(/update is listed but not defined/);
  });
});

describe('search values', () => {
  it('statusesOf: undefined without a value, null when none is known, the known ones otherwise', () => {
    expect(statusesOf(undefined, ['a', 'b'] as const)).toBeUndefined();
    expect(statusesOf('x,y', ['a', 'b'] as const)).toBeNull();
    expect(statusesOf('a, x ,b', ['a', 'b'] as const)).toEqual(['a', 'b']);
  });

  it('loincCodes keeps LOINC (or system-less) codes; positionCursor is none on the last page', () => {
    expect(loincCodes('http://loinc.org|1-1,http://snomed.info/sct|2,3-3')).toEqual(['1-1', '3-3']);
    expect(loincCodes('http://snomed.info/sct|2')).toBeNull();
    expect(positionCursor(null)).toBeNull();
    expect(positionCursor({ t: 't', i: 'i' })).toEqual(expect.any(String));
  });
});
