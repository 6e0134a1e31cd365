"""Catalog types: domains, plugins, tools, capability boundaries and scenarios.

The catalog is data (YAML files under ``plugineval/catalog/data``); these models are its contract.
Judge-only knowledge (argument synonyms, which arguments are temporal) sits beside the JSON Schema in
``annotations`` and never reaches the model under test.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, PrivateAttr, SerializerFunctionWrapHandler, model_serializer, model_validator

from ._base import ID_PATTERN, TOOL_NAME_PATTERN, StrictModel
from .disclosure import shown_description

Scalar = str | int | float | bool

ScenarioKind = Literal["trigger", "neg_A", "neg_B", "neg_C", "underspecified"]
NEGATIVE_KINDS: tuple[str, ...] = ("neg_A", "neg_B", "neg_C", "underspecified")

BoundaryKind = Literal[
    "max_days_ahead",  # a date argument at most `days` days after the reference date
    "no_past",  # a date argument not before the reference date
    "max_days_back",  # a date argument at most `days` days before the reference date
    "allowed_values",  # the argument must be one of `values`
    "place_scope",  # a place argument must be domestic (mainland China) or foreign, per the gazetteer
    "max_value",  # a number at most `limit`
    "min_value",  # a number at least `limit`
    "max_items",  # an array with at most `limit` items
    "max_span_days",  # from `argument` to `end_argument` at most `days` days
]


class DerivedDefault(StrictModel):
    """The tool's default for an argument, when left out: the date in ``from_argument`` plus ``days``
    days (``date_to`` defaults to ``date_from`` + 6 days); ``from_argument: reference_date`` names the
    record's own date, the tool's "today" (an ``end_date`` that defaults to today)."""

    from_argument: str = Field(min_length=1)
    days: int = 0
    of: Literal["date", "count"] = "date"
    """``date``: that date plus ``days``; ``count``: the number of items in ``from_argument`` (a ticket
    count that follows the seats chosen)."""

    @model_serializer(mode="wrap")
    def _omit_date(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # a date default serializes as before 1.2.0 (rows carry only what a count default adds)
        out: dict[str, Any] = handler(self)
        if out.get("of") == "date":
            del out["of"]
        return out


class ArgAnnotation(StrictModel):
    """Judge-only knowledge about one argument."""

    aliases: dict[str, Scalar] = Field(default_factory=dict)
    """Declared synonyms: surface form -> canonical value (e.g. 二等座 -> second_class)."""
    time_valued: bool = False
    derived_default: DerivedDefault | None = None
    """Where the tool's default for this argument follows from another argument (a date plus days)."""
    unordered: bool = False
    """An array whose order carries no meaning (the drugs of an interaction check): the judge compares
    it as a multiset. Declared, never guessed; only an array argument may carry it."""
    scales: list[str] = Field(default_factory=list)
    """The answer's fields this argument only scales (an amount to convert: the converted sum). Where
    the gold leaves the argument out, the request asks for what it does not scale (泰铢什么价格: the
    rate), so the builder lets a prediction set it to any value once execution shows the rest of the
    answer unchanged. Builder knowledge, declared, never guessed."""
    swaps_with: str | None = None
    """The argument this one trades places with where the request asks a rate only (from_currency and
    to_currency of 日元什么价): with no scaling amount given, either order of the pair answers with the
    same facts, which the builder checks by execution. Builder knowledge, declared, never guessed."""

    @model_serializer(mode="wrap")
    def _omit_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # an argument without them serializes as before: rows and the catalog dump grow neither a null
        # derived_default nor an ``unordered: false``
        out: dict[str, Any] = handler(self)
        if out.get("derived_default", 0) is None:
            del out["derived_default"]
        if out.get("unordered") is False:
            del out["unordered"]
        if not out.get("scales", 1):
            del out["scales"]
        if out.get("swaps_with", 0) is None:
            del out["swaps_with"]
        return out


class ToolExample(StrictModel):
    reference_time: str
    arguments: dict[str, Any]


class ToolSpec(StrictModel):
    name: str = Field(pattern=TOOL_NAME_PATTERN)
    description: str = Field(min_length=4)
    parameters: dict[str, Any]
    output: dict[str, Any]
    annotations: dict[str, ArgAnnotation] = Field(default_factory=dict)
    stateful: bool = False
    examples: list[ToolExample] = Field(min_length=1)
    _shown: str | None = PrivateAttr(default=None)
    """The model-facing description, composed by the plugin (``disclosure.shown_description``)."""

    @model_validator(mode="after")
    def _check_schema_shape(self) -> ToolSpec:
        p = self.parameters
        if p.get("type") != "object" or not isinstance(p.get("properties"), dict):
            raise ValueError("parameters must be a JSON Schema with type 'object' and 'properties'")
        props: dict[str, Any] = p["properties"]
        for req in p.get("required", []):
            if req not in props:
                raise ValueError(f"required argument {req!r} is not among the properties")
        for arg, ann in self.annotations.items():
            if arg not in props:
                raise ValueError(f"annotations name unknown argument {arg!r}")
            if ann.unordered and props[arg].get("type") != "array":
                raise ValueError(f"argument {arg!r} is declared unordered but is not an array")
            if ann.scales and (
                arg in p.get("required", []) or props[arg].get("type") not in ("number", "integer")
            ):
                raise ValueError(f"argument {arg!r} declares the fields it scales but is no optional number")
            if ann.swaps_with is not None and ann.swaps_with not in props:
                raise ValueError(f"argument {arg!r} swaps with unknown argument {ann.swaps_with!r}")
            unknown = [f for f in ann.scales if f not in self.output.get("properties", {})]
            if unknown:
                raise ValueError(f"argument {arg!r} scales output fields the tool does not have: {unknown}")
        if self.output.get("type") != "object":
            raise ValueError("output must be a JSON Schema with type 'object'")
        return self

    @property
    def properties(self) -> dict[str, Any]:
        props: dict[str, Any] = self.parameters["properties"]
        return props

    @property
    def required(self) -> list[str]:
        req: list[str] = self.parameters.get("required", [])
        return req

    @property
    def shown_description(self) -> str:
        """What the model reads: the authored ``description`` plus the plugin's capability statement and
        every boundary the tool enforces (composed when its plugin is validated). ``description`` stays
        the authored text, for people (``plugineval catalog show``)."""
        return self._shown if self._shown is not None else self.description

    def openai_function(self) -> dict[str, Any]:
        """The tool as a model sees it: OpenAI function format, no judge-only keys."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.shown_description,
                "parameters": self.parameters,
            },
        }


class Boundary(StrictModel):
    """A capability limit stated as data that code checks, with a sentence for people."""

    id: str = Field(pattern=ID_PATTERN)
    kind: BoundaryKind
    tools: list[str] = Field(min_length=1)
    argument: str
    description: str = Field(min_length=4)
    code: str = Field(pattern=r"^[A-Z][A-Z0-9_]*$")
    days: int | None = Field(default=None, ge=0)
    values: list[Scalar] | None = None
    scope: Literal["domestic", "foreign"] | None = None
    limit: float | None = None
    end_argument: str | None = None
    violation: Scalar | None = None
    """A violating value, for kinds where one cannot be derived (allowed_values, place_scope)."""
    splittable: bool = False
    """max_items: a list the read-only tool answers item by item or pair by pair (drugs checked for
    interactions, cities converted): calls over parts of the list answer the whole request, so a
    longer list crosses no limit a careful grader would hold (never a list that filters one search)."""

    @model_validator(mode="after")
    def _check_kind_fields(self) -> Boundary:
        need: dict[str, tuple[str, ...]] = {
            "max_days_ahead": ("days",),
            "no_past": (),
            "max_days_back": ("days",),
            "allowed_values": ("values", "violation"),
            "place_scope": ("scope", "violation"),
            "max_value": ("limit",),
            "min_value": ("limit",),
            "max_items": ("limit",),
            "max_span_days": ("days", "end_argument"),
        }
        missing = [f for f in need[self.kind] if getattr(self, f) is None]
        if missing:
            raise ValueError(f"boundary kind {self.kind!r} needs {', '.join(missing)}")
        if self.kind == "allowed_values" and self.values is not None and self.violation in self.values:
            raise ValueError("violation must not be one of the allowed values")
        return self


class Scenario(StrictModel):
    """A trigger scenario (the plugin should be called) or an exclusion scenario (it should not)."""

    id: str = Field(pattern=ID_PATTERN)
    kind: ScenarioKind
    description: str = Field(min_length=4)
    example: str = Field(min_length=2)
    tools: list[str] = Field(default_factory=list)
    """trigger: the tools the request needs; underspecified: the tool that lacks information."""
    needed_plugin: str | None = None
    """neg_B: the plugin that is really needed."""
    boundary: str | None = None
    """neg_C: the boundary the request crosses."""
    missing: list[str] = Field(default_factory=list)
    """underspecified: the required arguments the query does not give."""

    @model_validator(mode="after")
    def _check_kind_fields(self) -> Scenario:
        k = self.kind
        if k == "trigger" and not self.tools:
            raise ValueError("a trigger scenario names the tools it calls")
        if k == "neg_B" and not self.needed_plugin:
            raise ValueError("a neg_B scenario names needed_plugin")
        if k == "neg_C" and not self.boundary:
            raise ValueError("a neg_C scenario names the boundary it crosses")
        if k == "underspecified" and (len(self.tools) != 1 or not self.missing):
            raise ValueError("an underspecified scenario names one tool and the missing arguments")
        return self


class Plugin(StrictModel):
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=2)
    description: str = Field(min_length=8)
    tools: list[ToolSpec] = Field(min_length=1)
    boundaries: list[Boundary] = Field(default_factory=list)
    scenarios: list[Scenario] = Field(min_length=1)

    @model_validator(mode="after")
    def _compose_shown_descriptions(self) -> Plugin:
        # once, in the core: every consumer of openai_function() reads the same text
        for t in self.tools:
            t._shown = shown_description(self, t)
        return self

    @property
    def tool_names(self) -> list[str]:
        return [t.name for t in self.tools]

    def tool(self, name: str) -> ToolSpec:
        for t in self.tools:
            if t.name == name:
                return t
        raise KeyError(f"plugin {self.id!r} has no tool {name!r}")

    def boundary(self, boundary_id: str) -> Boundary:
        for b in self.boundaries:
            if b.id == boundary_id:
                return b
        raise KeyError(f"plugin {self.id!r} has no boundary {boundary_id!r}")


class Domain(StrictModel):
    id: str = Field(pattern=ID_PATTERN)
    name: str = Field(min_length=2)
    description: str = Field(min_length=4)
    plugins: list[Plugin] = Field(min_length=1)
