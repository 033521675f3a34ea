export * from './problem';
export {
  problemDetails,
  sendProblem,
  newRequestId,
  clientRequestIdOf,
  REQUEST_ID_HEADER,
  CLIENT_REQUEST_ID_HEADER,
  type ProblemPluginOptions,
} from './plugin';
export { findNul } from './nul';
export { FHIR_JSON, issueTypeOf, operationOutcomeOf, type IssueType, type OperationOutcome } from './operation-outcome';
export { frameworkErrorsHandler, clientErrorHandler } from './framework-errors';
export { FHIR_JSON_FORMATS, fhirReply, negotiateFormat, nextPageUrl, notModified, weakEtag } from './fhir-reply';
