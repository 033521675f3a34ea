"""OAuth through the Python client against the real gateway."""
import base64
import hashlib
import html
import re
import secrets

import httpx
import pytest

from conftest import uid
from vitalis_client import (
    AsyncVitalisClient,
    ForbiddenError,
    OAuthError,
    RefreshingTokens,
    Sandbox,
    StaticToken,
    TokenResponse,
    UnauthorizedError,
    VitalisClient,
    authorization_url,
    create_pkce,
    exchange_code,
)


def test_client_credentials_identity_and_health(api: VitalisClient, credentials: tuple[str, str]) -> None:
    identity = api.get_identity()
    assert credentials[0] in identity.model_dump_json()
    assert api.get_health().status in ("ok", "degraded")


def test_revoked_token_is_replaced_transparently(api: VitalisClient, credentials: tuple[str, str]) -> None:
    api.get_identity()
    assert api.auth is not None
    first = api.auth.token
    api.revoke_token()
    assert credentials[0] in api.get_identity().model_dump_json()
    assert api.auth.token != first


def test_narrowed_scope_is_a_forbidden_error(base_url: str, credentials: tuple[str, str]) -> None:
    with (VitalisClient.client_credentials(base_url, *credentials, scope=["read:appointments"]) as narrow,
          pytest.raises(ForbiddenError) as caught):
        narrow.get_latest_vitals(f"pat-py-{uid()}")
    assert caught.value.status == 403
    assert caught.value.kind == "insufficient-scope"
    assert 'error="insufficient_scope"' in (caught.value.challenge or "")


def test_bad_token_is_an_unauthorized_problem(base_url: str) -> None:
    with VitalisClient(base_url, StaticToken("not-a-token")) as bad, pytest.raises(UnauthorizedError) as caught:
        bad.get_identity()
    problem = caught.value.problem
    assert problem["type"] == f"{base_url}/errors/unauthorized"
    assert problem["title"] == "Unauthorized" and problem["status"] == 401
    assert (caught.value.challenge or "").startswith('Bearer realm="vitalis"')


def test_wrong_secret_is_an_oauth_error(base_url: str, credentials: tuple[str, str]) -> None:
    with VitalisClient.client_credentials(base_url, credentials[0], "wrong-secret") as wrong, pytest.raises(OAuthError) as caught:
        wrong.get_identity()
    assert caught.value.error == "invalid_client"


def test_sandbox_reads_but_cannot_write(base_url: str) -> None:
    with VitalisClient.sandbox(base_url) as sandbox:
        assert "read:vitals" in sandbox.get_identity().model_dump_json()
        assert isinstance(sandbox.auth, Sandbox)
        assert sandbox.auth.credentials is not None and sandbox.auth.credentials.client_id
        with pytest.raises(ForbiddenError):
            sandbox.publish_vitals([{"patient_id": "p", "device_id": "d", "seq": 1}])


async def test_async_client_authenticates(base_url: str, credentials: tuple[str, str]) -> None:
    async with AsyncVitalisClient.client_credentials(base_url, *credentials) as api:
        assert credentials[0] in (await api.get_identity()).model_dump_json()
        await api.revoke_token()
        assert (await api.get_health()).status in ("ok", "degraded")
        assert credentials[0] in (await api.get_identity()).model_dump_json()


def test_pkce_pair_and_authorization_url(base_url: str) -> None:
    verifier, challenge = create_pkce()
    assert len(verifier) == 43
    assert challenge == base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    url = authorization_url(base_url, "cid", "http://127.0.0.1:1/cb", "read:vitals", "st", challenge)
    assert url.startswith(f"{base_url}/api/auth/oauth2/authorize?") and "code_challenge_method=S256" in url


REDIRECT_URI = "http://127.0.0.1:53682/callback"


def _sign_in_and_consent(url: str, username: str, password: str) -> str:
    """Drives the login and consent pages as a browser would; returns the callback URL."""
    def hidden(page: str) -> dict[str, str]:
        return {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)}

    with httpx.Client(follow_redirects=False) as browser:
        login = browser.get(url)
        assert login.status_code == 200
        form = re.search(r'<form method="post" action="([^"]+)"', login.text)
        assert form is not None, "no login form"
        action = str(httpx.URL(url).join(form.group(1)))
        consent = browser.post(action, data={**hidden(login.text), "username": username, "password": password})
        assert consent.status_code == 200 and "Allow" in consent.text
        done = browser.post(action, data={**hidden(consent.text), "decision": "allow"})
        assert done.status_code == 303
        return done.headers["location"]


def test_authorization_code_with_pkce_then_refresh_rotation(base_url: str, initial_access_token: str) -> None:
    # A clinical app registers with an operator's initial access token (open registration gets the public scopes only).
    registered = httpx.post(f"{base_url}/api/auth/register", headers={"authorization": f"Bearer {initial_access_token}"}, json={
        "client_name": f"py-ward-app-{uid()}", "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
        "token_endpoint_auth_method": "client_secret_post", "redirect_uris": [REDIRECT_URI], "scope": "read:vitals read:patients"}).json()
    verifier, challenge = create_pkce()
    state = secrets.token_urlsafe(16)
    callback = _sign_in_and_consent(authorization_url(base_url, registered["client_id"], REDIRECT_URI, "read:vitals", state, challenge),
                                    "nurse", "nurse-demo-pass")
    with pytest.raises(ValueError):
        exchange_code(base_url, callback, client_id=registered["client_id"], redirect_uri=REDIRECT_URI, verifier=verifier,
                      expected_state="other")
    tokens = exchange_code(base_url, callback, client_id=registered["client_id"], client_secret=registered["client_secret"],
                           redirect_uri=REDIRECT_URI, verifier=verifier, expected_state=state)
    assert tokens.refresh_token
    rotated: list[TokenResponse] = []
    auth = RefreshingTokens(base_url, tokens, registered["client_id"], registered["client_secret"], on_tokens=rotated.append)
    with VitalisClient(base_url, auth) as user:
        assert "nurse" in user.get_identity().model_dump_json()
        auth.invalidate()  # as if the access token expired: the next call refreshes
        assert "nurse" in user.get_identity().model_dump_json()
    assert len(rotated) == 1 and rotated[0].refresh_token != tokens.refresh_token
