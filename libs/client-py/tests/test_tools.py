"""Agent-framework tools: definitions every framework accepts, and calls that reach the gateway."""
import json

from conftest import uid
from vitalis_client import AsyncVitalisClient, VitalisClient, VitalisTools, tool_definitions


def test_definitions_are_json_schema_tools() -> None:
    defs = tool_definitions()
    names = [d.name for d in defs]
    assert len(names) == len(set(names))
    for d in defs:
        assert d.name.startswith("vitalis_") and len(d.name) <= 64
        schema = d.input_schema
        assert schema["type"] == "object" and set(schema["required"]) <= set(schema["properties"])
        json.dumps(d.openai()), json.dumps(d.anthropic()), json.dumps(d.mcp())
    assert {"vitalis_get_patient", "vitalis_book_appointment", "vitalis_cancel_appointment", "vitalis_get_latest_vitals"} <= set(names)


def test_read_only_selection_excludes_writes(api: VitalisClient) -> None:
    tools = VitalisTools(api, read_only=True)
    assert "vitalis_publish_vitals" not in [t["function"]["name"] for t in tools.openai()]


def test_tool_call_reaches_the_gateway(api: VitalisClient) -> None:
    tools = VitalisTools(api)
    patient = f"pat-py-tool-{uid()}"
    assert tools.call("vitalis_get_latest_vitals", {"patient": patient}) == {"patient_id": patient, "count": 0, "data": []}
    refused = tools.call("vitalis_get_vitals_history", {"patient": patient, "from": "x", "to": "y"})
    assert refused["error"]["status"] == 400


async def test_async_tool_call(base_url: str, credentials: tuple[str, str]) -> None:
    async with AsyncVitalisClient.client_credentials(base_url, *credentials) as api:
        tools = VitalisTools(api)
        health = await tools.acall("vitalis_get_health", {})
        assert health["status"] in ("ok", "degraded")
