/**
 * Generates the client's TypeScript types from the gateway's OpenAPI 3.1 document with
 * openapi-typescript. One function shared by the `generate` script and the freshness test, so
 * "the committed file is current" means exactly "this function would write the same bytes".
 */
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = `/**
 * GENERATED from schemas/openapi.json by libs/client-ts/scripts/generate.ts (openapi-typescript).
 * Do not edit: run \`npm run generate -w @vitalis/client\` after the API changes.
 */
`;

export async function generateTypes(document: unknown): Promise<string> {
  // openapi-typescript mutates the document it is given: hand it a copy.
  const ast = await openapiTS(structuredClone(document) as Parameters<typeof openapiTS>[0], { alphabetize: true });
  return HEADER + astToString(ast);
}
