"""The dataset record of docs/format.md §2, with lossless conversion to and from a flat ``datasets`` row."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from .._constants import Difficulty, Kind, Split
from ._base import SchemaError, StrictModel, assemble, validate_or_raise
from .catalog import ArgAnnotation

NegativeScope = Literal["none", "global", "targeted"]

# Which (needs_tool, target_relevant) pair each kind must carry (docs/format.md §1).
KIND_LABELS: dict[str, tuple[bool, bool]] = {
    "positive": (True, True),
    "neg_A": (False, False),
    "neg_B": (True, False),
    "neg_C": (True, False),
    "underspecified": (True, True),
}

JSON_COLUMNS: tuple[str, ...] = (
    "tools",
    "tool_annotations",
    "gold_calls",
    "gold_alternatives",
    "alternative_calls",
    "difficulty_basis",
    "source",
    "verification",
)


class Call(StrictModel):
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


def trusted_call(name: str, arguments: dict[str, Any]) -> Call:
    """``Call(name=name, arguments=arguments)`` without validation, for a caller that checked both
    (a str name, a dict of arguments): the hot path of reading predictions and mapping BFCL calls."""
    return assemble(Call, {"name": name, "arguments": arguments}, {"name", "arguments"})


class GoldAlternative(StrictModel):
    """Accepted variation for one gold call (aligned with ``gold_calls`` by position)."""

    values: dict[str, list[Any]] = Field(default_factory=dict)
    omittable: list[str] = Field(default_factory=list)
    free: list[str] = Field(default_factory=list)
    extra: dict[str, list[Any]] = Field(default_factory=dict)
    """An argument the gold call leaves out that a prediction may add with one of these values."""


_NO_ALTERNATIVE = GoldAlternative()


class AlternativeCalls(StrictModel):
    """Another complete call list that serves the request as well as ``gold_calls`` (docs/format.md §2.2), with
    its own accepted variation aligned with ``calls`` by position (or none)."""

    calls: list[Call] = Field(min_length=1)
    alternatives: list[GoldAlternative] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check_aligned(self) -> AlternativeCalls:
        if self.alternatives and len(self.alternatives) != len(self.calls):
            raise ValueError("alternatives must align with calls (same length)")
        return self

    def aligned(self) -> list[GoldAlternative]:
        """Alternatives aligned with calls (empty ones when there are none)."""
        if self.alternatives:
            return list(self.alternatives)
        return [_NO_ALTERNATIVE] * len(self.calls)


class DifficultyBasis(StrictModel):
    type: Literal["inference_depth", "behavioral"]
    depth: int | None = Field(default=None, ge=0)
    steps: list[str] = Field(default_factory=list)
    p_K: float | None = Field(default=None, ge=0.0, le=1.0)
    K: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _check(self) -> DifficultyBasis:
        if self.type == "inference_depth" and self.depth is None:
            raise ValueError("inference_depth basis needs depth")
        if self.type == "behavioral" and (self.p_K is None or self.K is None):
            raise ValueError("behavioral basis needs p_K and K")
        return self


class Source(StrictModel):
    type: Literal["real", "synthetic"]
    origin: str
    license: str
    canary: str | None = None


class Record(StrictModel):
    id: str = Field(min_length=1)
    version: str
    language: str = "zh"
    query: str = Field(min_length=1)
    reference_time: str
    domain: str
    target_plugin: str
    target_tools: list[str]
    kind: Kind
    negative_scope: NegativeScope
    needs_tool: bool
    target_relevant: bool
    tools: list[dict[str, Any]]
    tool_annotations: dict[str, dict[str, ArgAnnotation]] = Field(default_factory=dict)
    gold_calls: list[Call] = Field(default_factory=list)
    gold_alternatives: list[GoldAlternative] = Field(default_factory=list)
    alternative_calls: list[AlternativeCalls] = Field(default_factory=list)
    difficulty: Difficulty
    difficulty_basis: DifficultyBasis
    primary_scenario: str
    aux_scenarios: list[str] = Field(default_factory=list)
    source: Source
    verification: dict[str, Any] = Field(default_factory=dict)
    split: Split

    @field_validator("reference_time")
    @classmethod
    def _aware_iso(cls, v: str) -> str:
        try:
            dt = datetime.fromisoformat(v)
        except ValueError:
            raise ValueError("reference_time must be ISO 8601, e.g. 2026-03-18T09:30:00+08:00") from None
        if dt.tzinfo is None:
            raise ValueError("reference_time must carry a UTC offset, e.g. +08:00")
        return v

    @model_validator(mode="after")
    def _check_labels(self) -> Record:
        want = KIND_LABELS[self.kind]
        if (self.needs_tool, self.target_relevant) != want:
            raise ValueError(
                f"kind {self.kind!r} needs (needs_tool, target_relevant) = {want}, "
                f"got ({self.needs_tool}, {self.target_relevant})"
            )
        if (self.kind == "positive") != (self.negative_scope == "none"):
            raise ValueError("negative_scope is 'none' exactly for positives")
        if self.kind != "positive" and self.gold_calls:
            raise ValueError("a negative record has no gold_calls")
        if self.gold_alternatives and len(self.gold_alternatives) != len(self.gold_calls):
            raise ValueError("gold_alternatives must align with gold_calls (same length)")
        if self.alternative_calls and self.kind != "positive":
            raise ValueError("only a positive record has alternative_calls")
        return self

    @property
    def is_positive(self) -> bool:
        return self.kind == "positive"

    @property
    def reference_datetime(self) -> datetime:
        return datetime.fromisoformat(self.reference_time)

    def alternatives(self) -> list[GoldAlternative]:
        """Alternatives aligned with gold_calls (empty ones when the record has none)."""
        if self.gold_alternatives:
            return list(self.gold_alternatives)
        return [_NO_ALTERNATIVE] * len(self.gold_calls)

    def tool_schemas(self) -> dict[str, dict[str, Any]]:
        """Offered tool name -> its parameters JSON Schema."""
        out: dict[str, dict[str, Any]] = {}
        for t in self.tools:
            fn = t.get("function", t)
            out[str(fn["name"])] = fn.get("parameters", {})
        return out

    def to_row(self) -> dict[str, Any]:
        """Flat row: JSON-valued fields become JSON strings (ensure_ascii=False)."""
        row = self.model_dump(mode="json")
        for col in JSON_COLUMNS:
            row[col] = json.dumps(row[col], ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return row

    @classmethod
    def from_row(cls, row: dict[str, Any], memo: dict[Any, Any] | None = None) -> Record:
        """Inverse of ``to_row``; errors name the record id and the field. ``memo`` (one dict shared
        by the rows of one load) parses each distinct offered-tool and tool-annotation text once:
        records of a release offer the same few dozen tools over and over."""
        rid = str(row.get("id", "<no id>"))
        data = dict(row)
        for col in JSON_COLUMNS:
            v = data.get(col)
            if isinstance(v, str):
                try:
                    if memo is None or col not in _MEMO_COLUMNS:
                        data[col] = json.loads(v)
                    else:
                        data[col] = _MEMO_COLUMNS[col](v, memo)
                except json.JSONDecodeError as e:
                    raise SchemaError(f"record {rid}", [f"{col}: not valid JSON ({e.msg})"]) from None
        if memo is not None and isinstance(data.get("tool_annotations"), dict):
            data["tool_annotations"] = _annotation_models(data["tool_annotations"], memo)
        return validate_or_raise(cls, data, f"record {rid}")


def _annotation_models(anns: dict[str, Any], memo: dict[Any, Any]) -> dict[str, Any]:
    """A tool's annotations, validated once per parsed object (the tool-annotation memo hands the
    same object to every record offering that tool); pydantic keeps model instances as they are.
    An annotation that does not validate stays raw, for the record's validation to name."""
    out: dict[str, Any] = {}
    for tool, per_arg in anns.items():
        key = ("annotation models", id(per_arg))
        hit = memo.get(key)
        if hit is None or hit[0] is not per_arg:
            try:
                models = {a: ArgAnnotation.model_validate(x) for a, x in per_arg.items()}
            except (AttributeError, ValueError):  # not a dict, or a field that does not validate
                models = per_arg
            hit = memo[key] = (per_arg, models)  # holding per_arg keeps its id from being reused
        out[tool] = hit[1]
    return out


_NOT_ONE_OBJECT = object()


def _object_text(text: str, memo: dict[str, Any]) -> Any:
    """The object a text parses to, or _NOT_ONE_OBJECT; memoized (misses too)."""
    hit = memo.get(text)
    if hit is None:
        try:
            hit = json.loads(text)
        except json.JSONDecodeError:
            hit = _NOT_ONE_OBJECT
        if not isinstance(hit, dict):
            hit = _NOT_ONE_OBJECT
        memo[text] = hit
    return hit


def _objects(s: str, memo: dict[str, Any]) -> Any:
    """``json.loads(s)`` for a compact JSON array of objects, each distinct element text parsed once.

    The text is cut at every ``},{``; a cut is an element boundary exactly when the text before it
    (closed by its ``}``) is one complete JSON object — a cut inside a string or a nested array
    leaves a string or a bracket open, so that text does not parse, and the piece is joined to the
    next. The array is then exactly the list of those element texts. Anything else (another shape,
    a piece that never closes) is parsed whole by ``json.loads``, which raises what is wrong."""
    if not (s.startswith("[{") and s.endswith("}]")):
        return json.loads(s)
    parts = s[1:-1].split("},{")
    out: list[Any] = []
    cur = parts[0]
    for p in parts[1:]:
        obj = _object_text(cur + "}", memo)
        if obj is _NOT_ONE_OBJECT:
            cur = cur + "},{" + p
        else:
            out.append(obj)
            cur = "{" + p
    obj = _object_text(cur, memo)
    if obj is _NOT_ONE_OBJECT:
        return json.loads(s)
    out.append(obj)
    return out


def _members(s: str, memo: dict[str, Any]) -> Any:
    """``json.loads(s)`` for a compact JSON object whose values are objects (tool name -> its
    argument annotations), each distinct member text parsed once — by the argument of ``_objects``:
    a cut at ``},"`` is a member boundary exactly when the member before it is complete."""
    if not (s.startswith('{"') and s.endswith("}}")):
        return json.loads(s)
    parts = s[1:-1].split('},"')
    out: dict[str, Any] = {}
    n = 0
    cur = parts[0]
    for p in parts[1:]:
        one = _object_text("{" + cur + "}}", memo)
        if one is _NOT_ONE_OBJECT or len(one) != 1:
            cur = cur + '},"' + p
        else:
            out.update(one)
            n += 1
            cur = '"' + p
    one = _object_text("{" + cur + "}", memo)
    if one is _NOT_ONE_OBJECT or len(one) != 1:
        return json.loads(s)
    out.update(one)
    if len(out) != n + 1:  # a repeated key: let json.loads decide, as it would
        return json.loads(s)
    return out


_MEMO_COLUMNS = {"tools": _objects, "tool_annotations": _members}
