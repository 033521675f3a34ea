"""Data models of the Vitalis API (pydantic v2). Unknown fields are kept (``extra="allow"``), so a
newer gateway adding fields never breaks an older client."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Model(BaseModel):
    """Base of every model: unknown fields kept, fields settable by name or alias."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class TokenResponse(Model):
    """The token endpoint's answer (RFC 6749): the access token, its lifetime, scope and refresh token."""

    access_token: str
    token_type: str = "Bearer"
    expires_in: int
    scope: str = ""
    refresh_token: str | None = None


class SandboxCredentials(TokenResponse):
    """``POST /api/v1/sandbox``: a token plus the short-lived client it was issued to."""

    client_id: str
    client_secret: str
    client_secret_expires_at: int
    token_endpoint: str


class ClientRegistration(Model):
    """A registered OAuth client (RFC 7591): its id, secret and scope."""

    client_id: str
    client_secret: str | None = None
    scope: str = ""


class DependencyCheck(Model):
    """One dependency's state in the health answer (PostgreSQL, Kafka, Redis)."""

    status: str
    latency_ms: float | None = None


class Health(Model):
    """``GET /api/v1/health``: the overall status, the version and each dependency's check."""

    status: Literal["ok", "degraded", "down"]
    version: str
    checks: dict[str, DependencyCheck] = Field(default_factory=dict)


class Identity(Model):
    """``GET /agent/identity``: who the token says the caller is (fields as the gateway sends)."""


class Waveform(Model):
    """An ECG strip: potentials in mV relative to ``origin``, one every ``period_ms``."""

    origin: float
    period_ms: float
    samples: list[float]


class VitalsObservation(Model):
    """One vitals observation of a device: a numeric ``value`` or a ``waveform``, with its LOINC code and unit."""

    patient_id: str
    device_id: str
    seq: int
    effective_at: str
    code: str
    unit: str
    value: float | None = None
    waveform: Waveform | None = None


class VitalsPage(Model):
    """A page of raw observations in [from, to); ``next`` is the next page's URL."""

    patient_id: str
    from_: str = Field(alias="from")
    to: str
    count: int
    data: list[VitalsObservation]
    next: str | None = None


class BucketPoint(Model):
    """One code's aggregates over one time bucket."""

    code: str
    bucket: str
    count: int | None = None
    avg: float | None = None
    min: float | None = None
    max: float | None = None
    last: float | None = None
    last_at: str | None = None


class BucketPage(Model):
    """A page of aggregated series (``bucket``, ``agg``) and where they were read from (``source``)."""

    patient_id: str
    from_: str = Field(alias="from")
    to: str
    bucket: str
    agg: list[str]
    source: str
    count: int
    data: list[BucketPoint]
    next: str | None = None


class LatestVitals(Model):
    """The latest observation of each vital sign of a patient."""

    patient_id: str
    count: int
    data: list[VitalsObservation]


class PublishResult(Model):
    """How many observations a publish accepted, and the Kafka topic they went to."""

    accepted: int
    topic: str


class Patient(Model):
    """A FHIR R4 Patient (name, birthDate, gender, identifier, telecom)."""

    resourceType: Literal["Patient"] = "Patient"
    id: str


class PatientRecord(Model):
    """``GET /api/v1/patients/{id}``: FHIR resources side by side (0.2.0; before, the Patient itself
    carried ``allergies`` and ``vitals``), the same envelope as the MCP tool get_patient.
    ``allergies`` (AllergyIntolerance resources) for clinical readers; ``latest_vitals`` and
    ``news2`` when they also hold read:vitals."""

    view: Literal["clinical", "demographics"]
    patient: Patient
    allergies: list[dict[str, Any]] | None = None
    latest_vitals: list[dict[str, Any]] | None = None
    news2: dict[str, Any] | None = None


class Slot(Model):
    """A FHIR R4 Slot: a clinician's consultation slot, free or busy."""

    resourceType: Literal["Slot"] = "Slot"
    id: str
    status: str


class Appointment(Model):
    """A FHIR R4 Appointment (slot, participant, start, end)."""

    resourceType: Literal["Appointment"] = "Appointment"
    id: str
    status: str


class ServiceRequest(Model):
    """A FHIR R4 ServiceRequest: a diagnostic order (status, intent, priority, code, subject, requester)."""

    resourceType: Literal["ServiceRequest"] = "ServiceRequest"
    id: str
    status: str
    intent: str
    priority: str


class DiagnosticReport(Model):
    """A FHIR R4 DiagnosticReport, its Observations contained (values, units, ranges, interpretations)."""

    resourceType: Literal["DiagnosticReport"] = "DiagnosticReport"
    id: str
    status: str
    contained: list[dict[str, Any]] = Field(default_factory=list)


class ReportHistory(Model):
    """Every revision of a report, oldest first: the report as it was, when, by whom, why."""

    report_id: str
    revisions: list[dict[str, Any]]


class CriticalResult(Model):
    """A report's critical result: open, escalated or acknowledged (who, when)."""

    critical_id: str
    report_id: str
    state: str
    acknowledged_by: str | None = None
    acknowledged_at: str | None = None


class CriticalResults(Model):
    """Critical results as ``GET /api/v1/diagnostics/critical-results`` lists them (by default the unacknowledged, oldest first)."""

    count: int
    critical_results: list[dict[str, Any]]


class Bundle(Model):
    """A FHIR searchset Bundle: lists and searches (``link`` relation "next" is the next page; an
    appointment listing also includes the clinicians' Schedules, search mode "include")."""

    resourceType: Literal["Bundle"] = "Bundle"
    type: str = "searchset"
    entry: list[dict[str, Any]] = Field(default_factory=list)
    link: list[dict[str, Any]] = Field(default_factory=list)

    def next_url(self) -> str | None:
        """The URL of the next page (the ``link`` with relation "next"), if there is one."""
        return next((link["url"] for link in self.link if link.get("relation") == "next"), None)

    def resources(self, resource_type: str | None = None) -> list[dict[str, Any]]:
        """The entries' resources, optionally only those of one type ("Slot", "Schedule", ...)."""
        return [e["resource"] for e in self.entry if resource_type is None or e.get("resource", {}).get("resourceType") == resource_type]


#: lists are Bundles
Page = Bundle


class LiveObservation(Model):
    """An observation of the live stream: ``id`` is the resume position."""

    type: Literal["observation"] = "observation"
    id: str
    observation: VitalsObservation


class LiveAlert(Model):
    """An alarm condition raised or cleared (``alert``: rule, state, priority (high, medium, low),
    severity (the same, the older field), kind, latching, label, message, value, due_at on a raise,
    FHIR Flag ...). Events written before the alarm lifecycle carry ``severity`` only."""

    type: Literal["alert"] = "alert"
    id: str
    alert: dict[str, Any]
