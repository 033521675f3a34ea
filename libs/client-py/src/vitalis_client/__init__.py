"""Vitalis client: data models, sync and asyncio clients, async live telemetry, agent tools."""
from .auth import ClientCredentials, RefreshingTokens, Sandbox, StaticToken, TokenAuth, authorization_url, create_pkce, exchange_code
from .client import AsyncVitalisClient, VitalisClient
from .errors import (
    ConflictError,
    ForbiddenError,
    NotFoundError,
    OAuthError,
    ProblemError,
    RateLimitedError,
    UnauthorizedError,
    ValidationError,
    VitalisError,
)
from .models import (
    Appointment,
    BucketPage,
    Bundle,
    CriticalResult,
    CriticalResults,
    DiagnosticReport,
    Health,
    LatestVitals,
    LiveAlert,
    LiveObservation,
    Patient,
    PublishResult,
    ReportHistory,
    ServiceRequest,
    TokenResponse,
    VitalsObservation,
    VitalsPage,
)
from .operations import OPERATIONS, Operation
from .telemetry import AsyncTelemetryClient, SSEParser
from .tools import ToolDefinition, VitalisTools, tool_definitions

__all__ = [
    "OPERATIONS", "Appointment", "AsyncTelemetryClient", "AsyncVitalisClient", "BucketPage", "Bundle", "ClientCredentials",
    "ConflictError", "CriticalResult", "CriticalResults", "DiagnosticReport", "ForbiddenError", "Health", "LatestVitals",
    "LiveAlert", "LiveObservation", "NotFoundError", "OAuthError", "Operation", "Patient", "ProblemError", "PublishResult",
    "RateLimitedError", "RefreshingTokens", "ReportHistory", "SSEParser", "Sandbox", "ServiceRequest", "StaticToken", "TokenAuth",
    "TokenResponse", "ToolDefinition", "UnauthorizedError", "ValidationError", "VitalisClient", "VitalisError", "VitalisTools",
    "VitalsObservation", "VitalsPage", "authorization_url", "create_pkce", "exchange_code", "tool_definitions",
]
