"""FHIR Bulk Data export (docs/export.md): kick off, poll with backoff, download the NDJSON files
with the same token, yield the FHIR Observations; ``to_dataframe`` flattens them for pandas."""
from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import httpx

from .errors import raise_for_problem

if TYPE_CHECKING:  # pandas is an optional dependency (the `pandas` extra): imported where it is used
    import pandas as pd

FHIR_BASE = "/fhir/R4"


def kickoff_path(group: str | None = None, patients: bool = False) -> str:
    """The kick-off path of a level: a Group, every patient (Patient level) or the whole system."""
    if group is not None:
        return f"{FHIR_BASE}/Group/{group}/$export"
    return f"{FHIR_BASE}/Patient/$export" if patients else f"{FHIR_BASE}/$export"


def kickoff_params(since: str | None, until: str | None, type_filter: str | list[str] | None) -> dict[str, Any]:
    """The kick-off's query: Observations as NDJSON, changed since/until, with ``_typeFilter`` queries."""
    params: dict[str, Any] = {"_type": "Observation", "_outputFormat": "application/fhir+ndjson"}
    if since is not None:
        params["_since"] = since
    if until is not None:
        params["_until"] = until
    if type_filter is not None:
        params["_typeFilter"] = [type_filter] if isinstance(type_filter, str) else list(type_filter)
    return params


def run_export(http: httpx.Client, path: str, params: dict[str, Any], *, max_wait: float = 3600.0,
               first_delay: float = 0.25, max_delay: float = 10.0, sleep: Callable[[float], None] = time.sleep) -> dict[str, Any]:
    """Kicks off and polls until the manifest (200); the delay doubles up to ``max_delay`` unless the
    server's Retry-After says otherwise. Returns the manifest."""
    kick = http.get(path, params=params, headers={"prefer": "respond-async", "accept": "application/fhir+json"})
    raise_for_problem(kick)
    status_url = kick.headers["content-location"]
    deadline = time.monotonic() + max_wait
    delay = first_delay
    while True:
        res = http.get(status_url)
        raise_for_problem(res)
        if res.status_code == 200:
            manifest: dict[str, Any] = res.json()
            return manifest
        if time.monotonic() > deadline:
            raise TimeoutError(f"the export at {status_url} did not finish within {max_wait} s")
        retry_after = res.headers.get("retry-after")
        wait = min(float(retry_after), max_delay) if retry_after and retry_after.isdigit() else delay
        sleep(min(wait, delay))
        delay = min(delay * 2, max_delay)


def iter_ndjson(http: httpx.Client, manifest: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every resource of every output file, streamed line by line (the file is never held whole)."""
    for output in manifest.get("output", []):
        with http.stream("GET", output["url"], headers={"accept": "application/fhir+ndjson"}) as res:
            if res.status_code >= 400:
                res.read()
                raise_for_problem(res)
            for line in res.iter_lines():
                if line:
                    yield json.loads(line)


def to_dataframe(resources: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Observations as a pandas DataFrame, one row each: patient, device, code, effective (UTC),
    value, unit; ECG waveforms keep their samples (a list) and period_ms. Needs pandas."""
    try:
        import pandas as pd
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError("to_dataframe needs pandas: pip install pandas") from err
    rows: list[dict[str, Any]] = []
    for r in resources:
        coding = r["code"]["coding"]
        quantity = r.get("valueQuantity")
        sampled = r.get("valueSampledData")
        rows.append({
            "patient": r["subject"]["reference"].removeprefix("Patient/"),
            "device": r.get("device", {}).get("reference", "").removeprefix("Device/"),
            "code": coding[-1]["code"],
            "display": r["code"].get("text"),
            "effective": r["effectiveDateTime"],
            "value": quantity["value"] if quantity else None,
            "unit": quantity["code"] if quantity else (sampled["origin"]["code"] if sampled else None),
            "samples": [float(x) for x in sampled["data"].split()] if sampled else None,
            "period_ms": sampled["period"] if sampled else None,
        })
    columns = ["patient", "device", "code", "display", "effective", "value", "unit", "samples", "period_ms"]
    frame: pd.DataFrame = pd.DataFrame(rows, columns=columns)
    frame["effective"] = pd.to_datetime(frame["effective"], utc=True, format="ISO8601")
    return frame
