/**
 * GET /auth.md: the authentication walkthrough of spec section 5 as Markdown. Every ```sh block
 * is a copy-paste step with this server's real base URL; run in order in one shell they form a
 * complete session (variables flow from step to step; needs curl 7.76+, jq and openssl). The only
 * inputs are what the reader has: the initial access token `make run` saved in .data/ (demo-files.ts)
 * and the address the browser lands on after signing in (read at a prompt). The test suite
 * (test/integration/developer/walkthrough.test.ts) runs them verbatim against a real gateway,
 * signing in with headless Chromium, so the walkthrough cannot drift from the server. The role and
 * scope tables are generated from schemas/src/scopes.ts (doc-tables.ts).
 */
import { ROLES, SANDBOX_SCOPES, PUBLIC_SCOPES } from '@vitalis/schemas';
import { PATHS } from '../auth/context';
import { INITIAL_ACCESS_TOKEN_FILE } from '../demo-files';
import { ROLE_TABLE_NOTE, roleTable, scopeTable } from './doc-tables';

/** Every request of the walkthrough: a refusal prints its body (the problem's detail says what to do) and fails the step. */
const CURL = 'curl --fail-with-body -sS';
/** Where the PKCE example app says it lives: nothing needs to listen there (the reader copies the address). */
const CALLBACK = 'http://127.0.0.1:8765/callback';

/**
 * The walkthrough for a base URL.
 * Long: one Markdown document written as a single template, its steps in the order a reader runs
 * them; splitting it would scatter one text over functions without a rule of its own.
 */
export function renderAuthMarkdown(baseUrl: string): string {
  return `# Vitalis authentication walkthrough

Base URL: \`${baseUrl}\`. Credentials travel as \`Authorization: Bearer <ACCESS_TOKEN>\`.
The examples below are a complete session: paste them in order into one shell (they need \`curl\` 7.76 or later,
\`jq\` and \`openssl\`). Every request uses \`--fail-with-body\`: a refused one prints its error body, whose
\`detail\` (or \`error_description\`) says what went wrong and what to do, and fails the step.
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
${CURL} "$BASE/.well-known/oauth-protected-resource" | jq .
${CURL} "$BASE/.well-known/oauth-authorization-server" | jq '{issuer, token_endpoint, registration_endpoint, revocation_endpoint, grant_types_supported}'
${CURL} "$BASE/.well-known/openid-configuration" | jq '{issuer, jwks_uri, userinfo_endpoint, id_token_signing_alg_values_supported}'
${CURL} "$BASE/openapi.json" | jq '{openapi, version: .info.version, operations: [.paths[] | keys[]] | length}'
\`\`\`

## 2. Register a client (RFC 7591)

Registration is open, but what a client can obtain is bounded by a role, never by what it asks for.
Without a credential a client gets the public scope only (\`${PUBLIC_SCOPES.join(' ')}\`: slot
availability, no patient data); the answer's \`scope\` says exactly what was granted, and anything
asked for beyond it waits for an operator (\`requested_scope\`, \`approval: "pending"\`). See
[Scopes beyond the public set](#scopes-beyond-the-public-set-a-role) for clinical access.

\`\`\`sh
REGISTRATION=$(${CURL} -X POST "$BASE${PATHS.register}" \\
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
TOKEN=$(${CURL} -X POST "$BASE${PATHS.token}" \\
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
${CURL} "$BASE${PATHS.identity}" -H "Authorization: Bearer $TOKEN" | jq '{client_id, sub, scopes, roles, auth_method, expires_in}'
\`\`\`

## 5. Token exchange (RFC 8693)

As the service specification shows it, without client credentials: trade a token for a narrower
one. The result never has more scope or life than the subject token, stays with the subject's
client, and dies when the subject token (or the grant it came from) is revoked:

\`\`\`sh
NARROW=$(${CURL} -X POST "$BASE${PATHS.token}" \\
  --data-urlencode grant_type=urn:ietf:params:oauth:grant-type:token-exchange \\
  --data-urlencode "subject_token=$TOKEN" \\
  --data-urlencode subject_token_type=urn:ietf:params:oauth:token-type:jwt \\
  --data-urlencode scope=read:appointments | jq -r .access_token)
${CURL} "$BASE${PATHS.identity}" -H "Authorization: Bearer $NARROW" | jq '{client_id, scopes, derived_from}'
\`\`\`

To let **another** client act for you (an agent), name it in \`may_act\` when you get the token
(RFC 8693 §4.4); that client, authenticated, exchanges it and is named in \`act\`. A client a token
does not name cannot exchange it. Subject tokens from an issuer the server trusts
(\`TRUSTED_ISSUERS\`) need an authenticated client too.

\`\`\`sh
AGENT=$(${CURL} -X POST "$BASE${PATHS.register}" -H 'content-type: application/json' \\
  -d '{"client_name": "my-delegate", "grant_types": ["urn:ietf:params:oauth:grant-type:token-exchange"],
       "token_endpoint_auth_method": "client_secret_post", "scope": "read:appointments"}')
AGENT_ID=$(echo "$AGENT" | jq -r .client_id)
FOR_AGENT=$(${CURL} -X POST "$BASE${PATHS.token}" --data-urlencode grant_type=client_credentials \\
  --data-urlencode "client_id=$CLIENT_ID" --data-urlencode "client_secret=$CLIENT_SECRET" \\
  --data-urlencode "may_act=$AGENT_ID" | jq -r .access_token)
EXCHANGED=$(${CURL} -X POST "$BASE${PATHS.token}" \\
  --data-urlencode grant_type=urn:ietf:params:oauth:grant-type:token-exchange \\
  --data-urlencode "client_id=$AGENT_ID" \\
  --data-urlencode "client_secret=$(echo "$AGENT" | jq -r .client_secret)" \\
  --data-urlencode "subject_token=$FOR_AGENT" \\
  --data-urlencode subject_token_type=urn:ietf:params:oauth:token-type:jwt | jq -r .access_token)
${CURL} "$BASE${PATHS.identity}" -H "Authorization: Bearer $EXCHANGED" | jq '{sub, client_id, scopes, act}'
\`\`\`

## 6. Use the token

\`\`\`sh
${CURL} "$BASE/api/v1/appointments?status=free&limit=3" \\
  -H "Authorization: Bearer $TOKEN" -H 'Accept: application/json' | jq '{total: (.entry // [] | length)}'
\`\`\`

Without a token the answer is 401 with \`WWW-Authenticate: Bearer realm="vitalis", resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"\`;
a token without the operation's scope gets 403 (\`error="insufficient_scope"\`). Both bodies are RFC 9457 problems
(\`application/problem+json\`):

\`\`\`sh
curl -s -D - -o /dev/null "$BASE/api/v1/vitals/latest?patient=pat-walkthrough" | grep -iE '^(www-authenticate|content-type):'
curl -s -o /dev/null -w 'public token on vitals: HTTP %{http_code}\\n' "$BASE/api/v1/vitals/latest?patient=pat-walkthrough" -H "Authorization: Bearer $TOKEN"
\`\`\`

## Scopes beyond the public set: a role

Clinical scopes (patients, vitals, triage, diagnostics, audit, device ingest) come with a role an
operator stands behind. There are three routes; each registers a client whose scopes are what it
asked for within that role. The roles (${ROLES.length}) and what each may hold:

${roleTable()}

${ROLE_TABLE_NOTE}

1. **An initial access token** (RFC 7591 §3) the operator minted for a role:
   \`npm run admin -- initial-access-token --role nurse\` on the server (any role; the only way to \`system\`), or
   \`POST ${PATHS.register.replace('register', 'admin/initial-access-tokens')}\` with \`{"role": "admin"}\` (scope \`admin:clients\`;
   over HTTP a token mints only a role whose client scopes it holds itself, and never \`system\`).
   On a development server started with \`make run\`, the demo seed minted one (role \`system\`, 10
   registrations, 24 hours) and saved it in \`${INITIAL_ACCESS_TOKEN_FILE}\` of the checkout (mode 0600,
   beside the demo client's \`.data/demo-client.json\`): run the step from the checkout, or set
   \`INITIAL_ACCESS_TOKEN\` first to the one your operator gave you. Send it as a Bearer header when you register:

\`\`\`sh
INITIAL_ACCESS_TOKEN=\${INITIAL_ACCESS_TOKEN:-$(cat ${INITIAL_ACCESS_TOKEN_FILE})}
AGENT=$(${CURL} -X POST "$BASE${PATHS.register}" \\
  -H "Authorization: Bearer $INITIAL_ACCESS_TOKEN" -H 'content-type: application/json' \\
  -d '{"client_name": "monitoring-agent", "grant_types": ["client_credentials"],
       "token_endpoint_auth_method": "client_secret_post", "scope": "read:vitals"}')
echo "$AGENT" | jq '{client_id, role, scope}'
AGENT_TOKEN=$(${CURL} -X POST "$BASE${PATHS.token}" --data-urlencode grant_type=client_credentials \\
  --data-urlencode "client_id=$(echo "$AGENT" | jq -r .client_id)" \\
  --data-urlencode "client_secret=$(echo "$AGENT" | jq -r .client_secret)" | jq -r .access_token)
${CURL} "$BASE/api/v1/vitals/latest?patient=pat-walkthrough" \\
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
${CURL} -X POST "$BASE${PATHS.revoke}" \\
  --data-urlencode "token=$TOKEN" --data-urlencode token_type_hint=access_token -o /dev/null -w 'revocation: HTTP %{http_code}\\n'
STATUS=$(curl -s -o /dev/null -w '%{http_code}' "$BASE${PATHS.identity}" -H "Authorization: Bearer $TOKEN")
test "$STATUS" = 401 && echo "revoked: the token is refused immediately"
\`\`\`

## Sandbox: a token without registration

Read-only demo scopes (\`${SANDBOX_SCOPES.join(' ')}\`) over synthetic data only: patients \`sbx-0001\` to
\`sbx-0004\` (vitals every second, history, live streams) and \`sbx-\` appointment slots; any other patient is 403.
The sandbox hands out a few credentials per hour to each network address, a budget everyone behind
that address shares. Over it the answer is 429 with \`Retry-After\` and a problem whose \`detail\` says
so: wait that long, or register a client of your own (steps 2 and 3), which needs no sandbox credentials.
A sandbox token lives as long as any other: get one and reuse it.

\`\`\`sh
SANDBOX=$(${CURL} -X POST "$BASE${PATHS.sandbox}") || { echo "$SANDBOX" | jq -r .detail; false; }
SANDBOX_TOKEN=$(echo "$SANDBOX" | jq -r .access_token)
${CURL} "$BASE${PATHS.identity}" -H "Authorization: Bearer $SANDBOX_TOKEN" | jq '{auth_method, scopes, sandbox}'
${CURL} "$BASE/api/v1/vitals/latest?patient=sbx-0001" -H "Authorization: Bearer $SANDBOX_TOKEN" | jq '{sandbox_patient: .patient_id, count}'
\`\`\`

## Authorization code with PKCE (browser apps)

A user-facing app sends the user's browser to the authorization endpoint, the user signs in and
consents there, and the browser comes back to the app's \`redirect_uri\` with a one-time \`code\`
that the app exchanges, with its PKCE verifier, for the user's tokens. From a shell, you play the
app: register it (a public client, \`token_endpoint_auth_method: "none"\`), make the S256 challenge and
the authorization address, and open that address in a browser:

\`\`\`sh
APP=$(${CURL} -X POST "$BASE${PATHS.register}" -H 'content-type: application/json' \\
  -d '{"client_name": "my-web-app", "redirect_uris": ["${CALLBACK}"],
       "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none",
       "scope": "read:appointments"}')
APP_ID=$(echo "$APP" | jq -r .client_id)
VERIFIER=$(openssl rand -base64 48 | tr -d '=+/\\n' | cut -c1-64)
CHALLENGE=$(printf '%s' "$VERIFIER" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d '=')
STATE=$(openssl rand -hex 16)
AUTHORIZE_URL="$BASE${PATHS.authorize}?response_type=code&client_id=$APP_ID&redirect_uri=${encodeURIComponent(CALLBACK)}&scope=read%3Aappointments&state=$STATE&code_challenge=$CHALLENGE&code_challenge_method=S256"
${CURL} -o /dev/null -w 'sign-in page: HTTP %{http_code}\\n' "$AUTHORIZE_URL"
echo "Open this address in a browser: $AUTHORIZE_URL"
\`\`\`

In the browser: the **Sign in to Vitalis** page names \`my-web-app\` and warns that it registered
itself (nobody vouched for it). Sign in as a user: a development server (\`make run\`) has the demo
users \`doctor\`, \`nurse\`, \`reception\`, \`patient\` and \`admin\`, each with the password
\`<name>-demo-pass\`. The **Allow my-web-app access?** page lists what the app gets (what it asked
for, within your role); choose **Allow**. The browser is then sent to
\`${CALLBACK}?code=…&state=…&iss=…\`. Nothing listens there, so it shows a connection error: that
is expected. Copy the whole address from the address bar and paste it at this prompt (the code
expires in a few minutes and works once):

\`\`\`sh
read -r -p 'Paste the address the browser landed on: ' CALLBACK_URL
\`\`\`

Check that the answer belongs to this request (\`state\`), then exchange the code with the verifier
(a public client sends only its \`client_id\`); the answer holds the user's access token and a
rotating refresh token:

\`\`\`sh
test "$(jq -rn --arg u "$CALLBACK_URL" '$u | capture("[?&]state=(?<v>[^&#]+)").v')" = "$STATE" && echo 'state matches this request'
CODE=$(jq -rn --arg u "$CALLBACK_URL" '$u | capture("[?&]code=(?<v>[^&#]+)").v')
USER_TOKENS=$(${CURL} -X POST "$BASE${PATHS.token}" \\
  --data-urlencode grant_type=authorization_code \\
  --data-urlencode "code=$CODE" \\
  --data-urlencode redirect_uri=${CALLBACK} \\
  --data-urlencode "client_id=$APP_ID" \\
  --data-urlencode "code_verifier=$VERIFIER")
echo "$USER_TOKENS" | jq '{token_type, expires_in, scope, has_refresh_token: (.refresh_token != null)}'
USER_TOKEN=$(echo "$USER_TOKENS" | jq -r .access_token)
${CURL} "$BASE${PATHS.identity}" -H "Authorization: Bearer $USER_TOKEN" | jq '{sub, client_id, scopes, roles, auth_method}'
\`\`\`

Before it expires (\`expires_in\`), trade the refresh token for a new pair (\`grant_type=refresh_token\`);
each refresh token works once, and using one twice revokes the whole family:

\`\`\`sh
REFRESHED=$(${CURL} -X POST "$BASE${PATHS.token}" \\
  --data-urlencode grant_type=refresh_token \\
  --data-urlencode "refresh_token=$(echo "$USER_TOKENS" | jq -r .refresh_token)" \\
  --data-urlencode "client_id=$APP_ID")
echo "$REFRESHED" | jq '{scope, rotated: (.refresh_token != null)}'
\`\`\`

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
${CURL} "$BASE/.well-known/openid-configuration" | jq '{userinfo_endpoint, subject_types_supported, id_token_signing_alg_values_supported, claims_supported}'
${CURL} "$BASE${PATHS.jwks}" | jq '[.keys[] | {kid, alg, use}]'
\`\`\`

## Scopes

Every clinical operation needs the scopes its OpenAPI \`security\` lists:

${scopeTable()}

The public scopes (\`${PUBLIC_SCOPES.join(' ')}\`) need no role; \`system\` holds every scope.

## Errors

Every error is an RFC 9457 problem with \`type\` = \`${baseUrl}/errors/<kind>\`, \`title\`, \`status\`, \`detail\`
(\`application/problem+json\`); OAuth endpoints answer OAuth error bodies (\`error\`, \`error_description\`) as RFC 6749 requires.

Refusals of a protected resource, wherever they come from, have one shape (\`application/problem+json\`; under
\`/fhir/R4\` an \`OperationOutcome\`), with the RFC 6750 \`WWW-Authenticate\` challenge:

- **401** (no token, or an invalid, expired or revoked one): \`type\` \`${baseUrl}/errors/unauthorized\`, and
  \`WWW-Authenticate: Bearer realm="vitalis", [error="invalid_token", ]resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"\`;
- **403** (the token lacks the scope, or may not touch this resource, e.g. a patient user and another patient's record):
  \`type\` \`${baseUrl}/errors/insufficient-scope\`, \`required_scope\`, and
  \`WWW-Authenticate: Bearer realm="vitalis", error="insufficient_scope", scope="...", resource_metadata="..."\`.
  An operation whose OpenAPI \`security\` lists one requirement per scope needs any one of them.
`;
}
