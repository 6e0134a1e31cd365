"""A model's prediction for one record (docs/format.md §9)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

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


class CallLike(Protocol):
    """What the judge reads of a predicted call: a ``Call``, or an adapter's lighter object."""

    @property
    def name(self) -> str: ...

    @property
    def arguments(self) -> dict[str, Any]: ...


class PredictionLike(Protocol):
    """What the judge reads of a prediction: a ``Prediction``, or an adapter's lighter object that
    holds the same fields (``adapters.bfcl.BfclPrediction``: no pydantic model built per pair)."""

    @property
    def calls(self) -> Sequence[CallLike]: ...

    @property
    def invalid(self) -> bool: ...

    @property
    def invalid_reason(self) -> str | None: ...

    @property
    def content(self) -> str | None: ...
