"""Agent-framework tools: the API's operations as tool definitions (name, description, JSON Schema
of the arguments) plus a dispatcher, in the shapes the common frameworks register:

    tools = VitalisTools(api)                       # api: VitalisClient or AsyncVitalisClient
    openai_tools = tools.openai()                   # [{"type": "function", "function": {...}}]
    anthropic_tools = tools.anthropic()             # [{"name", "description", "input_schema"}]
    result = tools.call("get_patient", {"id": "pat-0001"})        # sync client
    result = await tools.acall("get_patient", {"id": "pat-0001"}) # async client

Results are JSON-ready dicts (what a model reads back); API errors become ``{"error": {...problem}}``
results rather than exceptions, so the agent can read and recover.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Optional, Union

from pydantic import BaseModel

from .client import AsyncVitalisClient, VitalisClient
from .errors import OAuthError, ProblemError
from .operations import OPERATIONS, Operation


@dataclass(frozen=True)
class ToolDefinition:
    name: str
    description: str
    input_schema: dict[str, Any]
    scope: Optional[str]
    read_only: bool

    def openai(self) -> dict[str, Any]:
        return {"type": "function", "function": {"name": self.name, "description": self.description, "parameters": self.input_schema}}

    def anthropic(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}

    def mcp(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "inputSchema": self.input_schema,
                "annotations": {"readOnlyHint": self.read_only}}


def _definition(op: Operation) -> ToolDefinition:
    needs = f" Requires scope {op.scope}." if op.scope else ""
    return ToolDefinition(f"vitalis_{op.name}", op.description + needs, op.parameters, op.scope, op.read_only)


def tool_definitions(names: Iterable[str] | None = None) -> list[ToolDefinition]:
    return [_definition(OPERATIONS[n]) for n in (names or OPERATIONS)]


def _jsonable(result: Any) -> Any:
    if isinstance(result, BaseModel):
        return result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return result


def _error(err: Exception) -> dict[str, Any]:
    if isinstance(err, ProblemError):
        return {"error": err.problem}
    if isinstance(err, OAuthError):
        return {"error": {"error": err.error, "error_description": err.description}}
    raise err


class VitalisTools:
    def __init__(self, api: Union[VitalisClient, AsyncVitalisClient], names: Iterable[str] | None = None, *, read_only: bool = False):
        self.api = api
        defs = tool_definitions(names)
        self.definitions = [d for d in defs if d.read_only or not read_only]
        self._by_name = {d.name: d for d in self.definitions}

    def openai(self) -> list[dict[str, Any]]:
        return [d.openai() for d in self.definitions]

    def anthropic(self) -> list[dict[str, Any]]:
        return [d.anthropic() for d in self.definitions]

    def mcp(self) -> list[dict[str, Any]]:
        return [d.mcp() for d in self.definitions]

    def _operation(self, name: str) -> str:
        if name not in self._by_name:
            raise KeyError(f"unknown tool {name!r}")
        return name.removeprefix("vitalis_")

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        assert isinstance(self.api, VitalisClient), "use acall() with an AsyncVitalisClient"
        try:
            return _jsonable(self.api.call(self._operation(name), **arguments))
        except (ProblemError, OAuthError) as err:
            return _error(err)

    async def acall(self, name: str, arguments: dict[str, Any]) -> Any:
        assert isinstance(self.api, AsyncVitalisClient), "use call() with a VitalisClient"
        try:
            return _jsonable(await self.api.call(self._operation(name), **arguments))
        except (ProblemError, OAuthError) as err:
            return _error(err)
