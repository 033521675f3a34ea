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
        /** Token signing keys (JWK Set): ES256 (access tokens, ES256 ID tokens) and RS256 (ID tokens) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
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
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/.well-known/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MCP: the session's server-to-client SSE stream (notifications; Last-Event-ID resumes)
         * @description GET the stream of the Model Context Protocol server (Streamable HTTP, protocol 2025-06-18 and later; any MCP client works). Authorization per the MCP authorization spec: initialize, ping and listing (tools, resources, templates) are anonymous; tools/call, resources/read of vitalis:// and resources/subscribe need a Bearer token with the tool's scopes (the same as the equivalent REST route). Without a valid token: 401 with `WWW-Authenticate: Bearer realm="vitalis", resource_metadata=".../.well-known/oauth-protected-resource"`; lacking a scope: 403 `error="insufficient_scope"`. A session (Mcp-Session-Id) is bound to the subject and client of the first token that authenticates on it. Sessions opened without a token are rate-limited per client address (429 with Retry-After).
         */
        get: {
            parameters: {
                query?: never;
                header: {
                    /** @description The session from the initialize response (MCP Streamable HTTP) */
                    "mcp-session-id": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description JSON-RPC response or an SSE stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                        "text/event-stream": string;
                    };
                };
                /** @description A message other than initialize without a session, a refused tool call (JSON-RPC error), or an invalid request (problem) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: number;
                                message: string;
                            } & {
                                [key: string]: unknown;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                        } & {
                            [key: string]: unknown;
                        };
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Session not found: initialize a new one (JSON-RPC error) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: number;
                                message: string;
                            } & {
                                [key: string]: unknown;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                        } & {
                            [key: string]: unknown;
                        };
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        /**
         * MCP: send JSON-RPC messages (initialize, tools/list, tools/call, resources/read, resources/subscribe...)
         * @description POST to the Model Context Protocol server (Streamable HTTP, protocol 2025-06-18 and later; any MCP client works). Authorization per the MCP authorization spec: initialize, ping and listing (tools, resources, templates) are anonymous; tools/call, resources/read of vitalis:// and resources/subscribe need a Bearer token with the tool's scopes (the same as the equivalent REST route). Without a valid token: 401 with `WWW-Authenticate: Bearer realm="vitalis", resource_metadata=".../.well-known/oauth-protected-resource"`; lacking a scope: 403 `error="insufficient_scope"`. A session (Mcp-Session-Id) is bound to the subject and client of the first token that authenticates on it. Sessions opened without a token are rate-limited per client address (429 with Retry-After).
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    /** @description The session from the initialize response (MCP Streamable HTTP) */
                    "mcp-session-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            /** @description A JSON-RPC 2.0 message (or batch) */
            requestBody: {
                content: {
                    "application/json": unknown;
                };
            };
            responses: {
                /** @description JSON-RPC response or an SSE stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                        "text/event-stream": string;
                    };
                };
                /** @description Accepted (notifications and responses only) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description A message other than initialize without a session, a refused tool call (JSON-RPC error), or an invalid request (problem) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: number;
                                message: string;
                            } & {
                                [key: string]: unknown;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                        } & {
                            [key: string]: unknown;
                        };
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Session not found: initialize a new one (JSON-RPC error) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: number;
                                message: string;
                            } & {
                                [key: string]: unknown;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                        } & {
                            [key: string]: unknown;
                        };
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                429: components["responses"]["TooManyRequests"];
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        /**
         * MCP: end a session
         * @description DELETE a session of the Model Context Protocol server (Streamable HTTP, protocol 2025-06-18 and later; any MCP client works). Authorization per the MCP authorization spec: initialize, ping and listing (tools, resources, templates) are anonymous; tools/call, resources/read of vitalis:// and resources/subscribe need a Bearer token with the tool's scopes (the same as the equivalent REST route). Without a valid token: 401 with `WWW-Authenticate: Bearer realm="vitalis", resource_metadata=".../.well-known/oauth-protected-resource"`; lacking a scope: 403 `error="insufficient_scope"`. A session (Mcp-Session-Id) is bound to the subject and client of the first token that authenticates on it. Sessions opened without a token are rate-limited per client address (429 with Retry-After).
         */
        delete: {
            parameters: {
                query?: never;
                header: {
                    /** @description The session from the initialize response (MCP Streamable HTTP) */
                    "mcp-session-id": string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description JSON-RPC response or an SSE stream */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": unknown;
                        "text/event-stream": string;
                    };
                };
                /** @description A message other than initialize without a session, a refused tool call (JSON-RPC error), or an invalid request (problem) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: number;
                                message: string;
                            } & {
                                [key: string]: unknown;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                        } & {
                            [key: string]: unknown;
                        };
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                /** @description Session not found: initialize a new one (JSON-RPC error) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            error: {
                                code: number;
                                message: string;
                            } & {
                                [key: string]: unknown;
                            };
                            id: string | number | null;
                            /** @enum {string} */
                            jsonrpc: "2.0";
                        } & {
                            [key: string]: unknown;
                        };
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
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
                /** @description OK */
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
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
                /** @description OK */
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
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
        /** OpenID Provider Metadata (OpenID Connect Discovery 1.0): the same document */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
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
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
        /**
         * Identity probe: who the Bearer token says the caller is
         * @description Required scopes: none (any valid token).
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
                /** @description OK */
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
                            /** @description Ids of the tokens this one was exchanged from, nearest first; revoking any of them revokes this one */
                            derived_from: string[];
                            exp: number;
                            expires_in: number;
                            /** @description RFC 8693 §4.4: the client allowed to exchange this token */
                            may_act?: {
                                client_id?: string;
                                sub: string;
                            };
                            patient_id?: string;
                            roles: string[];
                            /** @description A sandbox principal (or derived from one): synthetic sbx- data only */
                            sandbox: boolean;
                            scope: string;
                            scopes: string[];
                            sub: string;
                            token_id: string;
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/auth/admin/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Registered clients, newest first (e.g. those waiting for approval)
         * @description Required scopes: admin:clients.
         */
        get: {
            parameters: {
                query?: {
                    approval?: "none" | "pending" | "approved" | "denied";
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            clients: {
                                /** @enum {string} */
                                approval: "none" | "pending" | "approved" | "denied";
                                client_id: string;
                                client_name: string;
                                grant_types: string[];
                                issued_at: string;
                                /** @enum {string} */
                                registration: "open" | "initial_access_token" | "software_statement" | "sandbox";
                                /** @description What it asked for (empty when it holds all of it) */
                                requested_scope: string;
                                role: ("doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "system") | null;
                                /** @description What it holds now */
                                scope: string;
                            }[];
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/auth/admin/clients/{client_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a client: give it a role and what it asked for as far as that role allows
         * @description Required scopes: admin:clients.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /**
                         * @description The role that bounds what the client may hold
                         * @enum {string}
                         */
                        role: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "system";
                        /** @description The scopes to grant, all within the role (default: what it asked for, as far as the role allows) */
                        scope?: string;
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            approval: "none" | "pending" | "approved" | "denied";
                            client_id: string;
                            client_name: string;
                            grant_types: string[];
                            issued_at: string;
                            /** @enum {string} */
                            registration: "open" | "initial_access_token" | "software_statement" | "sandbox";
                            /** @description What it asked for (empty when it holds all of it) */
                            requested_scope: string;
                            role: ("doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "system") | null;
                            /** @description What it holds now */
                            scope: string;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                413: components["responses"]["PayloadTooLarge"];
                414: components["responses"]["URITooLong"];
                415: components["responses"]["UnsupportedMediaType"];
                422: components["responses"]["UnprocessableContent"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/admin/clients/{client_id}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deny what a pending client asked for beyond its scopes (it keeps what it holds)
         * @description Required scopes: admin:clients.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    client_id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            approval: "none" | "pending" | "approved" | "denied";
                            client_id: string;
                            client_name: string;
                            grant_types: string[];
                            issued_at: string;
                            /** @enum {string} */
                            registration: "open" | "initial_access_token" | "software_statement" | "sandbox";
                            /** @description What it asked for (empty when it holds all of it) */
                            requested_scope: string;
                            role: ("doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "system") | null;
                            /** @description What it holds now */
                            scope: string;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                414: components["responses"]["URITooLong"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/admin/initial-access-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint an initial access token (RFC 7591 §3) that registers a client with a role
         * @description Required scopes: admin:clients.
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
                        /**
                         * @description Seconds until the token expires
                         * @default 86400
                         */
                        expires_in?: number;
                        /**
                         * @description What it is for (shown in the audit trail)
                         * @default
                         */
                        label?: string;
                        /**
                         * @description Registrations it allows; null: any number until it expires
                         * @default 1
                         */
                        max_uses?: number | null;
                        /**
                         * @description The role a client registered with this token gets
                         * @enum {string}
                         */
                        role: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "system";
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Seconds since the epoch */
                            expires_at: number;
                            initial_access_token: string;
                            label: string;
                            max_uses: number | null;
                            /** @enum {string} */
                            role: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "system";
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
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
        /**
         * Authorization endpoint (authorization code + PKCE S256): shows the login page
         * @description Answers the HTML login page (200), an HTML error page (400) when the client or redirect URI is invalid, when the client is not registered for authorization_code, or for any error of a client that registered itself (its redirect URIs are not trusted), or else 303 to the redirect URI with an OAuth error.
         */
        get: {
            parameters: {
                query?: {
                    /** @description The registered client id */
                    client_id?: string | string[];
                    /** @description PKCE S256 challenge (RFC 7636) */
                    code_challenge?: string | string[];
                    /** @description S256 */
                    code_challenge_method?: string | string[];
                    /** @description OpenID Connect: always met (the user signs in at every authorization); auth_time is always in the ID token */
                    max_age?: string | string[];
                    /** @description OpenID Connect: a value the ID token echoes (at most 512 characters) */
                    nonce?: string | string[];
                    /** @description OpenID Connect: "none" is answered login_required (there are no sessions); others change nothing, the user always signs in and consents */
                    prompt?: string | string[];
                    /** @description One of the registered redirect URIs */
                    redirect_uri?: string | string[];
                    /** @description code */
                    response_type?: string | string[];
                    /** @description Space-separated scopes */
                    scope?: string | string[];
                    /** @description Opaque value returned with the code */
                    state?: string | string[];
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The next HTML page (sign-in, consent) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description See Other: to the redirect URI with `code`, `state` and `iss`, or with an OAuth error */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An HTML error page (the client or redirect URI cannot be trusted, the form is incomplete or expired, a wrong password), or a problem */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                        "text/html": string;
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        /**
         * Authorization endpoint: the login and consent forms
         * @description The login and consent forms post here (CSRF token and browser-bound interaction). Answers the next HTML page, or 303 to the redirect URI with `code`, `state` and `iss` (RFC 9207) or an OAuth error.
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
                    "application/x-www-form-urlencoded": {
                        [key: string]: string | string[];
                    };
                };
            };
            responses: {
                /** @description The next HTML page (sign-in, consent) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                /** @description See Other: to the redirect URI with `code`, `state` and `iss`, or with an OAuth error */
                303: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description An HTML error page (the client or redirect URI cannot be trusted, the form is incomplete or expired, a wrong password), or a problem */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": {
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        };
                        "text/html": string;
                    };
                };
                /** @description An HTML error page: the form was not verified as coming from this sign-in page */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                /** @description The sign-in page again: too many failed sign-ins (Retry-After) */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
                /** @description OK */
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
                /** @description Bad Request */
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
                /** @description Unauthorized */
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
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                /** @description Rate limited: error "temporarily_unavailable"; Retry-After says when to try again */
                429: {
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
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            access_token: string;
                            expires_in: number;
                            /** @description OpenID Connect ID token: authorization_code and refresh_token grants holding the openid scope */
                            id_token?: string;
                            issued_token_type?: string;
                            refresh_token?: string;
                            scope: string;
                            /** @enum {string} */
                            token_type: "Bearer";
                        };
                    };
                };
                /** @description Bad Request */
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
                /** @description Unauthorized */
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
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                /** @description Rate limited: error "temporarily_unavailable"; Retry-After says when to try again */
                429: {
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
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
        /** Register a client (RFC 7591): open for the public scopes; a role through an initial access token or a software statement */
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
                        /** @description OpenID Connect Dynamic Client Registration 1.0 §2: RS256 (default) or ES256 */
                        id_token_signed_response_alg?: string;
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
                        /** @description RFC 7591 §2.3: a JWT from a trusted issuer binding this software to a role */
                        software_statement?: string;
                        /** @default client_secret_basic */
                        token_endpoint_auth_method?: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /**
                             * @description "pending" while an operator has not yet approved the scopes beyond what was granted
                             * @enum {string}
                             */
                            approval?: "pending";
                            client_id: string;
                            client_id_issued_at: number;
                            client_name: string;
                            client_secret?: string;
                            client_secret_expires_at?: number;
                            grant_types: string[];
                            /**
                             * @description How its ID tokens are signed (authorization_code clients)
                             * @enum {string}
                             */
                            id_token_signed_response_alg?: "ES256" | "RS256";
                            jwks?: {
                                keys: {
                                    [key: string]: unknown;
                                }[];
                            };
                            jwks_uri?: string;
                            redirect_uris: string[];
                            /** @description Present when the client asked for more than it was granted: everything it asked for, awaiting an operator */
                            requested_scope?: string;
                            response_types: string[];
                            /**
                             * @description The operator-approved role bounding what this client may obtain (absent: the public scopes only)
                             * @enum {string}
                             */
                            role?: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "system";
                            scope: string;
                            token_endpoint_auth_method: string;
                        };
                    };
                };
                /** @description Bad Request */
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
                /** @description Unauthorized */
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
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
                        token: string;
                        token_type_hint?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                    };
                };
                /** @description Bad Request */
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
                /** @description Unauthorized */
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
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                /** @description Rate limited: error "temporarily_unavailable"; Retry-After says when to try again */
                429: {
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
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/userinfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OpenID Connect UserInfo (GET): claims about the signed-in user (sub; name, preferred_username and roles with profile)
         * @description Required scopes: openid.
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
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description profile: the display name */
                            name?: string;
                            /** @description profile: the username */
                            preferred_username?: string;
                            /** @description profile (Vitalis): the user's roles */
                            roles?: string[];
                            /** @description The user id: the ID token's sub */
                            sub: string;
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        /**
         * OpenID Connect UserInfo (POST): claims about the signed-in user (sub; name, preferred_username and roles with profile)
         * @description Required scopes: openid.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description profile: the display name */
                            name?: string;
                            /** @description profile: the username */
                            preferred_username?: string;
                            /** @description profile (Vitalis): the user's roles */
                            roles?: string[];
                            /** @description The user id: the ID token's sub */
                            sub: string;
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appointments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Available and booked appointment slots
         * @description A searchset Bundle of Slot resources ordered by start, each booked one followed by its Appointment. Filters: clinician, patient, from/to (start time), status (free|busy). Patient users see free slots and their own bookings. Reads the projection (eventually consistent).
         *
         *     Required scopes: read:appointments.
         */
        get: {
            parameters: {
                query?: {
                    clinician?: string;
                    cursor?: string;
                    from?: string;
                    limit?: number;
                    patient?: string;
                    status?: "free" | "busy";
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entry: {
                                resource: ({
                                    id: string;
                                    /** @enum {string} */
                                    resourceType: "Slot";
                                    /** @enum {string} */
                                    status: "free" | "busy";
                                } & {
                                    [key: string]: unknown;
                                }) | ({
                                    id: string;
                                    /** @enum {string} */
                                    resourceType: "Appointment";
                                    /** @enum {string} */
                                    status: "booked" | "cancelled";
                                } & {
                                    [key: string]: unknown;
                                });
                            }[];
                            next: string | null;
                            /** @enum {string} */
                            resourceType: "Bundle";
                            /** @enum {string} */
                            type: "searchset";
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        /**
         * Book a slot
         * @description Books a free slot for a patient (patient users: themselves; patient_id may be omitted). 201 with the Appointment; 409 if the slot is taken (also when many book it at once: exactly one wins).
         *
         *     Required scopes: write:appointments.
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
                        patient_id?: string;
                        reason?: string;
                        slot_id: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            resourceType: "Appointment";
                            /** @enum {string} */
                            status: "booked" | "cancelled";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                422: components["responses"]["UnprocessableContent"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appointments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a booked appointment
         * @description Required scopes: read:appointments.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            resourceType: "Appointment";
                            /** @enum {string} */
                            status: "booked" | "cancelled";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                414: components["responses"]["URITooLong"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/appointments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an appointment
         * @description Frees the slot. 404 if it is not (or no longer) booked.
         *
         *     Required scopes: write:appointments.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            resourceType: "Appointment";
                            /** @enum {string} */
                            status: "booked" | "cancelled";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                413: components["responses"]["PayloadTooLarge"];
                414: components["responses"]["URITooLong"];
                415: components["responses"]["UnsupportedMediaType"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/appointments/{id}/reschedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move an appointment to another slot
         * @description Cancels this booking and books slot_id atomically (both or neither). 201 with the new Appointment.
         *
         *     Required scopes: write:appointments.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        slot_id: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            resourceType: "Appointment";
                            /** @enum {string} */
                            status: "booked" | "cancelled";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                413: components["responses"]["PayloadTooLarge"];
                414: components["responses"]["URITooLong"];
                415: components["responses"]["UnsupportedMediaType"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Query the audit trail
         * @description Who did what to which record, when, under which scope. Filters: resource_type, resource_id, client_id, subject, action (exact or prefix with *), outcome, from/to.
         *
         *     Required scopes: read:audit.
         */
        get: {
            parameters: {
                query?: {
                    action?: string;
                    client_id?: string;
                    cursor?: string;
                    from?: string;
                    limit?: number;
                    outcome?: "success" | "failure";
                    resource_id?: string;
                    resource_type?: string;
                    subject?: string;
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            data: {
                                action: string;
                                actor_client_id: string | null;
                                actor_subject: string | null;
                                detail: {
                                    [key: string]: unknown;
                                };
                                id: number;
                                occurred_at: string;
                                /** @enum {string} */
                                outcome: "success" | "failure";
                                request_id: string | null;
                                resource_id: string | null;
                                resource_type: string | null;
                                scope: string | null;
                            }[];
                            next: string | null;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Catalog index (public) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            sections: {
                                href: string;
                                name: string;
                            }[];
                        };
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/catalog/appointment-types": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Appointment types (public) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/catalog/clinicians": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Clinicians as FHIR Practitioner (public) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/catalog/scopes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** OAuth scopes and standard roles (public) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            roles: {
                                role: string;
                                scopes: string[];
                            }[];
                            scopes: {
                                description: string;
                                name: string;
                            }[];
                        };
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/catalog/vital-signs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Vital-sign codes, units and ranges (public) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            data: {
                                [key: string]: unknown;
                            }[];
                        };
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * System health
         * @description Overall status and one check per dependency (PostgreSQL, Kafka, Redis) with latency. 503 when down. Error texts are not shown here (see /api/v1/health/details).
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
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checks: {
                                kafka: {
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                postgres: {
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                redis: {
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
                500: components["responses"]["InternalError"];
                /** @description Service Unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checks: {
                                kafka: {
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                postgres: {
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                redis: {
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
    "/api/v1/health/details": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * System health with error texts (operators)
         * @description The health document with each failing dependency's driver error (hosts, ports, user names; credentials scrubbed). Needs read:audit (admins). 503 when down.
         *
         *     Required scopes: read:audit.
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
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checks: {
                                kafka: {
                                    /** @description Why the dependency is down (the driver's message) */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                postgres: {
                                    /** @description Why the dependency is down (the driver's message) */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                redis: {
                                    /** @description Why the dependency is down (the driver's message) */
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
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                /** @description Service Unavailable */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            checks: {
                                kafka: {
                                    /** @description Why the dependency is down (the driver's message) */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                postgres: {
                                    /** @description Why the dependency is down (the driver's message) */
                                    error?: string;
                                    /** @description Time the check took, in milliseconds */
                                    latency_ms: number;
                                    /** @enum {string} */
                                    status: "ok" | "down";
                                };
                                redis: {
                                    /** @description Why the dependency is down (the driver's message) */
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
                        } | ({
                            detail: string;
                            status: number;
                            title: string;
                            type: string;
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
    "/api/v1/patients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search patients
         * @description By name (substring of given + family), birthdate (YYYY-MM-DD) and identifier (`system|value` or `value`); keyset-paginated. Needs read:patients or write:patients (demographics only); a patient user finds only themselves. Reads the projection (eventually consistent).
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: {
            parameters: {
                query?: {
                    birthdate?: string;
                    cursor?: string;
                    identifier?: string;
                    limit?: number;
                    name?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            entry: {
                                resource: {
                                    id: string;
                                    meta: {
                                        lastUpdated: string;
                                        versionId: string;
                                    };
                                    /** @enum {string} */
                                    resourceType: "Patient";
                                } & {
                                    [key: string]: unknown;
                                };
                            }[];
                            next: string | null;
                            /** @enum {string} */
                            resourceType: "Bundle";
                            /** @enum {string} */
                            type: "searchset";
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        /**
         * Register a patient
         * @description Body: a FHIR Patient. The id (pat-...) is minted by the server. 201 with Location and ETag. An identifier (system + value) already held by another patient: 409.
         *
         *     Required scopes: write:patients.
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
                        /** Format: date */
                        birthDate?: string;
                        /** @enum {string} */
                        gender?: "male" | "female" | "other" | "unknown";
                        identifier?: {
                            system: string;
                            value: string;
                        }[];
                        /** @description Exactly one official name */
                        name: {
                            family: string;
                            /** @default [] */
                            given?: string[];
                        }[];
                        /** @enum {string} */
                        resourceType?: "Patient";
                        telecom?: {
                            /** @enum {string} */
                            system: "phone" | "email" | "fax" | "pager" | "url" | "sms" | "other";
                            value: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            meta: {
                                lastUpdated: string;
                                versionId: string;
                            };
                            /** @enum {string} */
                            resourceType: "Patient";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                409: components["responses"]["Conflict"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/patients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a patient
         * @description FHIR Patient; for clinical readers also `allergies` (AllergyIntolerance[]) and, with read:vitals, `vitals` (latest values, NEWS2). Reception sees demographics only. ETag = version.
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            meta: {
                                lastUpdated: string;
                                versionId: string;
                            };
                            /** @enum {string} */
                            resourceType: "Patient";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                414: components["responses"]["URITooLong"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        /**
         * Update a patient
         * @description Replaces the demographics. If-Match required (428 without; 412 when stale). An identifier held by another patient: 409.
         *
         *     Required scopes: write:patients.
         */
        put: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** Format: date */
                        birthDate?: string;
                        /** @enum {string} */
                        gender?: "male" | "female" | "other" | "unknown";
                        identifier?: {
                            system: string;
                            value: string;
                        }[];
                        /** @description Exactly one official name */
                        name: {
                            family: string;
                            /** @default [] */
                            given?: string[];
                        }[];
                        /** @enum {string} */
                        resourceType?: "Patient";
                        telecom?: {
                            /** @enum {string} */
                            system: "phone" | "email" | "fax" | "pager" | "url" | "sms" | "other";
                            value: string;
                        }[];
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            meta: {
                                lastUpdated: string;
                                versionId: string;
                            };
                            /** @enum {string} */
                            resourceType: "Patient";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                412: components["responses"]["PreconditionFailed"];
                413: components["responses"]["PayloadTooLarge"];
                414: components["responses"]["URITooLong"];
                415: components["responses"]["UnsupportedMediaType"];
                428: components["responses"]["PreconditionRequired"];
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/patients/{id}/allergies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record an allergy
         * @description Body: a FHIR AllergyIntolerance (code.text, criticality, reaction). If-Match optional (412 when stale). Responds with the AllergyIntolerance and the patient ETag.
         *
         *     Required scopes: write:patients, read:patients.
         */
        post: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description The substance */
                        code: {
                            text: string;
                        };
                        /**
                         * @default unable-to-assess
                         * @enum {string}
                         */
                        criticality?: "low" | "high" | "unable-to-assess";
                        reaction?: {
                            description: string;
                        }[];
                        /** @enum {string} */
                        resourceType?: "AllergyIntolerance";
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            /** @enum {string} */
                            resourceType: "AllergyIntolerance";
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                412: components["responses"]["PreconditionFailed"];
                413: components["responses"]["PayloadTooLarge"];
                414: components["responses"]["URITooLong"];
                415: components["responses"]["UnsupportedMediaType"];
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/patients/{id}/allergies/{allergyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove an allergy
         * @description If-Match optional (412 when stale).
         *
         *     Required scopes: write:patients, read:patients.
         */
        delete: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    allergyId: string;
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description No Content */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                412: components["responses"]["PreconditionFailed"];
                414: components["responses"]["URITooLong"];
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/patients/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Event history of a patient
         * @description Every event of the patient stream, oldest first (clinical readers: read:patients; not a patient user, whose SMART scopes reach the record only).
         *
         *     Required scopes: read:patients.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            events: {
                                data: {
                                    [key: string]: unknown;
                                };
                                metadata: {
                                    [key: string]: unknown;
                                };
                                position: number;
                                recorded_at: string;
                                schema_version: number;
                                type: string;
                                version: number;
                            }[];
                            patient_id: string;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                414: components["responses"]["URITooLong"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
         * Latest vitals of a patient (deprecated: use GET /api/v1/vitals/latest)
         * @deprecated
         * @description **Deprecated** since 2026-11-23, sunset Fri, 31 Dec 2027 23:59:59 GMT: use `/api/v1/vitals/latest`. Call GET /api/v1/vitals/latest?patient={id} (same scope, same `code` filter); the body adds `count`.
         *
         *     The most recent observation per code (ECG: the latest waveform chunk). FHIR searchset Bundle with `Accept: application/fhir+json`.
         *
         *     Required scopes: read:vitals.
         */
        get: {
            parameters: {
                query?: {
                    /** @description Only this LOINC (or MDC) code; every code if omitted */
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
                /** @description OK */
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
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                414: components["responses"]["URITooLong"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
                /** @description Created */
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
                429: components["responses"]["TooManyRequests"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
                /** @description Created */
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
                429: components["responses"]["TooManyRequests"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/triage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * ED triage board
         * @description Patients in the department, most urgent first (ESI, then arrival). With read:vitals each entry also carries the latest vitals, the NEWS2 score computed from them and the active vitals alerts. Reads the projection.
         *
         *     Required scopes: read:patients.
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
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            count: number;
                            entries: {
                                /** @description Active vitals alert rules (with read:vitals) */
                                alerts?: string[];
                                arrived_at: string;
                                complaint: string;
                                esi: number;
                                latest_vitals?: {
                                    code: string;
                                    display: string;
                                    effective_at: string;
                                    unit: string;
                                    value: number;
                                }[];
                                name?: string | null;
                                news2?: {
                                    risk: string;
                                    score: number;
                                } & {
                                    [key: string]: unknown;
                                };
                                patient_id: string;
                                updated_at: string;
                                version: number;
                            }[];
                        };
                    };
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        /**
         * Admit a patient to the ED board
         * @description Required scopes: write:triage.
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
                        complaint: string;
                        /** @description Emergency Severity Index, 1 (resuscitation) to 5 (non-urgent) */
                        esi: number;
                        patient_id: string;
                    };
                };
            };
            responses: {
                /** @description Created */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Active vitals alert rules (with read:vitals) */
                            alerts?: string[];
                            arrived_at: string;
                            complaint: string;
                            esi: number;
                            latest_vitals?: {
                                code: string;
                                display: string;
                                effective_at: string;
                                unit: string;
                                value: number;
                            }[];
                            name?: string | null;
                            news2?: {
                                risk: string;
                                score: number;
                            } & {
                                [key: string]: unknown;
                            };
                            patient_id: string;
                            updated_at: string;
                            version: number;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                409: components["responses"]["Conflict"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                422: components["responses"]["UnprocessableContent"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/triage/{patientId}/discharge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove a patient from the board
         * @description Required scopes: write:triage.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    patientId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Active vitals alert rules (with read:vitals) */
                            alerts?: string[];
                            arrived_at: string;
                            complaint: string;
                            esi: number;
                            latest_vitals?: {
                                code: string;
                                display: string;
                                effective_at: string;
                                unit: string;
                                value: number;
                            }[];
                            name?: string | null;
                            news2?: {
                                risk: string;
                                score: number;
                            } & {
                                [key: string]: unknown;
                            };
                            patient_id: string;
                            updated_at: string;
                            version: number;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                414: components["responses"]["URITooLong"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/triage/{patientId}/esi": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set or change the ESI level
         * @description Appends TriageLevelSet. If-Match (the ETag from admit/board version) optional; 412 when stale.
         *
         *     Required scopes: write:triage.
         */
        put: {
            parameters: {
                query?: never;
                header?: {
                    "if-match"?: string;
                };
                path: {
                    patientId: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": {
                        /** @description Emergency Severity Index, 1 (resuscitation) to 5 (non-urgent) */
                        esi: number;
                        reason?: string;
                    };
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @description Active vitals alert rules (with read:vitals) */
                            alerts?: string[];
                            arrived_at: string;
                            complaint: string;
                            esi: number;
                            latest_vitals?: {
                                code: string;
                                display: string;
                                effective_at: string;
                                unit: string;
                                value: number;
                            }[];
                            name?: string | null;
                            news2?: {
                                risk: string;
                                score: number;
                            } & {
                                [key: string]: unknown;
                            };
                            patient_id: string;
                            updated_at: string;
                            version: number;
                        };
                    };
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                404: components["responses"]["NotFound"];
                409: components["responses"]["Conflict"];
                412: components["responses"]["PreconditionFailed"];
                413: components["responses"]["PayloadTooLarge"];
                414: components["responses"]["URITooLong"];
                415: components["responses"]["UnsupportedMediaType"];
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        post?: never;
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
         *
         *     Required scopes: read:vitals.
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
                /** @description OK */
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
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        put?: never;
        /**
         * Publish a batch of vitals observations
         * @description Up to 1000 observations (see vitals-observation.schema.json). All-or-nothing: if any item is invalid the whole batch is refused with 422 and every invalid index; nothing is published. 202 once Kafka (acks=all) has the batch. Re-sending an accepted batch is safe: (device_id, seq, effective_at) is stored once.
         *
         *     Required scopes: write:vitals.
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
                        observations: components["schemas"]["VitalsObservationInput"][];
                    };
                };
            };
            responses: {
                /** @description Accepted */
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
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                413: components["responses"]["PayloadTooLarge"];
                415: components["responses"]["UnsupportedMediaType"];
                422: components["responses"]["UnprocessableContent"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/vitals/latest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Latest vitals of a patient
         * @description The most recent observation per code (ECG: the latest waveform chunk), with `count`, in the same shape as the history pages. FHIR searchset Bundle with `Accept: application/fhir+json`. Successor of the deprecated `GET /api/v1/patients/{id}/vitals/latest`.
         *
         *     Required scopes: read:vitals.
         */
        get: {
            parameters: {
                query: {
                    /** @description Only this LOINC (or MDC) code; every code if omitted */
                    code?: "131330" | "8867-4" | "59408-5" | "8480-6" | "8462-4" | "9279-1" | "8310-5";
                    /** @description Patient id */
                    patient: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
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
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/vitals/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live vitals and alerts (Server-Sent Events), resumable with Last-Event-ID
         * @description Required scopes: read:vitals.
         */
        get: {
            parameters: {
                query: {
                    /** @description Include alert events */
                    alerts?: "true" | "false";
                    /** @description LOINC/MDC codes to include (default all) */
                    code?: string;
                    /** @description Resume id, for clients that cannot send the Last-Event-ID header */
                    last_event_id?: string;
                    /** @description Patient id, or a comma-separated ward list (at most 64) */
                    patient: string;
                };
                header?: {
                    "last-event-id"?: string;
                };
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                400: components["responses"]["BadRequest"];
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                431: components["responses"]["RequestHeaderFieldsTooLarge"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/api/v1/vitals/ws": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live vitals and alerts over WebSocket (subscribe/unsubscribe, resumable)
         * @description A GET with `Upgrade: websocket`. The token comes in the Authorization header (checked before the upgrade: 401/403 problem) or in a first `{"type":"auth","token":"…"}` message. Then `{"type":"subscribe","sub":"s1","patients":["pat-0001"],"codes":["8867-4"],"alerts":true,"after":"3-1042"}`; the server answers `ready`, `subscribed`, then `observation` and `alert` messages whose `id` resumes a later subscription (`after`, the same ids as the SSE stream), and `lagged` + `closed` when the client falls behind. Protocol: apps/gateway/src/live/README.md. Scope `read:vitals`.
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
                /** @description Switching Protocols: the WebSocket is open */
                101: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                401: components["responses"]["Unauthorized"];
                403: components["responses"]["Forbidden"];
                426: components["responses"]["UpgradeRequired"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/auth.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authentication walkthrough (Markdown, copy-paste curl examples) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The walkthrough (spec section 5) with runnable curl examples */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/markdown": string;
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/developers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Developer portal (HTML): quick start, docs, release and migration notes, #deprecation */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The developer portal page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Generated from the zod schemas the routes validate with; also exported to schemas/openapi.json.
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
                /** @description The OpenAPI 3.1 document */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            info: {
                                [key: string]: unknown;
                            };
                            openapi: string;
                            paths: {
                                [key: string]: unknown;
                            };
                        } & {
                            [key: string]: unknown;
                        };
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/ui": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Index of the interactive UI cards (HTML) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The index page */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
    "/ui/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One interactive UI card (self-contained HTML; open with #token=…&patient=…)
         * @description The card also served to MCP hosts as ui://vitalis/<name> (text/html;profile=mcp-app). Cards: appointment-booking-form, vitals-telemetry-monitor, emergency-triage-board, patient-search-card. Public: the page holds no data; it calls the API of this origin with the bearer token given in the URL fragment (never sent to a server) and removes the fragment from the address bar.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description One of appointment-booking-form, vitals-telemetry-monitor, emergency-triage-board, patient-search-card */
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The card */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/html": string;
                    };
                };
                400: components["responses"]["BadRequest"];
                404: components["responses"]["NotFound"];
                414: components["responses"]["URITooLong"];
                500: components["responses"]["InternalError"];
                503: components["responses"]["ServiceUnavailable"];
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description RFC 9457 problem details. Branch on `type`; `detail` is for humans. */
        Problem: {
            detail: string;
            /** @description Validation failures (validation-error, invalid-observations) */
            errors?: {
                index?: number;
                message: string;
                path?: string;
            }[];
            /** @description The request path */
            instance?: string;
            /** @description Seconds to wait (429, 503) */
            retry_after?: number;
            status: number;
            title: string;
            /**
             * Format: uri
             * @description {base}/errors/<kind>
             */
            type: string;
        } & {
            [key: string]: unknown;
        };
        /**
         * Vitals observation
         * @description One vital-sign measurement or one ECG waveform chunk from one device about one patient (Vitalis wire format, FHIR R4 vital signs codes).
         */
        VitalsObservation: {
            /**
             * @description LOINC 8867-4 Heart rate
             * @constant
             */
            code: "8867-4";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            value: number;
        } | {
            /**
             * @description LOINC 59408-5 Oxygen saturation in Arterial blood by Pulse oximetry
             * @constant
             */
            code: "59408-5";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "%";
            value: number;
        } | {
            /**
             * @description LOINC 8480-6 Systolic blood pressure
             * @constant
             */
            code: "8480-6";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            value: number;
        } | {
            /**
             * @description LOINC 8462-4 Diastolic blood pressure
             * @constant
             */
            code: "8462-4";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            value: number;
        } | {
            /**
             * @description LOINC 9279-1 Respiratory rate
             * @constant
             */
            code: "9279-1";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            value: number;
        } | {
            /**
             * @description LOINC 8310-5 Body temperature
             * @constant
             */
            code: "8310-5";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "Cel";
            value: number;
        } | {
            /**
             * @description MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)
             * @constant
             */
            code: "131330";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mV";
            waveform: {
                /**
                 * @description Zero value in mV; the potential is origin + sample
                 * @default 0
                 */
                origin: number;
                /** @description Time between samples in ms (4 = 250 Hz) */
                period_ms: number;
                samples: number[];
            };
        };
        /**
         * Vitals observation
         * @description One vital-sign measurement or one ECG waveform chunk from one device about one patient (Vitalis wire format, FHIR R4 vital signs codes).
         */
        VitalsObservationInput: {
            /**
             * @description LOINC 8867-4 Heart rate
             * @constant
             */
            code: "8867-4";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            value: number;
        } | {
            /**
             * @description LOINC 59408-5 Oxygen saturation in Arterial blood by Pulse oximetry
             * @constant
             */
            code: "59408-5";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "%";
            value: number;
        } | {
            /**
             * @description LOINC 8480-6 Systolic blood pressure
             * @constant
             */
            code: "8480-6";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            value: number;
        } | {
            /**
             * @description LOINC 8462-4 Diastolic blood pressure
             * @constant
             */
            code: "8462-4";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            value: number;
        } | {
            /**
             * @description LOINC 9279-1 Respiratory rate
             * @constant
             */
            code: "9279-1";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            value: number;
        } | {
            /**
             * @description LOINC 8310-5 Body temperature
             * @constant
             */
            code: "8310-5";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "Cel";
            value: number;
        } | {
            /**
             * @description MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)
             * @constant
             */
            code: "131330";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /**
             * Format: date-time
             * @description When the observation was made (for waveforms: the time of the first sample)
             */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mV";
            waveform: {
                /**
                 * @description Zero value in mV; the potential is origin + sample
                 * @default 0
                 */
                origin: number;
                /** @description Time between samples in ms (4 = 250 Hz) */
                period_ms: number;
                samples: number[];
            };
        };
    };
    responses: {
        /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The resource changed concurrently, or the slot is taken */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /** @description Unexpected error (logged with the request id; no internals in the body) */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No such resource or route */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The body is over the size limit */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description If-Match names a version that is no longer current */
        PreconditionFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description If-Match is required for this write */
        PreconditionRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The header section is over the server's limit (16 KiB); the connection is closed */
        RequestHeaderFieldsTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A dependency is unavailable; retry later */
        ServiceUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Rate limited (see Retry-After) */
        TooManyRequests: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Problem"];
            };
        };
        /** @description Well-formed but refused by a domain rule */
        UnprocessableContent: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The Content-Type is not accepted here */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A WebSocket endpoint was asked without Upgrade: websocket */
        UpgradeRequired: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) */
        URITooLong: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
