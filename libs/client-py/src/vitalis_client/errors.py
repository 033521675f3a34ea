"""Typed errors.

Every non-OAuth error the gateway answers is an RFC 9457 problem whose ``type`` ends in
``/errors/<kind>``; it is raised as :class:`ProblemError` (or the subclass for its status) with the
whole body. The OAuth endpoints answer RFC 6749 bodies (``{"error", "error_description"}``): those
are raised as :class:`OAuthError`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx


class VitalisError(Exception):
    """Base of every error this package raises."""


class ProblemError(VitalisError):
    """An RFC 9457 problem the gateway answered: the status, the whole body (``problem``), the headers
    (lower-case names) and the problem's ``type``, ``title``, ``detail`` and ``kind``."""

    def __init__(self, status: int, problem: Mapping[str, Any], headers: Mapping[str, str]):
        self.status = status
        self.problem = dict(problem)
        self.headers = dict(headers)
        self.type: str = str(problem.get("type", "about:blank"))
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", ""))
        #: last path segment of ``type``: ``unauthorized``, ``validation-error``, ``not-found`` ...
        self.kind = self.type.rsplit("/", 1)[-1]
        super().__init__(f"{status} {self.title}: {self.detail}")


class UnauthorizedError(ProblemError):
    """401: no token, or one that is expired, revoked or malformed."""

    @property
    def challenge(self) -> str | None:
        """The ``WWW-Authenticate`` header."""
        return self.headers.get("www-authenticate")


class ForbiddenError(UnauthorizedError):
    """403: a valid token without the scope or the role the operation needs."""


class NotFoundError(ProblemError):
    """404: no such resource."""


class ValidationError(ProblemError):
    """400 or 422: the request's parameters or body were refused."""

    @property
    def errors(self) -> list[dict[str, Any]]:
        """Each refused field, as the problem's ``errors`` list (empty when it has none)."""
        return list(self.problem.get("errors") or [])


class ConflictError(ProblemError):
    """409 or 412: the resource's state or version does not allow the change."""


class RateLimitedError(ProblemError):
    """429: too many requests."""

    @property
    def retry_after(self) -> float | None:
        """The ``Retry-After`` header in seconds, when the gateway sent one."""
        value = self.headers.get("retry-after")
        return float(value) if value is not None else None


class OAuthError(VitalisError):
    """An OAuth endpoint's RFC 6749 error: the status, ``error`` and ``error_description``."""

    def __init__(self, status: int, error: str, description: str | None = None):
        self.status = status
        self.error = error
        self.description = description
        super().__init__(f"{status} {error}" + (f": {description}" if description else ""))


_BY_STATUS: dict[int, type[ProblemError]] = {
    400: ValidationError,
    401: UnauthorizedError,
    403: ForbiddenError,
    404: NotFoundError,
    409: ConflictError,
    412: ConflictError,
    422: ValidationError,
    429: RateLimitedError,
}


def error_from_response(response: httpx.Response) -> VitalisError:
    """The typed error for a failed response (its body must have been read)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str) and "type" not in body:
        return OAuthError(response.status_code, body["error"], body.get("error_description"))
    if not (isinstance(body, dict) and isinstance(body.get("type"), str)):
        body = {"type": "about:blank", "title": response.reason_phrase, "status": response.status_code, "detail": response.text[:500]}
    cls = _BY_STATUS.get(response.status_code, ProblemError)
    return cls(response.status_code, body, {k.lower(): v for k, v in response.headers.items()})


def raise_for_problem(response: httpx.Response) -> None:
    """Raises the typed error of a failed response (its body must have been read); nothing otherwise."""
    if response.is_error:
        raise error_from_response(response)
