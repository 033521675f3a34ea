/**
 * The FHIR R4 REST API at /fhir/R4 (issue 22 item 2; issue 32 item 3): the CapabilityStatement,
 * every resource definition of resources/ registered by the one registrar (register.ts: search,
 * read, vread, create, update) and `Observation/$lastn` (operations/lastn.ts). Same
 * services as REST v1, hence the same scopes (every route declares them for the one guard), patient
 * rules, sandbox rule and audit. `_format` and Accept are negotiated here for every route below;
 * errors are OperationOutcomes, answered by the one problem serialiser (libs/http) for every path
 * under /fhir/R4.
 */
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fhirReply, negotiateFormat } from '@vitalis/http';
import type { GatewayDeps } from '../deps';
import { FHIR_BASE_PATH } from './base';
import { capabilityStatement } from './capability';
import { registerLastn } from './operations/lastn';
import { registerFhirResource } from './register';
import { FHIR_RESOURCE_DEFINITIONS } from './resources';
import { fhirCapabilityStatement, outcomes } from './schemas';
import { format } from './search-params';

export function fhirRoutes(deps: GatewayDeps, version: string): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', async (req) => negotiateFormat(req));
    for (const def of FHIR_RESOURCE_DEFINITIONS) registerFhirResource(app, def, deps);
    registerLastn(app, deps);

    app.get(
      `${FHIR_BASE_PATH}/metadata`,
      {
        schema: {
          tags: ['fhir'],
          summary: 'FHIR CapabilityStatement',
          operationId: 'fhirCapabilities',
          description:
            'What this FHIR R4 server implements: resources, interactions, search parameters, operations; security: OAuth with the SMART oauth-uris extension. Public.',
          querystring: z.object({ _format: format, mode: z.enum(['full']).optional() }),
          response: { 200: fhirCapabilityStatement, ...outcomes(406) },
        },
      },
      async (_req, reply) => fhirReply(reply).send(capabilityStatement(deps.config.baseUrl, version)),
    );
  };
}
