"""Typed schema of the catalog, the dataset records and the predictions."""

from .._constants import DIFFICULTIES, KINDS, SPLITS
from ._base import SchemaError, StrictModel
from .catalog import (
    NEGATIVE_KINDS,
    ArgAnnotation,
    Boundary,
    DerivedDefault,
    Domain,
    Plugin,
    Scenario,
    ToolExample,
    ToolSpec,
)
from .prediction import Prediction
from .record import (
    JSON_COLUMNS,
    KIND_LABELS,
    AlternativeCalls,
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
    "AlternativeCalls",
    "ArgAnnotation",
    "Boundary",
    "Call",
    "DerivedDefault",
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
