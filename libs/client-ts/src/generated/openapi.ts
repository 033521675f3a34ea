/**
 * GENERATED from schemas/openapi.json by libs/client-ts/scripts/generate.ts (openapi-typescript).
 * Do not edit: run `npm run generate -w @vitalis/client` after the API changes.
 */
export interface paths {
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Token signing keys (JWK Set) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization Server Metadata (RFC 8414) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Protected Resource Metadata (RFC 9728) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/openid-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same OAuth metadata at the OpenID path (no ID tokens are issued) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/identity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Identity probe: who the Bearer token says the caller is */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            act?: {
                                act?: {
                                    [key: string]: unknown;
                                };
                                client_id?: string;
                                sub: string;
                            };
                            /** @enum {boolean} */
                            active: true;
                            auth_method: string;
                            client_id: string;
                            exp: number;
                            expires_in: number;
                            patient_id?: string;
                            roles: string[];
                            scope: string;
                            scopes: string[];
                            sub: string;
                            token_id: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth2/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization endpoint (authorization code + PKCE S256): shows the login page */
        get: {
            parameters: {
                query?: {
                    additionalProperties?: string | string[];
                    propertyNames?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        put?: never;
        /** Authorization endpoint: the login and consent forms */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        [key: string]: string | string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth2/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Introspect a token issued to the calling client (RFC 7662) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        [key: string]: string | string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            act?: unknown;
                            active: boolean;
                            aud?: string | string[];
                            auth_method?: string;
                            client_id?: string;
                            exp?: number;
                            iat?: number;
                            iss?: string;
                            jti?: string;
                            nbf?: number;
                            patient_id?: string;
                            roles?: string[];
                            scope?: string;
                            sub?: string;
                            token_type?: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/oauth2/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Token endpoint: client_credentials, authorization_code (PKCE), refresh_token, token exchange (RFC 8693) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        [key: string]: string | string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            expires_in: number;
                            issued_token_type?: string;
                            refresh_token?: string;
                            scope: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a client (RFC 7591) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        client_name: string;
                        grant_types?: string[];
                        jwks?: {
                            keys: {
                                [key: string]: unknown;
                            }[];
                        };
                        jwks_uri?: string;
                        /** @default [] */
                        redirect_uris?: string[];
                        response_types?: string[];
                        scope?: string;
                        /** @default client_secret_basic */
                        token_endpoint_auth_method?: string;
                    };
                };
            };
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            client_id: string;
                            client_id_issued_at: number;
                            client_name: string;
                            client_secret?: string;
                            client_secret_expires_at?: number;
                            grant_types: string[];
                            jwks?: {
                                keys: {
                                    [key: string]: unknown;
                                }[];
                            };
                            jwks_uri?: string;
                            redirect_uris: string[];
                            response_types: string[];
                            scope: string;
                            token_endpoint_auth_method: string;
                        };
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an access or refresh token (RFC 7009) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/x-www-form-urlencoded": {
                        [key: string]: string | string[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description Default Response */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
                /** @description Default Response */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: string;
                            error_description?: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * System health
         * @description Overall status and one check per dependency (PostgreSQL, Kafka, Redis) with latency. 503 when down.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checks: {
                                kafka: {
                                    /** @description Why the dependency is down */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                postgres: {
                                    /** @description Why the dependency is down */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                redis: {
                                    /** @description Why the dependency is down */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                            };
                            /** @enum {string} */
                            status: "ok" | "degraded" | "down";
                            /** Format: date-time */
                            time: string;
                            uptime_s: number;
                            version: string;
                        };
                    };
                };
                /** @description Default Response */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checks: {
                                kafka: {
                                    /** @description Why the dependency is down */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                postgres: {
                                    /** @description Why the dependency is down */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                redis: {
                                    /** @description Why the dependency is down */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                            };
                            /** @enum {string} */
                            status: "ok" | "degraded" | "down";
                            /** Format: date-time */
                            time: string;
                            uptime_s: number;
                            version: string;
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/patients/{id}/vitals/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Latest vitals of a patient
         * @description The most recent observation per code (ECG: the latest waveform chunk). FHIR searchset Bundle with `Accept: application/fhir+json`.
         */
        get: {
            parameters: {
                query?: {
                    code?: "131330" | "8867-4" | "59408-5" | "8480-6" | "8462-4" | "9279-1" | "8310-5";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: ({
                                code: string;
                                device_id: string;
                                effective_at: string;
                                patient_id: string;
                                seq: number;
                                unit: string;
                                value?: number;
                                waveform?: {
                                    origin: number;
                                    period_ms: number;
                                    samples: number[];
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            patient_id: string;
                        } | ({
                            /** @enum {string} */
                            resourceType: "Bundle";
                            /** @enum {string} */
                            type: "searchset";
                        } & {
                            [key: string]: unknown;
                        });
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sandbox": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Immediate, rate-limited sandbox credentials (read-only demo scopes) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            client_id: string;
                            client_secret: string;
                            client_secret_expires_at: number;
                            expires_in: number;
                            scope: string;
                            token_endpoint: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                        };
                    };
                };
            };
        };
        put?: never;
        /** Immediate, rate-limited sandbox credentials (read-only demo scopes) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            client_id: string;
                            client_secret: string;
                            client_secret_expires_at: number;
                            expires_in: number;
                            scope: string;
                            token_endpoint: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/vitals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Vitals history
         * @description Raw observations of one patient in [from, to) (at most 31 days; ECG as waveform chunks), ordered by time, cursor-paginated; or with `bucket` (1s|1m|1h|1d) and `agg` (avg,min,max,count,last) aggregated numeric series (from the 1-minute/1-hour rollups when the range is aligned to them; at most 31 days, 1 day for 1s, 366 days for 1h/1d on a minute-aligned range). `Accept: application/fhir+json` returns a FHIR R4 searchset Bundle of Observations (raw only).
         */
        get: {
            parameters: {
                query: {
                    /** @description Comma-separated: avg,min,max,count,last (default avg,min,max,count); only with bucket */
                    agg?: string;
                    /** @description Aggregate into buckets of this size (numeric vitals only) */
                    bucket?: "1s" | "1m" | "1h" | "1d";
                    /** @description LOINC (or MDC for ECG) code; all codes if omitted */
                    code?: "131330" | "8867-4" | "59408-5" | "8480-6" | "8462-4" | "9279-1" | "8310-5";
                    /** @description Opaque cursor from a previous page */
                    cursor?: string;
                    /** @description Inclusive start */
                    from: string;
                    /** @description Page size, at most 5000 */
                    limit?: number;
                    /** @description Patient id */
                    patient: string;
                    /** @description Exclusive end */
                    to: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Default Response */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            data: ({
                                code: string;
                                device_id: string;
                                effective_at: string;
                                patient_id: string;
                                seq: number;
                                unit: string;
                                value?: number;
                                waveform?: {
                                    origin: number;
                                    period_ms: number;
                                    samples: number[];
                                };
                            } & {
                                [key: string]: unknown;
                            })[];
                            from: string;
                            /** @description URL of the next page, null on the last page */
                            next: string | null;
                            patient_id: string;
                            to: string;
                        } | {
                            agg: ("avg" | "min" | "max" | "count" | "last")[];
                            /** @enum {string} */
                            bucket: "1s" | "1m" | "1h" | "1d";
                            count: number;
                            data: {
                                avg?: number;
                                /** @description Bucket start (UTC) */
                                bucket: string;
                                code: string;
                                count?: number;
                                last?: number;
                                last_at?: string;
                                max?: number;
                                min?: number;
                            }[];
                            from: string;
                            next: string | null;
                            patient_id: string;
                            /**
                             * @description Where the aggregates came from
                             * @enum {string}
                             */
                            source: "raw" | "rollup_1m" | "rollup_1h";
                            to: string;
                        } | ({
                            /** @enum {string} */
                            resourceType: "Bundle";
                            /** @enum {string} */
                            type: "searchset";
                        } & {
                            [key: string]: unknown;
                        });
                    };
                };
            };
        };
        put?: never;
        /**
         * Publish a batch of vitals observations
         * @description Up to 1000 observations (see vitals-observation.schema.json). All-or-nothing: if any item is invalid the whole batch is refused with 422 and every invalid index; nothing is published. 202 once Kafka (acks=all) has the batch. Re-sending an accepted batch is safe: (device_id, seq, effective_at) is stored once.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Vitals observations */
                        observations: unknown[];
                    };
                };
            };
            responses: {
                /** @description Default Response */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            topic: string;
                        };
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: never;
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
