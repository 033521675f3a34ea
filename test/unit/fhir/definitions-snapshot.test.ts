/**
 * What a FHIR client sees, pinned before the resources became definitions (issue 32 item 3): the
 * CapabilityStatement for a fixed base URL and version, and the FHIR part of the published OpenAPI
 * (every path under /fhir/R4 and every component those paths reference, transitively). Both are
 * compared with the JSON files checked in beside this test, so a change to a definition that would
 * change either shows here. schemas/openapi.json itself is kept equal to a fresh generation by
 * test/integration/developer/openapi-export.test.ts; this test reads the committed file.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { capabilityStatement } from '../../../apps/gateway/src/fhir/capability';
import { OPENAPI_FILE } from '../../../apps/gateway/src/openapi-export';
import { fhirPartOf, type OpenapiDocument } from './openapi-part';

const SNAPSHOTS = new URL('./__snapshots__/', import.meta.url);
const readJson = (file: string | URL): unknown => JSON.parse(readFileSync(file, 'utf8'));

import { SNAPSHOT_BASE_URL, SNAPSHOT_VERSION } from './openapi-part';

describe('FHIR wire output against the snapshot taken before the definitions', () => {
  it('the CapabilityStatement is the snapshot', () => {
    const statement = JSON.parse(JSON.stringify(capabilityStatement(SNAPSHOT_BASE_URL, SNAPSHOT_VERSION))) as unknown;
    expect(statement).toEqual(readJson(new URL('fhir-capability.json', SNAPSHOTS)));
  });

  it('the /fhir/R4 paths of the published OpenAPI, with the components they reference, are the snapshot', () => {
    const part = fhirPartOf(readJson(OPENAPI_FILE) as OpenapiDocument);
    expect(Object.keys(part.paths).length).toBeGreaterThan(30);
    expect(part).toEqual(readJson(new URL('fhir-openapi.json', SNAPSHOTS)));
  });

  it('fhirPartOf follows references transitively and leaves other paths out', () => {
    const doc: OpenapiDocument = {
      paths: { '/fhir/R4/X': { get: { $ref: '#/components/schemas/A' } }, '/api/v1/y': { get: { $ref: '#/components/schemas/C' } } },
      components: { schemas: { A: { items: { $ref: '#/components/schemas/B' } }, B: { type: 'string' }, C: { type: 'number' } } },
    };
    expect(fhirPartOf(doc)).toEqual({
      paths: { '/fhir/R4/X': { get: { $ref: '#/components/schemas/A' } } },
      components: { schemas: { A: { items: { $ref: '#/components/schemas/B' } }, B: { type: 'string' } } },
    });
  });
});
