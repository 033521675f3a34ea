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

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from .client import AsyncVitalisClient, VitalisClient
from .errors import OAuthError, ProblemError
from .operations import OPERATIONS, Operation


@dataclass(frozen=True)
class ToolDefinition:
    """One operation as an agent tool: name (``vitalis_<operation>``), description, JSON Schema of its
    input, the scope it needs and whether it only reads."""

    name: str
    description: str
    input_schema: dict[str, Any]
    scope: str | None
    read_only: bool

    def openai(self) -> dict[str, Any]:
        """The OpenAI function-tool shape."""
        return {"type": "function", "function": {"name": self.name, "description": self.description, "parameters": self.input_schema}}

    def anthropic(self) -> dict[str, Any]:
        """The Anthropic tool shape."""
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}

    def mcp(self) -> dict[str, Any]:
        """The MCP tool shape, with the read-only hint."""
        return {"name": self.name, "description": self.description, "inputSchema": self.input_schema,
                "annotations": {"readOnlyHint": self.read_only}}


def _definition(op: Operation) -> ToolDefinition:
    needs = f" Requires scope {op.scope}." if op.scope else ""
    return ToolDefinition(f"vitalis_{op.name}", op.description + needs, op.parameters, op.scope, op.read_only)


def tool_definitions(names: Iterable[str] | None = None) -> list[ToolDefinition]:
    """The tool definitions of these operations (by operation name), or of every operation."""
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
    """The tools bound to a client: their definitions in each framework's shape, and ``call`` (sync client) or
    ``acall`` (async client) to run one by its tool name. ``read_only`` keeps only the tools that only read."""

    def __init__(self, api: VitalisClient | AsyncVitalisClient, names: Iterable[str] | None = None, *, read_only: bool = False):
        self.api = api
        defs = tool_definitions(names)
        self.definitions = [d for d in defs if d.read_only or not read_only]
        self._by_name = {d.name: d for d in self.definitions}

    def openai(self) -> list[dict[str, Any]]:
        """Every tool in the OpenAI shape."""
        return [d.openai() for d in self.definitions]

    def anthropic(self) -> list[dict[str, Any]]:
        """Every tool in the Anthropic shape."""
        return [d.anthropic() for d in self.definitions]

    def mcp(self) -> list[dict[str, Any]]:
        """Every tool in the MCP shape."""
        return [d.mcp() for d in self.definitions]

    def _operation(self, name: str) -> str:
        if name not in self._by_name:
            raise KeyError(f"unknown tool {name!r}")
        return name.removeprefix("vitalis_")

    def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """Runs a tool with the sync client: the result as JSON, or ``{"error": ...}`` when the API refused."""
        assert isinstance(self.api, VitalisClient), "use acall() with an AsyncVitalisClient"
        try:
            return _jsonable(self.api.call(self._operation(name), **arguments))
        except (ProblemError, OAuthError) as err:
            return _error(err)

    async def acall(self, name: str, arguments: dict[str, Any]) -> Any:
        """Runs a tool with the async client: the result as JSON, or ``{"error": ...}`` when the API refused."""
        assert isinstance(self.api, AsyncVitalisClient), "use call() with a VitalisClient"
        try:
            return _jsonable(await self.api.call(self._operation(name), **arguments))
        except (ProblemError, OAuthError) as err:
            return _error(err)
