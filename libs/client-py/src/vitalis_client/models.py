"""Data models of the Vitalis API (pydantic v2). Unknown fields are kept (``extra="allow"``), so a
newer gateway adding fields never breaks an older client."""
from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field


class Model(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True)


class TokenResponse(Model):
    access_token: str
    token_type: str = "Bearer"
    expires_in: int
    scope: str = ""
    refresh_token: Optional[str] = None


class SandboxCredentials(TokenResponse):
    client_id: str
    client_secret: str
    client_secret_expires_at: int
    token_endpoint: str


class ClientRegistration(Model):
    client_id: str
    client_secret: Optional[str] = None
    scope: str = ""


class DependencyCheck(Model):
    status: str
    latency_ms: Optional[float] = None


class Health(Model):
    status: Literal["ok", "degraded", "down"]
    version: str
    checks: dict[str, DependencyCheck] = Field(default_factory=dict)


class Identity(Model):
    """``GET /agent/identity``: who the token says the caller is (fields as the gateway sends)."""


class Waveform(Model):
    origin: float
    period_ms: float
    samples: list[float]


class VitalsObservation(Model):
    patient_id: str
    device_id: str
    seq: int
    effective_at: str
    code: str
    unit: str
    value: Optional[float] = None
    waveform: Optional[Waveform] = None


class VitalsPage(Model):
    patient_id: str
    from_: str = Field(alias="from")
    to: str
    count: int
    data: list[VitalsObservation]
    next: Optional[str] = None


class BucketPoint(Model):
    code: str
    bucket: str
    count: Optional[int] = None
    avg: Optional[float] = None
    min: Optional[float] = None
    max: Optional[float] = None
    last: Optional[float] = None
    last_at: Optional[str] = None


class BucketPage(Model):
    patient_id: str
    from_: str = Field(alias="from")
    to: str
    bucket: str
    agg: list[str]
    source: str
    count: int
    data: list[BucketPoint]
    next: Optional[str] = None


class LatestVitals(Model):
    patient_id: str
    count: int
    data: list[VitalsObservation]


class PublishResult(Model):
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
    allergies: Optional[list[dict[str, Any]]] = None
    latest_vitals: Optional[list[dict[str, Any]]] = None
    news2: Optional[dict[str, Any]] = None


class Slot(Model):
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
    acknowledged_by: Optional[str] = None
    acknowledged_at: Optional[str] = None


class CriticalResults(Model):
    count: int
    critical_results: list[dict[str, Any]]


class Bundle(Model):
    """A FHIR searchset Bundle: lists and searches (``link`` relation "next" is the next page; an
    appointment listing also includes the clinicians' Schedules, search mode "include")."""

    resourceType: Literal["Bundle"] = "Bundle"
    type: str = "searchset"
    entry: list[dict[str, Any]] = Field(default_factory=list)
    link: list[dict[str, Any]] = Field(default_factory=list)

    def next_url(self) -> Optional[str]:
        return next((l["url"] for l in self.link if l.get("relation") == "next"), None)

    def resources(self, resource_type: str | None = None) -> list[dict[str, Any]]:
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
