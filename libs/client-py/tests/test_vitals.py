"""Vitals through the Python clients: publish (gateway -> Kafka -> ingest -> PostgreSQL), then
history, pages, buckets, latest; typed validation errors."""
import time

import pytest

from conftest import heart_rate, uid, wait_for
from vitalis_client import AsyncVitalisClient, BucketPage, ValidationError, VitalisClient, VitalsPage

# Yesterday, on the hour: inside the gateway's device-clock window (VITALS_RETENTION_DAYS back,
# VITALS_MAX_CLOCK_SKEW_SECONDS ahead), and on a minute boundary for the bucket assertions.
BASE = int(time.time()) // 3600 * 3600 - 86400


def iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


@pytest.fixture(scope="module")
def published(base_url: str, credentials: tuple[str, str]) -> str:
    patient = f"pat-py-{uid()}"
    with VitalisClient.client_credentials(base_url, *credentials) as api:
        result = api.publish_vitals([heart_rate(patient, f"{patient}-mon", i + 1, BASE + i) for i in range(5)])
        assert result.accepted == 5
        wait_for(lambda: api.get_latest_vitals(patient).data, lambda d: len(d) == 1 and d[0].seq == 5, what="published vitals stored")
    return patient


def test_history_pages_and_latest(api: VitalisClient, published: str) -> None:
    page = api.get_vitals_history(published, iso(BASE), iso(BASE + 60), limit=2)
    assert isinstance(page, VitalsPage) and page.count == 2 and page.next
    seqs = [o.seq for o in api.iter_vitals(published, iso(BASE), iso(BASE + 60), limit=2)]
    assert seqs == [1, 2, 3, 4, 5]
    # an unaligned range is answered from the append log, not from rollups a projector may not have caught up on
    buckets = api.get_vitals_history(published, iso(BASE - 1), iso(BASE + 59), bucket="1m", agg="min,max,count")
    assert isinstance(buckets, BucketPage)
    assert [(b.min, b.max, b.count) for b in buckets.data] == [(61, 65, 5)]
    latest = api.get_latest_vitals(published)
    assert latest.data[0].code == "8867-4" and latest.data[0].value == 65


def test_bad_input_is_a_validation_error(api: VitalisClient, published: str) -> None:
    with pytest.raises(ValidationError) as caught:
        api.get_vitals_history(published, "yesterday", "today")
    assert caught.value.status == 400 and caught.value.problem["type"].endswith(caught.value.kind)
    with pytest.raises(ValidationError) as refused:
        api.publish_vitals([{**heart_rate(published, "dev", 9), "unit": "bpm"}])
    assert refused.value.status == 422


async def test_async_history(base_url: str, credentials: tuple[str, str], published: str) -> None:
    async with AsyncVitalisClient.client_credentials(base_url, *credentials) as api:
        seqs = [o.seq async for o in api.iter_vitals(published, iso(BASE), iso(BASE + 60), limit=3)]
        assert seqs == [1, 2, 3, 4, 5]
        assert (await api.get_latest_vitals(published)).data[0].seq == 5


def test_frame_and_observation_in_one_batch(api: VitalisClient) -> None:
    """A monitor's v2 frame (the ECG as whole 0.1 µV steps) beside a spot observation: stored, read back as sent."""
    patient = f"pat-py-frame-{uid()}"
    at = iso(BASE + 30)
    steps = [-200_000, -1, 0, 1, 12_345, 200_000]
    frame = {
        "envelope": "vitals.frame.v2",
        "patient_id": patient,
        "device_id": f"{patient}-mon",
        "effective_at": at,
        "observations": [
            {"seq": 1, "code": "8867-4", "value": 71.25, "unit": "/min"},
            {"seq": 2, "code": "131330", "unit": "mV", "waveform": {"period_ms": 4, "sample_steps": steps}},
        ],
    }
    result = api.publish_vitals([heart_rate(patient, f"{patient}-spot", 1, BASE + 30)], frames=[frame])
    assert result.accepted == 3
    page = wait_for(
        lambda: api.get_vitals_history(patient, iso(BASE), iso(BASE + 60)),
        lambda p: isinstance(p, VitalsPage) and p.count == 3,
        what="the frame and the observation stored",
    )
    assert isinstance(page, VitalsPage)
    ecg = next(o for o in page.data if o.code == "131330")
    assert ecg.waveform is not None and ecg.waveform.samples == [s / 10_000 for s in steps]
    assert sorted(o.value or 0 for o in page.data if o.code == "8867-4") == [61, 71.25]

    with pytest.raises(ValidationError) as refused:
        bad = {**frame, "observations": [{"seq": 3, "code": "131330", "unit": "mV", "waveform": {"period_ms": 4, "sample_steps": [0.5]}}]}
        api.publish_vitals(frames=[bad])
    assert refused.value.status == 422
    assert [(e["frame"], e["path"]) for e in refused.value.problem["errors"]] == [(0, "observations.0.waveform.sample_steps.0")]
