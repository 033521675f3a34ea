"""Sync and asyncio clients (httpx). Both run the operations of :mod:`operations`; models are
pydantic, errors typed (:mod:`errors`)."""
from __future__ import annotations

from typing import Any, AsyncIterator, Iterator, Optional, TypeVar

import httpx
from pydantic import BaseModel

from . import bulk
from . import models as m
from .auth import REVOKE_PATH, ClientCredentials, Sandbox, TokenAuth
from .errors import raise_for_problem
from .operations import OPERATIONS, Operation

T = TypeVar("T", bound=BaseModel)
DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=10.0)


def _decode(op: Operation, response: httpx.Response) -> Any:
    raise_for_problem(response)
    if response.status_code == 204:
        return None
    body = response.json()
    if op.model is None:
        if isinstance(body, dict) and "bucket" in body:
            return m.BucketPage.model_validate(body)
        return m.VitalsPage.model_validate(body) if isinstance(body, dict) and "data" in body else body
    return op.model.model_validate(body)


def _revoke_form(token: str) -> dict[str, str]:
    return {"token": token, "token_type_hint": "access_token"}


def _service_request(patient_id: str, code: str, priority: str, reason: str | None, intent: str) -> dict[str, Any]:
    """A FHIR ServiceRequest body for a LOINC-coded test (the catalog: GET /api/v1/diagnostics/catalog)."""
    body: dict[str, Any] = {"resourceType": "ServiceRequest", "intent": intent, "priority": priority, "subject": {"reference": f"Patient/{patient_id}"},
                            "code": {"coding": [{"system": "http://loinc.org", "code": code}]}}
    if reason:
        body["reasonCode"] = [{"text": reason}]
    return body


class VitalisClient:
    """Blocking client. ``with VitalisClient.client_credentials(url, id, secret) as api: api.get_health()``"""

    def __init__(self, base_url: str, auth: Optional[TokenAuth] = None, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT, transport: httpx.BaseTransport | None = None):
        self.base_url = base_url.rstrip("/")
        self.auth = auth
        self._http = httpx.Client(base_url=self.base_url, auth=auth, timeout=timeout, headers={"accept": "application/json"}, transport=transport)

    @classmethod
    def client_credentials(cls, base_url: str, client_id: str, client_secret: str, scope: str | list[str] | None = None, **kw: Any) -> "VitalisClient":
        return cls(base_url, ClientCredentials(base_url, client_id, client_secret, scope), **kw)

    @classmethod
    def sandbox(cls, base_url: str, **kw: Any) -> "VitalisClient":
        return cls(base_url, Sandbox(base_url), **kw)

    def __enter__(self) -> "VitalisClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def call(self, operation: str, /, **args: Any) -> Any:
        """Runs any operation by name with its JSON arguments (what the agent tools call)."""
        op = OPERATIONS[operation]
        path, query, body = op.split(args)
        return _decode(op, self._http.request(op.method, path, params=query, json=body))

    # named operations
    def get_health(self) -> m.Health: return self.call("get_health")
    def get_identity(self) -> m.Identity: return self.call("get_identity")
    def get_vitals_history(self, patient: str, from_: str, to: str, **q: Any) -> m.VitalsPage | m.BucketPage:
        return self.call("get_vitals_history", patient=patient, **{"from": from_, "to": to}, **q)
    def get_latest_vitals(self, patient_id: str) -> m.LatestVitals: return self.call("get_latest_vitals", patient=patient_id)
    def publish_vitals(self, observations: list[dict[str, Any]]) -> m.PublishResult: return self.call("publish_vitals", observations=observations)
    def search_patients(self, **q: Any) -> m.Bundle: return self.call("search_patients", **q)
    def get_patient(self, patient_id: str) -> m.PatientRecord: return self.call("get_patient", id=patient_id)
    def register_patient(self, patient: dict[str, Any]) -> m.Patient: return self.call("register_patient", **patient)
    def list_appointments(self, **q: Any) -> m.Bundle: return self.call("list_appointments", **q)
    def book_appointment(self, slot_id: str, patient_id: str | None = None, reason: str | None = None) -> m.Appointment:
        return self.call("book_appointment", slot_id=slot_id, patient_id=patient_id, reason=reason)
    def cancel_appointment(self, appointment_id: str, reason: str | None = None) -> m.Appointment:
        return self.call("cancel_appointment", id=appointment_id, reason=reason)
    def reschedule_appointment(self, appointment_id: str, slot_id: str) -> m.Appointment:
        return self.call("reschedule_appointment", id=appointment_id, slot_id=slot_id)

    # diagnostics (docs/diagnostics.md)
    def order_diagnostic_test(self, patient_id: str, code: str, priority: str = "routine", reason: str | None = None, intent: str = "order") -> m.ServiceRequest:
        return self.call("order_diagnostic_test", **_service_request(patient_id, code, priority, reason, intent))
    def list_diagnostic_orders(self, **q: Any) -> m.Bundle: return self.call("list_diagnostic_orders", **q)
    def get_diagnostic_order(self, order_id: str) -> m.ServiceRequest: return self.call("get_diagnostic_order", id=order_id)
    def cancel_diagnostic_order(self, order_id: str, reason: str | None = None) -> m.ServiceRequest: return self.call("cancel_diagnostic_order", id=order_id, reason=reason)
    def post_diagnostic_report(self, report: dict[str, Any]) -> m.DiagnosticReport: return self.call("post_diagnostic_report", **report)
    def list_diagnostic_reports(self, **q: Any) -> m.Bundle: return self.call("list_diagnostic_reports", **q)
    def get_diagnostic_report(self, report_id: str) -> m.DiagnosticReport: return self.call("get_diagnostic_report", id=report_id)
    def get_diagnostic_report_history(self, report_id: str) -> m.ReportHistory: return self.call("get_diagnostic_report_history", id=report_id)
    def amend_diagnostic_report(self, report_id: str, reason: str, contained: list[dict[str, Any]], status: str = "amended", conclusion: str | None = None) -> m.DiagnosticReport:
        return self.call("amend_diagnostic_report", id=report_id, reason=reason, contained=contained, status=status, conclusion=conclusion)
    def acknowledge_critical_result(self, report_id: str, note: str | None = None) -> m.CriticalResult: return self.call("acknowledge_critical_result", id=report_id, note=note)
    def list_critical_results(self, patient: str | None = None) -> m.CriticalResults: return self.call("list_critical_results", patient=patient)

    def iter_vitals(self, patient: str, from_: str, to: str, **q: Any) -> Iterator[m.VitalsObservation]:
        """Every raw observation in [from, to), following ``next`` page links."""
        page = self.get_vitals_history(patient, from_, to, **q)
        while True:
            assert isinstance(page, m.VitalsPage)
            yield from page.data
            if not page.next:
                return
            page = _decode(OPERATIONS["get_vitals_history"], self._http.get(page.next))

    # FHIR Bulk Data export (docs/export.md)
    def export(self, *, group: str | None = None, patients: bool = False, since: str | None = None, until: str | None = None,
               type_filter: str | list[str] | None = None, max_wait: float = 3600.0) -> Iterator[dict[str, Any]]:
        """Exports Observations (a Group's, every patient's or the whole system's) and yields them as
        FHIR dicts: kicks off, polls with backoff (Retry-After), streams the NDJSON files with this
        client's token. ``since``: a previous manifest's transactionTime gives exactly what came after."""
        manifest = self.export_manifest(group=group, patients=patients, since=since, until=until, type_filter=type_filter, max_wait=max_wait)
        return bulk.iter_ndjson(self._http, manifest)

    def export_manifest(self, *, group: str | None = None, patients: bool = False, since: str | None = None, until: str | None = None,
                        type_filter: str | list[str] | None = None, max_wait: float = 3600.0) -> dict[str, Any]:
        """Kicks off and waits for the manifest (transactionTime, output files with counts)."""
        return bulk.run_export(self._http, bulk.kickoff_path(group, patients), bulk.kickoff_params(since, until, type_filter), max_wait=max_wait)

    def export_dataframe(self, **kw: Any):
        """``export(...)`` as a pandas DataFrame (patient, device, code, effective, value, unit, ...). Needs pandas."""
        return bulk.to_dataframe(self.export(**kw))

    def revoke_token(self) -> None:
        """Revokes the current access token (RFC 7009); the next call obtains a new one."""
        if self.auth is None or self.auth.token is None:
            return
        raise_for_problem(self._http.post(REVOKE_PATH, data=_revoke_form(self.auth.token), auth=None))
        self.auth.invalidate()


class AsyncVitalisClient:
    """asyncio client. ``async with AsyncVitalisClient.client_credentials(...) as api: await api.get_patient("pat-0001")``"""

    def __init__(self, base_url: str, auth: Optional[TokenAuth] = None, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT, transport: httpx.AsyncBaseTransport | None = None):
        self.base_url = base_url.rstrip("/")
        self.auth = auth
        self._http = httpx.AsyncClient(base_url=self.base_url, auth=auth, timeout=timeout, headers={"accept": "application/json"}, transport=transport)

    @classmethod
    def client_credentials(cls, base_url: str, client_id: str, client_secret: str, scope: str | list[str] | None = None, **kw: Any) -> "AsyncVitalisClient":
        return cls(base_url, ClientCredentials(base_url, client_id, client_secret, scope), **kw)

    @classmethod
    def sandbox(cls, base_url: str, **kw: Any) -> "AsyncVitalisClient":
        return cls(base_url, Sandbox(base_url), **kw)

    async def __aenter__(self) -> "AsyncVitalisClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def call(self, operation: str, /, **args: Any) -> Any:
        op = OPERATIONS[operation]
        path, query, body = op.split(args)
        return _decode(op, await self._http.request(op.method, path, params=query, json=body))

    async def get_health(self) -> m.Health: return await self.call("get_health")
    async def get_identity(self) -> m.Identity: return await self.call("get_identity")
    async def get_vitals_history(self, patient: str, from_: str, to: str, **q: Any) -> m.VitalsPage | m.BucketPage:
        return await self.call("get_vitals_history", patient=patient, **{"from": from_, "to": to}, **q)
    async def get_latest_vitals(self, patient_id: str) -> m.LatestVitals: return await self.call("get_latest_vitals", patient=patient_id)
    async def publish_vitals(self, observations: list[dict[str, Any]]) -> m.PublishResult: return await self.call("publish_vitals", observations=observations)
    async def search_patients(self, **q: Any) -> m.Bundle: return await self.call("search_patients", **q)
    async def get_patient(self, patient_id: str) -> m.PatientRecord: return await self.call("get_patient", id=patient_id)
    async def register_patient(self, patient: dict[str, Any]) -> m.Patient: return await self.call("register_patient", **patient)
    async def list_appointments(self, **q: Any) -> m.Bundle: return await self.call("list_appointments", **q)
    async def book_appointment(self, slot_id: str, patient_id: str | None = None, reason: str | None = None) -> m.Appointment:
        return await self.call("book_appointment", slot_id=slot_id, patient_id=patient_id, reason=reason)
    async def cancel_appointment(self, appointment_id: str, reason: str | None = None) -> m.Appointment:
        return await self.call("cancel_appointment", id=appointment_id, reason=reason)
    async def reschedule_appointment(self, appointment_id: str, slot_id: str) -> m.Appointment:
        return await self.call("reschedule_appointment", id=appointment_id, slot_id=slot_id)

    # diagnostics (docs/diagnostics.md)
    async def order_diagnostic_test(self, patient_id: str, code: str, priority: str = "routine", reason: str | None = None, intent: str = "order") -> m.ServiceRequest:
        return await self.call("order_diagnostic_test", **_service_request(patient_id, code, priority, reason, intent))
    async def list_diagnostic_orders(self, **q: Any) -> m.Bundle: return await self.call("list_diagnostic_orders", **q)
    async def get_diagnostic_order(self, order_id: str) -> m.ServiceRequest: return await self.call("get_diagnostic_order", id=order_id)
    async def cancel_diagnostic_order(self, order_id: str, reason: str | None = None) -> m.ServiceRequest: return await self.call("cancel_diagnostic_order", id=order_id, reason=reason)
    async def post_diagnostic_report(self, report: dict[str, Any]) -> m.DiagnosticReport: return await self.call("post_diagnostic_report", **report)
    async def list_diagnostic_reports(self, **q: Any) -> m.Bundle: return await self.call("list_diagnostic_reports", **q)
    async def get_diagnostic_report(self, report_id: str) -> m.DiagnosticReport: return await self.call("get_diagnostic_report", id=report_id)
    async def get_diagnostic_report_history(self, report_id: str) -> m.ReportHistory: return await self.call("get_diagnostic_report_history", id=report_id)
    async def amend_diagnostic_report(self, report_id: str, reason: str, contained: list[dict[str, Any]], status: str = "amended", conclusion: str | None = None) -> m.DiagnosticReport:
        return await self.call("amend_diagnostic_report", id=report_id, reason=reason, contained=contained, status=status, conclusion=conclusion)
    async def acknowledge_critical_result(self, report_id: str, note: str | None = None) -> m.CriticalResult: return await self.call("acknowledge_critical_result", id=report_id, note=note)
    async def list_critical_results(self, patient: str | None = None) -> m.CriticalResults: return await self.call("list_critical_results", patient=patient)

    async def iter_vitals(self, patient: str, from_: str, to: str, **q: Any) -> AsyncIterator[m.VitalsObservation]:
        page = await self.get_vitals_history(patient, from_, to, **q)
        while True:
            assert isinstance(page, m.VitalsPage)
            for o in page.data:
                yield o
            if not page.next:
                return
            page = _decode(OPERATIONS["get_vitals_history"], await self._http.get(page.next))

    async def revoke_token(self) -> None:
        if self.auth is None or self.auth.token is None:
            return
        raise_for_problem(await self._http.post(REVOKE_PATH, data=_revoke_form(self.auth.token), auth=None))
        self.auth.invalidate()
