"""The API's operations, described once. The sync and asyncio clients call them and the agent
tools are generated from them (name, description, JSON Schema of the arguments, required scope),
so a new operation is one entry here."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel

from . import models as m

# The codes the vitals schema accepts, in its order. Owned by schemas/src/vitals.ts (VITAL_CODE);
# copied here because Python cannot import it, and pinned to it by test/unit/clinical/codes.test.ts.
VITAL_CODES = ["8867-4", "59408-5", "8480-6", "8462-4", "9279-1", "8310-5", "131330"]

_patient_id: dict[str, Any] = {"type": "string", "description": "Patient id, e.g. pat-0001", "minLength": 1}
_fhir_body: dict[str, Any] = {"type": "object"}
_id: dict[str, Any] = {"type": "string", "minLength": 1}
_datetime: dict[str, Any] = {"type": "string", "format": "date-time"}
_objects: dict[str, Any] = {"type": "array", "items": {"type": "object"}}


@dataclass(frozen=True)
class Operation:
    """One API operation: how to call it (method, path, which arguments go where), what it needs
    (scope) and what it answers (model); the agent tools show its name, description and parameters."""

    name: str
    method: str
    path: str
    description: str
    #: JSON Schema (object) of the arguments: path parameters, query parameters and/or ``body``
    parameters: dict[str, Any]
    scope: str | None
    model: type[BaseModel] | None = None
    path_params: tuple[str, ...] = ()
    #: argument names sent as the JSON body (``"*"``: every non-path argument)
    body: tuple[str, ...] = ()
    read_only: bool = True
    extra: dict[str, Any] = field(default_factory=dict)

    def split(self, args: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
        """``(path, query, body)`` for these arguments."""
        path = self.path
        rest = {k: v for k, v in args.items() if v is not None}
        for p in self.path_params:
            if p not in rest:
                raise TypeError(f"{self.name}: missing argument {p!r}")
            path = path.replace("{" + p + "}", quote(str(rest.pop(p)), safe=""))
        if self.body == ("*",):
            return path, {}, rest
        if self.body:
            return path, {k: v for k, v in rest.items() if k not in self.body}, {k: rest[k] for k in self.body if k in rest}
        return path, {k: (",".join(v) if isinstance(v, list) else v) for k, v in rest.items()}, None


def _obj(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


OPERATIONS: dict[str, Operation] = {op.name: op for op in [
    Operation("get_health", "GET", "/api/v1/health", "System health: status of PostgreSQL, Kafka and Redis.", _obj({}, []), None, m.Health),
    Operation("get_identity", "GET", "/agent/identity", "Who the current access token says the caller is (client, scopes, roles).",
              _obj({}, []), "", m.Identity),
    Operation(
        "get_vitals_history", "GET", "/api/v1/vitals",
        "Vitals observations of one patient in [from, to) (at most 31 days), oldest first, paginated; "
        "with `bucket` (1s|1m|1h|1d) aggregated numeric series (avg, min, max, count, last).",
        _obj({
            "patient": _patient_id, "from": _datetime, "to": _datetime,
            "code": {"type": "string", "enum": VITAL_CODES,
                     "description": "LOINC code (8867-4 heart rate, 59408-5 SpO2, 8480-6/8462-4 systolic/diastolic BP, "
                                    "9279-1 respiratory rate, 8310-5 temperature) or 131330 (ECG)"},
            "bucket": {"type": "string", "enum": ["1s", "1m", "1h", "1d"]},
            "agg": {"type": "string", "description": "Comma-separated: avg,min,max,count,last (with bucket)"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 5000},
            "cursor": {"type": "string"},
        }, ["patient", "from", "to"]), "read:vitals",
    ),
    Operation("get_latest_vitals", "GET", "/api/v1/vitals/latest", "The latest observation of each vital sign of a patient.",
              _obj({"patient": _patient_id,
                    "code": {"type": "string", "description": "Comma-separated LOINC codes to keep (all when absent)"}}, ["patient"]),
              "read:vitals", m.LatestVitals),
    Operation("publish_vitals", "POST", "/api/v1/vitals",
              "Publish a batch of vitals observations and/or device frames (one monitor's observations at one tick, "
              "envelope vitals.frame.v1, or vitals.frame.v2 with an ECG chunk as whole 0.1 uV sample_steps); "
              "at least one of either; device ingest, all-or-nothing validation.",
              # "at least one of either" is the server's 422, not a top-level anyOf: tool schemas must be plain objects
              _obj({"observations": {"type": "array", "minItems": 1, "maxItems": 1000, "items": {"type": "object"}},
                    "frames": {"type": "array", "minItems": 1, "maxItems": 500, "items": {"type": "object"}}}, []),
              "write:vitals", m.PublishResult, body=("observations", "frames"), read_only=False),
    Operation("search_patients", "GET", "/api/v1/patients",
              "Search patients by name, birth date or identifier (system|value); a FHIR Bundle of Patient.",
              _obj({"name": {"type": "string"}, "birthdate": {"type": "string", "format": "date"},
                    "identifier": {"type": "string", "description": "system|value"},
                    "limit": {"type": "integer", "minimum": 1}, "cursor": {"type": "string"}}, []),
              "read:patients", m.Bundle),
    Operation("get_patient", "GET", "/api/v1/patients/{id}",
              "A patient's record: {view, patient (FHIR Patient), allergies (FHIR AllergyIntolerance, clinical readers), "
              "latest_vitals and news2 (with read:vitals)}.",
              _obj({"id": _patient_id}, ["id"]), "read:patients", m.PatientRecord, path_params=("id",)),
    Operation("register_patient", "POST", "/api/v1/patients",
              "Register a patient: a FHIR Patient (name, birthDate, gender, identifier, telecom); the id is minted.",
              {"type": "object",
               "properties": {"resourceType": {"const": "Patient"}, "name": {"type": "array", "items": {"type": "object"}, "minItems": 1},
                              "birthDate": {"type": "string", "format": "date"}, "gender": {"type": "string"},
                              "identifier": _objects},
               "required": ["resourceType", "name"]},
              "write:patients", m.Patient, body=("*",), read_only=False),
    Operation("list_appointments", "GET", "/api/v1/appointments",
              "Consultation slots (and booked appointments), FHIR Bundle of Slot: "
              "filter by clinician, patient, from, to, status (free|busy).",
              _obj({"clinician": {"type": "string"}, "patient": {"type": "string"}, "from": _datetime, "to": _datetime,
                    "status": {"type": "string", "enum": ["free", "busy"]}, "limit": {"type": "integer", "minimum": 1, "maximum": 500},
                    "cursor": {"type": "string"}}, []),
              "read:appointments", m.Bundle),
    Operation("book_appointment", "POST", "/api/v1/appointments", "Book a free slot for a patient (409 if taken).",
              _obj({"slot_id": {"type": "string"}, "patient_id": _patient_id, "reason": {"type": "string", "maxLength": 500}}, ["slot_id"]),
              "write:appointments", m.Appointment, body=("*",), read_only=False),
    Operation("cancel_appointment", "POST", "/api/v1/appointments/{id}/cancel", "Cancel a booked appointment (frees the slot).",
              _obj({"id": {"type": "string"}, "reason": {"type": "string", "maxLength": 500}}, ["id"]),
              "write:appointments", m.Appointment, path_params=("id",), body=("*",), read_only=False),
    Operation("reschedule_appointment", "POST", "/api/v1/appointments/{id}/reschedule",
              "Move an appointment to another free slot (atomic).",
              _obj({"id": {"type": "string"}, "slot_id": {"type": "string"}}, ["id", "slot_id"]),
              "write:appointments", m.Appointment, path_params=("id",), body=("*",), read_only=False),
    # Diagnostics (docs/diagnostics.md): doctors order and acknowledge, the lab role posts results,
    # nurses read; a patient reads its own final reports.
    Operation("order_diagnostic_test", "POST", "/api/v1/diagnostics/orders",
              "Order a diagnostic test: a FHIR ServiceRequest (intent order|proposal, priority routine|urgent|asap|stat, "
              "code.coding[0] a LOINC code of GET /api/v1/diagnostics/catalog, subject Patient/<id>, reasonCode).",
              {"type": "object",
               "properties": {"resourceType": {"const": "ServiceRequest"}, "intent": {"type": "string", "enum": ["order", "proposal"]},
                              "priority": {"type": "string", "enum": ["routine", "urgent", "asap", "stat"]},
                              "code": _fhir_body, "subject": _fhir_body, "reasonCode": _objects},
               "required": ["resourceType", "code", "subject"]},
              "write:diagnostics", m.ServiceRequest, body=("*",), read_only=False),
    Operation("list_diagnostic_orders", "GET", "/api/v1/diagnostics/orders",
              "Diagnostic orders by patient and status (comma-separated), newest first; a FHIR Bundle of ServiceRequest.",
              _obj({"patient": _patient_id, "status": {"type": "string"}, "limit": {"type": "integer", "minimum": 1, "maximum": 100}}, []),
              "read:diagnostics", m.Bundle),
    Operation("get_diagnostic_order", "GET", "/api/v1/diagnostics/orders/{id}", "One diagnostic order (FHIR ServiceRequest).",
              _obj({"id": _id}, ["id"]), "read:diagnostics", m.ServiceRequest, path_params=("id",)),
    Operation("cancel_diagnostic_order", "POST", "/api/v1/diagnostics/orders/{id}/cancel",
              "Cancel (revoke) an order that is draft, active or on hold; any other state is a 409 naming it.",
              _obj({"id": _id, "reason": {"type": "string", "maxLength": 2000}}, ["id"]),
              "write:diagnostics", m.ServiceRequest, path_params=("id",), body=("*",), read_only=False),
    Operation("post_diagnostic_report", "POST", "/api/v1/diagnostics/reports",
              "Post results: a FHIR DiagnosticReport basedOn an active order, results as contained Observations "
              "(LOINC, valueQuantity in the catalog's UCUM unit); "
              "a re-post with the same identifier and content answers the stored report; a final report completes the order.",
              {"type": "object",
               "properties": {"resourceType": {"const": "DiagnosticReport"},
                              "status": {"type": "string", "enum": ["registered", "partial", "preliminary", "final"]},
                              "identifier": {"type": "array", "items": {"type": "object"}, "minItems": 1}, "basedOn": _objects,
                              "conclusion": {"type": "string"}, "contained": _objects},
               "required": ["resourceType", "status", "identifier", "basedOn"]},
              "write:diagnostics", m.DiagnosticReport, body=("*",), read_only=False),
    Operation("list_diagnostic_reports", "GET", "/api/v1/diagnostics/reports",
              "Diagnostic reports by patient or order, newest first (a patient user: its own final ones); a FHIR Bundle.",
              _obj({"patient": _patient_id, "order": _id, "limit": {"type": "integer", "minimum": 1, "maximum": 100}}, []), "", m.Bundle),
    Operation("get_diagnostic_report", "GET", "/api/v1/diagnostics/reports/{id}",
              "One diagnostic report (FHIR DiagnosticReport with its Observations contained).",
              _obj({"id": _id}, ["id"]), "", m.DiagnosticReport, path_params=("id",)),
    Operation("get_diagnostic_report_history", "GET", "/api/v1/diagnostics/reports/{id}/history",
              "Every revision of a report: the report as it was, when, by whom, why.",
              _obj({"id": _id}, ["id"]), "", m.ReportHistory, path_params=("id",)),
    Operation("amend_diagnostic_report", "POST", "/api/v1/diagnostics/reports/{id}/amend",
              "Amend or correct a final report (status amended|corrected, reason, the full new contained Observations); "
              "the earlier revision stays readable.",
              _obj({"id": _id, "status": {"type": "string", "enum": ["amended", "corrected"]}, "reason": {"type": "string", "minLength": 1},
                    "contained": _objects, "conclusion": {"type": "string"}}, ["id", "reason", "contained"]),
              "write:diagnostics", m.DiagnosticReport, path_params=("id",), body=("*",), read_only=False),
    Operation("acknowledge_critical_result", "POST", "/api/v1/diagnostics/reports/{id}/acknowledge",
              "Acknowledge a report's critical result (a doctor; who and when are recorded); nothing waiting is a 409.",
              _obj({"id": _id, "note": {"type": "string", "maxLength": 2000}}, ["id"]),
              "write:diagnostics", m.CriticalResult, path_params=("id",), body=("*",), read_only=False),
    Operation("list_critical_results", "GET", "/api/v1/diagnostics/critical-results",
              "Unacknowledged (open or escalated) critical results, oldest first, optionally of one patient.",
              _obj({"patient": _patient_id}, []), "read:diagnostics", m.CriticalResults),
]}
