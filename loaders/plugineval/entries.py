"""The per-record entry of a report: one record's verdict (the judge's enums) and the record fields
the metrics break down by (docs/format.md §7).

Inside the core an entry is a ``VerdictEntry``; ``report.json``'s ``per_record`` holds its JSON form,
converted only at the report boundary (``to_json`` / ``from_json``). ``from_json(d).to_json()`` gives
back ``d`` with its keys in their order, so a loaded report saves to the same bytes. The key names
below are the ones a reader of stored JSON (the Space's leaderboard) uses.

For callers that read entries as mappings, a ``VerdictEntry`` also answers ``e["outcome"]`` and
``e.get("detail")`` with the JSON key names (the enums compare equal to their strings).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .judge._types import Category, Outcome, Subtype

if TYPE_CHECKING:
    from .judge._types import RecordVerdict
    from .schema import Record

# the keys of an entry's JSON form, in the order an entry writes them
OUTCOME = "outcome"
CATEGORY = "category"
SUBTYPE = "subtype"
ARGUMENTS = "arguments"
UNMATCHED_GOLD = "unmatched_gold"
UNMATCHED_PRED = "unmatched_pred"
ASKS_FOR_MISSING = "asks_for_missing"
DETAIL = "detail"
SCORED_AGAINST = "scored_against"
KIND = "kind"
NEGATIVE_SCOPE = "negative_scope"
DIFFICULTY = "difficulty"
DOMAIN = "domain"
TARGET_PLUGIN = "target_plugin"
TOOLS = "tools"
SCENARIO = "scenario"
STEPS = "steps"  # a positive's counted inference steps (docs/format.md §2.4), where it has any
# keys of one argument verdict in ``arguments``
ARG_NAME = "arg"
ARG_OK = "ok"
ARG_REASON = "reason"
ARG_PRED = "pred"
ARG_GOLD = "gold"

POSITIVE = "positive"  # the ``kind`` whose records are counted as positives
UNDERSPECIFIED = "underspecified"
CORRECT = frozenset({Outcome.TP, Outcome.TN})

FIELDS = (
    OUTCOME,
    CATEGORY,
    SUBTYPE,
    ARGUMENTS,
    UNMATCHED_GOLD,
    UNMATCHED_PRED,
    ASKS_FOR_MISSING,
    DETAIL,
    SCORED_AGAINST,
    KIND,
    NEGATIVE_SCOPE,
    DIFFICULTY,
    DOMAIN,
    TARGET_PLUGIN,
    TOOLS,
    SCENARIO,
    STEPS,
)
_FIELDS = frozenset(FIELDS)
_ALWAYS = (OUTCOME, CATEGORY, SUBTYPE, ARGUMENTS)
_RECORD = (KIND, NEGATIVE_SCOPE, DIFFICULTY, DOMAIN, TARGET_PLUGIN, TOOLS, SCENARIO)
_LISTS = frozenset({ARGUMENTS, UNMATCHED_GOLD, UNMATCHED_PRED, TOOLS, STEPS})
LIST_KEYS = _LISTS  # the list-valued keys: an entry without one has an empty list


@dataclass(frozen=True, slots=True, eq=True)
class VerdictEntry(Mapping[str, Any]):
    outcome: Outcome
    category: Category | None = None
    subtype: Subtype | None = None
    arguments: tuple[Mapping[str, Any], ...] = ()
    """The argument verdicts in their JSON form (``ArgVerdict.to_dict``)."""
    unmatched_gold: tuple[str, ...] = ()
    unmatched_pred: tuple[str, ...] = ()
    asks_for_missing: bool | None = None
    detail: str | None = None
    scored_against: int | None = None
    kind: str | None = None
    negative_scope: str | None = None
    difficulty: str | None = None
    domain: str | None = None
    target_plugin: str | None = None
    tools: tuple[str, ...] = ()
    scenario: str | None = None
    steps: tuple[str, ...] = ()
    keys_: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """The JSON keys this entry writes, in order."""
    extra: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """Keys of a stored entry that are none of ``FIELDS``, kept as they were."""

    @property
    def correct(self) -> bool:
        return self.outcome in CORRECT

    @property
    def excluded(self) -> bool:
        return self.outcome is Outcome.EXCLUDED

    @property
    def positive(self) -> bool:
        return self.kind == POSITIVE

    @classmethod
    def from_verdict(cls, record: Record, verdict: RecordVerdict) -> VerdictEntry:
        """The entry of one judged record (what ``plugineval.scoring.evaluate`` reports)."""
        tools = sorted({c.name for c in record.gold_calls}) or list(record.target_tools)
        keys = [*_ALWAYS]
        if verdict.unmatched_gold:
            keys.append(UNMATCHED_GOLD)
        if verdict.unmatched_pred:
            keys.append(UNMATCHED_PRED)
        if verdict.asks_for_missing is not None:
            keys.append(ASKS_FOR_MISSING)
        if verdict.detail:
            keys.append(DETAIL)
        if verdict.scored_against is not None:
            keys.append(SCORED_AGAINST)
        keys += _RECORD
        steps = tuple(record.difficulty_basis.steps) if record.kind == POSITIVE else ()
        if steps:
            keys.append(STEPS)
        return cls(
            outcome=verdict.outcome,
            category=verdict.category,
            subtype=verdict.subtype,
            arguments=tuple(a.to_dict() for a in verdict.arguments),
            unmatched_gold=tuple(verdict.unmatched_gold),
            unmatched_pred=tuple(verdict.unmatched_pred),
            asks_for_missing=verdict.asks_for_missing,
            detail=verdict.detail,
            scored_against=verdict.scored_against,
            kind=record.kind,
            negative_scope=record.negative_scope,
            difficulty=record.difficulty,
            domain=record.domain,
            target_plugin=record.target_plugin,
            tools=tuple(tools),
            scenario=record.primary_scenario,
            steps=steps,
            keys_=tuple(keys),
        )

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> VerdictEntry:
        """An entry from its JSON form (a stored report's, or the Space's slimmer stored copy)."""
        if isinstance(d, VerdictEntry):
            return d
        if OUTCOME not in d:
            raise ValueError(f"not a per-record entry: missing {OUTCOME!r}")
        kw: dict[str, Any] = {}
        for k in _FIELDS.intersection(d):
            v = d[k]
            if k in _LISTS and v is not None:
                v = tuple(v)
            kw[k] = v
        kw[OUTCOME] = Outcome(d[OUTCOME])
        if d.get(CATEGORY) is not None:
            kw[CATEGORY] = Category(d[CATEGORY])
        if d.get(SUBTYPE) is not None:
            kw[SUBTYPE] = Subtype(d[SUBTYPE])
        extra = {k: v for k, v in d.items() if k not in _FIELDS}
        return cls(**kw, keys_=tuple(d), extra=extra)

    def _json_value(self, k: str) -> Any:
        if k not in _FIELDS:
            return self.extra[k]
        v = getattr(self, k)
        if k in (OUTCOME, CATEGORY, SUBTYPE):
            return None if v is None else str(v)
        if k in _LISTS and v is not None:
            return list(v)
        return v

    def to_json(self) -> dict[str, Any]:
        """The JSON form, with the keys (and their order) this entry was made with."""
        return {k: self._json_value(k) for k in self.keys_}

    # read-only mapping over the JSON keys, for callers that index entries by name
    def __getitem__(self, k: str) -> Any:
        if k not in self.keys_:
            raise KeyError(k)
        return self._json_value(k)

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys_)

    def __len__(self) -> int:
        return len(self.keys_)

    def __contains__(self, k: object) -> bool:
        return k in self.keys_


def typed(entries: Iterable[Mapping[str, Any]]) -> list[VerdictEntry]:
    """Entries as ``VerdictEntry`` (typed ones pass through; JSON dicts are converted)."""
    return [e if isinstance(e, VerdictEntry) else VerdictEntry.from_json(e) for e in entries]


def typed_map(per_record: Mapping[str, Mapping[str, Any]]) -> dict[str, VerdictEntry]:
    return {
        rid: e if isinstance(e, VerdictEntry) else VerdictEntry.from_json(e) for rid, e in per_record.items()
    }


def to_json_map(per_record: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The ``per_record`` JSON form (entries already in JSON form are copied as they are)."""
    return {rid: e.to_json() if isinstance(e, VerdictEntry) else dict(e) for rid, e in per_record.items()}


__all__: Sequence[str] = [
    "CORRECT",
    "FIELDS",
    "VerdictEntry",
    "to_json_map",
    "typed",
    "typed_map",
]
