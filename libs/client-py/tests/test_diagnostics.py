"""Diagnostic workflows through the Python clients (docs/diagnostics.md): order a test, post a final
report with a critical potassium (which completes the order), find the critical result, amend the
report and read the history; an illegal transition is a ConflictError naming the state. The suite's
client holds the system role (it may order and post) but is an app acting for itself: acknowledging
a critical result is a signed-in clinician's act (a user token), so it is refused with a ForbiddenError."""
import uuid
from typing import Any

import pytest

from conftest import served
from vitalis_client import AsyncVitalisClient, ConflictError, ForbiddenError, VitalisClient

LOINC = "http://loinc.org"


def _potassium(value: float) -> dict[str, Any]:
    return {"resourceType": "Observation", "code": {"coding": [{"system": LOINC, "code": "2823-3"}]},
            "valueQuantity": {"value": value, "unit": "mmol/L", "system": "http://unitsofmeasure.org", "code": "mmol/L"}}


def test_order_report_acknowledge_amend(api: VitalisClient, base_url: str) -> None:
    if not served(base_url, "GET", "/api/v1/diagnostics/orders"):
        pytest.skip("diagnostics are not served yet (issue 21)")
    patient = api.register_patient({"resourceType": "Patient", "name": [{"family": f"PyDx{uuid.uuid4().hex[:8]}", "given": ["Kim"]}]})
    order = api.order_diagnostic_test(patient.id, "51990-0", priority="stat", reason="weakness")
    assert order.status == "active" and order.priority == "stat"
    report = api.post_diagnostic_report({
        "resourceType": "DiagnosticReport", "status": "final",
        "identifier": [{"system": "urn:py-test:accession", "value": uuid.uuid4().hex}],
        "basedOn": [{"reference": f"ServiceRequest/{order.id}"}], "contained": [_potassium(6.9)],
    })
    assert report.status == "final"
    assert report.contained[0]["interpretation"][0]["coding"][0]["code"] == "HH"
    assert api.get_diagnostic_order(order.id).status == "completed"
    with pytest.raises(ConflictError) as refused:
        api.cancel_diagnostic_order(order.id)
    assert refused.value.problem["current_status"] == "completed"

    pending = api.list_critical_results(patient=patient.id)
    assert any(c["report_id"] == report.id for c in pending.critical_results) or pending.count == 0  # the list reads the projection
    with pytest.raises(ForbiddenError) as machine:
        api.acknowledge_critical_result(report.id, note="treated")
    assert machine.value.problem["detail"].startswith("A signed-in clinician must acknowledge a critical result")

    amended = api.amend_diagnostic_report(report.id, "haemolysed sample", [_potassium(4.8)], status="corrected")
    assert amended.status == "corrected"
    history = api.get_diagnostic_report_history(report.id)
    assert [r["status"] for r in history.revisions] == ["final", "corrected"]
    assert history.revisions[1]["reason"] == "haemolysed sample"


async def test_async_order_and_read(base_url: str, credentials: tuple[str, str]) -> None:
    if not served(base_url, "GET", "/api/v1/diagnostics/orders"):
        pytest.skip("diagnostics are not served yet (issue 21)")
    async with AsyncVitalisClient.client_credentials(base_url, *credentials) as api:
        patient = await api.register_patient({"resourceType": "Patient",
                                              "name": [{"family": f"PyDxA{uuid.uuid4().hex[:8]}", "given": ["Lee"]}]})
        order = await api.order_diagnostic_test(patient.id, "2524-7", intent="proposal")
        assert order.status == "draft" and order.intent == "proposal"
        assert (await api.get_diagnostic_order(order.id)).id == order.id
        assert (await api.cancel_diagnostic_order(order.id, reason="not needed")).status == "revoked"
