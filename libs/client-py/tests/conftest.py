"""Fixtures: the running gateway named by the environment (the vitest harness in
test/integration/clients starts one, with an ingest worker, and registers a client holding every
scope; or point these at a `make run` gateway):

    VITALIS_BASE_URL, VITALIS_CLIENT_ID, VITALIS_CLIENT_SECRET, VITALIS_INITIAL_ACCESS_TOKEN (an operator's
    initial access token, for the tests that register clients of their own beyond the public scopes)
"""
from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from vitalis_client import VitalisClient


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.exit(f"{name} is not set: run through `make test` or export VITALIS_BASE_URL/VITALIS_CLIENT_ID/VITALIS_CLIENT_SECRET",
                    returncode=2)
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("VITALIS_BASE_URL").rstrip("/")


@pytest.fixture(scope="session")
def credentials() -> tuple[str, str]:
    return _env("VITALIS_CLIENT_ID"), _env("VITALIS_CLIENT_SECRET")


@pytest.fixture(scope="session")
def initial_access_token() -> str:
    return _env("VITALIS_INITIAL_ACCESS_TOKEN")


@pytest.fixture()
def api(base_url: str, credentials: tuple[str, str]) -> Iterator[VitalisClient]:
    with VitalisClient.client_credentials(base_url, *credentials) as client:
        yield client


def uid() -> str:
    return uuid.uuid4().hex[:8]


def served(base_url: str, method: str, path: str) -> bool:
    """Whether the gateway has this route: without a token a served route answers 401, an unknown one 404."""
    return httpx.request(method, base_url + path).status_code != 404


def heart_rate(patient: str, device: str, seq: int, at: float | None = None) -> dict[str, Any]:
    ts = time.gmtime(at if at is not None else time.time())
    return {"patient_id": patient, "device_id": device, "seq": seq, "effective_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", ts),
            "code": "8867-4", "value": 60 + seq % 40, "unit": "/min"}


def wait_for(probe: Callable[[], Any], done: Callable[[Any], bool], timeout: float = 45.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    value = probe()
    while not done(value):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last value {value!r}")
        time.sleep(0.2)
        value = probe()
    return value


class Proxy:
    """A TCP forwarder to the gateway; ``drop_all()`` cuts every open connection underneath the client."""

    def __init__(self, target: str):
        url = httpx.URL(target)
        self.host, self.port = url.host, url.port or 80
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.base_events.Server | None = None
        self.url = ""

    async def start(self) -> Proxy:
        """Listens on a free port of 127.0.0.1 (``url``)."""
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"
        return self

    async def _handle(self, down_r: asyncio.StreamReader, down_w: asyncio.StreamWriter) -> None:
        up_r, up_w = await asyncio.open_connection(self.host, self.port)
        self.writers |= {down_w, up_w}

        async def pipe(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            try:
                while data := await r.read(65536):
                    w.write(data)
                    await w.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                w.close()
                self.writers.discard(w)

        await asyncio.gather(pipe(down_r, up_w), pipe(up_r, down_w))

    def drop_all(self) -> int:
        """Aborts every open connection, both sides; returns how many sockets were cut."""
        n = len(self.writers)
        for w in list(self.writers):
            w.transport.abort()
        self.writers.clear()
        return n

    async def close(self) -> None:
        """Cuts the connections and stops listening."""
        self.drop_all()
        if self.server:
            self.server.close()
