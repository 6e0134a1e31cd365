"""Verdict types: outcomes, error categories and sub-types, per-argument reasons (docs/format.md §6)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    TP = "TP"
    FN = "FN"
    FP = "FP"
    TN = "TN"
    EXCLUDED = "EXCLUDED"


class Category(StrEnum):
    INVALID_OUTPUT = "invalid_output"
    JUDGE_FAILURE = "judge_failure"
    MISS_RECALL = "miss_recall"
    PARAMETER_ERROR = "parameter_error"
    SPURIOUS_CALL = "spurious_call"
    OVER_RECALL = "over_recall"
    BOTH_EMPTY = "both_empty"


class Subtype(StrEnum):
    TEMPORAL = "temporal"
    MISSING_ARGUMENT = "missing_argument"
    INCORRECT_VALUE = "incorrect_value"


class Reason(StrEnum):
    # accepted
    EXACT = "exact"
    NORMALIZED = "normalized"  # equal after width / case / punctuation normalization
    ALIAS = "alias"  # a declared synonym of the gold value
    PLACE_ALIAS = "place_alias"
    NUMBER_EQUAL = "number_equal"
    MONEY_EQUAL = "money_equal"
    QUANTITY_EQUAL = "quantity_equal"
    FORMAT_VARIANT = "format_variant"  # another absolute form of the same date / time
    OMITTABLE = "omittable"  # gold marks it omittable
    DEFAULT = "default"  # omitted, and the gold value is the schema default
    FREE = "free"  # gold lets the prediction add it with any value
    EXTRA = "extra"  # gold lets the prediction add it with one of the values it lists (and it did)
    LLM_EQUIVALENT = "llm_equivalent"
    # rejected
    MISSING = "missing"
    SCHEMA_VIOLATION = "schema_violation"
    UNSUPPORTED_EXTRA = "unsupported_extra"
    RELATIVE_TIME = "relative_time"
    TIME_MISMATCH = "time_mismatch"
    VALUE_MISMATCH = "value_mismatch"
    UNDECIDED = "undecided"  # rules could not decide; counted wrong in rules mode
    IMPLAUSIBLE = "implausible"  # free text the LLM is never asked about (too long, carries sentences)
    LLM_DIFFERENT = "llm_different"
    LLM_INCONSISTENT = "llm_inconsistent"  # the LLM also accepted a decoy: its yes is not trusted
    JUDGE_FAILURE = "judge_failure"


ACCEPTING = frozenset(
    {
        Reason.EXACT,
        Reason.NORMALIZED,
        Reason.ALIAS,
        Reason.PLACE_ALIAS,
        Reason.NUMBER_EQUAL,
        Reason.MONEY_EQUAL,
        Reason.QUANTITY_EQUAL,
        Reason.FORMAT_VARIANT,
        Reason.OMITTABLE,
        Reason.DEFAULT,
        Reason.FREE,
        Reason.EXTRA,
        Reason.LLM_EQUIVALENT,
    }
)


_CORRECT = frozenset({Outcome.TP, Outcome.TN})


@dataclass(slots=True)
class ArgVerdict:
    """One argument of one aligned call pair."""

    call: int  # index of the gold call
    arg: str
    reason: Reason
    temporal: bool = False
    pred: Any = None
    gold: Any = None
    detail: str | None = None

    @property
    def ok(self) -> bool:
        return self.reason in ACCEPTING

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"call": self.call, "arg": self.arg, "ok": self.ok, "reason": str(self.reason)}
        if self.temporal:
            d["temporal"] = True
        if self.pred is not None:
            d["pred"] = _shown(self.pred)
        if self.gold is not None:
            d["gold"] = self.gold
        if self.detail:
            d["detail"] = self.detail
        return d


@dataclass(slots=True, init=False)
class RecordVerdict:
    id: str
    outcome: Outcome
    category: Category | None
    subtype: Subtype | None
    arguments: list[ArgVerdict]
    unmatched_gold: list[str]
    unmatched_pred: list[str]
    called_target: bool
    asks_for_missing: bool | None  # underspecified records: does the reply ask for it?
    detail: str | None
    scored_against: int | None  # None: the gold calls; i: the record's alternative_calls[i]

    def __init__(
        self,
        id: str,
        outcome: Outcome,
        category: Category | None = None,
        subtype: Subtype | None = None,
        arguments: list[ArgVerdict] | None = None,
        unmatched_gold: list[str] | None = None,
        unmatched_pred: list[str] | None = None,
        called_target: bool = False,
        asks_for_missing: bool | None = None,
        detail: str | None = None,
        scored_against: int | None = None,
    ) -> None:
        # written out (not dataclass default factories): one verdict per judged record
        self.id = id
        self.outcome = outcome
        self.category = category
        self.subtype = subtype
        self.arguments = [] if arguments is None else arguments
        self.unmatched_gold = [] if unmatched_gold is None else unmatched_gold
        self.unmatched_pred = [] if unmatched_pred is None else unmatched_pred
        self.called_target = called_target
        self.asks_for_missing = asks_for_missing
        self.detail = detail
        self.scored_against = scored_against

    @property
    def correct(self) -> bool:
        return self.outcome in _CORRECT

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "outcome": str(self.outcome),
            "category": None if self.category is None else str(self.category),
            "subtype": None if self.subtype is None else str(self.subtype),
            "arguments": [a.to_dict() for a in self.arguments],
        }
        if self.unmatched_gold:
            d["unmatched_gold"] = self.unmatched_gold
        if self.unmatched_pred:
            d["unmatched_pred"] = self.unmatched_pred
        if self.asks_for_missing is not None:
            d["asks_for_missing"] = self.asks_for_missing
        if self.detail:
            d["detail"] = self.detail
        if self.scored_against is not None:
            d["scored_against"] = self.scored_against
        return d


SHOWN_CHARS = 200
"""A predicted string longer than the normalizers' cap is kept in a verdict as its first
``SHOWN_CHARS`` characters and its length: a report never copies a hostile megabyte back out."""


def _shown(v: Any) -> Any:
    from plugineval.normalize.limits import MAX_NORMALIZE_CHARS

    if isinstance(v, str) and len(v) > MAX_NORMALIZE_CHARS:
        return f"{v[:SHOWN_CHARS]}… ({len(v):,} characters)"
    return v
