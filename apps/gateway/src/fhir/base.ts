/** Where the FHIR R4 API is served and which FHIR version it speaks (shared by the routes, the definitions and the statement). */
export const FHIR_BASE_PATH = '/fhir/R4';
export const FHIR_VERSION = '4.0.1';
