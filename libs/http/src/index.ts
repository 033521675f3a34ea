export * from './problem';
export { problemDetails, sendProblem, requestIdFrom, REQUEST_ID_HEADER, type ProblemPluginOptions } from './plugin';
export { findNul } from './nul';
