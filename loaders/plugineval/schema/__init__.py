"""Typed schema of the catalog, the dataset records and the predictions."""

from ._base import SchemaError, StrictModel
from .catalog import (
    NEGATIVE_KINDS,
    ArgAnnotation,
    Boundary,
    Domain,
    Plugin,
    Scenario,
    ToolExample,
    ToolSpec,
)
from .prediction import Prediction
from .record import (
    DIFFICULTIES,
    JSON_COLUMNS,
    KIND_LABELS,
    KINDS,
    SPLITS,
    Call,
    DifficultyBasis,
    GoldAlternative,
    Record,
    Source,
)

__all__ = [
    "DIFFICULTIES",
    "JSON_COLUMNS",
    "KINDS",
    "KIND_LABELS",
    "NEGATIVE_KINDS",
    "SPLITS",
    "ArgAnnotation",
    "Boundary",
    "Call",
    "DifficultyBasis",
    "Domain",
    "GoldAlternative",
    "Plugin",
    "Prediction",
    "Record",
    "Scenario",
    "SchemaError",
    "Source",
    "StrictModel",
    "ToolExample",
    "ToolSpec",
]
