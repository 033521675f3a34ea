/**
 * GET /openapi.json on a real gateway: a valid OpenAPI 3.1 document (checked by
 * @apidevtools/swagger-parser), listing every route the server registered (compared with the
 * router's own catalog, both ways), with security derived from the route contract, problem
 * responses and the deprecation flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { SCOPE_NAMES, SIGN_IN_SCOPES, needsUser } from '@vitalis/schemas';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

type Json = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

let gw: RunningGateway;
let doc: Json;
let res: Response;

beforeAll(async () => {
  gw = await startGateway();
  res = await fetch(`${gw.url}/openapi.json`);
  doc = (await res.json()) as Json;
});
afterAll(async () => {
  await gw?.close();
});

const operations = (d: Json) =>
  Object.entries(d.paths as Record<string, Json>).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ key: `${m.toUpperCase()} ${path}`, op: item[m] as Json })),
  );

describe('GET /openapi.json', () => {
  it('is public JSON with a request id', () => {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: gw.url }]);
  });

  it('passes a real OpenAPI validator with no errors', async () => {
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('lists every route the router registered, and nothing else (HEAD twins of GET are documented through the GET)', () => {
    const registered = gw.app.routeCatalog.routes.filter((r) => !r.headTwin).map((r) => `${r.method} ${r.path}`);
    const documented = operations(doc).map((o) => o.key);
    expect(registered.length).toBeGreaterThan(15);
    expect([...new Set(documented)].sort()).toEqual([...new Set(registered)].sort());
    for (const required of [
      'GET /openapi.json',
      'GET /auth.md',
      'GET /developers',
      'GET /api/v1/health',
      'POST /api/auth/oauth2/token',
      'GET /api/v1/vitals/latest',
    ]) {
      expect(documented).toContain(required);
    }
  });

  it('gives every operation a summary, tags and at least one success response (101 for the WebSocket upgrade)', () => {
    for (const { key, op } of operations(doc)) {
      expect(op.summary, key).toBeTruthy();
      expect(op.tags?.length, key).toBeGreaterThan(0);
      expect(
        Object.keys(op.responses).some((s) => /^(101|[23]..)$/.test(s)),
        key,
      ).toBe(true);
    }
  });

  it('declares OAuth 2 flows with every scope (client_credentials: all but those that need a user: sign-in, SMART patient/ and user/ ...) and a bearer scheme', () => {
    const { oauth2, bearerAuth } = doc.components.securitySchemes;
    expect(Object.keys(oauth2.flows.clientCredentials.scopes).sort()).toEqual(SCOPE_NAMES.filter((s) => !needsUser(s)).sort());
    for (const s of SIGN_IN_SCOPES) expect(Object.keys(oauth2.flows.clientCredentials.scopes)).not.toContain(s);
    expect(Object.keys(oauth2.flows.authorizationCode.scopes).sort()).toEqual([...SCOPE_NAMES].sort());
    expect(oauth2.flows.clientCredentials.tokenUrl).toBe(`${gw.url}/api/auth/oauth2/token`);
    expect(oauth2.flows.authorizationCode.authorizationUrl).toBe(`${gw.url}/api/auth/oauth2/authorize`);
    expect(bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('derives each operation security from the route contract (scopes per operation, public routes open)', () => {
    for (const route of gw.app.routeCatalog.routes.filter((r) => !r.headTwin)) {
      const op = doc.paths[route.path][route.method.toLowerCase()];
      if (route.auth) {
        // scopes: one requirement per scheme (all of them); anyOf: one requirement per scope and scheme
        const expected = route.auth.anyOf
          ? ['oauth2', 'bearerAuth'].flatMap((scheme) => route.auth!.anyOf!.map((s) => ({ [scheme]: [s] })))
          : [{ oauth2: route.auth.scopes }, { bearerAuth: route.auth.scopes }];
        expect(op.security, route.path).toEqual(expected);
        if (route.path.startsWith('/fhir/R4/')) {
          // the FHIR API answers its refusals (same status and WWW-Authenticate) as OperationOutcomes
          for (const status of ['401', '403']) {
            expect(op.responses[status].content, `${route.path} ${status}`).toEqual({
              'application/fhir+json': { schema: { $ref: '#/components/schemas/FhirOperationOutcome' } },
            });
          }
        } else {
          expect(op.responses['401'], route.path).toEqual({ $ref: '#/components/responses/Unauthorized' });
          expect(op.responses['403'], route.path).toEqual({ $ref: '#/components/responses/Forbidden' });
        }
      } else {
        expect(op.security, route.path).toEqual([]);
      }
    }
    expect(doc.paths['/api/v1/vitals'].post.security[0]).toEqual({ oauth2: ['write:vitals'] });
    expect(doc.paths['/api/v1/vitals'].get.security[0]).toEqual({ oauth2: ['read:vitals'] });
    expect(doc.paths['/api/v1/patients'].get.security.filter((r: Json) => 'oauth2' in r)).toEqual([
      { oauth2: ['read:patients'] },
      { oauth2: ['write:patients'] },
      { oauth2: ['patient/Patient.rs'] },
    ]);
  });

  it('documents the 401 and 403 refusals as application/problem+json, as they are served (ADR 0011)', () => {
    for (const name of ['Unauthorized', 'Forbidden']) {
      expect(Object.keys(doc.components.responses[name].content), name).toEqual(['application/problem+json']);
    }
  });

  it('documents problem responses with a shared Problem schema as application/problem+json', () => {
    const problem = doc.components.responses.NotFound.content['application/problem+json'].schema;
    expect(problem).toEqual({ $ref: '#/components/schemas/Problem' });
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'detail']);
    const post = doc.paths['/api/v1/vitals'].post;
    for (const s of ['400', '401', '403', '413', '415', '500', '503']) expect(post.responses[s], s).toBeDefined();
    expect(doc.paths['/api/v1/sandbox'].post.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    // a status the route declares itself is kept (OAuth error bodies are not problems)
    expect(doc.paths['/api/auth/oauth2/token'].post.responses['400'].content['application/json']).toBeDefined();
  });

  it('documents parameters and bodies from the zod schemas', () => {
    const params = doc.paths['/api/v1/vitals'].get.parameters as Json[];
    expect(params.map((p) => p.name)).toEqual(expect.arrayContaining(['patient', 'from', 'to', 'bucket', 'agg', 'limit', 'cursor']));
    expect(params.find((p) => p.name === 'patient')).toMatchObject({ in: 'query', required: true });
    expect(doc.paths['/api/v1/patients/{id}/vitals/latest'].get.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path', required: true })]),
    );
    // bodies are named components (openapi-bodies.test.ts): follow the reference
    const publish = doc.paths['/api/v1/vitals'].post.requestBody.content['application/json'].schema as Json;
    expect(publish.$ref).toMatch(/^#\/components\/schemas\//);
    expect(doc.components.schemas[publish.$ref.split('/').pop()].anyOf[0].properties.observations).toBeDefined();
  });

  it('marks the deprecated endpoint deprecated and not its successor', () => {
    const old = doc.paths['/api/v1/patients/{id}/vitals/latest'].get;
    expect(old.deprecated).toBe(true);
    expect(old.description).toContain('/api/v1/vitals/latest');
    expect(doc.paths['/api/v1/vitals/latest'].get.deprecated).toBeUndefined();
  });

  it('carries the version, links to the docs, and the release and migration notes (spec 9.6)', () => {
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(doc.externalDocs.url).toBe(`${gw.url}/developers`);
    expect(doc.info.description).toContain('## Release notes');
    expect(doc.info.description).toContain('## Migration notes');
    expect(doc.info.description).toContain(`${gw.url}/auth.md`);
  });
});
