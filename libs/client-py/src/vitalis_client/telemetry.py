"""Async live telemetry: an async iterator over the gateway's SSE vitals stream that survives
disconnects. Every event carries an ``id``; after a dropped connection (network, proxy, gateway
restart) the client reconnects with ``Last-Event-ID`` = the last id it delivered and the gateway
replays what followed, so the consumer sees every observation exactly once, in order.

    async with AsyncTelemetryClient(url, ClientCredentials(url, cid, secret)) as telemetry:
        async for event in telemetry.stream("pat-0001"):
            print(event.id, event.observation.code, event.observation.value)
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field

import httpx

from .auth import TokenAuth
from .errors import ProblemError, error_from_response
from .models import LiveAlert, LiveObservation, VitalsObservation

STREAM_PATH = "/api/v1/vitals/stream"


@dataclass
class SSEMessage:
    """One event of the stream: its ``id``, ``event`` name, ``data`` lines and ``retry`` (ms), as sent."""

    id: str | None = None
    event: str = ""
    data: list[str] = field(default_factory=list)
    retry: int | None = None


class SSEParser:
    """Incremental ``text/event-stream`` parser (WHATWG rules: ``id``, ``event``, ``data``, ``retry``, comments)."""

    def __init__(self) -> None:
        self._buffer = ""
        self._current = SSEMessage()

    def feed(self, chunk: str) -> list[SSEMessage]:
        """The messages this chunk completes; an incomplete line or event waits for the next chunk."""
        self._buffer += chunk
        out: list[SSEMessage] = []
        while True:
            cut = min((i for i in (self._buffer.find("\r\n"), self._buffer.find("\n"), self._buffer.find("\r")) if i >= 0), default=-1)
            if cut < 0:
                return out
            line = self._buffer[:cut]
            skip = 2 if self._buffer.startswith("\r\n", cut) else 1
            # a lone "\r" at the end of the buffer may be the first half of "\r\n": wait for more
            if self._buffer[cut] == "\r" and cut + 1 == len(self._buffer):
                return out
            self._buffer = self._buffer[cut + skip:]
            message = self._line(line)
            if message is not None:
                out.append(message)

    def _line(self, line: str) -> SSEMessage | None:
        if line == "":
            done, self._current = self._current, SSEMessage(id=None)
            return done if done.data else None
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            self._current.data.append(value)
        elif name == "event":
            self._current.event = value
        elif name == "id" and "\0" not in value:
            self._current.id = value
        elif name == "retry" and value.isdigit():
            self._current.retry = int(value)
        return None


def to_live(message: SSEMessage) -> LiveObservation | LiveAlert | None:
    """The live event an SSE message carries; None for control messages (``lagged``, ``closed``) and comments."""
    if not message.id or not message.data:
        return None
    data = json.loads("\n".join(message.data))
    if message.event == "observation":
        return LiveObservation(id=message.id, observation=VitalsObservation.model_validate(data))
    if message.event == "alert":
        return LiveAlert(id=message.id, alert=data)
    return None


class StreamClosed(Exception):
    """The server ended the stream on purpose (``closed`` with a reason, or ``lagged``); we resume."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(f"live stream closed by the server: {reason}")


def _fatal(err: BaseException) -> bool:
    """Errors reconnecting cannot fix: a 4xx other than 401 (token renewed), 408 and 429."""
    return isinstance(err, ProblemError) and 400 <= err.status < 500 and err.status not in (401, 408, 429)


class AsyncTelemetryClient:
    """The live vitals stream of the gateway (SSE) as an async iterator that reconnects with backoff and
    resumes after the last event it delivered; ``connections`` counts the connections it opened."""

    def __init__(self, base_url: str, auth: TokenAuth, *, initial_delay: float = 0.25, max_delay: float = 10.0,
                 path: str = STREAM_PATH, on_disconnect: Callable[[BaseException, int], None] | None = None,
                 transport: httpx.AsyncBaseTransport | None = None):
        self.base_url = base_url.rstrip("/")
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.path = path
        self.on_disconnect = on_disconnect
        #: connections opened so far (1 + reconnects)
        self.connections = 0
        # no read timeout: the stream is long-lived; the gateway's heartbeats keep proxies happy
        self.auth = auth
        # no auth flow on this client: the token is set per connection (see TokenAuth.aget_token)
        self._http = httpx.AsyncClient(base_url=self.base_url, timeout=httpx.Timeout(10.0, read=None), transport=transport)

    async def __aenter__(self) -> AsyncTelemetryClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Closes the connection pool (an open stream ends)."""
        await self._http.aclose()

    async def stream(self, patient: str | list[str], codes: Iterable[str] | None = None, last_event_id: str | None = None,
                     alerts: bool = False) -> AsyncIterator[LiveObservation | LiveAlert]:
        """Live observations (and alerts, if asked) of a patient or a ward list, forever
        (stop by breaking out or cancelling). ``last_event_id`` resumes after that event."""
        params = {"patient": patient if isinstance(patient, str) else ",".join(patient), "alerts": "true" if alerts else "false"}
        if codes:
            params["code"] = ",".join(codes)
        delay = self.initial_delay
        attempt = 0
        while True:
            headers = {"accept": "text/event-stream"}
            if last_event_id:
                headers["last-event-id"] = last_event_id
            try:
                headers["authorization"] = f"Bearer {await self.auth.aget_token(self._http)}"
                async with self._http.stream("GET", self.path, params=params, headers=headers) as response:
                    if response.is_error:
                        await response.aread()
                        if response.status_code == 401:
                            self.auth.invalidate()  # expired or revoked: a fresh token on the next attempt
                        raise error_from_response(response)
                    self.connections += 1
                    attempt, delay = 0, self.initial_delay
                    parser = SSEParser()
                    async for chunk in response.aiter_text():
                        for message in parser.feed(chunk):
                            if message.retry is not None:
                                delay = message.retry / 1000
                            event = to_live(message)
                            if event is not None:
                                last_event_id = event.id
                                yield event
                            elif message.event == "closed":
                                raise StreamClosed(json.loads("\n".join(message.data)).get("reason", "closed"))
                            elif message.event == "lagged":
                                # we fell behind and the server drops us: resuming from our last id catches up
                                raise StreamClosed("lagged")
                raise httpx.RemoteProtocolError("live stream ended")
            except (httpx.TransportError, ProblemError, StreamClosed) as err:
                if _fatal(err):
                    raise
                if isinstance(err, StreamClosed) and err.reason in ("revoked", "expired"):
                    self.auth.invalidate()
                attempt += 1
                if self.on_disconnect:
                    self.on_disconnect(err, attempt)
                await asyncio.sleep(delay if attempt > 1 else min(delay, self.initial_delay))
                delay = min(self.max_delay, delay * 2)
