"""OAuth through the Python client against the real gateway."""
import base64
import hashlib

import pytest

from vitalis_client import (AsyncVitalisClient, ClientCredentials, ForbiddenError, OAuthError, StaticToken,
                            UnauthorizedError, VitalisClient, authorization_url, create_pkce)

from conftest import uid


def test_client_credentials_identity_and_health(api, credentials):
    identity = api.get_identity()
    assert credentials[0] in identity.model_dump_json()
    assert api.get_health().status in ("ok", "degraded")


def test_revoked_token_is_replaced_transparently(api, credentials):
    api.get_identity()
    first = api.auth.token
    api.revoke_token()
    assert credentials[0] in api.get_identity().model_dump_json()
    assert api.auth.token != first


def test_narrowed_scope_is_a_forbidden_error(base_url, credentials):
    with VitalisClient.client_credentials(base_url, *credentials, scope=["read:appointments"]) as narrow:
        with pytest.raises(ForbiddenError) as caught:
            narrow.get_latest_vitals(f"pat-py-{uid()}")
    assert caught.value.status == 403
    assert caught.value.kind == "insufficient-scope"
    assert 'error="insufficient_scope"' in caught.value.challenge


def test_bad_token_is_an_unauthorized_problem(base_url):
    with VitalisClient(base_url, StaticToken("not-a-token")) as bad:
        with pytest.raises(UnauthorizedError) as caught:
            bad.get_identity()
    problem = caught.value.problem
    assert problem["type"] == f"{base_url}/errors/unauthorized"
    assert problem["title"] == "Unauthorized" and problem["status"] == 401
    assert caught.value.challenge.startswith('Bearer realm="vitalis"')


def test_wrong_secret_is_an_oauth_error(base_url, credentials):
    with VitalisClient.client_credentials(base_url, credentials[0], "wrong-secret") as wrong:
        with pytest.raises(OAuthError) as caught:
            wrong.get_identity()
    assert caught.value.error == "invalid_client"


def test_sandbox_reads_but_cannot_write(base_url):
    with VitalisClient.sandbox(base_url) as sandbox:
        assert "read:vitals" in sandbox.get_identity().model_dump_json()
        assert sandbox.auth.credentials is not None and sandbox.auth.credentials.client_id
        with pytest.raises(ForbiddenError):
            sandbox.publish_vitals([{"patient_id": "p", "device_id": "d", "seq": 1}])


async def test_async_client_authenticates(base_url, credentials):
    async with AsyncVitalisClient.client_credentials(base_url, *credentials) as api:
        assert credentials[0] in (await api.get_identity()).model_dump_json()
        await api.revoke_token()
        assert (await api.get_health()).status in ("ok", "degraded")
        assert credentials[0] in (await api.get_identity()).model_dump_json()


def test_pkce_pair_and_authorization_url(base_url):
    verifier, challenge = create_pkce()
    assert len(verifier) == 43
    assert challenge == base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    url = authorization_url(base_url, "cid", "http://127.0.0.1:1/cb", "read:vitals", "st", challenge)
    assert url.startswith(f"{base_url}/api/auth/oauth2/authorize?") and "code_challenge_method=S256" in url
