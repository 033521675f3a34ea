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
        get: operations["getWellKnownJwksJson"];
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
        get: operations["getWellKnownMcp"];
        put?: never;
        /**
         * MCP: send JSON-RPC messages (initialize, tools/list, tools/call, resources/read, resources/subscribe...)
         * @description POST to the Model Context Protocol server (Streamable HTTP, protocol 2025-06-18 and later; any MCP client works). Authorization per the MCP authorization spec: initialize, ping and listing (tools, resources, templates) are anonymous; tools/call, resources/read of vitalis:// and resources/subscribe need a Bearer token with the tool's scopes (the same as the equivalent REST route). Without a valid token: 401 with `WWW-Authenticate: Bearer realm="vitalis", resource_metadata=".../.well-known/oauth-protected-resource"`; lacking a scope: 403 `error="insufficient_scope"`. A session (Mcp-Session-Id) is bound to the subject and client of the first token that authenticates on it. Sessions opened without a token are rate-limited per client address (429 with Retry-After).
         */
        post: operations["postWellKnownMcp"];
        /**
         * MCP: end a session
         * @description DELETE a session of the Model Context Protocol server (Streamable HTTP, protocol 2025-06-18 and later; any MCP client works). Authorization per the MCP authorization spec: initialize, ping and listing (tools, resources, templates) are anonymous; tools/call, resources/read of vitalis:// and resources/subscribe need a Bearer token with the tool's scopes (the same as the equivalent REST route). Without a valid token: 401 with `WWW-Authenticate: Bearer realm="vitalis", resource_metadata=".../.well-known/oauth-protected-resource"`; lacking a scope: 403 `error="insufficient_scope"`. A session (Mcp-Session-Id) is bound to the subject and client of the first token that authenticates on it. Sessions opened without a token are rate-limited per client address (429 with Retry-After).
         */
        delete: operations["deleteWellKnownMcp"];
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
        get: operations["getWellKnownOauthAuthorizationServer"];
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
        get: operations["getWellKnownOauthProtectedResource"];
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
        get: operations["getWellKnownOpenidConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/smart-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SMART App Launch v2 configuration (the authorization server's SMART endpoints and capabilities) */
        get: operations["getWellKnownSmartConfiguration"];
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
        get: operations["getAgentIdentity"];
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
        get: operations["getApiAuthAdminClients"];
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
        post: operations["postApiAuthAdminClientsByClientIdApprove"];
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
        post: operations["postApiAuthAdminClientsByClientIdDeny"];
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
         * @description Only for a role the caller could act as itself: the token must hold every scope a client of that role could obtain on its own (its sign-in and user-only scopes aside, a system/ scope read as the Vitalis scope it reads through, the public scopes aside); otherwise 403 insufficient-scope naming them. The `system` role is never minted here, whatever the token holds (403): only the operator's command line mints it (`npm run admin -- initial-access-token --role system`).
         *
         *     Required scopes: admin:clients.
         */
        post: operations["postApiAuthAdminInitialAccessTokens"];
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
        get: operations["getApiAuthOauth2Authorize"];
        put?: never;
        /**
         * Authorization endpoint: the login and consent forms
         * @description The login and consent forms post here (CSRF token and browser-bound interaction). Answers the next HTML page, or 303 to the redirect URI with `code`, `state` and `iss` (RFC 9207) or an OAuth error.
         */
        post: operations["postApiAuthOauth2Authorize"];
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
        post: operations["postApiAuthOauth2Introspect"];
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
        post: operations["postApiAuthOauth2Token"];
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
        post: operations["postApiAuthRegister"];
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
        post: operations["postApiAuthRevoke"];
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
        get: operations["getApiAuthUserinfo"];
        put?: never;
        /**
         * OpenID Connect UserInfo (POST): claims about the signed-in user (sub; name, preferred_username and roles with profile)
         * @description Required scopes: openid.
         */
        post: operations["postApiAuthUserinfo"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alarms": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List bedside alarms
         * @description One patient's alarms (`patient`), or without it the alarms across every patient the caller reaches (a ward or board view: the patients the alarm read model lists, one projector tick behind, each read current). `state`: active (default: raised, acknowledged, latched — what a person must still see, whatever its age), one state, or all. `since`: only alarms shown at any time since then (still active, or resolved at or after it); a history (resolved, all) without it covers the last 24 h. Highest priority first, then the newest. Doctors, nurses (read:vitals); audited alarm.read.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["getAlarms"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alarms/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a bedside alarm
         * @description The alarm as its patient's alert stream says now (read-your-writes). Audited alarm.read.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["getAlarmsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/alarms/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge a bedside alarm
         * @description A signed-in clinician (role doctor or nurse, a token that names the user: authorization code) acknowledges a raised or latched alarm: the user (id and display name), the app and when are recorded in the event store and the audit trail (alarm.acknowledge), the live streams get an `alarm` event, and it stops escalating; a latched alarm whose condition ended is then resolved. A token that names no user (client credentials: an app acting for itself) is refused 403: a person must acknowledge. Already acknowledged: 409 naming who and when; resolved: 409.
         *
         *     Required scopes: read:vitals.
         */
        post: operations["postAlarmsByIdAcknowledge"];
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
         * @description A FHIR searchset Bundle of Slot resources ordered by start, each booked one followed by its Appointment, then the Schedule of each clinician on the page (search mode include; Slot.schedule references it). Paging: `link` relation `next`. Filters: clinician, patient, from/to (start time), status (free|busy). Patient users see free slots and their own bookings. Reads the projection (eventually consistent).
         *
         *     Required scopes: read:appointments.
         */
        get: operations["getAppointments"];
        put?: never;
        /**
         * Book a slot
         * @description Books a free slot for the patient patient_id (a patient user names itself: any other patient is 403). 201 with the Appointment; 409 if the slot is taken (also when many book it at once: exactly one wins); 422 if the patient or the slot does not exist.
         *
         *     Required scopes: write:appointments.
         */
        post: operations["postAppointments"];
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
        get: operations["getAppointmentsById"];
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
        post: operations["postAppointmentsByIdCancel"];
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
        post: operations["postAppointmentsByIdReschedule"];
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
        get: operations["getAudit"];
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
        get: operations["getCatalog"];
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
        get: operations["getCatalogAppointmentTypes"];
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
        get: operations["getCatalogClinicians"];
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
        get: operations["getCatalogScopes"];
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
        get: operations["getCatalogVitalSigns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Orderable tests and reportable results (public reference data)
         * @description LOINC codes that may be ordered, and the results a department may report with their UCUM unit, reference range and critical limits. Nothing patient-related.
         */
        get: operations["getDiagnosticsCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/critical-results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Critical results: waiting, and acknowledged (history)
         * @description By state (comma-separated; default open,escalated: what waits for a clinician, oldest first, whatever its age). `acknowledged`: the history, newest first, with who (user id and name), the app and when, acknowledged at or after `since` (default: the last 24 h), at most `limit`. Optionally for one patient. Reads the projection (one projector tick behind).
         *
         *     Required scopes: read:diagnostics.
         */
        get: operations["getDiagnosticsCriticalResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List orders
         * @description By patient and status (comma-separated), newest first. Reads the projection (eventually consistent, one projector tick).
         *
         *     Required scopes: read:diagnostics.
         */
        get: operations["getDiagnosticsOrders"];
        put?: never;
        /**
         * Order a diagnostic test
         * @description Body: a FHIR ServiceRequest (intent order or proposal, priority routine|urgent|asap|stat, code from the catalog, subject, reasonCode). Doctors (write:diagnostics, role doctor). 201 with Location and ETag; an unknown patient: 422.
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsOrders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an order
         * @description Required scopes: read:diagnostics.
         */
        get: operations["getDiagnosticsOrdersById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/orders/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate an order
         * @description draft (a proposal) or on-hold → active. Body optional: {reason}. If-Match optional (412 when stale). Any other state: 409 naming it.
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsOrdersByIdActivate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/orders/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel (revoke) an order
         * @description draft, active or on-hold → revoked. Body optional: {reason}. If-Match optional (412 when stale). Any other state: 409 naming it.
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsOrdersByIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/orders/{id}/entered-in-error": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mark an order entered in error
         * @description any state but entered-in-error. Body optional: {reason}. If-Match optional (412 when stale). Any other state: 409 naming it.
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsOrdersByIdEnteredInError"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/orders/{id}/fulfil-from-telemetry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Fulfil an ECG order from the stored telemetry
         * @description A rhythm strip (11524-6) or 12-lead (34534-8) order for a monitored patient becomes a final DiagnosticReport: every stored ECG chunk of [from, to) (at most 60 s) as an Observation with valueSampledData (the same samples the live stream delivered), and each vital sign's latest value within 10 minutes before `to`. Doctor (write:diagnostics + read:vitals). The same window again answers the stored report (200).
         *
         *     Required scopes: write:diagnostics, read:vitals.
         */
        post: operations["postDiagnosticsOrdersByIdFulfilFromTelemetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/orders/{id}/hold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Put an order on hold
         * @description active → on-hold. Body optional: {reason}. If-Match optional (412 when stale). Any other state: 409 naming it.
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsOrdersByIdHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List reports
         * @description By patient or order, newest first. read:diagnostics; a patient user (patient/DiagnosticReport.rs) gets its own final reports only. Reads the projection.
         *
         *     Required scopes: one of read:diagnostics, patient/DiagnosticReport.rs.
         */
        get: operations["getDiagnosticsReports"];
        put?: never;
        /**
         * Post results (a DiagnosticReport)
         * @description The performing department (role lab) posts a FHIR DiagnosticReport basedOn an active order, its results as contained Observations (LOINC code, valueQuantity in the catalog's UCUM unit, or valueString for a finding). Interpretations (L/H/LL/HH) are computed from the catalog's ranges; a critical result is raised on the live stream and the triage board until acknowledged. A final report completes the order. 201 new; 200 with the stored report when the same filler identifier was posted before with the same content (a redelivery); 409 when it names other content.
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsReports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/reports/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a report
         * @description read:diagnostics; a patient user its own final report.
         *
         *     Required scopes: one of read:diagnostics, patient/DiagnosticReport.rs.
         */
        get: operations["getDiagnosticsReportsById"];
        /**
         * Update a report (more results, or the next status)
         * @description registered → partial → preliminary → final (role lab). If-Match required (428 without, 412 when stale). A final report completes its order. After final use amend.
         *
         *     Required scopes: write:diagnostics.
         */
        put: operations["putDiagnosticsReportsById"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/reports/{id}/acknowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Acknowledge a report's critical result
         * @description A signed-in clinician (role doctor, a token that names the user: authorization code) acknowledges the open or escalated critical result: the user (id and display name), the app used and when are recorded in the event store and the audit trail; it leaves the board for its acknowledged history (GET …/critical-results?state=acknowledged). A token that names no user (client credentials: an app acting for itself) is refused 403: a person must acknowledge. Nothing to acknowledge: 409 naming the state.
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsReportsByIdAcknowledge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/reports/{id}/amend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Amend or correct a final report
         * @description Body: {status: amended|corrected, reason, contained (the full new results), conclusion}. The earlier revision stays readable in the history with the reason. If-Match optional (412 when stale).
         *
         *     Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsReportsByIdAmend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/reports/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a report that is not final
         * @description Required scopes: write:diagnostics.
         */
        post: operations["postDiagnosticsReportsByIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/diagnostics/reports/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every revision of a report
         * @description Oldest first; each revision is the DiagnosticReport as it was, with when, by whom and why (amendments). Same access as reading the report.
         *
         *     Required scopes: one of read:diagnostics, patient/DiagnosticReport.rs.
         */
        get: operations["getDiagnosticsReportsByIdHistory"];
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
         * @description Overall status, one check per dependency (PostgreSQL, Kafka, Redis) with latency, and the vitals pipeline: per partition, the ingest's lag, how long it has made no progress while messages wait and how long messages have waited; the newest stored observation and its age; `pipeline.delayed` (what the UI cards' "Data delayed" banner reads). Degraded when a partition is stalled (no progress for HEALTH_STALL_AFTER_MS while messages wait) or delayed (messages have waited for HEALTH_DATA_AGE_AFTER_MS and the newest stored observation is older than that); an idle pipeline (nothing waiting) is never delayed. 503 when down. Error texts are not shown here (see /api/v1/health/details).
         */
        get: operations["getHealth"];
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
        get: operations["getHealthDetails"];
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
        get: operations["getPatients"];
        put?: never;
        /**
         * Register a patient
         * @description Body: a FHIR Patient. The id (pat-...) is minted by the server. 201 with Location and ETag. An identifier (system + value) already held by another patient: 409.
         *
         *     Required scopes: write:patients.
         */
        post: operations["postPatients"];
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
         * @description The record as an envelope `{ view, patient, allergies?, latest_vitals?, news2? }` (the same envelope as the MCP tool get_patient): `patient` a FHIR R4 Patient; for clinical readers also `allergies` (FHIR AllergyIntolerance[]) and, with read:vitals, `latest_vitals` and `news2`. Reception sees `patient` only (view `demographics`). With `Accept: application/fhir+json` the bare FHIR Patient (what Bundle fullUrls resolve to). ETag = version. (In 0.1.0 the Patient itself carried `allergies` and `vitals`: see the 0.2.0 release notes.)
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: operations["getPatientsById"];
        /**
         * Update a patient
         * @description Replaces the demographics. If-Match required (428 without; 412 when stale). An identifier held by another patient: 409.
         *
         *     Required scopes: write:patients.
         */
        put: operations["putPatientsById"];
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
         * @description Body: a FHIR AllergyIntolerance (code, criticality, reaction). The substance (`code`) is a SNOMED CT or RxNorm coding with a code of the right shape and a display, or a text of at least 3 printable characters with two letters, or both; a reaction's description is such a text. Anything else (a lone digit such as "0", symbols, garbled text such as "Ã©", an unknown code system, a SNOMED CT id failing its check digit) is a 422 `implausible-clinical-input` naming each field in `errors[]`. If-Match optional (412 when stale). Responds with the AllergyIntolerance and the patient ETag.
         *
         *     Required scopes: write:patients, read:patients.
         */
        post: operations["postPatientsByIdAllergies"];
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
        delete: operations["deletePatientsByIdAllergiesByAllergyId"];
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
        get: operations["getPatientsByIdHistory"];
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
        get: operations["getPatientsByIdVitalsLatest"];
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
        get: operations["getSandbox"];
        put?: never;
        /** Immediate, rate-limited sandbox credentials (read-only demo scopes) */
        post: operations["postSandbox"];
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
         * @description Patients in the department, most urgent first (ESI, then arrival). With read:vitals each entry also carries the latest vitals (each with its effective_at), the NEWS2 score computed from them and the active vitals alerts; with read:diagnostics its unacknowledged critical results and those acknowledged in the last 12 h. Reads the projection.
         *
         *     Required scopes: read:patients.
         */
        get: operations["getTriage"];
        put?: never;
        /**
         * Admit a patient to the ED board
         * @description Required scopes: write:triage.
         */
        post: operations["postTriage"];
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
        post: operations["postTriageByPatientIdDischarge"];
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
        put: operations["putTriageByPatientIdEsi"];
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
        get: operations["getVitals"];
        put?: never;
        /**
         * Publish a batch of vitals observations and device frames
         * @description Up to 1000 observations (see vitals-observation.schema.json) and up to 500 frames (one device's observations at one tick, envelope vitals.frame.v1, or vitals.frame.v2 with an ECG chunk's samples as whole 0.1 µV steps), at least one of either. All-or-nothing: if any item is invalid the whole batch is refused with 422 and every invalid index (errors[].index for an observation, errors[].frame for a frame, the path inside it); nothing is published. 202 once Kafka (acks=all) has the batch. Re-sending an accepted batch is safe: (device_id, seq, effective_at) is stored once. Bounded device clocks: an effective_at (an observation's, a frame's tick, a frame observation's own) more than VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) ahead of the gateway's clock, or more than VITALS_RETENTION_DAYS (default 30 days) behind it, is a 422 naming the field (errors[].path effective_at or observations.<i>.effective_at); a late observation inside the window is stored. What is accepted is stored and read back as sent: a numeric value exactly (double precision), period_ms exactly (a float4 that does not hold it exactly is refused), an ECG chunk's potentials as origin + sample quantised to 0.1 µV (see samples), a v2 frame's sample_steps exactly.
         *
         *     Required scopes: write:vitals.
         */
        post: operations["postVitals"];
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
        get: operations["getVitalsLatest"];
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
        get: operations["getVitalsStream"];
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
        get: operations["getVitalsWs"];
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
        get: operations["getAuthMd"];
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
        get: operations["getDevelopers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/.well-known/smart-configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** SMART App Launch v2 configuration (the authorization server's SMART endpoints and capabilities) */
        get: operations["getFhirR4WellKnownSmartConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/$export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bulk export: every patient
         * @description System-level Bulk Data kick-off (Bulk Data Access IG 3.0): the resources of every patient the caller may read (a patient user: its own). 202 with Content-Location: the status URL.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["getFhirR4Export"];
        put?: never;
        /**
         * Bulk export: every patient (POST, Parameters)
         * @description System-level Bulk Data kick-off (Bulk Data Access IG 3.0): the resources of every patient the caller may read (a patient user: its own). 202 with Content-Location: the status URL. The parameters come in a FHIR Parameters body (application/fhir+json), as the GET query names them, plus patient (references).
         *
         *     Required scopes: read:vitals.
         */
        post: operations["postFhirR4Export"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/$export-file/{id}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a bulk export file
         * @description An NDJSON file of the manifest (application/fhir+ndjson), with the token that kicked the export off. Range: bytes=a-b (206; 416 outside the file). Accept-Encoding: gzip without Range: gzipped. Audited.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["getFhirR4ExportFileByIdByFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/$export-status/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bulk export status
         * @description While the export runs: 202 with X-Progress and Retry-After (with allowPartialManifests, and a full page of files written: that manifest page, application/json). Done: 200 with the manifest (application/json; Expires: when the files go; with allowPartialManifests one page, link next to the following one). A failed export: 500 with an OperationOutcome. Another caller's export, a cancelled or expired one: 404.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["getFhirR4ExportStatusById"];
        put?: never;
        post?: never;
        /**
         * Cancel a bulk export
         * @description Cancels the export (running or finished) and removes its files: 202; the status URL then answers 404.
         *
         *     Required scopes: read:vitals.
         */
        delete: operations["deleteFhirR4ExportStatusById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/AllergyIntolerance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search AllergyIntolerance
         * @description One patient's allergies (patient required; a patient user: its own, with patient/AllergyIntolerance.rs). Served by the patients service (folds the record; audited patient.allergies.read).
         *
         *     Required scopes: one of read:patients, patient/AllergyIntolerance.rs.
         */
        get: operations["fhirSearchAllergyIntolerance"];
        put?: never;
        /**
         * Create AllergyIntolerance
         * @description Records an allergy of the Patient that `patient` references (the patients service, as POST /api/v1/patients/{id}/allergies; write:patients and read:patients). `code`: a SNOMED CT (http://snomed.info/sct, a concept id with its check digit) or RxNorm (http://www.nlm.nih.gov/research/umls/rxnorm, an RXCUI) coding with a display, and/or a text of at least 3 printable characters with two letters; a reaction's description (else its first manifestation's text) the same. Anything else is a 422 OperationOutcome naming each field (`body.code.text: …`). criticality, and one reaction, are kept; other elements are ignored. 201 with the AllergyIntolerance and Location. An unknown patient: 404.
         *
         *     Required scopes: write:patients, read:patients.
         */
        post: operations["fhirCreateAllergyIntolerance"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/AllergyIntolerance/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read AllergyIntolerance
         * @description One allergy: its patient is found in the projection (eventually consistent: a just-recorded allergy may take a projector tick), then read as the search reads it.
         *
         *     Required scopes: one of read:patients, patient/AllergyIntolerance.rs.
         */
        get: operations["fhirReadAllergyIntolerance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Appointment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Appointment
         * @description Current bookings by start: patient, date (every date prefix: eq ne gt lt ge le sa eb ap; repeatable as AND, commas as OR), status (booked; comma: any of), _count; `_include=Appointment:slot` adds each booked Slot (search mode include). A patient user: its own bookings. Served by the appointments service's listing (audited appointment.list).
         *
         *     Required scopes: read:appointments.
         */
        get: operations["fhirSearchAppointment"];
        put?: never;
        /**
         * Create Appointment (book a Slot)
         * @description Books the free Slot for the Patient participant (the appointments service, as POST /api/v1/appointments; a patient user books for themselves and may leave the patient out). 201 with the booked Appointment and Location; a taken slot: 409 (of concurrent bookings exactly one wins); an unknown patient: 422.
         *
         *     Required scopes: write:appointments.
         */
        post: operations["fhirCreateAppointment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Appointment/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Appointment
         * @description A current booking (id {slot}.{version}); a patient user: its own. Audited appointment.read.
         *
         *     Required scopes: read:appointments.
         */
        get: operations["fhirReadAppointment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/DetectedIssue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search DetectedIssue (bedside alarms)
         * @description Bedside alarms as DetectedIssues, highest severity first: patient (without it: across every patient the caller reaches, a ward view), status (preliminary: must still be seen, the default; final: resolved in the last 24 h; comma-separated), _lastUpdated (meta.lastUpdated: every date prefix), _count. Doctors, nurses (read:vitals). Served by the alarms service (audited alarm.read).
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirSearchDetectedIssue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/DetectedIssue/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read DetectedIssue (a bedside alarm)
         * @description One alarm, current (its patient's alert stream folded): status preliminary or final, severity from its priority, its acknowledgement and escalation as mitigations. Audited alarm.read.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirReadDetectedIssue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Device": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Device
         * @description The devices reporting a patient's vitals now (those of its latest observation per code): patient (required), _count. The vitals service's access rule (a patient user: its own; a sandbox token: synthetic patients) and audit.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirSearchDevice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Device/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Device
         * @description A device of the append log and the patient it last reported for (the vitals access rule on that patient; audited vitals.read).
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirReadDevice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/DiagnosticReport": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search DiagnosticReport
         * @description Diagnostic reports, newest first: patient, code (LOINC), status, category (v2-0074 section, e.g. LAB) (each comma-separated: any of), _lastUpdated (every date prefix), _count. A patient user (patient/DiagnosticReport.rs): its own final reports. Served by the diagnostics service (audited diagnostics.report.list).
         *
         *     Required scopes: one of read:diagnostics, patient/DiagnosticReport.rs.
         */
        get: operations["fhirSearchDiagnosticReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/DiagnosticReport/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read DiagnosticReport
         * @description A report with its Observations contained; a patient user: its own final report. ETag W/"<versionId>".
         *
         *     Required scopes: one of read:diagnostics, patient/DiagnosticReport.rs.
         */
        get: operations["fhirReadDiagnosticReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/DiagnosticReport/{id}/_history/{vid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a DiagnosticReport version (vread)
         * @description The report as it was at versionId `vid` (its event stream folded to that version).
         *
         *     Required scopes: one of read:diagnostics, patient/DiagnosticReport.rs.
         */
        get: operations["fhirVreadDiagnosticReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Group": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Group
         * @description The Groups the caller may read whole: _id (comma: any of), name (case-insensitive substring), _count. By id. Audited group.search.
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: operations["fhirSearchGroup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Group/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Group
         * @description A Group and its members, for a caller who may read every member (403 otherwise); audited group.read.
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: operations["fhirReadGroup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Group/{id}/$export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bulk export: a Group
         * @description Group-level Bulk Data kick-off: the resources of the Group's members (a ward, a cohort; docs/export.md). 202 with Content-Location: the status URL.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["getFhirR4GroupByIdExport"];
        put?: never;
        /**
         * Bulk export: a Group (POST, Parameters)
         * @description Group-level Bulk Data kick-off: the resources of the Group's members (a ward, a cohort; docs/export.md). 202 with Content-Location: the status URL. The parameters come in a FHIR Parameters body (application/fhir+json), as the GET query names them, plus patient (references).
         *
         *     Required scopes: read:vitals.
         */
        post: operations["postFhirR4GroupByIdExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/metadata": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * FHIR CapabilityStatement
         * @description What this FHIR R4 server implements: resources, interactions, search parameters, operations; security: OAuth with the SMART oauth-uris extension. Public.
         */
        get: operations["fhirCapabilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Observation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Observation (vital signs)
         * @description One patient's vital-sign Observations (ECG as valueSampledData; a device's systolic and diastolic of one instant as one blood-pressure panel, 85354-9), ascending by date: patient|subject (required), code and component-code (comma: OR), date (every prefix; without it the patient's whole history), category=vital-signs, _count, _sort (date or -date). Paged by keyset (Bundle.link next), each page bounded work whatever the range. Served by the vitals service (same access rules and audit as GET /api/v1/vitals).
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirSearchObservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Observation/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Observation
         * @description One stored vital-sign Observation by its id `{device_id}.{seq}` (a device numbers its observations with a strictly increasing seq, so that is one stored row; the ids the searches answer): a systolic with its diastolic partner reads as their blood-pressure panel. Served by the vitals service (the same access rule as a search: a patient user its own, a sandbox token no stored row; audited vitals.read).
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirReadObservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Observation/$lastn": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Observation $lastn
         * @description The latest Observation per code of one patient (patient|subject required; code, category optional; max=1 only), from the vitals service's latest read.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirLastnObservation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Patient": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Patient
         * @description Parameters: _id, identifier (comma: any of), name, family, given, birthdate (every date prefix), gender (comma: any of), _lastUpdated (every date prefix), _count (see the CapabilityStatement). A patient user finds only themselves. Reads the projection (eventually consistent). Next page: Bundle.link next.
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: operations["fhirSearchPatient"];
        put?: never;
        /**
         * Create Patient
         * @description Registers a patient (the patients service, as POST /api/v1/patients): name (exactly one), birthDate, gender, identifier, telecom are kept; the id is minted. 201 with Location (…/_history/1) and ETag W/"1". An identifier another patient holds: 409.
         *
         *     Required scopes: write:patients.
         */
        post: operations["fhirCreatePatient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Patient/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Patient
         * @description The current Patient, folded from its event stream. ETag W/"<versionId>", Last-Modified; If-None-Match with the current ETag: 304.
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: operations["fhirReadPatient"];
        /**
         * Update Patient
         * @description Replaces the demographics (the patients service, as PUT /api/v1/patients/{id}). If-Match required: W/"<versionId>" of the version read (412 when stale, 428 without). No create on update (404 for an unknown id).
         *
         *     Required scopes: write:patients.
         */
        put: operations["fhirUpdatePatient"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Patient/{id}/_history/{vid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a Patient version (vread)
         * @description The Patient as it was at versionId `vid` (its event stream folded up to that version).
         *
         *     Required scopes: one of read:patients, write:patients, patient/Patient.rs.
         */
        get: operations["fhirVreadPatient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Patient/$export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Bulk export: patients
         * @description Patient-level Bulk Data kick-off: the resources of every patient (a patient user: its own; POST: the patients named). 202 with Content-Location: the status URL.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["getFhirR4PatientExport"];
        put?: never;
        /**
         * Bulk export: patients (POST, Parameters)
         * @description Patient-level Bulk Data kick-off: the resources of every patient (a patient user: its own; POST: the patients named). 202 with Content-Location: the status URL. The parameters come in a FHIR Parameters body (application/fhir+json), as the GET query names them, plus patient (references).
         *
         *     Required scopes: read:vitals.
         */
        post: operations["postFhirR4PatientExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Practitioner": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Practitioner
         * @description The catalog's clinicians and the staff users the caller may see (the staff directory; its own with fhirUser): _id (comma: any of), name (case-insensitive substring), _count. By id.
         *
         *     Required scopes: none (any valid token).
         */
        get: operations["fhirSearchPractitioner"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Practitioner/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Practitioner
         * @description A clinician of the catalog (any token), or a staff user: the staff directory's, or one's own (the fhirUser scope).
         *
         *     Required scopes: none (any valid token).
         */
        get: operations["fhirReadPractitioner"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Schedule
         * @description Each clinician's Schedule (id = the clinician id): _id (comma: any of), actor (Practitioner/{id}), _count. A sandbox token: the synthetic clinicians.
         *
         *     Required scopes: read:appointments.
         */
        get: operations["fhirSearchSchedule"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Schedule/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Schedule
         * @description A clinician's Schedule.
         *
         *     Required scopes: read:appointments.
         */
        get: operations["fhirReadSchedule"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/ServiceRequest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search ServiceRequest
         * @description Diagnostic orders, newest first: patient, status and code (LOINC; comma-separated: any of), _lastUpdated (every date prefix), _count. Served by the diagnostics service (the projection; audited diagnostics.order.list).
         *
         *     Required scopes: read:diagnostics.
         */
        get: operations["fhirSearchServiceRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/ServiceRequest/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read ServiceRequest
         * @description A diagnostic order, folded from its event stream. ETag W/"<versionId>".
         *
         *     Required scopes: read:diagnostics.
         */
        get: operations["fhirReadServiceRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/ServiceRequest/{id}/_history/{vid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a ServiceRequest version (vread)
         * @description The order as it was at versionId `vid`.
         *
         *     Required scopes: read:diagnostics.
         */
        get: operations["fhirVreadServiceRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Slot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search Slot
         * @description Slots by start: schedule (Schedule/{id}), start (every date prefix: eq ne gt lt ge le sa eb ap; repeatable as AND, commas as OR), status (free|busy, comma: any of), _count. Served by the appointments service's listing (the projection; a sandbox token: synthetic slots).
         *
         *     Required scopes: read:appointments.
         */
        get: operations["fhirSearchSlot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Slot/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read Slot
         * @description The current Slot, folded from its event stream. ETag W/"<versionId>".
         *
         *     Required scopes: read:appointments.
         */
        get: operations["fhirReadSlot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Slot/{id}/_history/{vid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a Slot version (vread)
         * @description The Slot as it was at versionId `vid`.
         *
         *     Required scopes: read:appointments.
         */
        get: operations["fhirVreadSlot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search your Subscriptions
         * @description The Subscriptions the caller (this client and user) created; nobody else's. No search parameters but _count (1-100).
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirSearchSubscription"];
        put?: never;
        /**
         * Create a Subscription (topic-based, Subscriptions R5 Backport)
         * @description An R4 Subscription in the backport profile: criteria = a topic of the CapabilityStatement (patient vitals, or patient vitals alerts), one `backport-filter-criteria` extension on `_criteria` with patient=Patient/{id} (and code=… for vitals), channel.type websocket, payload content full-resource (default), id-only (vitals only: each event's Observation read URL, no resource) or empty. Needs read access to that patient's vitals. Answers 201 with the Subscription, status active: events are numbered from now on. An identical Subscription of the same client and user (same patient, topic, codes, payload and heartbeat) is not created twice: 200 with the existing one. A client holds at most FHIR_SUBSCRIPTIONS_PER_CLIENT (default 50) Subscriptions: 422 beyond.
         *
         *     Required scopes: read:vitals.
         */
        post: operations["fhirCreateSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Subscription/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a Subscription
         * @description One of the caller's Subscriptions (404 for anyone else's).
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirReadSubscription"];
        put?: never;
        post?: never;
        /**
         * Delete a Subscription
         * @description Ends one of the caller's Subscriptions and drops its numbered events; bound websockets are closed (1000).
         *
         *     Required scopes: read:vitals.
         */
        delete: operations["fhirDeleteSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Subscription/{id}/$events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Subscription $events
         * @description The numbered events eventsSinceNumber..eventsUntilNumber (inclusive; defaults: 1 and the last), in a notification Bundle of type query-event, at most 1000 (ask again from the last number + 1). Event n is the n-th event of the subscription, for good: resuming from the last number a client saw misses nothing and repeats nothing. content: full-resource (default), id-only (vitals subscriptions: each event's Observation read URL, no resource) or empty. Audited as a vitals read.
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirSubscriptionEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Subscription/{id}/$get-ws-binding-token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Subscription $get-ws-binding-token
         * @description A token that binds a websocket to this Subscription: open /fhir/R4/websocket, send `bind-with-token <token>`; the server answers a handshake bundle, then an event-notification bundle per event (and heartbeats). Valid 300 s (never past the access token's expiry), reusable until then.
         *
         *     Required scopes: read:vitals.
         */
        post: operations["fhirSubscriptionWsBindingToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/Subscription/{id}/$status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Subscription $status
         * @description A searchset with the subscription's status Parameters (backport-subscription-status-r4): status and events-since-subscription-start (the last event number given).
         *
         *     Required scopes: read:vitals.
         */
        get: operations["fhirSubscriptionStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fhir/R4/websocket": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Subscription notifications over WebSocket (Subscriptions R5 Backport)
         * @description A GET with `Upgrade: websocket`. Send the text `bind-with-token <token>` (from Subscription/{id}/$get-ws-binding-token); the server sends a handshake notification Bundle, then one event-notification Bundle per event and heartbeat Bundles (backport-heartbeat-period). A bad or expired token: an OperationOutcome text frame, then close 4401. The socket closes (4401) when the access token behind the binding expires or is revoked.
         */
        get: operations["fhirSubscriptionWebSocket"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description The process runs and its event loop is not stuck (no dependency is checked). 503 when the loop ran late by more than 10 s.
         */
        get: operations["getLivez"];
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
        get: operations["getOpenapiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description Ready when the schema is current and PostgreSQL, Kafka and Redis answer (each within READINESS_TIMEOUT_MS; the result is cached for 1 s). 503 when not ready, and from the start of a shutdown (draining). The body also reports the vitals pipeline (`pipeline`, as GET /api/v1/health judges it), which never makes the gateway not ready: a stalled ingest is reported here and in health, not a reason to take every gateway out of rotation.
         */
        get: operations["getReadyz"];
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
        get: operations["getUi"];
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
        get: operations["getUiByName"];
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
        /**
         * @description A bedside alarm with its lifecycle (IEC 60601-1-8 priorities, IHE PCD ACM states)
         * @example {
         *       "acknowledged_at": "2026-11-25T08:00:40.120Z",
         *       "acknowledged_by": {
         *         "client_id": "cli_0a1b2c3d4e5f",
         *         "name": "Demo Nurse",
         *         "user": "usr-demo-nurse"
         *       },
         *       "alarm_id": "3f0c6a52-8d1e-5b7a-9c3e-2a4b6c8d0e1f",
         *       "condition_ended_at": null,
         *       "condition_since": "2026-11-25T08:00:10.000Z",
         *       "device_id": "mon-0001",
         *       "due_at": "2026-11-25T08:01:10.000Z",
         *       "escalated_at": null,
         *       "escalated_to": null,
         *       "kind": "physiological",
         *       "label": "SpO2 low",
         *       "latching": true,
         *       "message": "SpO2 85 % (below 92 % for 10 s)",
         *       "note": "repositioned the probe",
         *       "patient_id": "pat-0001",
         *       "priority": "high",
         *       "raised_at": "2026-11-25T08:00:10.000Z",
         *       "recurrences": 0,
         *       "resolved_at": null,
         *       "rule": "spo2-low",
         *       "state": "acknowledged",
         *       "value": 85
         *     }
         */
        Alarm: {
            acknowledged_at: string | null;
            acknowledged_by: {
                /** @description The app they acknowledged with */
                client_id: string;
                /** @description Their display name, when the user store had one */
                name: string | null;
                /** @description The signed-in user (the token's subject) */
                user: string;
            } | null;
            /** @description The alarm id (the raise event's alert_id) */
            alarm_id: string;
            condition_ended_at: string | null;
            /** @description Since when the condition is present this time: raised_at, or the latest time it came back while the alarm was latched */
            condition_since: string;
            /** @description The device whose data raised it */
            device_id: string;
            /** @description When it escalates if nobody acknowledges it (null: never) */
            due_at: string | null;
            escalated_at: string | null;
            /** @description The recipient it escalated to (IHE ACM: the next in the chain) */
            escalated_to: string | null;
            /**
             * @description IEC 60601-1-8: about the patient, or about the equipment or data path
             * @enum {string}
             */
            kind: "physiological" | "technical";
            /** @description The condition's name for people */
            label: string;
            /** @description Stays shown after its condition ends until a clinician acknowledges it */
            latching: boolean;
            message: string;
            /** @description What the acknowledging clinician wrote */
            note: string | null;
            patient_id: string;
            /**
             * @description IEC 60601-1-8 priority
             * @enum {string}
             */
            priority: "high" | "medium" | "low";
            /** @description The effective time of the observation that confirmed the condition (after its onset delay) */
            raised_at: string;
            /** @description How many times the condition came back while the alarm was latched (one alarm until acknowledged, not one per recurrence) */
            recurrences: number;
            resolved_at: string | null;
            /** @description The condition (@vitalis/clinical alarm table: spo2-low, hr-high, sys-low, news2-high, device-disconnected, …) */
            rule: string;
            /**
             * @description raised (condition present, not acknowledged), acknowledged (condition present), latched (condition ended, not acknowledged, latching), resolved
             * @enum {string}
             */
            state: "raised" | "acknowledged" | "latched" | "resolved";
            /** @description The value that confirmed the condition */
            value: number;
        };
        /**
         * @description Optional: a note
         * @example {
         *       "note": "repositioned the probe; SpO2 recovering"
         *     }
         */
        AlarmAcknowledgementInput: {
            /** @description What was done (kept with the acknowledgement) */
            note?: string;
        } | null;
        /**
         * @description Alarms, highest priority first, then the newest raise first
         * @example {
         *       "alarms": [
         *         {
         *           "acknowledged_at": "2026-11-25T08:00:40.120Z",
         *           "acknowledged_by": {
         *             "client_id": "cli_0a1b2c3d4e5f",
         *             "name": "Demo Nurse",
         *             "user": "usr-demo-nurse"
         *           },
         *           "alarm_id": "3f0c6a52-8d1e-5b7a-9c3e-2a4b6c8d0e1f",
         *           "condition_ended_at": null,
         *           "condition_since": "2026-11-25T08:00:10.000Z",
         *           "device_id": "mon-0001",
         *           "due_at": "2026-11-25T08:01:10.000Z",
         *           "escalated_at": null,
         *           "escalated_to": null,
         *           "kind": "physiological",
         *           "label": "SpO2 low",
         *           "latching": true,
         *           "message": "SpO2 85 % (below 92 % for 10 s)",
         *           "note": "repositioned the probe",
         *           "patient_id": "pat-0001",
         *           "priority": "high",
         *           "raised_at": "2026-11-25T08:00:10.000Z",
         *           "recurrences": 0,
         *           "resolved_at": null,
         *           "rule": "spo2-low",
         *           "state": "acknowledged",
         *           "value": 85
         *         }
         *       ],
         *       "count": 1
         *     }
         */
        AlarmList: {
            alarms: components["schemas"]["Alarm"][];
            count: number;
        };
        /** @description FHIR R4 AllergyIntolerance (https://hl7.org/fhir/R4/allergyintolerance.html), the elements Vitalis keeps */
        AllergyIntolerance: {
            clinicalStatus: {
                coding: {
                    code: string;
                    display: string;
                    system: string;
                }[];
            };
            /** @description The substance */
            code: {
                /** @description SNOMED CT or RxNorm codings, when the allergy was recorded with one */
                coding?: {
                    code: string;
                    display: string;
                    system: string;
                }[];
                /** @description The substance in words (the recorded text, else the first coding's display) */
                text: string;
            };
            /** @enum {string} */
            criticality: "low" | "high" | "unable-to-assess";
            id: string;
            patient: {
                reference: string;
            };
            reaction?: {
                description: string;
                manifestation: {
                    text: string;
                }[];
            }[];
            recordedDate: string;
            /** @constant */
            resourceType: "AllergyIntolerance";
        };
        /** @description FHIR R4 Appointment (https://hl7.org/fhir/R4/appointment.html), the elements Vitalis keeps */
        Appointment: {
            appointmentType: {
                text: string;
            };
            created?: string;
            /** @description The reason given at booking */
            description?: string;
            end: string;
            id: string;
            participant: {
                /** @description Patient/<id> or Practitioner/<clinician id> */
                actor: {
                    reference: string;
                };
                /** @constant */
                status: "accepted";
            }[];
            /** @constant */
            resourceType: "Appointment";
            slot: {
                reference: string;
            }[];
            start: string;
            /** @enum {string} */
            status: "booked" | "cancelled";
        };
        /** @description A bookable appointment type and its length */
        AppointmentType: {
            code: string;
            display: string;
            minutes: number;
        };
        /** @description OAuth 2.0 Authorization Server Metadata (RFC 8414), also the OpenID Provider Metadata (OpenID Connect Discovery 1.0) */
        AuthorizationServerMetadata: {
            [key: string]: unknown;
        };
        /** @description An active bedside alarm on the triage board */
        BoardAlarm: {
            alarm_id: string;
            escalated_to: string | null;
            /** @enum {string} */
            priority: "high" | "medium" | "low";
            raised_at: string;
            /** @description The condition (its label: the alarm table, docs/alarms.md) */
            rule: string;
            /** @enum {string} */
            state: "raised" | "acknowledged" | "latched" | "resolved";
        };
        /** @description The Bulk Data export manifest (Bulk Data Access IG 3.0; with allowPartialManifests one page of it) */
        BulkExportManifest: {
            /** @description The job's messages (parameters processed leniently, patients not found) as one OperationOutcome file; rows that cannot be exported fail the job */
            error: {
                count?: number;
                /** @constant */
                type: "OperationOutcome";
                url: string;
            }[];
            /** @description allowPartialManifests: the next manifest page */
            link?: {
                /** @constant */
                relation: "next";
                url: string;
            }[];
            output: {
                count: number;
                /** @description Absent when organized by patient */
                type?: string;
                url: string;
            }[];
            /**
             * @description organizeOutputBy of the kick-off: files of patient blocks
             * @constant
             */
            outputOrganizedBy?: "Patient";
            /** @description The kick-off request URL */
            request: string;
            /**
             * @description Files are downloaded with the same access token
             * @constant
             */
            requiresAccessToken: true;
            /** @description FHIR instant: the export holds exactly what was committed at this time */
            transactionTime: string;
        };
        /**
         * @description A FHIR Parameters resource with the kick-off parameters (Bulk Data Access IG 3.0: the same as the GET query, plus patient)
         * @example {
         *       "parameter": [
         *         {
         *           "name": "_type",
         *           "valueString": "Patient,Observation"
         *         },
         *         {
         *           "name": "_since",
         *           "valueInstant": "2026-01-01T00:00:00Z"
         *         },
         *         {
         *           "name": "patient",
         *           "valueReference": {
         *             "reference": "Patient/pat-0001"
         *           }
         *         }
         *       ],
         *       "resourceType": "Parameters"
         *     }
         */
        BulkExportParametersInput: {
            parameter?: {
                name: string;
                valueBoolean?: boolean;
                valueCode?: string;
                valueInstant?: string;
                valueReference?: {
                    reference: string;
                } & {
                    [key: string]: unknown;
                };
                valueString?: string;
            }[];
            /** @constant */
            resourceType: "Parameters";
        } & {
            [key: string]: unknown;
        };
        CriticalResult: {
            acknowledged_at: string | null;
            /** @description The signed-in user who acknowledged it (user id; never an app) */
            acknowledged_by: string | null;
            /** @description That user's display name, when the user store has one */
            acknowledged_by_name: string | null;
            /** @description The app (OAuth client id) the user acknowledged with */
            acknowledged_with: string | null;
            /** @description The report's test (LOINC) */
            code: string;
            critical_id: string;
            /** @description When it escalates if nobody acknowledges it */
            due_at: string;
            escalated_at: string | null;
            note: string | null;
            patient_id: string;
            raised_at: string;
            report_id: string;
            /** @description The report's current status: preliminary, final, amended, corrected, … */
            report_status: string;
            results: components["schemas"]["CriticalResultValue"][];
            /** @enum {string} */
            state: "open" | "escalated" | "acknowledged";
        };
        CriticalResultValue: {
            code: string;
            /** @description The critical limit the value crossed (below low, above high); null for a finding in words (AA) */
            crossed: {
                limit: number;
                /** @enum {string} */
                side: "low" | "high";
            } | null;
            display: string;
            /** @enum {string} */
            interpretation?: "N" | "L" | "H" | "LL" | "HH" | "A" | "AA";
            /** @description The clinical name ("Potassium"); `display` is the LOINC long name */
            name: string;
            referenceRange?: {
                high?: number;
                low?: number;
            };
            text?: string;
            unit?: string;
            value?: number;
        };
        /** @description FHIR R4 DetectedIssue (https://hl7.org/fhir/R4/detectedissue.html): a bedside alarm; its acknowledgement and escalation as mitigations (docs/fhir.md, "Alarms") */
        DetectedIssue: {
            author?: {
                /** @description Device/<id> */
                reference: string;
            };
            /** @description urn:vitalis:alert-rule: the alarm condition */
            code: {
                coding: {
                    code: string;
                    display: string;
                    system: string;
                }[];
                text: string;
            };
            detail: string;
            id: string;
            /** @description The raise: the effective time of the observation that confirmed the condition */
            identifiedDateTime: string;
            meta: {
                lastUpdated: string;
                /** @description The version of the patient's alert stream at the alarm's last change */
                versionId: string;
            };
            /** @description The acknowledgement and the escalation, in time order */
            mitigation?: {
                /** @description urn:vitalis:alarm-action: acknowledged | escalated */
                action: {
                    coding: {
                        code: string;
                        display: string;
                        system: string;
                    }[];
                    text: string;
                };
                /** @description The signed-in clinician who acknowledged (absent on an escalation: the system escalates) */
                author?: {
                    /** @description The user's display name (their id when the user store has none) */
                    display: string;
                    identifier: {
                        /** @constant */
                        system: "urn:vitalis:subject";
                        /** @description The user id */
                        value: string;
                    };
                    /** @constant */
                    type: "Practitioner";
                };
                date: string;
            }[];
            patient: {
                reference: string;
            };
            /** @constant */
            resourceType: "DetectedIssue";
            /**
             * @description From the IEC 60601-1-8 priority: high → high, medium → moderate, low → low
             * @enum {string}
             */
            severity: "high" | "moderate" | "low";
            /**
             * @description preliminary while it must still be seen (raised, acknowledged, latched); final once resolved
             * @enum {string}
             */
            status: "preliminary" | "final";
        };
        /** @description FHIR R4 DiagnosticReport (https://hl7.org/fhir/R4/diagnosticreport.html), its Observations contained */
        DiagnosticReport: {
            /** @description ServiceRequest/<order id> */
            basedOn: {
                reference: string;
            }[];
            category: {
                coding: {
                    code: string;
                    system: string;
                }[];
            }[];
            code: {
                coding: {
                    code: string;
                    display: string;
                    system: string;
                }[];
                text: string;
            };
            conclusion?: string;
            /** @description The results, as FHIR Observations */
            contained?: ({
                code: {
                    coding: {
                        code: string;
                        display: string;
                        system: string;
                    }[];
                    text: string;
                };
                effectiveDateTime: string;
                /** @description obs-<n>, referenced from the report's result as #obs-<n> */
                id: string;
                interpretation?: {
                    coding: {
                        code: string;
                        display: string;
                        system: string;
                    }[];
                }[];
                referenceRange?: {
                    high?: {
                        code: string;
                        system: string;
                        unit: string;
                        value: number;
                    };
                    low?: {
                        code: string;
                        system: string;
                        unit: string;
                        value: number;
                    };
                }[];
                /** @constant */
                resourceType: "Observation";
                /** @enum {string} */
                status: "registered" | "preliminary" | "final" | "amended" | "corrected" | "cancelled" | "entered-in-error";
                subject: {
                    reference: string;
                };
                valueQuantity?: {
                    code: string;
                    system: string;
                    unit: string;
                    value: number;
                };
                valueString?: string;
            } | {
                category: {
                    coding: {
                        code: string;
                        display?: string;
                        system: string;
                    }[];
                    text?: string;
                }[];
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        system: string;
                    }[];
                    text: string;
                };
                /** @description Blood pressure panel (85354-9): systolic 8480-6 and diastolic 8462-4 */
                component?: {
                    code: {
                        coding: {
                            code: string;
                            display?: string;
                            system: string;
                        }[];
                        text: string;
                    };
                    valueQuantity: {
                        code: string;
                        system: string;
                        unit: string;
                        value: number;
                    };
                }[];
                device: {
                    reference: string;
                };
                effectiveDateTime: string;
                id: string;
                identifier: {
                    system: string;
                    value: string;
                }[];
                meta?: {
                    profile: string[];
                };
                /** @constant */
                resourceType: "Observation";
                /** @enum {string} */
                status: "registered" | "preliminary" | "final" | "amended" | "corrected" | "cancelled" | "entered-in-error";
                subject: {
                    reference: string;
                };
                valueQuantity?: {
                    code: string;
                    system: string;
                    unit: string;
                    value: number;
                };
                valueSampledData?: {
                    data: string;
                    /** @constant */
                    dimensions: 1;
                    lowerLimit: number;
                    origin: {
                        code: string;
                        system: string;
                        unit: string;
                        value: number;
                    };
                    period: number;
                    upperLimit: number;
                };
            })[];
            effectiveDateTime: string;
            id: string;
            /** @description The filler's identifier */
            identifier: {
                system: string;
                value: string;
            }[];
            issued: string;
            meta: {
                lastUpdated: string;
                /** @description The stream version (the ETag); r<n> for a revision of the history */
                versionId: string;
            };
            performer: {
                display: string;
            }[];
            /** @constant */
            resourceType: "DiagnosticReport";
            /** @description #obs-<n>: the contained Observations */
            result?: {
                reference: string;
            }[];
            /** @enum {string} */
            status: "registered" | "partial" | "preliminary" | "final" | "amended" | "corrected" | "cancelled" | "entered-in-error";
            subject: {
                reference: string;
            };
        };
        /**
         * @description A FHIR R4 Appointment to book: one free Slot and the Patient participant
         * @example {
         *       "description": "Follow-up",
         *       "participant": [
         *         {
         *           "actor": {
         *             "reference": "Patient/pat-0001"
         *           }
         *         }
         *       ],
         *       "resourceType": "Appointment",
         *       "slot": [
         *         {
         *           "reference": "Slot/s0123456789ab"
         *         }
         *       ],
         *       "status": "booked"
         *     }
         */
        FhirAppointmentBookInput: {
            /** @description The reason */
            description?: string;
            /** @description The patient (actor Patient/{id}); a patient user books for themselves */
            participant: ({
                actor?: {
                    reference: string;
                };
            } & {
                [key: string]: unknown;
            })[];
            /** @constant */
            resourceType: "Appointment";
            /** @description The free Slot to book (exactly one) */
            slot: {
                reference: string;
            }[];
            /**
             * @description booked (the result); proposed/pending are accepted and booked
             * @enum {string}
             */
            status?: "booked" | "proposed" | "pending";
        } & {
            [key: string]: unknown;
        };
        /** @description A FHIR R4 searchset Bundle of AllergyIntolerance */
        FhirBundleAllergyIntolerance: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["AllergyIntolerance"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Appointment */
        FhirBundleAppointment: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: (components["schemas"]["Appointment"] | components["schemas"]["Slot"]) | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of DetectedIssue */
        FhirBundleDetectedIssue: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["DetectedIssue"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Device */
        FhirBundleDevice: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["FhirDevice"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of DiagnosticReport */
        FhirBundleDiagnosticReport: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["DiagnosticReport"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Group */
        FhirBundleGroup: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["FhirGroup"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Observation */
        FhirBundleObservation: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: (components["schemas"]["FhirObservation"] | components["schemas"]["Patient"]) | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Patient */
        FhirBundlePatient: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["Patient"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Practitioner */
        FhirBundlePractitioner: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["Practitioner"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Schedule */
        FhirBundleSchedule: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["Schedule"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of ServiceRequest */
        FhirBundleServiceRequest: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["ServiceRequest"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Slot */
        FhirBundleSlot: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["Slot"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 searchset Bundle of Subscription */
        FhirBundleSubscription: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["FhirSubscription"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 subscription notification Bundle (Subscriptions R5 Backport, backport-subscription-notification-r4) */
        FhirBundleSubscriptionNotification: {
            /** @description First the subscription status (a Parameters), then the resources the events are about (payload full-resource; id-only: their fullUrl alone) */
            entry: ({
                fullUrl: string;
                request: {
                    method: string;
                    url: string;
                };
                resource?: {
                    resourceType: string;
                } & {
                    [key: string]: unknown;
                };
                response: {
                    status: string;
                };
            } & {
                [key: string]: unknown;
            })[];
            /** @constant */
            resourceType: "Bundle";
            timestamp: string;
            /** @constant */
            type: "history";
        } & {
            [key: string]: unknown;
        };
        /** @description A FHIR R4 searchset Bundle of SubscriptionStatus */
        FhirBundleSubscriptionStatus: {
            /** @description Absent when nothing matched (FHIR arrays are never empty) */
            entry?: {
                fullUrl: string;
                resource: components["schemas"]["FhirParameters"] | components["schemas"]["FhirSubsettedResource"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                relation: string;
                url: string;
            }[];
            /** @constant */
            resourceType: "Bundle";
            /** @description The number of matches, where the search knows it */
            total?: number;
            /** @constant */
            type: "searchset";
        };
        /** @description A FHIR R4 CapabilityStatement resource (https://hl7.org/fhir/R4/capabilitystatement.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them). */
        FhirCapabilityStatement: {
            id?: string;
            /** @constant */
            resourceType: "CapabilityStatement";
        } & {
            [key: string]: unknown;
        };
        /**
         * @example {
         *       "code": {
         *         "coding": [
         *           {
         *             "code": "764146007",
         *             "display": "Penicillin",
         *             "system": "http://snomed.info/sct"
         *           }
         *         ],
         *         "text": "Penicillin"
         *       },
         *       "criticality": "high",
         *       "patient": {
         *         "reference": "Patient/pat-0001"
         *       },
         *       "reaction": [
         *         {
         *           "description": "Hives and wheeze within minutes"
         *         }
         *       ],
         *       "resourceType": "AllergyIntolerance"
         *     }
         */
        FhirCreateAllergyIntoleranceRequest: {
            /** @description The substance: a coding (SNOMED CT or RxNorm, code and display) or a text, or both */
            code: {
                /** @description Codings of the substance (SNOMED CT or RxNorm), each with a display */
                coding?: {
                    /** @description SNOMED CT: a concept id (6-18 digits, partition 00 or 10, Verhoeff check digit); RxNorm: an RXCUI (1-8 digits) */
                    code: string;
                    /** @description Required: the name a person reads (the rule of text) */
                    display?: string;
                    /** @description http://snomed.info/sct or http://www.nlm.nih.gov/research/umls/rxnorm */
                    system: string;
                }[];
                /** @description Plain text: at least 3 printable characters, two of them letters (422 otherwise: "0" is not a substance) */
                text?: string;
            };
            /** @enum {string} */
            criticality?: "low" | "high" | "unable-to-assess";
            patient: {
                /** @description Patient/{id} */
                reference: string;
            };
            /** @description One reaction: its description (else its first manifestation's text) is kept */
            reaction?: {
                description?: string;
                manifestation?: {
                    text?: string;
                }[];
            }[];
            /** @enum {string} */
            resourceType: "AllergyIntolerance";
        };
        /** @description FHIR R4 Device (https://hl7.org/fhir/R4/device.html): a device that reports vitals for the patient */
        FhirDevice: {
            id: string;
            patient: {
                /** @description Patient/<id> */
                reference: string;
            };
            /** @constant */
            resourceType: "Device";
            /** @constant */
            status: "active";
        };
        /** @description A ward or cohort of patients as a FHIR R4 Group (https://hl7.org/fhir/R4/group.html) */
        FhirGroup: {
            /** @constant */
            actual: true;
            id: string;
            member?: {
                entity: {
                    reference: string;
                };
            }[];
            name: string;
            quantity: number;
            /** @constant */
            resourceType: "Group";
            /** @constant */
            type: "person";
        };
        /** @description A FHIR R4 vital-sign Observation (https://hl7.org/fhir/R4/observation-vitalsigns.html): valueQuantity, or valueSampledData for ECG */
        FhirObservation: {
            category: {
                coding: {
                    code: string;
                    display?: string;
                    system: string;
                }[];
                text?: string;
            }[];
            code: {
                coding: {
                    code: string;
                    display?: string;
                    system: string;
                }[];
                text: string;
            };
            /** @description Blood pressure panel (85354-9): systolic 8480-6 and diastolic 8462-4 */
            component?: {
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        system: string;
                    }[];
                    text: string;
                };
                valueQuantity: {
                    code: string;
                    system: string;
                    unit: string;
                    value: number;
                };
            }[];
            device: {
                reference: string;
            };
            effectiveDateTime: string;
            /** @description <device_id>.<seq>, omitted when longer than 64 characters */
            id?: string;
            identifier: {
                system: string;
                value: string;
            }[];
            meta?: {
                profile: string[];
            };
            /** @constant */
            resourceType: "Observation";
            /** @constant */
            status: "final";
            subject: {
                reference: string;
            };
            valueQuantity?: {
                code: string;
                system: string;
                unit: string;
                value: number;
            };
            valueSampledData?: {
                data: string;
                /** @constant */
                dimensions: 1;
                lowerLimit: number;
                origin: {
                    code: string;
                    system: string;
                    unit: string;
                    value: number;
                };
                period: number;
                upperLimit: number;
            };
        };
        /** @description A FHIR R4 OperationOutcome resource (https://hl7.org/fhir/R4/operationoutcome.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them). */
        FhirOperationOutcome: {
            id?: string;
            /** @constant */
            resourceType: "OperationOutcome";
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A FHIR R4 Parameters resource (https://hl7.org/fhir/R4/parameters.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them).
         * @example {
         *       "resourceType": "Parameters"
         *     }
         */
        FhirParameters: {
            id?: string;
            /** @constant */
            resourceType: "Parameters";
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A FHIR R4 Parameters resource (https://hl7.org/fhir/R4/parameters.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them).
         * @example {
         *       "resourceType": "Parameters"
         *     }
         */
        FhirParametersInput: {
            id?: string;
            /** @constant */
            resourceType: "Parameters";
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A FHIR R4 Patient: name (exactly one, the official), birthDate, gender, identifier, telecom are kept; on update the id, when given, must be the one in the URL.
         * @example {
         *       "birthDate": "1920-07-25",
         *       "gender": "female",
         *       "name": [
         *         {
         *           "family": "Franklin",
         *           "given": [
         *             "Rosalind"
         *           ]
         *         }
         *       ],
         *       "resourceType": "Patient"
         *     }
         */
        FhirPatientWriteInput: {
            /** Format: date */
            birthDate?: string;
            /** @enum {string} */
            gender?: "male" | "female" | "other" | "unknown";
            id?: string;
            identifier?: {
                /** @description The namespace of the value: an absolute URI, e.g. urn:oid:2.16.840.1.113883.2.4.6.3 (not "MRN") */
                system: string;
                value: string;
            }[];
            /** @description Exactly one official name */
            name: {
                family: string;
                /** @default [] */
                given: string[];
            }[];
            /** @constant */
            resourceType: "Patient";
            telecom?: {
                /** @enum {string} */
                system: "phone" | "email" | "fax" | "pager" | "url" | "sms" | "other";
                value: string;
            }[];
        };
        /**
         * @description A FHIR R4 Subscription resource (https://hl7.org/fhir/R4/subscription.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them).
         * @example {
         *       "_criteria": {
         *         "extension": [
         *           {
         *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-filter-criteria",
         *             "valueString": "Observation?patient=Patient/pat-0001&code=http://loinc.org|8867-4"
         *           }
         *         ]
         *       },
         *       "channel": {
         *         "_payload": {
         *           "extension": [
         *             {
         *               "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content",
         *               "valueCode": "full-resource"
         *             }
         *           ]
         *         },
         *         "payload": "application/fhir+json",
         *         "type": "websocket"
         *       },
         *       "criteria": "https://vitalis.example/fhir/SubscriptionTopic/patient-vitals",
         *       "meta": {
         *         "profile": [
         *           "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription"
         *         ]
         *       },
         *       "reason": "Watch a patient's heart rate",
         *       "resourceType": "Subscription",
         *       "status": "requested"
         *     }
         */
        FhirSubscription: {
            id?: string;
            /** @constant */
            resourceType: "Subscription";
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A FHIR R4 Subscription resource (https://hl7.org/fhir/R4/subscription.html); the other properties are FHIR's (additionalProperties: as the FHIR R4 specification defines them).
         * @example {
         *       "_criteria": {
         *         "extension": [
         *           {
         *             "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-filter-criteria",
         *             "valueString": "Observation?patient=Patient/pat-0001&code=http://loinc.org|8867-4"
         *           }
         *         ]
         *       },
         *       "channel": {
         *         "_payload": {
         *           "extension": [
         *             {
         *               "url": "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-payload-content",
         *               "valueCode": "full-resource"
         *             }
         *           ]
         *         },
         *         "payload": "application/fhir+json",
         *         "type": "websocket"
         *       },
         *       "criteria": "https://vitalis.example/fhir/SubscriptionTopic/patient-vitals",
         *       "meta": {
         *         "profile": [
         *           "http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/backport-subscription"
         *         ]
         *       },
         *       "reason": "Watch a patient's heart rate",
         *       "resourceType": "Subscription",
         *       "status": "requested"
         *     }
         */
        FhirSubscriptionInput: {
            id?: string;
            /** @constant */
            resourceType: "Subscription";
        } & {
            [key: string]: unknown;
        };
        /**
         * @description Optional: a Parameters (its id parameters are ignored at the instance level)
         * @example {
         *       "resourceType": "Parameters"
         *     }
         */
        FhirSubscriptionWsBindingTokenRequest: components["schemas"]["FhirParametersInput"] | null;
        /** @description A resource with some elements left out (_elements, _summary=data), tagged SUBSETTED in meta.tag */
        FhirSubsettedResource: {
            id?: string;
            meta: {
                tag: ({
                    code: string;
                    system?: string;
                } & {
                    [key: string]: unknown;
                })[];
            } & {
                [key: string]: unknown;
            };
            resourceType: string;
        } & {
            [key: string]: unknown;
        };
        GetAgentIdentityResponse: {
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
        GetApiAuthAdminClientsResponse: {
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
                role: ("doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "lab" | "system") | null;
                /** @description What it holds now */
                scope: string;
            }[];
        };
        GetApiAuthUserinfoResponse: {
            /** @description SMART fhirUser: Patient/<id> for a patient user, Practitioner/<user id> otherwise */
            fhirUser?: string;
            /** @description profile: the display name */
            name?: string;
            /** @description profile: the username */
            preferred_username?: string;
            /** @description profile (Vitalis): the user's roles */
            roles?: string[];
            /** @description The user id: the ID token's sub */
            sub: string;
        };
        /** @description FHIR R4 searchset Bundle: Slot (match), each booked one followed by its Appointment (match), then the Schedules the Slots belong to (include); the next page is `link` relation `next` */
        GetAppointmentsResponse: {
            /** @description Absent when nothing matched (a FHIR array is never empty) */
            entry?: {
                /** @description The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one */
                fullUrl: string;
                resource: components["schemas"]["Slot"] | components["schemas"]["Appointment"] | components["schemas"]["Schedule"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                url: string;
            }[];
            /** @enum {string} */
            resourceType: "Bundle";
            /** @description The number of matches, where the listing knows it */
            total?: number;
            /** @enum {string} */
            type: "searchset";
        };
        GetAuditResponse: {
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
        GetCatalogAppointmentTypesResponse: {
            data: components["schemas"]["AppointmentType"][];
        };
        GetCatalogCliniciansResponse: {
            data: components["schemas"]["Practitioner"][];
        };
        GetCatalogResponse: {
            sections: {
                href: string;
                name: string;
            }[];
        };
        GetCatalogScopesResponse: {
            roles: {
                role: string;
                scopes: string[];
            }[];
            scopes: {
                description: string;
                name: string;
            }[];
        };
        GetCatalogVitalSignsResponse: {
            data: components["schemas"]["VitalSign"][];
        };
        GetDiagnosticsCatalogResponse: {
            results: ({
                code: string;
                /** @description Below low or above high: a critical result */
                critical: {
                    high?: number;
                    low?: number;
                };
                display: string;
                /** @enum {string} */
                kind: "quantity";
                /** @description Reference range */
                reference: {
                    high?: number;
                    low?: number;
                };
                /** @description The clinical name shown on screens */
                short: string;
                /** @description UCUM */
                unit: string;
            } | {
                code: string;
                display: string;
                /** @enum {string} */
                kind: "narrative";
                /** @description The clinical name shown on screens */
                short: string;
            })[];
            tests: {
                code: string;
                display: string;
                performer: string;
                /** @enum {string} */
                section: "LAB" | "EC" | "RAD";
            }[];
        };
        GetDiagnosticsCriticalResultsResponse: {
            count: number;
            critical_results: components["schemas"]["CriticalResult"][];
        };
        GetDiagnosticsOrdersResponse: {
            /** @description Absent when nothing matched (a FHIR array is never empty) */
            entry?: {
                /** @description The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one */
                fullUrl: string;
                resource: components["schemas"]["ServiceRequest"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                url: string;
            }[];
            /** @enum {string} */
            resourceType: "Bundle";
            total: number;
            /** @enum {string} */
            type: "searchset";
        };
        GetDiagnosticsReportsByIdHistoryResponse: {
            report_id: string;
            revisions: {
                at: string;
                by: string | null;
                reason: string | null;
                report: components["schemas"]["DiagnosticReport"];
                revision: number;
                status: string;
            }[];
        };
        GetDiagnosticsReportsResponse: {
            /** @description Absent when nothing matched (a FHIR array is never empty) */
            entry?: {
                /** @description The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one */
                fullUrl: string;
                resource: components["schemas"]["DiagnosticReport"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                url: string;
            }[];
            /** @enum {string} */
            resourceType: "Bundle";
            total: number;
            /** @enum {string} */
            type: "searchset";
        };
        /** @description In progress (X-Progress, Retry-After); with allowPartialManifests a full manifest page */
        GetFhirR4ExportStatusByIdResponse: components["schemas"]["BulkExportManifest"] | null;
        GetHealthDetailsResponse200: {
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
            pipeline: components["schemas"]["Pipeline"];
            /** @enum {string} */
            status: "ok" | "degraded" | "down";
            /** Format: date-time */
            time: string;
            uptime_s: number;
            version: string;
        };
        GetHealthDetailsResponse503: {
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
            pipeline: components["schemas"]["Pipeline"];
            /** @enum {string} */
            status: "ok" | "degraded" | "down";
            /** Format: date-time */
            time: string;
            uptime_s: number;
            version: string;
        } | components["schemas"]["Problem"];
        GetHealthResponse200: {
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
            pipeline: components["schemas"]["Pipeline"];
            /** @enum {string} */
            status: "ok" | "degraded" | "down";
            /** Format: date-time */
            time: string;
            uptime_s: number;
            version: string;
        };
        GetHealthResponse503: {
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
            pipeline: components["schemas"]["Pipeline"];
            /** @enum {string} */
            status: "ok" | "degraded" | "down";
            /** Format: date-time */
            time: string;
            uptime_s: number;
            version: string;
        };
        /** @description The OpenAPI 3.1 document */
        GetOpenapiJsonResponse: {
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
        GetPatientsByIdHistoryResponse: {
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
        GetPatientsByIdResponse: components["schemas"]["PatientRecord"] | components["schemas"]["Patient"];
        GetPatientsByIdVitalsLatestResponse: {
            data: components["schemas"]["StoredVitalsObservation"][];
            patient_id: string;
        } | {
            /** @description Absent when nothing matched (a FHIR array is never empty) */
            entry?: {
                /** @description The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one */
                fullUrl: string;
                resource: components["schemas"]["FhirObservation"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                url: string;
            }[];
            /** @enum {string} */
            resourceType: "Bundle";
            /** @description The number of matches, where the listing knows it */
            total?: number;
            /** @enum {string} */
            type: "searchset";
        };
        /** @description FHIR R4 searchset Bundle of Patient; the next page is `link` relation `next`; each fullUrl is the patient's URL in this API */
        GetPatientsResponse: {
            /** @description Absent when nothing matched (a FHIR array is never empty) */
            entry?: {
                /** @description The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one */
                fullUrl: string;
                resource: components["schemas"]["Patient"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                url: string;
            }[];
            /** @enum {string} */
            resourceType: "Bundle";
            /** @description The number of matches, where the listing knows it */
            total?: number;
            /** @enum {string} */
            type: "searchset";
        };
        GetSandboxResponse: {
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
        GetTriageResponse: {
            count: number;
            entries: {
                /** @description Critical results acknowledged in the last 12 h (with read:diagnostics), newest first: who (user id and name), the app and when */
                acknowledged_critical_results?: components["schemas"]["CriticalResult"][];
                /** @description The active bedside alarms (raised, acknowledged, latched), highest priority first (with Alarm read: doctors, nurses); the detail and the acknowledgement are /api/v1/alarms */
                alarms?: components["schemas"]["BoardAlarm"][];
                /** @description The alarm conditions present now, by rule (with read:vitals) */
                alerts?: string[];
                arrived_at: string;
                complaint: string;
                /** @description Unacknowledged critical diagnostic results (with read:diagnostics), shown until acknowledged */
                critical_results?: components["schemas"]["CriticalResult"][];
                esi: number;
                latest_vitals?: components["schemas"]["LatestVital"][];
                name?: string | null;
                news2?: components["schemas"]["News2"];
                patient_id: string;
                updated_at: string;
                version: number;
            }[];
        };
        GetVitalsLatestResponse: {
            count: number;
            data: components["schemas"]["StoredVitalsObservation"][];
            patient_id: string;
        } | {
            /** @description Absent when nothing matched (a FHIR array is never empty) */
            entry?: {
                /** @description The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one */
                fullUrl: string;
                resource: components["schemas"]["FhirObservation"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                url: string;
            }[];
            /** @enum {string} */
            resourceType: "Bundle";
            /** @description The number of matches, where the listing knows it */
            total?: number;
            /** @enum {string} */
            type: "searchset";
        };
        GetVitalsResponse: {
            count: number;
            data: components["schemas"]["StoredVitalsObservation"][];
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
             * @description Where the aggregates came from: the append log, the projector's rollups, or TimescaleDB's continuous aggregates
             * @enum {string}
             */
            source: "raw" | "rollup_1m" | "rollup_1h" | "cagg_1m" | "cagg_1h";
            to: string;
        } | {
            /** @description Absent when nothing matched (a FHIR array is never empty) */
            entry?: {
                /** @description The absolute URL this API serves the resource at, or a stable urn:uuid for resources without one */
                fullUrl: string;
                resource: components["schemas"]["FhirObservation"];
                search: {
                    /** @enum {string} */
                    mode: "match" | "include";
                };
            }[];
            /** @description `self`, and `next` (the next page) unless this is the last page */
            link: {
                /** @enum {string} */
                relation: "self" | "next";
                url: string;
            }[];
            /** @enum {string} */
            resourceType: "Bundle";
            /** @description The number of matches, where the listing knows it */
            total?: number;
            /** @enum {string} */
            type: "searchset";
        };
        /** @description JSON-RPC 2.0 error (https://www.jsonrpc.org/specification#error_object); `error.data` and other members as the MCP specification defines them */
        JsonRpcError: {
            error: {
                code: number;
                message: string;
            } & {
                [key: string]: unknown;
            };
            id: string | number | null;
            /** @constant */
            jsonrpc: "2.0";
        } & {
            [key: string]: unknown;
        };
        /**
         * @description A JSON-RPC 2.0 message (or batch): the MCP specification defines the messages (https://modelcontextprotocol.io/specification)
         * @example {
         *       "id": 1,
         *       "jsonrpc": "2.0",
         *       "method": "initialize",
         *       "params": {
         *         "capabilities": {},
         *         "clientInfo": {
         *           "name": "example-agent",
         *           "version": "1.0.0"
         *         },
         *         "protocolVersion": "2025-06-18"
         *       }
         *     }
         */
        JsonRpcMessageInput: unknown;
        /** @description JSON-RPC 2.0 response (or batch): the MCP specification defines the results (https://modelcontextprotocol.io/specification) */
        JsonRpcResponse: unknown;
        /** @description A JWK Set (RFC 7517): `keys`, each key's members by its kty */
        JsonWebKeySet: {
            [key: string]: unknown;
        };
        /** @description The latest value of one numeric vital sign */
        LatestVital: {
            code: string;
            display: string;
            effective_at: string;
            unit: string;
            value: number;
        };
        /** @description GET /livez: the process runs and its event loop is not stuck. No dependency is checked. */
        Liveness: {
            /** @description How late the last event-loop tick ran */
            event_loop_delay_ms: number;
            /**
             * @description stuck: the event loop ran late by more than the limit (503)
             * @enum {string}
             */
            status: "ok" | "stuck";
        };
        /** @description NEWS2 (Royal College of Physicians) computed from the latest vitals */
        News2: {
            complete: boolean;
            missing: ("respiratoryRate" | "spo2" | "supplementalOxygen" | "systolic" | "heartRate" | "consciousness" | "temperature")[];
            /** @description The score of each parameter that was present */
            parameters: {
                [key: string]: number;
            };
            /** @enum {string} */
            risk: "low" | "low-medium" | "medium" | "high";
            score: number;
        };
        /** @description FHIR R4 Patient (https://hl7.org/fhir/R4/patient.html), the elements Vitalis keeps */
        Patient: {
            birthDate?: string;
            /** @enum {string} */
            gender?: "male" | "female" | "other" | "unknown";
            id: string;
            identifier?: {
                system: string;
                value: string;
            }[];
            meta: {
                lastUpdated: string;
                /** @description The stream version (the ETag) */
                versionId: string;
            };
            name: {
                family: string;
                given?: string[];
                /** @constant */
                use: "official";
            }[];
            /** @constant */
            resourceType: "Patient";
            telecom?: {
                system: string;
                value: string;
            }[];
        };
        /** @description A patient record: the FHIR Patient, and for clinical readers its allergies, latest vitals and NEWS2 */
        PatientRecord: {
            /** @description FHIR R4 AllergyIntolerance resources: clinical readers (read:patients, or the patient) only */
            allergies?: components["schemas"]["AllergyIntolerance"][];
            /** @description The latest value per numeric vital sign: clinical readers holding read:vitals only */
            latest_vitals?: components["schemas"]["LatestVital"][];
            news2?: components["schemas"]["News2"];
            patient: components["schemas"]["Patient"];
            /**
             * @description What this caller may see: `demographics` (reception: the Patient only) or `clinical`
             * @enum {string}
             */
            view: "clinical" | "demographics";
        };
        /** @description The vitals pipeline: the ingest consumer group on the observations topic (from the brokers) and the newest observation stored (from PostgreSQL) */
        Pipeline: {
            /** @description How old the newest stored observation may be, while messages have waited on a partition as long, before the pipeline is delayed (HEALTH_DATA_AGE_AFTER_MS; 0: never judged) */
            data_age_after_s: number;
            /** @description Readings are not reaching storage and the screens in time: status is stalled or delayed (the UI cards show "Data delayed") */
            delayed: boolean;
            /** @description The partitions stalled or delayed, in order */
            delayed_partitions: number[];
            /** @description How long messages have waited on the delayed partitions, the longest, in seconds (0 when not delayed) */
            delayed_s: number;
            /** @description Messages the ingest has not yet processed, all partitions */
            lag: number;
            /** @description Its age in seconds by the database clock (0 when a device clock is ahead); null with newest_observation_at */
            newest_observation_age_s: number | null;
            /** @description Effective time of the newest observation stored (any patient); null when none is stored or the database could not be read */
            newest_observation_at: string | null;
            partitions: {
                /** @description Messages after the ingest group's committed offset */
                lag: number;
                partition: number;
                /** @description Seconds without progress while messages wait (0: progressing or caught up) */
                stalled_s: number;
                /** @description Seconds messages have waited on it at every reading, progressing or not (0: caught up at the last reading) */
                waiting_s: number;
            }[];
            /** @description How long a partition may make no progress while messages wait before it is stalled (HEALTH_STALL_AFTER_MS; 0: never judged) */
            stall_after_s: number;
            /** @description The partitions stalled, in order */
            stalled_partitions: number[];
            /**
             * @description stalled: a partition made no progress for stall_after_s while messages wait; delayed: messages have waited on a partition for data_age_after_s and the newest stored observation is older than that; unknown: Kafka could not be read (not judged)
             * @enum {string}
             */
            status: "ok" | "delayed" | "stalled" | "unknown";
        };
        /** @description The vitals pipeline in short (GET /readyz, MCP get_pipeline_status): the ingest's judgement and the newest stored observation's age */
        PipelineSummary: {
            /** @description Readings are not reaching storage and the screens in time: status is stalled or delayed (the UI cards show "Data delayed") */
            delayed: boolean;
            /** @description The partitions stalled or delayed, in order */
            delayed_partitions: number[];
            /** @description How long messages have waited on the delayed partitions, the longest, in seconds (0 when not delayed) */
            delayed_s: number;
            /** @description Messages the ingest has not yet processed, all partitions */
            lag: number;
            /** @description Its age in seconds by the database clock (0 when a device clock is ahead); null with newest_observation_at */
            newest_observation_age_s: number | null;
            /** @description Effective time of the newest observation stored (any patient); null when none is stored or the database could not be read */
            newest_observation_at: string | null;
            /** @description The partitions stalled, in order */
            stalled_partitions: number[];
            /**
             * @description stalled: a partition made no progress for stall_after_s while messages wait; delayed: messages have waited on a partition for data_age_after_s and the newest stored observation is older than that; unknown: Kafka could not be read (not judged)
             * @enum {string}
             */
            status: "ok" | "delayed" | "stalled" | "unknown";
        };
        /**
         * @example {
         *       "role": "doctor",
         *       "scope": "read:patients read:vitals"
         *     }
         */
        PostApiAuthAdminClientsByClientIdApproveRequest: {
            /**
             * @description The role that bounds what the client may hold
             * @enum {string}
             */
            role: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "lab" | "system";
            /** @description The scopes to grant, all within the role (default: what it asked for, as far as the role allows) */
            scope?: string;
        };
        PostApiAuthAdminClientsByClientIdApproveResponse: {
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
            role: ("doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "lab" | "system") | null;
            /** @description What it holds now */
            scope: string;
        };
        PostApiAuthAdminClientsByClientIdDenyResponse: {
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
            role: ("doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "lab" | "system") | null;
            /** @description What it holds now */
            scope: string;
        };
        /**
         * @example {
         *       "expires_in": 3600,
         *       "label": "ward 3 bedside monitors",
         *       "max_uses": 1,
         *       "role": "device"
         *     }
         */
        PostApiAuthAdminInitialAccessTokensRequest: {
            /**
             * @description Seconds until the token expires
             * @default 86400
             */
            expires_in: number;
            /**
             * @description What it is for (shown in the audit trail)
             * @default
             */
            label: string;
            /**
             * @description Registrations it allows; null: any number until it expires
             * @default 1
             */
            max_uses: number | null;
            /**
             * @description The role a client registered with this token gets
             * @enum {string}
             */
            role: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "lab" | "system";
        };
        PostApiAuthAdminInitialAccessTokensResponse: {
            /** @description Seconds since the epoch */
            expires_at: number;
            initial_access_token: string;
            label: string;
            max_uses: number | null;
            /** @enum {string} */
            role: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "lab" | "system";
        };
        /**
         * @example {
         *       "csrf_token": "Zm9ybS10b2tlbg",
         *       "interaction": "a5b1c0d2e3f4",
         *       "password": "correct horse battery staple",
         *       "step": "login",
         *       "username": "doctor"
         *     }
         */
        PostApiAuthOauth2AuthorizeRequest: {
            [key: string]: string | string[];
        };
        /**
         * @example {
         *       "token": "eyJhbGciOiJFUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJjbGllbnQifQ.c2ln",
         *       "token_type_hint": "access_token"
         *     }
         */
        PostApiAuthOauth2IntrospectRequest: {
            [key: string]: string | string[];
        };
        PostApiAuthOauth2IntrospectResponse200: {
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
        PostApiAuthOauth2IntrospectResponse400: {
            error: string;
            error_description?: string;
        };
        PostApiAuthOauth2IntrospectResponse401: {
            error: string;
            error_description?: string;
        };
        /** @description Rate limited: error "temporarily_unavailable"; Retry-After says when to try again */
        PostApiAuthOauth2IntrospectResponse429: {
            error: string;
            error_description?: string;
        };
        /**
         * @example {
         *       "grant_type": "client_credentials",
         *       "scope": "read:vitals write:vitals"
         *     }
         */
        PostApiAuthOauth2TokenRequest: {
            [key: string]: string | string[];
        };
        PostApiAuthOauth2TokenResponse200: {
            access_token: string;
            expires_in: number;
            /** @description OpenID Connect ID token: authorization_code and refresh_token grants holding the openid scope */
            id_token?: string;
            issued_token_type?: string;
            /** @description SMART launch context: the signed-in patient user's patient id, when the grant holds launch/patient */
            patient?: string;
            refresh_token?: string;
            scope: string;
            /** @enum {string} */
            token_type: "Bearer";
        };
        PostApiAuthOauth2TokenResponse400: {
            error: string;
            error_description?: string;
        };
        PostApiAuthOauth2TokenResponse401: {
            error: string;
            error_description?: string;
        };
        /** @description Rate limited: error "temporarily_unavailable"; Retry-After says when to try again */
        PostApiAuthOauth2TokenResponse429: {
            error: string;
            error_description?: string;
        };
        /**
         * @example {
         *       "client_name": "Ward dashboard",
         *       "grant_types": [
         *         "client_credentials"
         *       ],
         *       "scope": "read:vitals",
         *       "token_endpoint_auth_method": "client_secret_basic"
         *     }
         */
        PostApiAuthRegisterRequest: {
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
            redirect_uris: string[];
            response_types?: string[];
            scope?: string;
            /** @description RFC 7591 §2.3: a JWT from a trusted issuer binding this software to a role */
            software_statement?: string;
            /** @default client_secret_basic */
            token_endpoint_auth_method: string;
        };
        PostApiAuthRegisterResponse201: {
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
            role?: "doctor" | "nurse" | "reception" | "patient" | "admin" | "device" | "lab" | "system";
            scope: string;
            token_endpoint_auth_method: string;
        };
        PostApiAuthRegisterResponse400: {
            error: string;
            error_description?: string;
        };
        PostApiAuthRegisterResponse401: {
            error: string;
            error_description?: string;
        };
        /** @description Rate limited: error "temporarily_unavailable"; Retry-After says when to try again */
        PostApiAuthRegisterResponse429: {
            error: string;
            error_description?: string;
        };
        /**
         * @example {
         *       "token": "eyJhbGciOiJFUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJjbGllbnQifQ.c2ln",
         *       "token_type_hint": "access_token"
         *     }
         */
        PostApiAuthRevokeRequest: {
            token: string;
            token_type_hint?: string;
        } & {
            [key: string]: unknown;
        };
        PostApiAuthRevokeResponse200: Record<string, never>;
        PostApiAuthRevokeResponse400: {
            error: string;
            error_description?: string;
        };
        PostApiAuthRevokeResponse401: {
            error: string;
            error_description?: string;
        };
        /** @description Rate limited: error "temporarily_unavailable"; Retry-After says when to try again */
        PostApiAuthRevokeResponse429: {
            error: string;
            error_description?: string;
        };
        PostApiAuthUserinfoResponse: {
            /** @description SMART fhirUser: Patient/<id> for a patient user, Practitioner/<user id> otherwise */
            fhirUser?: string;
            /** @description profile: the display name */
            name?: string;
            /** @description profile: the username */
            preferred_username?: string;
            /** @description profile (Vitalis): the user's roles */
            roles?: string[];
            /** @description The user id: the ID token's sub */
            sub: string;
        };
        /**
         * @example {
         *       "reason": "the patient is travelling"
         *     }
         */
        PostAppointmentsByIdCancelRequest: {
            reason?: string;
        } | null;
        /**
         * @example {
         *       "slot_id": "clin-001-202612021430"
         *     }
         */
        PostAppointmentsByIdRescheduleRequest: {
            slot_id: string;
        };
        /**
         * @example {
         *       "patient_id": "pat-0001",
         *       "reason": "follow-up of blood pressure",
         *       "slot_id": "clin-001-202612011000"
         *     }
         */
        PostAppointmentsRequest: {
            patient_id: string;
            reason?: string;
            slot_id: string;
        };
        /**
         * @example {
         *       "reason": "requested by the attending physician"
         *     }
         */
        PostDiagnosticsOrdersByIdActivateRequest: {
            reason?: string;
        } | null;
        /**
         * @example {
         *       "reason": "requested by the attending physician"
         *     }
         */
        PostDiagnosticsOrdersByIdCancelRequest: {
            reason?: string;
        } | null;
        /**
         * @example {
         *       "reason": "requested by the attending physician"
         *     }
         */
        PostDiagnosticsOrdersByIdEnteredInErrorRequest: {
            reason?: string;
        } | null;
        /**
         * @example {
         *       "conclusion": "sinus rhythm, no ST changes",
         *       "from": "2026-11-25T08:00:00Z",
         *       "to": "2026-11-25T08:00:10Z"
         *     }
         */
        PostDiagnosticsOrdersByIdFulfilFromTelemetryRequest: {
            conclusion?: string;
            from: string;
            to: string;
        };
        /**
         * @example {
         *       "reason": "requested by the attending physician"
         *     }
         */
        PostDiagnosticsOrdersByIdHoldRequest: {
            reason?: string;
        } | null;
        /**
         * @example {
         *       "code": {
         *         "coding": [
         *           {
         *             "code": "2524-7",
         *             "system": "http://loinc.org"
         *           }
         *         ]
         *       },
         *       "intent": "order",
         *       "priority": "stat",
         *       "reasonCode": [
         *         {
         *           "text": "suspected sepsis"
         *         }
         *       ],
         *       "resourceType": "ServiceRequest",
         *       "subject": {
         *         "reference": "Patient/pat-0001"
         *       }
         *     }
         */
        PostDiagnosticsOrdersRequest: {
            /** @description LOINC, one of: 58410-2 CBC panel - Blood by Automated count; 51990-0 Basic metabolic panel - Blood; 10839-9 Troponin I.cardiac [Mass/volume] in Serum or Plasma; 89579-7 Troponin I.cardiac [Mass/volume] in Serum or Plasma by High sensitivity method; 2524-7 Lactate [Moles/volume] in Serum or Plasma; 24336-0 Gas panel - Arterial blood; 34534-8 12 lead EKG panel; 11524-6 EKG study; 36643-5 XR Chest 2 Views */
            code: {
                coding: {
                    /** @enum {string} */
                    code: "58410-2" | "51990-0" | "10839-9" | "89579-7" | "2524-7" | "24336-0" | "34534-8" | "11524-6" | "36643-5";
                    display?: string;
                    /** @enum {string} */
                    system: "http://loinc.org";
                }[];
            };
            /**
             * @default order
             * @enum {string}
             */
            intent: "order" | "proposal";
            note?: {
                text: string;
            }[];
            /**
             * @default routine
             * @enum {string}
             */
            priority: "routine" | "urgent" | "asap" | "stat";
            reasonCode?: {
                text: string;
            }[];
            /** @enum {string} */
            resourceType: "ServiceRequest";
            /**
             * @description Default: active for an order, draft for a proposal
             * @enum {string}
             */
            status?: "draft" | "active";
            subject: {
                reference: string;
            };
        };
        /**
         * @example {
         *       "note": "called the ward; potassium replacement started"
         *     }
         */
        PostDiagnosticsReportsByIdAcknowledgeRequest: {
            note?: string;
        } | null;
        /**
         * @example {
         *       "contained": [
         *         {
         *           "code": {
         *             "coding": [
         *               {
         *                 "code": "2823-3",
         *                 "system": "http://loinc.org"
         *               }
         *             ]
         *           },
         *           "resourceType": "Observation",
         *           "valueQuantity": {
         *             "code": "mmol/L",
         *             "system": "http://unitsofmeasure.org",
         *             "unit": "mmol/L",
         *             "value": 5.2
         *           }
         *         }
         *       ],
         *       "reason": "transcription error in the potassium value",
         *       "status": "corrected"
         *     }
         */
        PostDiagnosticsReportsByIdAmendRequest: {
            conclusion?: string;
            contained: ({
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        /** @enum {string} */
                        system: "http://loinc.org";
                    }[];
                    text?: string;
                };
                id?: string;
                /** @description Narrative findings only (A abnormal, AA critical); numeric results are interpreted from their ranges */
                interpretation?: {
                    coding: {
                        /** @enum {string} */
                        code: "N" | "A" | "AA";
                        display?: string;
                        system?: string;
                    }[];
                }[];
                /** @enum {string} */
                resourceType: "Observation";
                status?: string;
                valueQuantity: {
                    code?: string;
                    /** @enum {string} */
                    system?: "http://unitsofmeasure.org";
                    unit?: string;
                    value: number;
                };
                valueString?: unknown;
            } | {
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        /** @enum {string} */
                        system: "http://loinc.org";
                    }[];
                    text?: string;
                };
                id?: string;
                /** @description Narrative findings only (A abnormal, AA critical); numeric results are interpreted from their ranges */
                interpretation?: {
                    coding: {
                        /** @enum {string} */
                        code: "N" | "A" | "AA";
                        display?: string;
                        system?: string;
                    }[];
                }[];
                /** @enum {string} */
                resourceType: "Observation";
                status?: string;
                valueQuantity?: unknown;
                valueString: string;
            })[];
            reason: string;
            /**
             * @default amended
             * @enum {string}
             */
            status: "amended" | "corrected";
        };
        /**
         * @example {
         *       "reason": "requested by the attending physician"
         *     }
         */
        PostDiagnosticsReportsByIdCancelRequest: {
            reason?: string;
        } | null;
        /**
         * @example {
         *       "basedOn": [
         *         {
         *           "reference": "ServiceRequest/sr-0123456789ab"
         *         }
         *       ],
         *       "contained": [
         *         {
         *           "code": {
         *             "coding": [
         *               {
         *                 "code": "2823-3",
         *                 "system": "http://loinc.org"
         *               }
         *             ]
         *           },
         *           "resourceType": "Observation",
         *           "valueQuantity": {
         *             "code": "mmol/L",
         *             "system": "http://unitsofmeasure.org",
         *             "unit": "mmol/L",
         *             "value": 6.8
         *           }
         *         }
         *       ],
         *       "identifier": [
         *         {
         *           "system": "urn:lab:accession",
         *           "value": "ACC-1001"
         *         }
         *       ],
         *       "resourceType": "DiagnosticReport",
         *       "status": "final"
         *     }
         */
        PostDiagnosticsReportsRequest: {
            basedOn: {
                reference: string;
            }[];
            conclusion?: string;
            /** @default [] */
            contained: ({
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        /** @enum {string} */
                        system: "http://loinc.org";
                    }[];
                    text?: string;
                };
                id?: string;
                /** @description Narrative findings only (A abnormal, AA critical); numeric results are interpreted from their ranges */
                interpretation?: {
                    coding: {
                        /** @enum {string} */
                        code: "N" | "A" | "AA";
                        display?: string;
                        system?: string;
                    }[];
                }[];
                /** @enum {string} */
                resourceType: "Observation";
                status?: string;
                valueQuantity: {
                    code?: string;
                    /** @enum {string} */
                    system?: "http://unitsofmeasure.org";
                    unit?: string;
                    value: number;
                };
                valueString?: unknown;
            } | {
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        /** @enum {string} */
                        system: "http://loinc.org";
                    }[];
                    text?: string;
                };
                id?: string;
                /** @description Narrative findings only (A abnormal, AA critical); numeric results are interpreted from their ranges */
                interpretation?: {
                    coding: {
                        /** @enum {string} */
                        code: "N" | "A" | "AA";
                        display?: string;
                        system?: string;
                    }[];
                }[];
                /** @enum {string} */
                resourceType: "Observation";
                status?: string;
                valueQuantity?: unknown;
                valueString: string;
            })[];
            effectiveDateTime?: string;
            /** @description The filler's identifier (the first one): a re-post with it is stored once */
            identifier: {
                /** @description An absolute URI, e.g. urn:oid:… or https://lab.example/accession */
                system: string;
                value: string;
            }[];
            /** @enum {string} */
            resourceType: "DiagnosticReport";
            /** @enum {string} */
            status: "registered" | "partial" | "preliminary" | "final";
        };
        /**
         * @example {
         *       "code": {
         *         "coding": [
         *           {
         *             "code": "764146007",
         *             "display": "Penicillin",
         *             "system": "http://snomed.info/sct"
         *           }
         *         ],
         *         "text": "Penicillin"
         *       },
         *       "criticality": "high",
         *       "reaction": [
         *         {
         *           "description": "Hives"
         *         }
         *       ],
         *       "resourceType": "AllergyIntolerance"
         *     }
         */
        PostPatientsByIdAllergiesRequest: {
            /** @description The substance: a coding (SNOMED CT or RxNorm, code and display) or a text, or both */
            code: {
                /** @description Codings of the substance (SNOMED CT or RxNorm), each with a display */
                coding?: {
                    /** @description SNOMED CT: a concept id (6-18 digits, partition 00 or 10, Verhoeff check digit); RxNorm: an RXCUI (1-8 digits) */
                    code: string;
                    /** @description Required: the name a person reads (the rule of text) */
                    display?: string;
                    /** @description http://snomed.info/sct or http://www.nlm.nih.gov/research/umls/rxnorm */
                    system: string;
                }[];
                /** @description Plain text: at least 3 printable characters, two of them letters (422 otherwise: "0" is not a substance) */
                text?: string;
            };
            /**
             * @default unable-to-assess
             * @enum {string}
             */
            criticality: "low" | "high" | "unable-to-assess";
            reaction?: {
                /** @description What happened, in words (the rule of text) */
                description: string;
            }[];
            /** @enum {string} */
            resourceType?: "AllergyIntolerance";
        };
        /**
         * @example {
         *       "birthDate": "1815-12-10",
         *       "gender": "female",
         *       "identifier": [
         *         {
         *           "system": "urn:oid:2.16.840.1.113883.2.4.6.3",
         *           "value": "999911120"
         *         }
         *       ],
         *       "name": [
         *         {
         *           "family": "Lovelace",
         *           "given": [
         *             "Ada"
         *           ]
         *         }
         *       ],
         *       "resourceType": "Patient",
         *       "telecom": [
         *         {
         *           "system": "phone",
         *           "value": "+44 20 7946 0000"
         *         }
         *       ]
         *     }
         */
        PostPatientsRequest: {
            /** Format: date */
            birthDate?: string;
            /** @enum {string} */
            gender?: "male" | "female" | "other" | "unknown";
            identifier?: {
                /** @description The namespace of the value: an absolute URI, e.g. urn:oid:2.16.840.1.113883.2.4.6.3 (not "MRN") */
                system: string;
                value: string;
            }[];
            /** @description Exactly one official name */
            name: {
                family: string;
                /** @default [] */
                given: string[];
            }[];
            /** @enum {string} */
            resourceType?: "Patient";
            telecom?: {
                /** @enum {string} */
                system: "phone" | "email" | "fax" | "pager" | "url" | "sms" | "other";
                value: string;
            }[];
        };
        PostSandboxResponse: {
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
        PostTriageByPatientIdDischargeResponse: {
            /** @description Critical results acknowledged in the last 12 h (with read:diagnostics), newest first: who (user id and name), the app and when */
            acknowledged_critical_results?: components["schemas"]["CriticalResult"][];
            /** @description The active bedside alarms (raised, acknowledged, latched), highest priority first (with Alarm read: doctors, nurses); the detail and the acknowledgement are /api/v1/alarms */
            alarms?: components["schemas"]["BoardAlarm"][];
            /** @description The alarm conditions present now, by rule (with read:vitals) */
            alerts?: string[];
            arrived_at: string;
            complaint: string;
            /** @description Unacknowledged critical diagnostic results (with read:diagnostics), shown until acknowledged */
            critical_results?: components["schemas"]["CriticalResult"][];
            esi: number;
            latest_vitals?: components["schemas"]["LatestVital"][];
            name?: string | null;
            news2?: components["schemas"]["News2"];
            patient_id: string;
            updated_at: string;
            version: number;
        };
        /**
         * @example {
         *       "complaint": "chest pain radiating to the left arm",
         *       "esi": 2,
         *       "patient_id": "pat-0001"
         *     }
         */
        PostTriageRequest: {
            complaint: string;
            /** @description Emergency Severity Index, 1 (resuscitation) to 5 (non-urgent) */
            esi: number;
            patient_id: string;
        };
        PostTriageResponse: {
            /** @description Critical results acknowledged in the last 12 h (with read:diagnostics), newest first: who (user id and name), the app and when */
            acknowledged_critical_results?: components["schemas"]["CriticalResult"][];
            /** @description The active bedside alarms (raised, acknowledged, latched), highest priority first (with Alarm read: doctors, nurses); the detail and the acknowledgement are /api/v1/alarms */
            alarms?: components["schemas"]["BoardAlarm"][];
            /** @description The alarm conditions present now, by rule (with read:vitals) */
            alerts?: string[];
            arrived_at: string;
            complaint: string;
            /** @description Unacknowledged critical diagnostic results (with read:diagnostics), shown until acknowledged */
            critical_results?: components["schemas"]["CriticalResult"][];
            esi: number;
            latest_vitals?: components["schemas"]["LatestVital"][];
            name?: string | null;
            news2?: components["schemas"]["News2"];
            patient_id: string;
            updated_at: string;
            version: number;
        };
        /**
         * @example {
         *       "observations": [
         *         {
         *           "code": "8867-4",
         *           "device_id": "mon-0001",
         *           "effective_at": "2026-11-25T08:00:00Z",
         *           "patient_id": "pat-0001",
         *           "seq": 1042,
         *           "unit": "/min",
         *           "value": 72
         *         },
         *         {
         *           "code": "59408-5",
         *           "device_id": "mon-0001",
         *           "effective_at": "2026-11-25T08:00:00Z",
         *           "patient_id": "pat-0001",
         *           "seq": 1043,
         *           "unit": "%",
         *           "value": 97
         *         }
         *       ]
         *     }
         */
        PostVitalsRequest: {
            /** @description Device frames (one device at one tick), one record each */
            frames?: (components["schemas"]["VitalsFrameInput"] | components["schemas"]["VitalsFrameV2Input"])[];
            /** @description Vitals observations, one record each */
            observations: components["schemas"]["VitalsObservationInput"][];
        } | {
            /** @description Device frames (one device at one tick), one record each */
            frames: (components["schemas"]["VitalsFrameInput"] | components["schemas"]["VitalsFrameV2Input"])[];
            /** @description Vitals observations, one record each */
            observations?: components["schemas"]["VitalsObservationInput"][];
        };
        PostVitalsResponse: {
            /** @description Observations accepted (those of the frames included) */
            accepted: number;
            topic: string;
        };
        /** @description A clinician of the catalog or a staff user as a FHIR R4 Practitioner (https://hl7.org/fhir/R4/practitioner.html) */
        Practitioner: {
            active: boolean;
            id: string;
            /** @description A staff user: its Vitalis user id (the subject of its tokens, and the fhirUser of its ID token) */
            identifier?: {
                /** @constant */
                system: "urn:vitalis:subject";
                value: string;
            }[];
            name: {
                text: string;
            }[];
            /** @description A clinician of the catalog: its specialty */
            qualification?: {
                code: {
                    text: string;
                };
            }[];
            /** @constant */
            resourceType: "Practitioner";
        };
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
        /** @description OAuth 2.0 Protected Resource Metadata (RFC 9728) */
        ProtectedResourceMetadata: {
            [key: string]: unknown;
        };
        /**
         * @example {
         *       "conclusion": "potassium within range on repeat",
         *       "contained": [
         *         {
         *           "code": {
         *             "coding": [
         *               {
         *                 "code": "2823-3",
         *                 "system": "http://loinc.org"
         *               }
         *             ]
         *           },
         *           "resourceType": "Observation",
         *           "valueQuantity": {
         *             "code": "mmol/L",
         *             "system": "http://unitsofmeasure.org",
         *             "unit": "mmol/L",
         *             "value": 4.1
         *           }
         *         }
         *       ],
         *       "resourceType": "DiagnosticReport",
         *       "status": "final"
         *     }
         */
        PutDiagnosticsReportsByIdRequest: {
            basedOn?: {
                reference: string;
            }[];
            conclusion?: string;
            /** @default [] */
            contained: ({
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        /** @enum {string} */
                        system: "http://loinc.org";
                    }[];
                    text?: string;
                };
                id?: string;
                /** @description Narrative findings only (A abnormal, AA critical); numeric results are interpreted from their ranges */
                interpretation?: {
                    coding: {
                        /** @enum {string} */
                        code: "N" | "A" | "AA";
                        display?: string;
                        system?: string;
                    }[];
                }[];
                /** @enum {string} */
                resourceType: "Observation";
                status?: string;
                valueQuantity: {
                    code?: string;
                    /** @enum {string} */
                    system?: "http://unitsofmeasure.org";
                    unit?: string;
                    value: number;
                };
                valueString?: unknown;
            } | {
                code: {
                    coding: {
                        code: string;
                        display?: string;
                        /** @enum {string} */
                        system: "http://loinc.org";
                    }[];
                    text?: string;
                };
                id?: string;
                /** @description Narrative findings only (A abnormal, AA critical); numeric results are interpreted from their ranges */
                interpretation?: {
                    coding: {
                        /** @enum {string} */
                        code: "N" | "A" | "AA";
                        display?: string;
                        system?: string;
                    }[];
                }[];
                /** @enum {string} */
                resourceType: "Observation";
                status?: string;
                valueQuantity?: unknown;
                valueString: string;
            })[];
            effectiveDateTime?: string;
            identifier?: {
                /** @description An absolute URI, e.g. urn:oid:… or https://lab.example/accession */
                system: string;
                value: string;
            }[];
            /** @enum {string} */
            resourceType: "DiagnosticReport";
            /** @enum {string} */
            status: "registered" | "partial" | "preliminary" | "final";
        };
        /**
         * @example {
         *       "birthDate": "1815-12-10",
         *       "gender": "female",
         *       "identifier": [
         *         {
         *           "system": "urn:oid:2.16.840.1.113883.2.4.6.3",
         *           "value": "999911120"
         *         }
         *       ],
         *       "name": [
         *         {
         *           "family": "Lovelace",
         *           "given": [
         *             "Ada"
         *           ]
         *         }
         *       ],
         *       "resourceType": "Patient",
         *       "telecom": [
         *         {
         *           "system": "phone",
         *           "value": "+44 20 7946 0000"
         *         }
         *       ]
         *     }
         */
        PutPatientsByIdRequest: {
            /** Format: date */
            birthDate?: string;
            /** @enum {string} */
            gender?: "male" | "female" | "other" | "unknown";
            identifier?: {
                /** @description The namespace of the value: an absolute URI, e.g. urn:oid:2.16.840.1.113883.2.4.6.3 (not "MRN") */
                system: string;
                value: string;
            }[];
            /** @description Exactly one official name */
            name: {
                family: string;
                /** @default [] */
                given: string[];
            }[];
            /** @enum {string} */
            resourceType?: "Patient";
            telecom?: {
                /** @enum {string} */
                system: "phone" | "email" | "fax" | "pager" | "url" | "sms" | "other";
                value: string;
            }[];
        };
        /**
         * @example {
         *       "esi": 1,
         *       "reason": "SpO2 falling despite oxygen"
         *     }
         */
        PutTriageByPatientIdEsiRequest: {
            /** @description Emergency Severity Index, 1 (resuscitation) to 5 (non-urgent) */
            esi: number;
            reason?: string;
        };
        PutTriageByPatientIdEsiResponse: {
            /** @description Critical results acknowledged in the last 12 h (with read:diagnostics), newest first: who (user id and name), the app and when */
            acknowledged_critical_results?: components["schemas"]["CriticalResult"][];
            /** @description The active bedside alarms (raised, acknowledged, latched), highest priority first (with Alarm read: doctors, nurses); the detail and the acknowledgement are /api/v1/alarms */
            alarms?: components["schemas"]["BoardAlarm"][];
            /** @description The alarm conditions present now, by rule (with read:vitals) */
            alerts?: string[];
            arrived_at: string;
            complaint: string;
            /** @description Unacknowledged critical diagnostic results (with read:diagnostics), shown until acknowledged */
            critical_results?: components["schemas"]["CriticalResult"][];
            esi: number;
            latest_vitals?: components["schemas"]["LatestVital"][];
            name?: string | null;
            news2?: components["schemas"]["News2"];
            patient_id: string;
            updated_at: string;
            version: number;
        };
        /** @description GET /readyz: whether this instance should get traffic. 503 unless ready. */
        Readiness: {
            /** @description schema: ok | pending (migrations not applied); postgres, kafka, redis: ok | down. Absent while draining. */
            checks?: {
                [key: string]: "ok" | "down" | "pending";
            };
            /** @description The vitals pipeline (as in GET /api/v1/health): reported, never a reason to be not ready. Absent while draining. */
            pipeline?: components["schemas"]["PipelineSummary"];
            /** @enum {string} */
            status: "ready" | "not_ready" | "draining";
        };
        /** @description FHIR R4 Schedule (https://hl7.org/fhir/R4/schedule.html): a clinician's */
        Schedule: {
            active: boolean;
            actor: {
                display?: string;
                reference: string;
            }[];
            id: string;
            /** @constant */
            resourceType: "Schedule";
        };
        /** @description FHIR R4 ServiceRequest (https://hl7.org/fhir/R4/servicerequest.html): a diagnostic order */
        ServiceRequest: {
            authoredOn: string;
            code: {
                coding: {
                    code: string;
                    display: string;
                    system: string;
                }[];
                text: string;
            };
            id: string;
            /** @enum {string} */
            intent: "order" | "proposal";
            meta: {
                lastUpdated: string;
                /** @description The stream version (the ETag); r<n> for a revision of the history */
                versionId: string;
            };
            note?: {
                text: string;
            }[];
            performer: {
                display: string;
            }[];
            /** @enum {string} */
            priority: "routine" | "urgent" | "asap" | "stat";
            reasonCode?: {
                text: string;
            }[];
            requester: {
                identifier: {
                    /** @constant */
                    system: "urn:vitalis:subject";
                    value: string;
                };
            };
            /** @constant */
            resourceType: "ServiceRequest";
            /** @enum {string} */
            status: "draft" | "active" | "on-hold" | "revoked" | "completed" | "entered-in-error";
            subject: {
                reference: string;
            };
        };
        /** @description FHIR R4 Slot (https://hl7.org/fhir/R4/slot.html) */
        Slot: {
            end: string;
            id: string;
            meta: {
                /** @description The slot stream's version (vread: /fhir/R4/Slot/{id}/_history/{vid}) */
                versionId: string;
            };
            /** @constant */
            resourceType: "Slot";
            /** @description Schedule/<clinician id> */
            schedule: {
                reference: string;
            };
            serviceType: {
                text: string;
            }[];
            start: string;
            /** @enum {string} */
            status: "free" | "busy";
        };
        /** @description SMART App Launch v2 configuration (https://hl7.org/fhir/smart-app-launch/conformance.html) */
        SmartConfiguration: {
            [key: string]: unknown;
        };
        /** @description One stored vital-sign measurement or ECG chunk (the wire format, VitalsObservation, as read back) */
        StoredVitalsObservation: {
            /** @enum {string} */
            code: "131330" | "8867-4" | "59408-5" | "8480-6" | "8462-4" | "9279-1" | "8310-5";
            device_id: string;
            effective_at: string;
            patient_id: string;
            seq: number;
            unit: string;
            /** @description Numeric vitals */
            value?: number;
            /** @description ECG lead II (131330) */
            waveform?: {
                origin: number;
                period_ms: number;
                samples: number[];
            };
        };
        /**
         * Vitals frame
         * @description One device's observations at one tick (numerics and ECG chunks): one Kafka record, envelope vitals.frame.v1.
         */
        VitalsFrameInput: {
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description The tick: when the device sampled the parameters of this frame */
            effective_at: string;
            /**
             * @description Marks a frame record and its version (a record without it is a single VitalsObservation)
             * @constant
             */
            envelope: "vitals.frame.v1";
            observations: components["schemas"]["VitalsFrameObservationInput"][];
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
        };
        /**
         * Observation in a vitals frame
         * @description One measurement or ECG chunk of a frame: a VitalsObservation without patient_id and device_id (the frame's), effective_at optional (default: the frame's).
         */
        VitalsFrameObservationInput: {
            /**
             * @description LOINC 8867-4 Heart rate
             * @constant
             */
            code: "8867-4";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            /** @description In /min, 0 to 350 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 59408-5 Oxygen saturation in Arterial blood by Pulse oximetry
             * @constant
             */
            code: "59408-5";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "%";
            /** @description In %, 0 to 100 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8480-6 Systolic blood pressure
             * @constant
             */
            code: "8480-6";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            /** @description In mm[Hg], 20 to 300 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8462-4 Diastolic blood pressure
             * @constant
             */
            code: "8462-4";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            /** @description In mm[Hg], 10 to 250 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 9279-1 Respiratory rate
             * @constant
             */
            code: "9279-1";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            /** @description In /min, 0 to 100 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8310-5 Body temperature
             * @constant
             */
            code: "8310-5";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "Cel";
            /** @description In Cel, 20 to 46 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)
             * @constant
             */
            code: "131330";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mV";
            waveform: {
                /**
                 * @description Zero value in mV; the potential is origin + sample (stored folded into the samples: see samples)
                 * @default 0
                 */
                origin: number;
                /** @description Time between samples in ms (4 = 250 Hz), 0.001 to 1000. Stored as a float4 (real) and read back unchanged: a value a float4 does not hold exactly (more than float4 precision, e.g. 4.00000001) is refused with 422, never rounded. Every decimal of at most 6 significant digits is held. */
                period_ms: number;
                /** @description Potentials in mV relative to origin, each -10 to 10. Stored quantised to 0.1 µV: the append log keeps the absolute potential Math.round((origin + sample) × 10000) / 10000 (IEEE 754 doubles, a half step toward +∞, never -0), read back with origin 0; e.g. 0.12344 reads back as 0.1234 and 1e-320 as 0. Every such potential (within ±20 mV) is a whole number of 0.1 µV steps, stored exactly (as a 32-bit integer). */
                samples: number[];
            };
        };
        /**
         * Vitals frame v2
         * @description One device's observations at one tick, ECG chunks as whole 0.1 µV steps (sample_steps): one Kafka record, envelope vitals.frame.v2.
         */
        VitalsFrameV2Input: {
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description The tick: when the device sampled the parameters of this frame */
            effective_at: string;
            /**
             * @description Marks a frame record and its version (a record without it is a single VitalsObservation)
             * @constant
             */
            envelope: "vitals.frame.v2";
            observations: components["schemas"]["VitalsFrameV2ObservationInput"][];
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
        };
        /**
         * Observation in a vitals frame v2
         * @description One measurement or ECG chunk of a v2 frame: as in a v1 frame (VitalsFrameObservation), except that an ECG chunk's waveform carries sample_steps (whole 0.1 µV steps) instead of origin and samples.
         */
        VitalsFrameV2ObservationInput: {
            /**
             * @description LOINC 8867-4 Heart rate
             * @constant
             */
            code: "8867-4";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            /** @description In /min, 0 to 350 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 59408-5 Oxygen saturation in Arterial blood by Pulse oximetry
             * @constant
             */
            code: "59408-5";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "%";
            /** @description In %, 0 to 100 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8480-6 Systolic blood pressure
             * @constant
             */
            code: "8480-6";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            /** @description In mm[Hg], 20 to 300 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8462-4 Diastolic blood pressure
             * @constant
             */
            code: "8462-4";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            /** @description In mm[Hg], 10 to 250 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 9279-1 Respiratory rate
             * @constant
             */
            code: "9279-1";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            /** @description In /min, 0 to 100 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8310-5 Body temperature
             * @constant
             */
            code: "8310-5";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "Cel";
            /** @description In Cel, 20 to 46 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)
             * @constant
             */
            code: "131330";
            /** @description When the observation was made, when not the frame's effective_at (an ECG chunk: its first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at?: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mV";
            waveform: {
                /** @description Time between samples in ms (4 = 250 Hz), 0.001 to 1000. Stored as a float4 (real) and read back unchanged: a value a float4 does not hold exactly (more than float4 precision, e.g. 4.00000001) is refused with 422, never rounded. Every decimal of at most 6 significant digits is held. */
                period_ms: number;
                /** @description Absolute potentials as whole numbers of 0.1 µV steps (the potential in mV is step / 10,000), each -200000 to 200000 (±20 mV: every potential the append log holds). Stored as sent (the log keeps these steps) and read back on every output as decimal mV, step / 10,000 (e.g. 12345 reads back as 1.2345, origin 0). */
                sample_steps: number[];
            };
        };
        /** @description A vital-sign code with its unit and ranges */
        VitalSign: {
            code: string;
            display: string;
            /** @description The adult normal range (the NEWS2 0-point band) */
            normal?: {
                high: number;
                low: number;
            };
            /** @description What a device may report (numeric vitals) */
            possible?: {
                max: number;
                min: number;
            };
            system: string;
            /** @description UCUM */
            unit: string;
            /**
             * @description A waveform (ECG lead II)
             * @constant
             */
            waveform?: true;
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
            /** @description When the observation was made (for waveforms: the time of the first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            /** @description In /min, 0 to 350 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 59408-5 Oxygen saturation in Arterial blood by Pulse oximetry
             * @constant
             */
            code: "59408-5";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description When the observation was made (for waveforms: the time of the first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "%";
            /** @description In %, 0 to 100 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8480-6 Systolic blood pressure
             * @constant
             */
            code: "8480-6";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description When the observation was made (for waveforms: the time of the first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            /** @description In mm[Hg], 20 to 300 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8462-4 Diastolic blood pressure
             * @constant
             */
            code: "8462-4";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description When the observation was made (for waveforms: the time of the first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mm[Hg]";
            /** @description In mm[Hg], 10 to 250 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 9279-1 Respiratory rate
             * @constant
             */
            code: "9279-1";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description When the observation was made (for waveforms: the time of the first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "/min";
            /** @description In /min, 0 to 100 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description LOINC 8310-5 Body temperature
             * @constant
             */
            code: "8310-5";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description When the observation was made (for waveforms: the time of the first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "Cel";
            /** @description In Cel, 20 to 46 inclusive; stored as sent (double precision) and read back unchanged */
            value: number;
        } | {
            /**
             * @description MDC 131330 MDC_ECG_ELEC_POTL_II (ECG lead II)
             * @constant
             */
            code: "131330";
            /** @description Device that made the observation (FHIR Device id) */
            device_id: string;
            /** @description When the observation was made (for waveforms: the time of the first sample). Bounded device clock: at most VITALS_MAX_CLOCK_SKEW_SECONDS (default 300 s) after, and at most VITALS_RETENTION_DAYS (default 30 days) before, the time it is received (the gateway's clock; published straight to Kafka: the record's timestamp); outside that window the observation is refused (422, dead-lettered at the ingest), a late one inside it is stored. */
            effective_at: string;
            /** @description Patient the observation is about (FHIR Patient id); also the Kafka key */
            patient_id: string;
            /** @description Per-device sequence number, strictly increasing; (device_id, seq, effective_at) is the idempotency key */
            seq: number;
            /** @constant */
            unit: "mV";
            waveform: {
                /**
                 * @description Zero value in mV; the potential is origin + sample (stored folded into the samples: see samples)
                 * @default 0
                 */
                origin: number;
                /** @description Time between samples in ms (4 = 250 Hz), 0.001 to 1000. Stored as a float4 (real) and read back unchanged: a value a float4 does not hold exactly (more than float4 precision, e.g. 4.00000001) is refused with 422, never rounded. Every decimal of at most 6 significant digits is held. */
                period_ms: number;
                /** @description Potentials in mV relative to origin, each -10 to 10. Stored quantised to 0.1 µV: the append log keeps the absolute potential Math.round((origin + sample) × 10000) / 10000 (IEEE 754 doubles, a half step toward +∞, never -0), read back with origin 0; e.g. 0.12344 reads back as 0.1234 and 1e-320 as 0. Every such potential (within ±20 mV) is a whole number of 0.1 µV steps, stored exactly (as a 32-bit integer). */
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
                "application/problem+json": components["schemas"]["Problem"];
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
                "application/problem+json": components["schemas"]["Problem"];
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
export interface operations {
    getWellKnownJwksJson: {
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
                    "application/json": components["schemas"]["JsonWebKeySet"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWellKnownMcp: {
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
                    "application/json": components["schemas"]["JsonRpcResponse"];
                    "text/event-stream": string;
                };
            };
            /** @description A message other than initialize without a session, a refused tool call (JSON-RPC error), or an invalid request (problem) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                    "application/problem+json": components["schemas"]["Problem"];
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
                    "application/json": components["schemas"]["JsonRpcError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Accept does not list application/json and text/event-stream, as the MCP Streamable HTTP transport requires (JSON-RPC error) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postWellKnownMcp: {
        parameters: {
            query?: never;
            header?: {
                /** @description The session from the initialize response (MCP Streamable HTTP) */
                "mcp-session-id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["JsonRpcMessageInput"];
            };
        };
        responses: {
            /** @description JSON-RPC response or an SSE stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcResponse"];
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
                    "application/json": components["schemas"]["JsonRpcError"];
                    "application/problem+json": components["schemas"]["Problem"];
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
                    "application/json": components["schemas"]["JsonRpcError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Accept does not list application/json and text/event-stream, as the MCP Streamable HTTP transport requires (JSON-RPC error) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
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
    deleteWellKnownMcp: {
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
                    "application/json": components["schemas"]["JsonRpcResponse"];
                    "text/event-stream": string;
                };
            };
            /** @description A message other than initialize without a session, a refused tool call (JSON-RPC error), or an invalid request (problem) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                    "application/problem+json": components["schemas"]["Problem"];
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
                    "application/json": components["schemas"]["JsonRpcError"];
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Accept does not list application/json and text/event-stream, as the MCP Streamable HTTP transport requires (JSON-RPC error) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JsonRpcError"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWellKnownOauthAuthorizationServer: {
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
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWellKnownOauthProtectedResource: {
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
                    "application/json": components["schemas"]["ProtectedResourceMetadata"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWellKnownOpenidConfiguration: {
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
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getWellKnownSmartConfiguration: {
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
                    "application/json": components["schemas"]["SmartConfiguration"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAgentIdentity: {
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
                    "application/json": components["schemas"]["GetAgentIdentityResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAuthAdminClients: {
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
                    "application/json": components["schemas"]["GetApiAuthAdminClientsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthAdminClientsByClientIdApprove: {
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
                "application/json": components["schemas"]["PostApiAuthAdminClientsByClientIdApproveRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthAdminClientsByClientIdApproveResponse"];
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
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthAdminClientsByClientIdDeny: {
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
                    "application/json": components["schemas"]["PostApiAuthAdminClientsByClientIdDenyResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthAdminInitialAccessTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostApiAuthAdminInitialAccessTokensRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthAdminInitialAccessTokensResponse"];
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
    getApiAuthOauth2Authorize: {
        parameters: {
            query?: {
                /** @description SMART App Launch: the FHIR base URL the app will call; must be this server (or under it) */
                aud?: string | string[];
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
                    "application/problem+json": components["schemas"]["Problem"];
                    "text/html": string;
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthOauth2Authorize: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PostApiAuthOauth2AuthorizeRequest"];
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
                    "application/problem+json": components["schemas"]["Problem"];
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
    postApiAuthOauth2Introspect: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PostApiAuthOauth2IntrospectRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthOauth2IntrospectResponse200"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthOauth2IntrospectResponse400"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthOauth2IntrospectResponse401"];
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
                    "application/json": components["schemas"]["PostApiAuthOauth2IntrospectResponse429"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthOauth2Token: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PostApiAuthOauth2TokenRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthOauth2TokenResponse200"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthOauth2TokenResponse400"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthOauth2TokenResponse401"];
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
                    "application/json": components["schemas"]["PostApiAuthOauth2TokenResponse429"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthRegister: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostApiAuthRegisterRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthRegisterResponse201"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthRegisterResponse400"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthRegisterResponse401"];
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
                    "application/json": components["schemas"]["PostApiAuthRegisterResponse429"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthRevoke: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PostApiAuthRevokeRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthRevokeResponse200"];
                };
            };
            /** @description Bad Request */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthRevokeResponse400"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostApiAuthRevokeResponse401"];
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
                    "application/json": components["schemas"]["PostApiAuthRevokeResponse429"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getApiAuthUserinfo: {
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
                    "application/json": components["schemas"]["GetApiAuthUserinfoResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postApiAuthUserinfo: {
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
                    "application/json": components["schemas"]["PostApiAuthUserinfoResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAlarms: {
        parameters: {
            query?: {
                limit?: number;
                patient?: string;
                /** @description Only alarms shown at any time since this instant */
                since?: string;
                /** @description active (default), raised, acknowledged, latched, resolved or all */
                state?: "active" | "raised" | "acknowledged" | "latched" | "resolved" | "all";
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
                    "application/json": components["schemas"]["AlarmList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAlarmsById: {
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
                    "application/json": components["schemas"]["Alarm"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAlarmsByIdAcknowledge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["AlarmAcknowledgementInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Alarm"];
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
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAppointments: {
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
            /** @description FHIR R4 searchset Bundle: Slot (match), each booked one followed by its Appointment (match), then the Schedules the Slots belong to (include); the next page is `link` relation `next` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetAppointmentsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAppointments: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostAppointmentsRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Appointment"];
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
    getAppointmentsById: {
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
                    "application/json": components["schemas"]["Appointment"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAppointmentsByIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostAppointmentsByIdCancelRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Appointment"];
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
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postAppointmentsByIdReschedule: {
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
                "application/json": components["schemas"]["PostAppointmentsByIdRescheduleRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Appointment"];
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
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAudit: {
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
                    "application/json": components["schemas"]["GetAuditResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCatalog: {
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
                    "application/json": components["schemas"]["GetCatalogResponse"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCatalogAppointmentTypes: {
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
                    "application/json": components["schemas"]["GetCatalogAppointmentTypesResponse"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCatalogClinicians: {
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
                    "application/json": components["schemas"]["GetCatalogCliniciansResponse"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCatalogScopes: {
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
                    "application/json": components["schemas"]["GetCatalogScopesResponse"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getCatalogVitalSigns: {
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
                    "application/json": components["schemas"]["GetCatalogVitalSignsResponse"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDiagnosticsCatalog: {
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
                    "application/json": components["schemas"]["GetDiagnosticsCatalogResponse"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDiagnosticsCriticalResults: {
        parameters: {
            query?: {
                /** @description Most acknowledged results listed */
                limit?: number;
                patient?: string;
                /** @description Acknowledged results: acknowledged at or after this instant */
                since?: string;
                /** @description Comma-separated, each one of open, escalated, acknowledged; default open,escalated */
                state?: string;
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
                    "application/json": components["schemas"]["GetDiagnosticsCriticalResultsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getDiagnosticsOrders: {
        parameters: {
            query?: {
                limit?: number;
                patient?: string;
                /** @description Comma-separated, each one of draft, active, on-hold, revoked, completed, entered-in-error */
                status?: string;
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
                    "application/json": components["schemas"]["GetDiagnosticsOrdersResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postDiagnosticsOrders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsOrdersRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceRequest"];
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
    getDiagnosticsOrdersById: {
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
                    "application/json": components["schemas"]["ServiceRequest"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postDiagnosticsOrdersByIdActivate: {
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
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsOrdersByIdActivateRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceRequest"];
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
    postDiagnosticsOrdersByIdCancel: {
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
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsOrdersByIdCancelRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceRequest"];
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
    postDiagnosticsOrdersByIdEnteredInError: {
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
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsOrdersByIdEnteredInErrorRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceRequest"];
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
    postDiagnosticsOrdersByIdFulfilFromTelemetry: {
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
                "application/json": components["schemas"]["PostDiagnosticsOrdersByIdFulfilFromTelemetryRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticReport"];
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
            422: components["responses"]["UnprocessableContent"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postDiagnosticsOrdersByIdHold: {
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
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsOrdersByIdHoldRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceRequest"];
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
    getDiagnosticsReports: {
        parameters: {
            query?: {
                limit?: number;
                order?: string;
                patient?: string;
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
                    "application/json": components["schemas"]["GetDiagnosticsReportsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postDiagnosticsReports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsReportsRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticReport"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticReport"];
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
    getDiagnosticsReportsById: {
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
                    "application/json": components["schemas"]["DiagnosticReport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putDiagnosticsReportsById: {
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
                "application/json": components["schemas"]["PutDiagnosticsReportsByIdRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticReport"];
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
            422: components["responses"]["UnprocessableContent"];
            428: components["responses"]["PreconditionRequired"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postDiagnosticsReportsByIdAcknowledge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsReportsByIdAcknowledgeRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CriticalResult"];
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
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postDiagnosticsReportsByIdAmend: {
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
                "application/json": components["schemas"]["PostDiagnosticsReportsByIdAmendRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticReport"];
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
            422: components["responses"]["UnprocessableContent"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postDiagnosticsReportsByIdCancel: {
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
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PostDiagnosticsReportsByIdCancelRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DiagnosticReport"];
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
    getDiagnosticsReportsByIdHistory: {
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
                    "application/json": components["schemas"]["GetDiagnosticsReportsByIdHistoryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getHealth: {
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
                    "application/json": components["schemas"]["GetHealthResponse200"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description Service Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetHealthResponse503"];
                };
            };
        };
    };
    getHealthDetails: {
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
                    "application/json": components["schemas"]["GetHealthDetailsResponse200"];
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
                    "application/json": components["schemas"]["GetHealthDetailsResponse503"];
                };
            };
        };
    };
    getPatients: {
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
            /** @description FHIR R4 searchset Bundle of Patient; the next page is `link` relation `next`; each fullUrl is the patient's URL in this API */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GetPatientsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postPatients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostPatientsRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Patient"];
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
    getPatientsById: {
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
                    "application/json": components["schemas"]["GetPatientsByIdResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putPatientsById: {
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
                "application/json": components["schemas"]["PutPatientsByIdRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Patient"];
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
    postPatientsByIdAllergies: {
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
                "application/json": components["schemas"]["PostPatientsByIdAllergiesRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AllergyIntolerance"];
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
            422: components["responses"]["UnprocessableContent"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deletePatientsByIdAllergiesByAllergyId: {
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
    getPatientsByIdHistory: {
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
                    "application/json": components["schemas"]["GetPatientsByIdHistoryResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPatientsByIdVitalsLatest: {
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
                    "application/json": components["schemas"]["GetPatientsByIdVitalsLatestResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSandbox: {
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
                    "application/json": components["schemas"]["GetSandboxResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postSandbox: {
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
                    "application/json": components["schemas"]["PostSandboxResponse"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTriage: {
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
                    "application/json": components["schemas"]["GetTriageResponse"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postTriage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostTriageRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostTriageResponse"];
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
    postTriageByPatientIdDischarge: {
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
                    "application/json": components["schemas"]["PostTriageByPatientIdDischargeResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            414: components["responses"]["URITooLong"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    putTriageByPatientIdEsi: {
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
                "application/json": components["schemas"]["PutTriageByPatientIdEsiRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PutTriageByPatientIdEsiResponse"];
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
    getVitals: {
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
                    "application/json": components["schemas"]["GetVitalsResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    postVitals: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PostVitalsRequest"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PostVitalsResponse"];
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
    getVitalsLatest: {
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
                    "application/json": components["schemas"]["GetVitalsLatestResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getVitalsStream: {
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
    getVitalsWs: {
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
    getAuthMd: {
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
    getDevelopers: {
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
    getFhirR4WellKnownSmartConfiguration: {
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
                    "application/json": components["schemas"]["SmartConfiguration"];
                };
            };
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    getFhirR4Export: {
        parameters: {
            query?: {
                /** @description Comma-separated top-level elements ([Type.]name): each resource reduced to them (and its mandatory ones), tagged SUBSETTED */
                _elements?: string | string[];
                /** @description application/fhir+ndjson (the default and only format; application/ndjson and ndjson are its aliases) */
                _outputFormat?: string;
                /** @description FHIR instant: only rows written after it (a previous manifest's transactionTime gives exactly the rows since that export) */
                _since?: string;
                /** @description Comma-separated resource types: Patient, Observation and the other patient-compartment types served (docs/export.md); default: every one the token may read */
                _type?: string | string[];
                /** @description Observation?code=<token>[,<token>]&date=<prefix><date>[&date=...]; several are OR'ed */
                _typeFilter?: string | string[];
                /** @description FHIR instant: only rows written up to it */
                _until?: string;
                /** @description true: the status answers the files written so far (202) and pages manifests with link next */
                allowPartialManifests?: "true" | "false";
                /** @description LatestProvenanceResources, RelevantProvenanceResources or _custom: none is served (400; with Prefer: handling=lenient, noted in the manifest error file) */
                includeAssociatedData?: string | string[];
                /** @description Patient: files of patient blocks (a header Parameters, the Patient, its resources) */
                organizeOutputBy?: string;
            };
            header: {
                /** @description respond-async (required); handling=lenient to skip unsupported values (noted in the manifest error file) */
                prefer: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Rate limited (see Retry-After) (a FHIR OperationOutcome) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    postFhirR4Export: {
        parameters: {
            query?: never;
            header: {
                /** @description respond-async (required); handling=lenient to skip unsupported values (noted in the manifest error file) */
                prefer: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkExportParametersInput"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Rate limited (see Retry-After) (a FHIR OperationOutcome) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    getFhirR4ExportFileByIdByFile: {
        parameters: {
            query?: never;
            header?: {
                range?: string;
            };
            path: {
                /** @description <Type>-<n>.ndjson (organized by patient: file-<n>.ndjson; the error file: OperationOutcome-1.ndjson) */
                file: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description NDJSON: one FHIR resource per line */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+ndjson": string;
                };
            };
            /** @description The requested byte range */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+ndjson": string;
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Error (a FHIR OperationOutcome) */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    getFhirR4ExportStatusById: {
        parameters: {
            query?: {
                /** @description allowPartialManifests: the manifest page (link next) */
                page?: number;
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
                    "application/json": components["schemas"]["BulkExportManifest"];
                };
            };
            /** @description In progress (X-Progress, Retry-After); with allowPartialManifests a full manifest page */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["GetFhirR4ExportStatusByIdResponse"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    deleteFhirR4ExportStatusById: {
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
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchAllergyIntolerance: {
        parameters: {
            query: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                /** @description Patient/{id} or {id} (required) */
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
                    "application/fhir+json": components["schemas"]["FhirBundleAllergyIntolerance"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirCreateAllergyIntolerance: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FhirCreateAllergyIntoleranceRequest"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["AllergyIntolerance"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The resource changed concurrently, or the slot is taken (a FHIR OperationOutcome) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Well-formed but refused by a domain rule (a FHIR OperationOutcome) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadAllergyIntolerance: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["AllergyIntolerance"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchAppointment: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                /** @description Appointment:slot */
                _include?: "Appointment:slot" | "Appointment:slot:Slot";
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                date?: string | string[];
                patient?: string;
                status?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleAppointment"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirCreateAppointment: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FhirAppointmentBookInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["Appointment"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The resource changed concurrently, or the slot is taken (a FHIR OperationOutcome) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Well-formed but refused by a domain rule (a FHIR OperationOutcome) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadAppointment: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["Appointment"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchDetectedIssue: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                _lastUpdated?: string | string[];
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                patient?: string;
                status?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleDetectedIssue"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadDetectedIssue: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["DetectedIssue"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchDevice: {
        parameters: {
            query: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                /** @description Patient/{id} or {id} (required) */
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
                    "application/fhir+json": components["schemas"]["FhirBundleDevice"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadDevice: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["FhirDevice"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchDiagnosticReport: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                _lastUpdated?: string | string[];
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                category?: string;
                code?: string;
                patient?: string;
                status?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleDiagnosticReport"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadDiagnosticReport: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["DiagnosticReport"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirVreadDiagnosticReport: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
            header?: never;
            path: {
                id: string;
                vid: number;
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
                    "application/fhir+json": components["schemas"]["DiagnosticReport"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchGroup: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                _id?: string;
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
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
                    "application/fhir+json": components["schemas"]["FhirBundleGroup"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadGroup: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["FhirGroup"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    getFhirR4GroupByIdExport: {
        parameters: {
            query?: {
                /** @description Comma-separated top-level elements ([Type.]name): each resource reduced to them (and its mandatory ones), tagged SUBSETTED */
                _elements?: string | string[];
                /** @description application/fhir+ndjson (the default and only format; application/ndjson and ndjson are its aliases) */
                _outputFormat?: string;
                /** @description FHIR instant: only rows written after it (a previous manifest's transactionTime gives exactly the rows since that export) */
                _since?: string;
                /** @description Comma-separated resource types: Patient, Observation and the other patient-compartment types served (docs/export.md); default: every one the token may read */
                _type?: string | string[];
                /** @description Observation?code=<token>[,<token>]&date=<prefix><date>[&date=...]; several are OR'ed */
                _typeFilter?: string | string[];
                /** @description FHIR instant: only rows written up to it */
                _until?: string;
                /** @description true: the status answers the files written so far (202) and pages manifests with link next */
                allowPartialManifests?: "true" | "false";
                /** @description LatestProvenanceResources, RelevantProvenanceResources or _custom: none is served (400; with Prefer: handling=lenient, noted in the manifest error file) */
                includeAssociatedData?: string | string[];
                /** @description Patient: files of patient blocks (a header Parameters, the Patient, its resources) */
                organizeOutputBy?: string;
            };
            header: {
                /** @description respond-async (required); handling=lenient to skip unsupported values (noted in the manifest error file) */
                prefer: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Rate limited (see Retry-After) (a FHIR OperationOutcome) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    postFhirR4GroupByIdExport: {
        parameters: {
            query?: never;
            header: {
                /** @description respond-async (required); handling=lenient to skip unsupported values (noted in the manifest error file) */
                prefer: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkExportParametersInput"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Rate limited (see Retry-After) (a FHIR OperationOutcome) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirCapabilities: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                mode?: "full";
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
                    "application/fhir+json": components["schemas"]["FhirCapabilityStatement"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchObservation: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                /** @description Observation:patient (the searched Patient, search mode include) */
                _include?: "Observation:patient" | "Observation:patient:Patient" | "Observation:subject" | "Observation:subject:Patient";
                /** @description date (ascending, the default) or -date (newest first) */
                _sort?: "date" | "-date";
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                /** @description vital-signs */
                category?: string;
                /** @description [system|]code, comma-separated (OR) */
                code?: string;
                /** @description [system|]code, comma-separated (OR) */
                "component-code"?: string;
                /** @description [prefix]date-time (eq ne gt lt ge le sa eb ap); repeat for AND, comma for OR */
                date?: string | string[];
                /** @description Patient/{id} or {id} (this or subject is required) */
                patient?: string;
                /** @description Patient/{id} or {id} */
                subject?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleObservation"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadObservation: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["FhirObservation"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirLastnObservation: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                category?: string;
                code?: string;
                /** @description 1 only (the latest per code) */
                max?: number;
                patient?: string;
                subject?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleObservation"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchPatient: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                _id?: string;
                _lastUpdated?: string | string[];
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                birthdate?: string | string[];
                family?: string;
                gender?: string;
                given?: string;
                identifier?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundlePatient"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirCreatePatient: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FhirPatientWriteInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["Patient"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The resource changed concurrently, or the slot is taken (a FHIR OperationOutcome) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadPatient: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["Patient"];
                };
            };
            /** @description Not modified */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirUpdatePatient: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
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
                "application/json": components["schemas"]["FhirPatientWriteInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["Patient"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The resource changed concurrently, or the slot is taken (a FHIR OperationOutcome) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description If-Match names a version that is no longer current (a FHIR OperationOutcome) */
            412: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description If-Match is required for this write (a FHIR OperationOutcome) */
            428: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirVreadPatient: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
            header?: never;
            path: {
                id: string;
                vid: number;
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
                    "application/fhir+json": components["schemas"]["Patient"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    getFhirR4PatientExport: {
        parameters: {
            query?: {
                /** @description Comma-separated top-level elements ([Type.]name): each resource reduced to them (and its mandatory ones), tagged SUBSETTED */
                _elements?: string | string[];
                /** @description application/fhir+ndjson (the default and only format; application/ndjson and ndjson are its aliases) */
                _outputFormat?: string;
                /** @description FHIR instant: only rows written after it (a previous manifest's transactionTime gives exactly the rows since that export) */
                _since?: string;
                /** @description Comma-separated resource types: Patient, Observation and the other patient-compartment types served (docs/export.md); default: every one the token may read */
                _type?: string | string[];
                /** @description Observation?code=<token>[,<token>]&date=<prefix><date>[&date=...]; several are OR'ed */
                _typeFilter?: string | string[];
                /** @description FHIR instant: only rows written up to it */
                _until?: string;
                /** @description true: the status answers the files written so far (202) and pages manifests with link next */
                allowPartialManifests?: "true" | "false";
                /** @description LatestProvenanceResources, RelevantProvenanceResources or _custom: none is served (400; with Prefer: handling=lenient, noted in the manifest error file) */
                includeAssociatedData?: string | string[];
                /** @description Patient: files of patient blocks (a header Parameters, the Patient, its resources) */
                organizeOutputBy?: string;
            };
            header: {
                /** @description respond-async (required); handling=lenient to skip unsupported values (noted in the manifest error file) */
                prefer: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Rate limited (see Retry-After) (a FHIR OperationOutcome) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    postFhirR4PatientExport: {
        parameters: {
            query?: never;
            header: {
                /** @description respond-async (required); handling=lenient to skip unsupported values (noted in the manifest error file) */
                prefer: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkExportParametersInput"];
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Rate limited (see Retry-After) (a FHIR OperationOutcome) */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchPractitioner: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                _id?: string;
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
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
                    "application/fhir+json": components["schemas"]["FhirBundlePractitioner"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadPractitioner: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["Practitioner"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchSchedule: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                _id?: string;
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                actor?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleSchedule"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadSchedule: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["Schedule"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchServiceRequest: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                _lastUpdated?: string | string[];
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                code?: string;
                patient?: string;
                status?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleServiceRequest"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadServiceRequest: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["ServiceRequest"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirVreadServiceRequest: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
            header?: never;
            path: {
                id: string;
                vid: number;
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
                    "application/fhir+json": components["schemas"]["ServiceRequest"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchSlot: {
        parameters: {
            query?: {
                _count?: number;
                /** @description Opaque position of the next page (from Bundle.link next) */
                _cursor?: string;
                /** @description Top-level elements each matched resource keeps (with id, meta and its mandatory elements; tagged SUBSETTED) */
                _elements?: string;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                /** @description count: a searchset Bundle with total and no entries; data: the resources without their narrative; false: the whole resources */
                _summary?: "count" | "data" | "false";
                schedule?: string;
                start?: string | string[];
                status?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleSlot"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadSlot: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["Slot"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirVreadSlot: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
            };
            header?: never;
            path: {
                id: string;
                vid: number;
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
                    "application/fhir+json": components["schemas"]["Slot"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSearchSubscription: {
        parameters: {
            query?: {
                _count?: number;
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["FhirBundleSubscription"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirCreateSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["FhirSubscriptionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSubscription"];
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirSubscription"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Well-formed but refused by a domain rule (a FHIR OperationOutcome) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirReadSubscription: {
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
                    "application/fhir+json": components["schemas"]["FhirSubscription"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirDeleteSubscription: {
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
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSubscriptionEvents: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
                content?: "empty" | "id-only" | "full-resource";
                eventsSinceNumber?: string;
                eventsUntilNumber?: string;
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
                    "application/fhir+json": components["schemas"]["FhirBundleSubscriptionNotification"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSubscriptionWsBindingToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Optional: a Parameters (its id parameters are ignored at the instance level) */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["FhirSubscriptionWsBindingTokenRequest"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirParameters"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The body is over the size limit (a FHIR OperationOutcome) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The Content-Type is not accepted here (a FHIR OperationOutcome) */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSubscriptionStatus: {
        parameters: {
            query?: {
                /** @description json (the only format), or a JSON media type */
                _format?: "json" | "application/json" | "application/fhir+json" | "application/json+fhir";
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
                    "application/fhir+json": components["schemas"]["FhirBundleSubscriptionStatus"];
                };
            };
            /** @description Malformed JSON or invalid parameters/body (validation-error, bad-request) (a FHIR OperationOutcome) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No such resource or route (a FHIR OperationOutcome) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description No representation matches Accept (a FHIR OperationOutcome) */
            406: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A path segment is longer than the router reads (2048 bytes percent-encoded) (a FHIR OperationOutcome) */
            414: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    fhirSubscriptionWebSocket: {
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
            /** @description Bearer token missing, invalid, expired or revoked (WWW-Authenticate names the resource metadata) (a FHIR OperationOutcome) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description The token lacks a required scope, or may not touch this resource (a patient user and another patient): insufficient-scope, WWW-Authenticate error="insufficient_scope" with scope and resource_metadata (a FHIR OperationOutcome) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A WebSocket endpoint was asked without Upgrade: websocket (a FHIR OperationOutcome) */
            426: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description Unexpected error (logged with the request id; no internals in the body) (a FHIR OperationOutcome) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
            /** @description A dependency is unavailable; retry later (a FHIR OperationOutcome) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/fhir+json": components["schemas"]["FhirOperationOutcome"];
                };
            };
        };
    };
    getLivez: {
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
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description Service Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
        };
    };
    getOpenapiJson: {
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
                    "application/json": components["schemas"]["GetOpenapiJsonResponse"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getReadyz: {
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
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description Service Unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getUi: {
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
    getUiByName: {
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
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
