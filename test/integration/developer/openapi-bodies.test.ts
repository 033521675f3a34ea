/**
 * The served /openapi.json types every body (issue 19 item 4; the conventions are docs/api.md's
 * "Conventions for a new route"): every operation has a unique operationId, every request and
 * response body is a named component (`components/schemas`), every request body has an example,
 * and a free-form object or an untyped value appears only where FREE_FORM below says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodiesOf, freeFormPlaces, isAnonymous, operationsOf, requestExampleOf } from '../../helpers/openapi-walk';
import { startGateway, type RunningGateway } from '../../helpers/gateway';

type Json = Record<string, any>;

/**
 * Where the data truly is free-form: `<Component><JSON pointer>` → why. A new entry needs a reason a
 * reviewer accepts; anything else gets a schema.
 */
const FREE_FORM: Record<string, string> = {
  'AuthorizationServerMetadata/additionalProperties':
    'RFC 8414 / OpenID Connect Discovery metadata: members defined by those specifications, extensible',
  'ProtectedResourceMetadata/additionalProperties': 'RFC 9728 metadata: members defined by the RFC, extensible',
  'SmartConfiguration/additionalProperties': 'SMART App Launch v2 configuration: members defined by the specification, extensible',
  'JsonWebKeySet/additionalProperties': "RFC 7517 JWK Set: each key's members depend on its kty",
  'PostApiAuthRegisterRequest/properties/jwks/properties/keys/items/additionalProperties': "a client's JWK (RFC 7517): members by kty",
  'PostApiAuthRegisterResponse201/properties/jwks/properties/keys/items/additionalProperties': 'the registered JWK, as the client sent it',
  'PostApiAuthRevokeRequest/additionalProperties': 'RFC 7009 §2.1: other form parameters are allowed (and ignored)',
  'PostApiAuthOauth2IntrospectResponse200/properties/act': 'RFC 8693 `act` claim as issued: a nested chain of actors',
  'GetAgentIdentityResponse/properties/act/properties/act/additionalProperties':
    'RFC 8693 `act` claim: the rest of the delegation chain, nested',
  'Problem/additionalProperties': 'RFC 9457 §3.2: problem types may add extension members',
  JsonRpcMessageInput: 'an MCP JSON-RPC message: the MCP specification defines them (the SDK validates)',
  JsonRpcResponse: 'an MCP JSON-RPC response: the MCP specification defines the results',
  'JsonRpcError/additionalProperties': 'JSON-RPC 2.0 error object: extensible',
  'JsonRpcError/properties/error/additionalProperties': 'JSON-RPC 2.0 `error.data`: defined by the method',
  'FhirCapabilityStatement/additionalProperties':
    'FHIR R4 CapabilityStatement: the other elements as FHIR R4 defines them (validated with the HAPI validator in the tests)',
  'FhirOperationOutcome/additionalProperties': 'FHIR R4 OperationOutcome: the other elements as FHIR R4 defines them',
  'FhirSubscription/additionalProperties':
    'FHIR R4 Subscription with the Subscriptions R5 Backport extensions: elements and extensions as FHIR and the IG define them (HAPI-validated in the tests)',
  'FhirSubscriptionInput/additionalProperties':
    'a FHIR R4 Subscription as a client sends it (backport profile): FHIR-defined elements; the route checks what it uses',
  'FhirSubsettedResource/additionalProperties':
    'a searchset entry with _elements or _summary=data: whichever elements of the full resource were kept (its type, id and SUBSETTED tag are typed)',
  'FhirSubsettedResource/properties/meta/additionalProperties':
    "the resource's other meta elements (versionId, lastUpdated, profile) as FHIR defines them",
  'FhirSubsettedResource/properties/meta/properties/tag/items/additionalProperties':
    'a FHIR Coding: its other elements (version, display) as FHIR defines them',
  'BulkExportParametersInput/additionalProperties':
    'a FHIR R4 Parameters resource as a client sends it: its other elements (id, meta) as FHIR defines them; the operation reads parameter',
  'BulkExportParametersInput/properties/parameter/items/properties/valueReference/additionalProperties':
    'a FHIR Reference (the patient parameter): elements other than reference (display, type) are accepted and ignored',
  'FhirParameters/additionalProperties': 'FHIR R4 Parameters (the backport subscription status): parameters as the IG defines them',
  'FhirParametersInput/additionalProperties':
    'FHIR R4 Parameters as a client may send it ($get-ws-binding-token): ignored at the instance level',
  'FhirBundleSubscriptionNotification/additionalProperties':
    'a FHIR R4 history Bundle (backport notification): the other Bundle elements as FHIR defines them',
  'FhirBundleSubscriptionNotification/properties/entry/items/additionalProperties':
    'a Bundle entry: the other elements as FHIR defines them',
  'FhirBundleSubscriptionNotification/properties/entry/items/properties/resource/additionalProperties':
    "the event's resource: an Observation (FhirObservation) or a Flag, or the status Parameters",
  'FhirAppointmentBookInput/additionalProperties':
    'a FHIR R4 Appointment as a client sends it: elements Vitalis does not keep are accepted and ignored (FHIR clients send whole resources)',
  'FhirAppointmentBookInput/properties/participant/items/additionalProperties':
    'a FHIR Appointment.participant: elements other than actor are accepted and ignored',
  'GetAuditResponse/properties/data/items/properties/detail/additionalProperties':
    "an audit record's detail: what the audited action recorded (by action)",
  'GetPatientsByIdHistoryResponse/properties/events/items/properties/data/additionalProperties':
    "an event's payload, by event type and schema_version (the append log as stored)",
  'GetPatientsByIdHistoryResponse/properties/events/items/properties/metadata/additionalProperties':
    "an event's metadata (correlation, causation, actor) as stored",
  'GetOpenapiJsonResponse/additionalProperties': 'the OpenAPI 3.1 document itself',
  'GetOpenapiJsonResponse/properties/info/additionalProperties': 'the OpenAPI 3.1 document itself',
  'GetOpenapiJsonResponse/properties/paths/additionalProperties': 'the OpenAPI 3.1 document itself',
};

let gw: RunningGateway;
let doc: Json;

beforeAll(async () => {
  gw = await startGateway();
  doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as Json;
});
afterAll(async () => {
  await gw?.close();
});

describe('GET /openapi.json: every body typed', () => {
  it('gives every operation a unique operationId', () => {
    const ids = operationsOf(doc).map(({ key, op }) => {
      expect(op.operationId, key).toMatch(/^[a-z][A-Za-z0-9]*$/);
      return op.operationId as string;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('publishes every structured request and response body as a named component', () => {
    const anonymous = operationsOf(doc).flatMap(({ key, op }) =>
      bodiesOf(op)
        .filter((b) => isAnonymous(b.media.schema))
        .map((b) => `${key} ${b.where}`),
    );
    expect(anonymous).toEqual([]);
    for (const { op } of operationsOf(doc)) {
      for (const { media } of bodiesOf(op)) {
        const ref = media.schema?.$ref as string | undefined;
        if (ref) expect(doc.components.schemas[ref.replace('#/components/schemas/', '')], ref).toBeDefined();
      }
    }
  });

  it('has free-form objects and untyped values only where the allow-list says why', () => {
    const places = freeFormPlaces(doc);
    expect(places.filter((p) => !(p in FREE_FORM))).toEqual([]);
    // and the list stays true: an entry whose place was typed since goes
    expect(Object.keys(FREE_FORM).filter((p) => !places.includes(p))).toEqual([]);
  });

  it('gives every request body an example', () => {
    const missing = operationsOf(doc)
      .filter(({ op }) => op.requestBody && requestExampleOf(doc, op) === undefined)
      .map(({ key }) => key);
    expect(missing).toEqual([]);
  });

  it('types the resources a generated client reads (no open records): Patient, Appointment, observations, reports', () => {
    const schemas = doc.components.schemas as Record<string, Json>;
    for (const name of [
      'Patient',
      'AllergyIntolerance',
      'Appointment',
      'Slot',
      'Schedule',
      'ServiceRequest',
      'DiagnosticReport',
      'FhirObservation',
      'StoredVitalsObservation',
      'PatientRecord',
      'News2',
    ]) {
      expect(schemas[name], name).toBeDefined();
      expect(schemas[name]!.additionalProperties ?? false, name).toBe(false);
    }
    // POST /api/v1/vitals publishes its items (it validates them one by one, all-or-nothing):
    // observations or frames (either envelope version, ADR 0029), at least one of either (anyOf)
    const publish =
      schemas[(doc.paths['/api/v1/vitals'].post.requestBody.content['application/json'].schema.$ref as string).split('/').pop()!]!;
    expect(publish.anyOf).toHaveLength(2);
    for (const branch of publish.anyOf as Json[]) {
      expect(branch.properties.observations.items).toEqual({ $ref: '#/components/schemas/VitalsObservationInput' });
      expect(branch.properties.frames.items).toEqual({
        oneOf: [{ $ref: '#/components/schemas/VitalsFrameInput' }, { $ref: '#/components/schemas/VitalsFrameV2Input' }],
      });
    }
    expect((publish.anyOf as Json[]).map((b) => b.required)).toEqual([['observations'], ['frames']]);
  });
});
