export * from './problem';
export { problemDetails, sendProblem, newRequestId, clientRequestIdOf, REQUEST_ID_HEADER, CLIENT_REQUEST_ID_HEADER, type ProblemPluginOptions } from './plugin';
export { findNul } from './nul';
export { frameworkErrorsHandler, clientErrorHandler } from './framework-errors';
