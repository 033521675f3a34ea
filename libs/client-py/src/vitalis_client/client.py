"""Sync and asyncio clients (httpx). Both run the operations of :mod:`operations`; models are
pydantic, errors typed (:mod:`errors`)."""
from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
from pydantic import BaseModel

from . import bulk
from . import models as m
from .auth import REVOKE_PATH, ClientCredentials, Sandbox, TokenAuth
from .errors import raise_for_problem
from .operations import OPERATIONS, Operation

if TYPE_CHECKING:  # pandas is an optional dependency (the `pandas` extra)
    import pandas as pd

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


def _expect(model: type[T], result: object) -> T:
    """A named operation's result as its model; ``_decode`` validated it with the operation's model,
    so a mismatch means a method names another model than its operation (a bug here, not the server's)."""
    if not isinstance(result, model):
        raise TypeError(f"expected {model.__name__}, got {type(result).__name__}")
    return result


def _history_page(result: object) -> m.VitalsPage | m.BucketPage:
    """``get_vitals_history``'s result: raw observations, or aggregated series when ``bucket`` was given."""
    if not isinstance(result, (m.VitalsPage, m.BucketPage)):
        raise TypeError(f"expected VitalsPage or BucketPage, got {type(result).__name__}")
    return result


def _revoke_form(token: str) -> dict[str, str]:
    return {"token": token, "token_type_hint": "access_token"}


def _service_request(patient_id: str, code: str, priority: str, reason: str | None, intent: str) -> dict[str, Any]:
    """A FHIR ServiceRequest body for a LOINC-coded test (the catalog: GET /api/v1/diagnostics/catalog)."""
    body: dict[str, Any] = {"resourceType": "ServiceRequest", "intent": intent, "priority": priority,
                            "subject": {"reference": f"Patient/{patient_id}"},
                            "code": {"coding": [{"system": "http://loinc.org", "code": code}]}}
    if reason:
        body["reasonCode"] = [{"text": reason}]
    return body


class VitalisClient:
    """Blocking client. ``with VitalisClient.client_credentials(url, id, secret) as api: api.get_health()``"""

    def __init__(self, base_url: str, auth: TokenAuth | None = None, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT,
                 transport: httpx.BaseTransport | None = None):
        self.base_url = base_url.rstrip("/")
        self.auth = auth
        self._http = httpx.Client(base_url=self.base_url, auth=auth, timeout=timeout, headers={"accept": "application/json"},
                                  transport=transport)

    @classmethod
    def client_credentials(cls, base_url: str, client_id: str, client_secret: str, scope: str | list[str] | None = None,
                           **kw: Any) -> VitalisClient:
        """A client for a backend agent: the ``client_credentials`` grant (:class:`ClientCredentials`)."""
        return cls(base_url, ClientCredentials(base_url, client_id, client_secret, scope), **kw)

    @classmethod
    def sandbox(cls, base_url: str, **kw: Any) -> VitalisClient:
        """A client with a sandbox token (read-only scopes, no registration: :class:`Sandbox`)."""
        return cls(base_url, Sandbox(base_url), **kw)

    def __enter__(self) -> VitalisClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the connection pool."""
        self._http.close()

    def call(self, operation: str, /, **args: Any) -> Any:
        """Runs any operation by name with its JSON arguments (what the agent tools call)."""
        op = OPERATIONS[operation]
        path, query, body = op.split(args)
        return _decode(op, self._http.request(op.method, path, params=query, json=body))

    def _run(self, model: type[T], operation: str, /, **args: Any) -> T:
        return _expect(model, self.call(operation, **args))

    # named operations (operations.py describes each)
    def get_health(self) -> m.Health:
        """System health: the status of PostgreSQL, Kafka and Redis."""
        return self._run(m.Health, "get_health")

    def get_identity(self) -> m.Identity:
        """Who the current access token says the caller is (client, scopes, roles)."""
        return self._run(m.Identity, "get_identity")

    def get_vitals_history(self, patient: str, from_: str, to: str, **q: Any) -> m.VitalsPage | m.BucketPage:
        """Observations of a patient in [from_, to), a page at a time; with ``bucket``, aggregated series."""
        return _history_page(self.call("get_vitals_history", patient=patient, **{"from": from_, "to": to}, **q))

    def get_latest_vitals(self, patient_id: str) -> m.LatestVitals:
        """The latest observation of each vital sign of a patient."""
        return self._run(m.LatestVitals, "get_latest_vitals", patient=patient_id)

    def publish_vitals(
        self, observations: list[dict[str, Any]] | None = None, *, frames: list[dict[str, Any]] | None = None
    ) -> m.PublishResult:
        """Publishes a batch of observations and/or device frames (v1, or v2 with an ECG chunk as whole
        0.1 µV ``sample_steps``); all-or-nothing validation, 202 once Kafka has it."""
        return self._run(m.PublishResult, "publish_vitals", observations=observations, frames=frames)

    def search_patients(self, **q: Any) -> m.Bundle:
        """Patients by name, birthdate or identifier (system|value): a Bundle of Patient."""
        return self._run(m.Bundle, "search_patients", **q)

    def get_patient(self, patient_id: str) -> m.PatientRecord:
        """A patient's record: the Patient, and what the token may read beside it."""
        return self._run(m.PatientRecord, "get_patient", id=patient_id)

    def register_patient(self, patient: dict[str, Any]) -> m.Patient:
        """Registers a FHIR Patient; the gateway mints its id."""
        return self._run(m.Patient, "register_patient", **patient)

    def list_appointments(self, **q: Any) -> m.Bundle:
        """Slots and booked appointments (clinician, patient, from, to, status): a Bundle."""
        return self._run(m.Bundle, "list_appointments", **q)

    def book_appointment(self, slot_id: str, patient_id: str, reason: str | None = None) -> m.Appointment:
        """Books a free slot for a patient (a ConflictError if it is taken)."""
        return self._run(m.Appointment, "book_appointment", slot_id=slot_id, patient_id=patient_id, reason=reason)

    def cancel_appointment(self, appointment_id: str, reason: str | None = None) -> m.Appointment:
        """Cancels a booked appointment (the slot is free again)."""
        return self._run(m.Appointment, "cancel_appointment", id=appointment_id, reason=reason)

    def reschedule_appointment(self, appointment_id: str, slot_id: str) -> m.Appointment:
        """Moves an appointment to another free slot, atomically."""
        return self._run(m.Appointment, "reschedule_appointment", id=appointment_id, slot_id=slot_id)

    # diagnostics (docs/diagnostics.md)
    def order_diagnostic_test(self, patient_id: str, code: str, priority: str = "routine", reason: str | None = None,
                              intent: str = "order") -> m.ServiceRequest:
        """Orders the test of a LOINC ``code`` for a patient: a ServiceRequest."""
        return self._run(m.ServiceRequest, "order_diagnostic_test", **_service_request(patient_id, code, priority, reason, intent))

    def list_diagnostic_orders(self, **q: Any) -> m.Bundle:
        """Diagnostic orders by patient and status, newest first: a Bundle of ServiceRequest."""
        return self._run(m.Bundle, "list_diagnostic_orders", **q)

    def get_diagnostic_order(self, order_id: str) -> m.ServiceRequest:
        """One diagnostic order."""
        return self._run(m.ServiceRequest, "get_diagnostic_order", id=order_id)

    def cancel_diagnostic_order(self, order_id: str, reason: str | None = None) -> m.ServiceRequest:
        """Revokes an order that is draft, active or on hold (a ConflictError naming any other state)."""
        return self._run(m.ServiceRequest, "cancel_diagnostic_order", id=order_id, reason=reason)

    def post_diagnostic_report(self, report: dict[str, Any]) -> m.DiagnosticReport:
        """Posts a DiagnosticReport with its results as contained Observations; a final one completes its order."""
        return self._run(m.DiagnosticReport, "post_diagnostic_report", **report)

    def list_diagnostic_reports(self, **q: Any) -> m.Bundle:
        """Diagnostic reports by patient or order, newest first: a Bundle."""
        return self._run(m.Bundle, "list_diagnostic_reports", **q)

    def get_diagnostic_report(self, report_id: str) -> m.DiagnosticReport:
        """One diagnostic report, its Observations contained."""
        return self._run(m.DiagnosticReport, "get_diagnostic_report", id=report_id)

    def get_diagnostic_report_history(self, report_id: str) -> m.ReportHistory:
        """Every revision of a report: as it was, when, by whom, why."""
        return self._run(m.ReportHistory, "get_diagnostic_report_history", id=report_id)

    def amend_diagnostic_report(self, report_id: str, reason: str, contained: list[dict[str, Any]], status: str = "amended",
                                conclusion: str | None = None) -> m.DiagnosticReport:
        """Amends or corrects a final report with the full new Observations; the earlier revision stays readable."""
        return self._run(m.DiagnosticReport, "amend_diagnostic_report", id=report_id, reason=reason, contained=contained, status=status,
                         conclusion=conclusion)

    def acknowledge_critical_result(self, report_id: str, note: str | None = None) -> m.CriticalResult:
        """Acknowledges a report's critical result (a signed-in clinician's act)."""
        return self._run(m.CriticalResult, "acknowledge_critical_result", id=report_id, note=note)

    def list_critical_results(self, patient: str | None = None) -> m.CriticalResults:
        """Unacknowledged critical results, oldest first, optionally of one patient."""
        return self._run(m.CriticalResults, "list_critical_results", patient=patient)

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
        manifest = self.export_manifest(group=group, patients=patients, since=since, until=until, type_filter=type_filter,
                                        max_wait=max_wait)
        return bulk.iter_ndjson(self._http, manifest)

    def export_manifest(self, *, group: str | None = None, patients: bool = False, since: str | None = None, until: str | None = None,
                        type_filter: str | list[str] | None = None, max_wait: float = 3600.0) -> dict[str, Any]:
        """Kicks off and waits for the manifest (transactionTime, output files with counts)."""
        return bulk.run_export(self._http, bulk.kickoff_path(group, patients), bulk.kickoff_params(since, until, type_filter),
                               max_wait=max_wait)

    def export_dataframe(self, **kw: Any) -> pd.DataFrame:
        """``export(...)`` as a pandas DataFrame (patient, device, code, effective, value, unit, ...). Needs pandas."""
        return bulk.to_dataframe(self.export(**kw))

    def revoke_token(self) -> None:
        """Revokes the current access token (RFC 7009); the next call obtains a new one."""
        if self.auth is None or self.auth.token is None:
            return
        # sent without the auth flow (auth=None): the token to revoke is in the form, and a 401 must not renew it
        revoke = self._http.build_request("POST", REVOKE_PATH, data=_revoke_form(self.auth.token))
        raise_for_problem(self._http.send(revoke, auth=None))
        self.auth.invalidate()


class AsyncVitalisClient:
    """asyncio client. ``async with AsyncVitalisClient.client_credentials(...) as api: await api.get_patient("pat-0001")``"""

    def __init__(self, base_url: str, auth: TokenAuth | None = None, *, timeout: httpx.Timeout = DEFAULT_TIMEOUT,
                 transport: httpx.AsyncBaseTransport | None = None):
        self.base_url = base_url.rstrip("/")
        self.auth = auth
        self._http = httpx.AsyncClient(base_url=self.base_url, auth=auth, timeout=timeout, headers={"accept": "application/json"},
                                       transport=transport)

    @classmethod
    def client_credentials(cls, base_url: str, client_id: str, client_secret: str, scope: str | list[str] | None = None,
                           **kw: Any) -> AsyncVitalisClient:
        """A client for a backend agent: the ``client_credentials`` grant (:class:`ClientCredentials`)."""
        return cls(base_url, ClientCredentials(base_url, client_id, client_secret, scope), **kw)

    @classmethod
    def sandbox(cls, base_url: str, **kw: Any) -> AsyncVitalisClient:
        """A client with a sandbox token (read-only scopes, no registration: :class:`Sandbox`)."""
        return cls(base_url, Sandbox(base_url), **kw)

    async def __aenter__(self) -> AsyncVitalisClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Closes the connection pool."""
        await self._http.aclose()

    async def call(self, operation: str, /, **args: Any) -> Any:
        """Runs any operation by name with its JSON arguments (what the agent tools call)."""
        op = OPERATIONS[operation]
        path, query, body = op.split(args)
        return _decode(op, await self._http.request(op.method, path, params=query, json=body))

    async def _run(self, model: type[T], operation: str, /, **args: Any) -> T:
        return _expect(model, await self.call(operation, **args))

    # named operations (operations.py describes each)
    async def get_health(self) -> m.Health:
        """System health: the status of PostgreSQL, Kafka and Redis."""
        return await self._run(m.Health, "get_health")

    async def get_identity(self) -> m.Identity:
        """Who the current access token says the caller is (client, scopes, roles)."""
        return await self._run(m.Identity, "get_identity")

    async def get_vitals_history(self, patient: str, from_: str, to: str, **q: Any) -> m.VitalsPage | m.BucketPage:
        """Observations of a patient in [from_, to), a page at a time; with ``bucket``, aggregated series."""
        return _history_page(await self.call("get_vitals_history", patient=patient, **{"from": from_, "to": to}, **q))

    async def get_latest_vitals(self, patient_id: str) -> m.LatestVitals:
        """The latest observation of each vital sign of a patient."""
        return await self._run(m.LatestVitals, "get_latest_vitals", patient=patient_id)

    async def publish_vitals(
        self, observations: list[dict[str, Any]] | None = None, *, frames: list[dict[str, Any]] | None = None
    ) -> m.PublishResult:
        """Publishes a batch of observations and/or device frames (v1, or v2 with an ECG chunk as whole
        0.1 µV ``sample_steps``); all-or-nothing validation, 202 once Kafka has it."""
        return await self._run(m.PublishResult, "publish_vitals", observations=observations, frames=frames)

    async def search_patients(self, **q: Any) -> m.Bundle:
        """Patients by name, birthdate or identifier (system|value): a Bundle of Patient."""
        return await self._run(m.Bundle, "search_patients", **q)

    async def get_patient(self, patient_id: str) -> m.PatientRecord:
        """A patient's record: the Patient, and what the token may read beside it."""
        return await self._run(m.PatientRecord, "get_patient", id=patient_id)

    async def register_patient(self, patient: dict[str, Any]) -> m.Patient:
        """Registers a FHIR Patient; the gateway mints its id."""
        return await self._run(m.Patient, "register_patient", **patient)

    async def list_appointments(self, **q: Any) -> m.Bundle:
        """Slots and booked appointments (clinician, patient, from, to, status): a Bundle."""
        return await self._run(m.Bundle, "list_appointments", **q)

    async def book_appointment(self, slot_id: str, patient_id: str, reason: str | None = None) -> m.Appointment:
        """Books a free slot for a patient (a ConflictError if it is taken)."""
        return await self._run(m.Appointment, "book_appointment", slot_id=slot_id, patient_id=patient_id, reason=reason)

    async def cancel_appointment(self, appointment_id: str, reason: str | None = None) -> m.Appointment:
        """Cancels a booked appointment (the slot is free again)."""
        return await self._run(m.Appointment, "cancel_appointment", id=appointment_id, reason=reason)

    async def reschedule_appointment(self, appointment_id: str, slot_id: str) -> m.Appointment:
        """Moves an appointment to another free slot, atomically."""
        return await self._run(m.Appointment, "reschedule_appointment", id=appointment_id, slot_id=slot_id)

    # diagnostics (docs/diagnostics.md)
    async def order_diagnostic_test(self, patient_id: str, code: str, priority: str = "routine", reason: str | None = None,
                                    intent: str = "order") -> m.ServiceRequest:
        """Orders the test of a LOINC ``code`` for a patient: a ServiceRequest."""
        return await self._run(m.ServiceRequest, "order_diagnostic_test", **_service_request(patient_id, code, priority, reason, intent))

    async def list_diagnostic_orders(self, **q: Any) -> m.Bundle:
        """Diagnostic orders by patient and status, newest first: a Bundle of ServiceRequest."""
        return await self._run(m.Bundle, "list_diagnostic_orders", **q)

    async def get_diagnostic_order(self, order_id: str) -> m.ServiceRequest:
        """One diagnostic order."""
        return await self._run(m.ServiceRequest, "get_diagnostic_order", id=order_id)

    async def cancel_diagnostic_order(self, order_id: str, reason: str | None = None) -> m.ServiceRequest:
        """Revokes an order that is draft, active or on hold (a ConflictError naming any other state)."""
        return await self._run(m.ServiceRequest, "cancel_diagnostic_order", id=order_id, reason=reason)

    async def post_diagnostic_report(self, report: dict[str, Any]) -> m.DiagnosticReport:
        """Posts a DiagnosticReport with its results as contained Observations; a final one completes its order."""
        return await self._run(m.DiagnosticReport, "post_diagnostic_report", **report)

    async def list_diagnostic_reports(self, **q: Any) -> m.Bundle:
        """Diagnostic reports by patient or order, newest first: a Bundle."""
        return await self._run(m.Bundle, "list_diagnostic_reports", **q)

    async def get_diagnostic_report(self, report_id: str) -> m.DiagnosticReport:
        """One diagnostic report, its Observations contained."""
        return await self._run(m.DiagnosticReport, "get_diagnostic_report", id=report_id)

    async def get_diagnostic_report_history(self, report_id: str) -> m.ReportHistory:
        """Every revision of a report: as it was, when, by whom, why."""
        return await self._run(m.ReportHistory, "get_diagnostic_report_history", id=report_id)

    async def amend_diagnostic_report(self, report_id: str, reason: str, contained: list[dict[str, Any]], status: str = "amended",
                                      conclusion: str | None = None) -> m.DiagnosticReport:
        """Amends or corrects a final report with the full new Observations; the earlier revision stays readable."""
        return await self._run(m.DiagnosticReport, "amend_diagnostic_report", id=report_id, reason=reason, contained=contained,
                               status=status, conclusion=conclusion)

    async def acknowledge_critical_result(self, report_id: str, note: str | None = None) -> m.CriticalResult:
        """Acknowledges a report's critical result (a signed-in clinician's act)."""
        return await self._run(m.CriticalResult, "acknowledge_critical_result", id=report_id, note=note)

    async def list_critical_results(self, patient: str | None = None) -> m.CriticalResults:
        """Unacknowledged critical results, oldest first, optionally of one patient."""
        return await self._run(m.CriticalResults, "list_critical_results", patient=patient)

    async def iter_vitals(self, patient: str, from_: str, to: str, **q: Any) -> AsyncIterator[m.VitalsObservation]:
        """Every raw observation in [from, to), following ``next`` page links."""
        page = await self.get_vitals_history(patient, from_, to, **q)
        while True:
            assert isinstance(page, m.VitalsPage)
            for o in page.data:
                yield o
            if not page.next:
                return
            page = _decode(OPERATIONS["get_vitals_history"], await self._http.get(page.next))

    async def revoke_token(self) -> None:
        """Revokes the current access token (RFC 7009); the next call obtains a new one."""
        if self.auth is None or self.auth.token is None:
            return
        # sent without the auth flow (auth=None): the token to revoke is in the form, and a 401 must not renew it
        revoke = self._http.build_request("POST", REVOKE_PATH, data=_revoke_form(self.auth.token))
        raise_for_problem(await self._http.send(revoke, auth=None))
        self.auth.invalidate()
