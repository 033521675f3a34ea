"""Patients and appointments through the Python clients: register and read a patient, book a
free slot, see a second booking refused, cancel. The harness creates free slots for a clinician of
its own (VITALIS_TEST_CLINICIAN); standalone, any free slot is used."""
import os
import uuid

import pytest

from conftest import served
from vitalis_client import AsyncVitalisClient, ConflictError, NotFoundError


async def test_register_read_patient_book_and_cancel(base_url: str, credentials: tuple[str, str]) -> None:
    if not (served(base_url, "GET", "/api/v1/patients/pat-0001") and served(base_url, "GET", "/api/v1/appointments")):
        pytest.skip("patients/appointments are not served yet (issue 5)")
    clinician = os.environ.get("VITALIS_TEST_CLINICIAN")
    async with AsyncVitalisClient.client_credentials(base_url, *credentials) as api:
        registered = await api.register_patient({"resourceType": "Patient",
                                                 "name": [{"family": f"Py{uuid.uuid4().hex[:8]}", "given": ["Ada"]}],
                                                 "birthDate": "1980-02-03", "gender": "female"})
        record = await api.get_patient(registered.id)
        patient = record.patient
        assert patient.id == registered.id and patient.resourceType == "Patient"
        assert "allergies" not in (patient.model_extra or {})
        slots = (await api.list_appointments(status="free", clinician=clinician)).resources("Slot")
        assert slots, "no free slot to book"
        booked = await api.book_appointment(slots[0]["id"], patient.id, "client library test")
        assert booked.status == "booked"
        with pytest.raises(ConflictError):
            await api.book_appointment(slots[0]["id"], patient.id)
        cancelled = await api.cancel_appointment(booked.id, "client library test")
        assert cancelled.status == "cancelled"
        with pytest.raises(NotFoundError):
            await api.cancel_appointment(booked.id)
