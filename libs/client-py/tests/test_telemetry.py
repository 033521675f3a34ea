"""Live vitals through the async telemetry client: every observation produced through Kafka
arrives exactly once, in order, across a forced disconnect of the underlying socket."""
import asyncio
from collections.abc import Callable

import pytest

from conftest import Proxy, heart_rate, served, uid
from vitalis_client import AsyncTelemetryClient, AsyncVitalisClient, ClientCredentials, LiveObservation, SSEParser
from vitalis_client.telemetry import to_live


def test_sse_parser_handles_split_chunks_comments_and_crlf() -> None:
    parser = SSEParser()
    out = parser.feed(": heartbeat\r\nid: 7\r\nevent: observation\r\nda")
    assert out == []
    out = parser.feed('ta: {"patient_id":"p","device_id":"d","seq":1,"effective_at":"2026-01-01T00:00:00Z",'
                      '"code":"8867-4","unit":"/min","value":60}\r\n\r\nretry: 500\n\n')
    assert len(out) == 1 and out[0].id == "7"
    live = to_live(out[0])
    assert isinstance(live, LiveObservation) and live.observation.seq == 1


async def test_live_vitals_resume_after_forced_disconnect(base_url: str, credentials: tuple[str, str]) -> None:
    if not served(base_url, "GET", "/api/v1/vitals/stream"):
        pytest.skip("GET /api/v1/vitals/stream is not served yet (issue 6)")
    proxy = await Proxy(base_url).start()
    patient, device = f"pat-py-live-{uid()}", f"dev-py-{uid()}"
    received: list[LiveObservation] = []
    try:
        async with AsyncVitalisClient.client_credentials(base_url, *credentials) as api, \
                AsyncTelemetryClient(proxy.url, ClientCredentials(base_url, *credentials)) as telemetry:

            async def consume() -> None:
                async for event in telemetry.stream(patient):
                    assert isinstance(event, LiveObservation), f"expected an observation, got {event.type}"
                    received.append(event)
                    if len(received) == 20:
                        return

            task = asyncio.create_task(consume())

            async def until(condition: Callable[[], bool], what: str) -> None:
                for _ in range(900):  # 45 s
                    if condition():
                        return
                    if task.done():
                        task.result()  # raises what stopped the stream
                        raise AssertionError(f"stream ended before {what}")
                    await asyncio.sleep(0.05)
                raise AssertionError(f"timed out waiting for {what}; received {len(received)}")

            await until(lambda: telemetry.connections > 0, "the first connection")
            await api.publish_vitals([heart_rate(patient, device, i + 1) for i in range(10)])
            await until(lambda: len(received) >= 5, "the first observations")
            assert proxy.drop_all() > 0
            await api.publish_vitals([heart_rate(patient, device, i + 11) for i in range(10)])
            await asyncio.wait_for(task, 45)
    finally:
        await proxy.close()
    assert telemetry.connections >= 2
    assert [e.observation.seq for e in received] == list(range(1, 21))
    assert len({e.id for e in received}) == 20
