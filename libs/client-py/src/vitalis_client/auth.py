"""OAuth for the clients, as ``httpx.Auth`` flows (so the same object works with the sync and the
asyncio client). Each flow caches its access token until shortly before ``expires_in``, fetches a
new one when needed, and after a 401 fetches a fresh token and retries the request once."""
from __future__ import annotations

import base64
import hashlib
import secrets
import threading
import time
from collections.abc import Callable, Generator
from urllib.parse import urlencode

import httpx

from .errors import OAuthError, error_from_response
from .models import SandboxCredentials, TokenResponse

TOKEN_PATH = "/api/auth/oauth2/token"
SANDBOX_PATH = "/api/v1/sandbox"
AUTHORIZE_PATH = "/api/auth/oauth2/authorize"
REVOKE_PATH = "/api/auth/revoke"
#: renew this many seconds before the token really expires
EXPIRY_MARGIN_S = 30.0


class TokenAuth(httpx.Auth):
    """Base flow: subclasses say how to obtain a token (one request, answered with a token body)."""

    requires_response_body = True

    def __init__(self, base_url: str):
        self.base_url = base_url.rstrip("/")
        self._token: str | None = None
        self._expires_at = 0.0
        self._lock = threading.Lock()

    # -- subclass hooks
    def token_request(self) -> httpx.Request:
        """The request that obtains a token (a subclass's grant)."""
        raise NotImplementedError

    def on_token(self, response: httpx.Response) -> TokenResponse:
        """The tokens of a successful token response."""
        return TokenResponse.model_validate(response.json())

    # -- the flow
    @property
    def token(self) -> str | None:
        """The cached access token; None when there is none or it is about to expire."""
        return self._token if time.monotonic() < self._expires_at else None

    def invalidate(self) -> None:
        """Forgets the cached token: the next request fetches a new one."""
        self._token = None
        self._expires_at = 0.0

    def _store(self, response: httpx.Response) -> None:
        if response.is_error:
            raise error_from_response(response)
        tokens = self.on_token(response)
        self._token = tokens.access_token
        self._expires_at = time.monotonic() + max(0.0, tokens.expires_in - EXPIRY_MARGIN_S)

    async def aget_token(self, http: httpx.AsyncClient) -> str:
        """The current token, fetched with ``http`` if needed: for streaming requests, which cannot
        go through this flow (``requires_response_body`` would read an endless body)."""
        if self.token is None:
            self._store(await http.send(self.token_request(), auth=None))
        assert self._token is not None
        return self._token

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """The httpx hook: a token when none is cached, the request with it, and one retry after a 401."""
        if self.token is None:
            self._store((yield self.token_request()))
        request.headers["Authorization"] = f"Bearer {self._token}"
        response = yield request
        if response.status_code == 401:
            # expired or revoked: one fresh token, one retry
            self.invalidate()
            self._store((yield self.token_request()))
            request.headers["Authorization"] = f"Bearer {self._token}"
            yield request


def _form_request(url: str, form: dict[str, str]) -> httpx.Request:
    headers = {"content-type": "application/x-www-form-urlencoded", "accept": "application/json"}
    return httpx.Request("POST", url, content=urlencode(form), headers=headers)


class ClientCredentials(TokenAuth):
    """Backend agents: ``client_credentials`` with ``client_secret_post``."""

    def __init__(self, base_url: str, client_id: str, client_secret: str, scope: str | list[str] | None = None):
        super().__init__(base_url)
        self.client_id = client_id
        self.client_secret = client_secret
        self.scope = " ".join(scope) if isinstance(scope, list) else scope

    def token_request(self) -> httpx.Request:
        """``client_credentials``, with the scope when one was asked for."""
        form = {"grant_type": "client_credentials", "client_id": self.client_id, "client_secret": self.client_secret}
        if self.scope:
            form["scope"] = self.scope
        return _form_request(self.base_url + TOKEN_PATH, form)


class Sandbox(TokenAuth):
    """Evaluation without registration: ``POST /api/v1/sandbox`` (rate-limited, read-only scopes)."""

    credentials: SandboxCredentials | None = None

    def token_request(self) -> httpx.Request:
        """``POST /api/v1/sandbox``: a new sandbox client and its token."""
        return httpx.Request("POST", self.base_url + SANDBOX_PATH, headers={"accept": "application/json"})

    def on_token(self, response: httpx.Response) -> TokenResponse:
        """The token, keeping the sandbox client's credentials in ``credentials``."""
        self.credentials = SandboxCredentials.model_validate(response.json())
        return self.credentials


class RefreshingTokens(TokenAuth):
    """A user's tokens from the authorization code flow. Refresh tokens rotate (the old one dies and
    presenting it again revokes the family), so every new set is kept and passed to ``on_tokens``."""

    def __init__(self, base_url: str, tokens: TokenResponse, client_id: str, client_secret: str | None = None,
                 on_tokens: Callable[[TokenResponse], None] | None = None):
        super().__init__(base_url)
        self.tokens = tokens
        self.client_id = client_id
        self.client_secret = client_secret
        self.on_tokens = on_tokens
        self._token = tokens.access_token
        self._expires_at = time.monotonic() + max(0.0, tokens.expires_in - EXPIRY_MARGIN_S)

    def token_request(self) -> httpx.Request:
        """``refresh_token`` with the latest refresh token; an error when there is none."""
        if not self.tokens.refresh_token:
            raise RuntimeError("the access token expired and there is no refresh token")
        form = {"grant_type": "refresh_token", "refresh_token": self.tokens.refresh_token, "client_id": self.client_id}
        if self.client_secret:
            form["client_secret"] = self.client_secret
        return _form_request(self.base_url + TOKEN_PATH, form)

    def on_token(self, response: httpx.Response) -> TokenResponse:
        """The new tokens (keeping the refresh token when none came back), passed to ``on_tokens``."""
        fresh = TokenResponse.model_validate(response.json())
        if fresh.refresh_token is None:
            fresh.refresh_token = self.tokens.refresh_token
        self.tokens = fresh
        if self.on_tokens:
            self.on_tokens(fresh)
        return fresh


class StaticToken(TokenAuth):
    """A token obtained elsewhere; never renewed."""

    def __init__(self, token: str):
        super().__init__("")
        self._token = token
        self._expires_at = float("inf")

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """The request with the token; no renewal and no retry."""
        request.headers["Authorization"] = f"Bearer {self._token}"
        yield request


# ---- PKCE (RFC 7636, S256) and the authorization URL, for apps acting for a user


def create_pkce() -> tuple[str, str]:
    """``(verifier, challenge)``: 32 random bytes as a 43-char verifier and its S256 challenge."""
    verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def _code_form(callback_url: str, client_id: str, client_secret: str | None, redirect_uri: str, verifier: str,
               expected_state: str) -> dict[str, str]:
    params = httpx.URL(callback_url).params
    if params.get("state") != expected_state:
        raise ValueError("authorization response state does not match (possible CSRF)")
    if params.get("error"):
        raise OAuthError(400, params["error"], params.get("error_description"))
    if not params.get("code"):
        raise ValueError("authorization response carries no code")
    form = {"grant_type": "authorization_code", "code": params["code"], "redirect_uri": redirect_uri,
            "client_id": client_id, "code_verifier": verifier}
    if client_secret:
        form["client_secret"] = client_secret
    return form


def exchange_code(base_url: str, callback_url: str, *, client_id: str, redirect_uri: str, verifier: str,
                  expected_state: str, client_secret: str | None = None) -> TokenResponse:
    """Handles the redirect back from the login/consent pages: checks ``state``, surfaces an
    ``error`` redirect, redeems the code with the PKCE verifier."""
    form = _code_form(callback_url, client_id, client_secret, redirect_uri, verifier, expected_state)
    response = httpx.post(base_url.rstrip("/") + TOKEN_PATH, data=form)
    if response.is_error:
        raise error_from_response(response)
    return TokenResponse.model_validate(response.json())


def authorization_url(base_url: str, client_id: str, redirect_uri: str, scope: str, state: str, challenge: str) -> str:
    """The authorize URL to send the user's browser to: the code flow with PKCE (S256) and ``state``."""
    query = urlencode({
        "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": scope,
        "state": state, "code_challenge": challenge, "code_challenge_method": "S256",
    })
    return f"{base_url.rstrip('/')}{AUTHORIZE_PATH}?{query}"
