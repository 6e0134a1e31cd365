"""What the alternative finder found for one gold: the alternatives per gold call, whole other call
lists, and the counts of the variants tried, accepted and refused (by source and reason)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from plugineval.catalog import Catalog
from plugineval.schema import Call, GoldAlternative

from .grounding import is_city

__all__ = ["Found"]


@dataclass
class Found:
    """What the alternatives step accepted for one gold list, what it tried, and what the grounding
    gate refused per source of variants (``rejected[source][reason]``)."""

    alternatives: list[GoldAlternative]
    alternative_calls: list[dict[str, Any]] = field(default_factory=list)
    tried: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)
    rejected: dict[str, Counter[str]] = field(default_factory=dict)
    empty: bool = False  # every gold call's answer lists nothing
    results: list[Any] = field(default_factory=list)  # each gold call's answer (None: failed or empty)

    def add(self, i: int, kind: str, arg: str, value: Any) -> None:
        """Accept ``value`` for ``arg`` of gold call ``i`` as an ``extra`` or ``values`` entry (once).
        A city argument takes a city only: a tool that ignores a wrong one (route_plan resolves its
        places without it) gives the gold's answer for 开车 or 汉口站 too, which proves nothing."""
        if (arg == "city" or arg.endswith("_city")) and not is_city(value):
            self.tried["not_a_city"] += 1
            return
        alt = self.alternatives[i]
        listed = (alt.extra if kind == "extra" else alt.values).setdefault(arg, [])
        if value not in listed:
            listed.append(value)
            self.accepted[kind] += 1

    def reject(self, source: str, reason: str) -> None:
        """Count one variant the grounding gate refused (docs/builder.md, "Grounded alternatives")."""
        self.rejected.setdefault(source, Counter())[reason] += 1

    def add_calls(self, catalog: Catalog, calls: list[Call]) -> None:
        """Accept a whole call list as an ``alternative_calls`` entry."""
        from .records import alternatives_for

        alts = alternatives_for(catalog, calls)
        self.alternative_calls.append(
            {"calls": [x.model_dump() for x in calls], "alternatives": [a.model_dump() for a in alts]}
        )
        self.accepted["alternative_calls"] += 1

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "tried": dict(sorted(self.tried.items())),
            "accepted": dict(sorted(self.accepted.items())),
        }
        if self.rejected:
            out["rejected"] = {s: dict(sorted(c.items())) for s, c in sorted(self.rejected.items())}
        return out
