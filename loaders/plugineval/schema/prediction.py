"""A model's prediction for one record (SPEC §5)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ._base import StrictModel
from .record import Call


class Prediction(StrictModel):
    id: str = Field(min_length=1)
    calls: list[Call] = Field(default_factory=list)
    invalid: bool = False
    """The output could not be parsed (e.g. a tool call whose arguments are not JSON)."""
    invalid_reason: str | None = None
    content: str | None = None
    raw: Any = None
    usage: dict[str, Any] | None = None
    latency_ms: float | None = None
    cost_usd: float | None = None
    model: str | None = None
    error: str | None = None
