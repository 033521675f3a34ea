/**
 * GET /auth.md: the authentication walkthrough of spec section 5 as Markdown. Every ```sh block
 * is a copy-paste step with this server's real base URL; run in order in one shell they form a
 * complete session (variables flow from step to step; needs curl and jq). The test suite runs
 * them verbatim against a real gateway, so the walkthrough cannot drift from the server.
 */
import { PUBLIC_SCOPES, SANDBOX_SCOPES, SCOPES } from '@vitalis/schemas';
import { PATHS } from '../auth/context';

export function renderAuthMarkdown(baseUrl: string): string {
  const scopeRows = Object.entries(SCOPES).map(([scope, grants]) => `| \`${scope}\` | ${grants} |`).join('\n');
  return `# Vitalis authentication walkthrough

Base URL: \`${baseUrl}\`. Credentials travel as \`Authorization: Bearer <ACCESS_TOKEN>\`.
The examples below are a complete session: paste them in order into one shell (they need \`curl\` and \`jq\`).
The full API is described at [${baseUrl}/openapi.json](${baseUrl}/openapi.json); the portal is at [${baseUrl}/developers](${baseUrl}/developers).

| Method | \`grant_type\` | For |
|---|---|---|
| Client credentials | \`client_credentials\` | backend agents, daemons, machine to machine |
| Instant sandbox token | (none: \`POST /api/v1/sandbox\`) | quick evaluation; no registration; rate-limited |
| Authorization code with PKCE | \`authorization_code\` | browser and user-facing clinician / patient apps |

## 0. Base URL

\`\`\`sh
BASE=${baseUrl}
\`\`\`

## 1. Discover

The protected resource metadata (RFC 9728) names the authorization server; its metadata (RFC 8414,
also the OpenID Connect provider configuration) lists the endpoints; the OpenAPI document describes
every operation and the scopes it needs.

\`\`\`sh
curl -fsS "$BASE/.well-known/oauth-protected-resource" | jq .
curl -fsS "$BASE/.well-known/oauth-authorization-server" | jq '{issuer, token_endpoint, registration_endpoint, revocation_endpoint, grant_types_supported}'
curl -fsS "$BASE/.well-known/openid-configuration" | jq '{issuer, jwks_uri, userinfo_endpoint, id_token_signing_alg_values_supported}'
curl -fsS "$BASE/openapi.json" | jq '{openapi, version: .info.version, operations: [.paths[] | keys[]] | length}'
\`\`\`

## 2. Register a client (RFC 7591)

Registration is open, but what a client can obtain is bounded by a role, never by what it asks for.
Without a credential a client gets the public scope only (\`${PUBLIC_SCOPES.join(' ')}\`: slot
availability, no patient data); the answer's \`scope\` says exactly what was granted, and anything
asked for beyond it waits for an operator (\`requested_scope\`, \`approval: "pending"\`). See
[Scopes beyond the public set](#scopes-beyond-the-public-set-a-role) for clinical access.

\`\`\`sh
REGISTRATION=$(curl -fsS -X POST "$BASE${PATHS.register}" \\
  -H 'content-type: application/json' \\
  -d '{"client_name": "my-agent",
       "grant_types": ["client_credentials"],
       "token_endpoint_auth_method": "client_secret_post",
       "scope": "read:appointments"}')
CLIENT_ID=$(echo "$REGISTRATION" | jq -r .client_id)
CLIENT_SECRET=$(echo "$REGISTRATION" | jq -r .client_secret)
echo "registered $CLIENT_ID with scope: $(echo "$REGISTRATION" | jq -r .scope)"
\`\`\`

Keep \`client_secret\` secret: it is shown once and stored only as a hash.

## 3. Claim an identity with client credentials

Form fields, URL-encoded; \`scope\` is space-separated and may narrow the registered scopes.

\`\`\`sh
TOKEN=$(curl -fsS -X POST "$BASE${PATHS.token}" \\
  --data-urlencode grant_type=client_credentials \\
  --data-urlencode "client_id=$CLIENT_ID" \\
  --data-urlencode "client_secret=$CLIENT_SECRET" \\
  --data-urlencode 'scope=read:appointments' | jq -r .access_token)
echo "token: \${TOKEN:0:16}..."
\`\`\`

Cache the token until it nearly expires (\`expires_in\`): the token, introspection and revocation
endpoints are rate-limited per address and per client, and over a limit answer \`429\` with
\`Retry-After\` and \`{"error": "temporarily_unavailable"}\`.

Instead of a secret, a client registered with \`token_endpoint_auth_method: private_key_jwt\` and its
JWK set signs a client assertion (RFC 7523): send \`client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer\`
and \`client_assertion=<JWT>\` (\`iss\` = \`sub\` = client id, \`aud\` = the token endpoint, a unique \`jti\`, at most 5 minutes).

## 4. Probe the identity

\`\`\`sh
curl -fsS "$BASE${PATHS.identity}" -H "Authorization: Bearer $TOKEN" | jq '{client_id, sub, scopes, roles, auth_method, expires_in}'
\`\`\`

## 5. Token exchange (RFC 8693)

As the service specification shows it, without client credentials: trade a token for a narrower
one. The result never has more scope or life than the subject token, stays with the subject's
client, and dies when the subject token (or the grant it came from) is revoked:

\`\`\`sh
NARROW=$(curl -fsS -X POST "$BASE${PATHS.token}" \\
  --data-urlencode grant_type=urn:ietf:params:oauth:grant-type:token-exchange \\
  --data-urlencode "subject_token=$TOKEN" \\
  --data-urlencode subject_token_type=urn:ietf:params:oauth:token-type:jwt \\
  --data-urlencode scope=read:appointments | jq -r .access_token)
curl -fsS "$BASE${PATHS.identity}" -H "Authorization: Bearer $NARROW" | jq '{client_id, scopes, derived_from}'
\`\`\`

To let **another** client act for you (an agent), name it in \`may_act\` when you get the token
(RFC 8693 §4.4); that client, authenticated, exchanges it and is named in \`act\`. A client a token
does not name cannot exchange it. Subject tokens from an issuer the server trusts
(\`TRUSTED_ISSUERS\`) need an authenticated client too.

\`\`\`sh
AGENT=$(curl -fsS -X POST "$BASE${PATHS.register}" -H 'content-type: application/json' \\
  -d '{"client_name": "my-delegate", "grant_types": ["urn:ietf:params:oauth:grant-type:token-exchange"],
       "token_endpoint_auth_method": "client_secret_post", "scope": "read:appointments"}')
AGENT_ID=$(echo "$AGENT" | jq -r .client_id)
FOR_AGENT=$(curl -fsS -X POST "$BASE${PATHS.token}" --data-urlencode grant_type=client_credentials \\
  --data-urlencode "client_id=$CLIENT_ID" --data-urlencode "client_secret=$CLIENT_SECRET" \\
  --data-urlencode "may_act=$AGENT_ID" | jq -r .access_token)
EXCHANGED=$(curl -fsS -X POST "$BASE${PATHS.token}" \\
  --data-urlencode grant_type=urn:ietf:params:oauth:grant-type:token-exchange \\
  --data-urlencode "client_id=$AGENT_ID" \\
  --data-urlencode "client_secret=$(echo "$AGENT" | jq -r .client_secret)" \\
  --data-urlencode "subject_token=$FOR_AGENT" \\
  --data-urlencode subject_token_type=urn:ietf:params:oauth:token-type:jwt | jq -r .access_token)
curl -fsS "$BASE${PATHS.identity}" -H "Authorization: Bearer $EXCHANGED" | jq '{sub, client_id, scopes, act}'
\`\`\`

## 6. Use the token

\`\`\`sh
curl -fsS "$BASE/api/v1/appointments?status=free&limit=3" \\
  -H "Authorization: Bearer $TOKEN" -H 'Accept: application/json' | jq '{total: (.entry // [] | length)}'
\`\`\`

Without a token the answer is 401 with \`WWW-Authenticate: Bearer realm="vitalis", resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"\`;
a token without the operation's scope gets 403 (\`error="insufficient_scope"\`). Both bodies are RFC 9457 problems:

\`\`\`sh
curl -s -D - -o /dev/null "$BASE/api/v1/vitals/latest?patient=pat-walkthrough" | grep -i '^www-authenticate:'
curl -s -o /dev/null -w 'public token on vitals: HTTP %{http_code}\\n' "$BASE/api/v1/vitals/latest?patient=pat-walkthrough" -H "Authorization: Bearer $TOKEN"
\`\`\`

## Scopes beyond the public set: a role

Clinical scopes (patients, vitals, triage, audit, device ingest) come with a role an operator
stands behind. There are three routes; each registers a client whose scopes are what it asked for
within that role (\`doctor\`, \`nurse\`, \`reception\`, \`patient\`, \`admin\`, \`device\` for bedside
ingest, \`system\` for a trusted hospital backend):

1. **An initial access token** (RFC 7591 §3) the operator minted for a role:
   \`npm run admin -- initial-access-token --role nurse\` on the server, or
   \`POST ${PATHS.register.replace('register', 'admin/initial-access-tokens')}\` with \`{"role": "nurse"}\` (scope \`admin:clients\`);
   \`make run\` prints one for the demo. Send it as a Bearer header when you register:

\`\`\`sh
AGENT=$(curl -fsS -X POST "$BASE${PATHS.register}" \\
  -H "Authorization: Bearer $INITIAL_ACCESS_TOKEN" -H 'content-type: application/json' \\
  -d '{"client_name": "monitoring-agent", "grant_types": ["client_credentials"],
       "token_endpoint_auth_method": "client_secret_post", "scope": "read:vitals"}')
echo "$AGENT" | jq '{client_id, role, scope}'
AGENT_TOKEN=$(curl -fsS -X POST "$BASE${PATHS.token}" --data-urlencode grant_type=client_credentials \\
  --data-urlencode "client_id=$(echo "$AGENT" | jq -r .client_id)" \\
  --data-urlencode "client_secret=$(echo "$AGENT" | jq -r .client_secret)" | jq -r .access_token)
curl -fsS "$BASE/api/v1/vitals/latest?patient=pat-walkthrough" \\
  -H "Authorization: Bearer $AGENT_TOKEN" -H 'Accept: application/json' | jq .
\`\`\`

2. **A software statement** (RFC 7591 §2.3): a JWT signed by an issuer the operator trusts
   (\`SOFTWARE_STATEMENT_ISSUERS\`), naming the role in \`vitalis_role\`; send it as
   \`"software_statement": "<JWT>"\` in the registration body. Metadata inside it (\`scope\`,
   \`client_name\`, \`redirect_uris\`...) wins over the plain JSON.

3. **An operator's approval** of a client that registered openly and is \`pending\` (an MCP host, for
   example): with a token holding \`admin:clients\`,

\`\`\`text
GET  $BASE/api/auth/admin/clients?approval=pending
POST $BASE/api/auth/admin/clients/{client_id}/approve   {"role": "doctor"}
\`\`\`

   Every approval and every minted token is recorded in the audit trail.

A user-facing app's tokens are further bounded by the signed-in user's role: a nurse using an app
approved as \`doctor\` gets a nurse's scopes.

## 7. Revoke (RFC 7009)

\`\`\`sh
curl -fsS -X POST "$BASE${PATHS.revoke}" \\
  --data-urlencode "token=$TOKEN" --data-urlencode token_type_hint=access_token
STATUS=$(curl -s -o /dev/null -w '%{http_code}' "$BASE${PATHS.identity}" -H "Authorization: Bearer $TOKEN")
test "$STATUS" = 401 && echo "revoked: the token is refused immediately"
\`\`\`

## Sandbox: a token without registration

Read-only demo scopes (\`${SANDBOX_SCOPES.join(' ')}\`), rate-limited per address (429 with \`Retry-After\` over the limit).
A sandbox token sees synthetic data only: patients \`sbx-0001\` to \`sbx-0004\` (vitals every second,
history, live streams) and \`sbx-\` appointment slots; any other patient is 403.

\`\`\`sh
SANDBOX_TOKEN=$(curl -fsS -X POST "$BASE${PATHS.sandbox}" | jq -r .access_token)
curl -fsS "$BASE${PATHS.identity}" -H "Authorization: Bearer $SANDBOX_TOKEN" | jq '{auth_method, scopes, sandbox}'
curl -fsS "$BASE/api/v1/vitals/latest?patient=sbx-0001" -H "Authorization: Bearer $SANDBOX_TOKEN" | jq '{sandbox_patient: .patient_id, count}'
\`\`\`

## Authorization code with PKCE (browser apps)

Register a client with \`redirect_uris\` and \`grant_types: ["authorization_code", "refresh_token"]\`
(\`token_endpoint_auth_method: "none"\` for a public app), then send the user's browser to the
authorization endpoint with an S256 code challenge:

\`\`\`sh
APP=$(curl -fsS -X POST "$BASE${PATHS.register}" -H 'content-type: application/json' \\
  -d '{"client_name": "my-web-app", "redirect_uris": ["http://127.0.0.1:8765/callback"],
       "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none",
       "scope": "read:appointments"}')
APP_ID=$(echo "$APP" | jq -r .client_id)
VERIFIER=$(openssl rand -base64 48 | tr -d '=+/\\n' | cut -c1-64)
CHALLENGE=$(printf '%s' "$VERIFIER" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d '=')
AUTHORIZE_URL="$BASE${PATHS.authorize}?response_type=code&client_id=$APP_ID&redirect_uri=http%3A%2F%2F127.0.0.1%3A8765%2Fcallback&scope=read%3Aappointments&state=xyz&code_challenge=$CHALLENGE&code_challenge_method=S256"
curl -fsS -o /dev/null -w 'login page: HTTP %{http_code}\\n' "$AUTHORIZE_URL"
echo "open in a browser: $AUTHORIZE_URL"
\`\`\`

After login and consent the browser lands on \`redirect_uri?code=...&state=xyz&iss=...\`; exchange the
code at \`${PATHS.token}\` with \`grant_type=authorization_code\`, \`code\`, \`redirect_uri\`, \`client_id\` and
\`code_verifier=$VERIFIER\`. The response carries a rotating \`refresh_token\` (\`grant_type=refresh_token\`).

## Signing users in: OpenID Connect

Vitalis is an OpenID provider for the authorization code flow (PKCE S256 still required). Ask for
\`openid\` (every user role holds it, open registration included; it grants no data access) and
the token response adds an \`id_token\`; add \`profile\` (needs a role) for the user's name at
userinfo. Any OpenID client library works from the discovery document:

- **ID token**: signed RS256 by default, or ES256 if the client registered
  \`"id_token_signed_response_alg": "ES256"\`; keys in \`jwks_uri\` (\`alg\`, \`use: "sig"\`). Claims:
  \`iss\`, \`sub\` (the user id), \`aud\` (your client id), \`exp\`, \`iat\`, \`auth_time\` (when the user
  typed their password), \`nonce\` (send one in the authorization request and check it), \`at_hash\`.
- **Refresh**: while \`openid\` is granted, each refresh returns a new ID token: same \`sub\` and
  \`auth_time\`, no \`nonce\`.
- **UserInfo** (\`GET\` or \`POST ${PATHS.userinfo}\`, \`Authorization: Bearer <access token with openid>\`):
  \`sub\`; with \`profile\` also \`name\`, \`preferred_username\`, \`roles\`. A token without \`openid\` gets
  \`403\` \`insufficient_scope\`.
- Every authorization asks for the password (no sessions): \`prompt=none\` answers \`login_required\`;
  request objects (\`request\`, \`request_uri\`) are not supported.

\`\`\`sh
curl -fsS "$BASE/.well-known/openid-configuration" | jq '{userinfo_endpoint, subject_types_supported, id_token_signing_alg_values_supported, claims_supported}'
curl -fsS "$BASE${PATHS.jwks}" | jq '[.keys[] | {kid, alg, use}]'
\`\`\`

## Scopes

Every clinical operation needs the scopes its OpenAPI \`security\` lists:

| Scope | Grants |
|---|---|
${scopeRows}

## Errors

Every error is an RFC 9457 problem with \`type\` = \`${baseUrl}/errors/<kind>\`, \`title\`, \`status\`, \`detail\`
(\`application/problem+json\`); OAuth endpoints answer OAuth error bodies (\`error\`, \`error_description\`) as RFC 6749 requires.

Refusals of a protected resource, wherever they come from, have one shape (\`application/json\`):

- **401** (no token, or an invalid, expired or revoked one): \`type\` \`${baseUrl}/errors/unauthorized\`, and
  \`WWW-Authenticate: Bearer realm="vitalis", [error="invalid_token", ]resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"\`;
- **403** (the token lacks the scope, or may not touch this resource, e.g. a patient user and another patient's record):
  \`type\` \`${baseUrl}/errors/insufficient-scope\`, \`required_scope\`, and
  \`WWW-Authenticate: Bearer realm="vitalis", error="insufficient_scope", scope="...", resource_metadata="..."\`.
  An operation whose OpenAPI \`security\` lists one requirement per scope needs any one of them.
`;
}
