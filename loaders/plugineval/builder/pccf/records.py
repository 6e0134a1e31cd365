"""Record assembly (docs/format.md §2): stable ids, offered tools with distractors, judge-only annotations,
gold alternatives, reference times spread over the calendar."""

from __future__ import annotations

import calendar
import hashlib
import random
from datetime import date, datetime, timedelta, timezone
from typing import Any

from plugineval.catalog import Catalog
from plugineval.normalize import holiday_date
from plugineval.schema import Call, GoldAlternative, Plugin

from ..tools.runtime import stable_rng

CANARY = "PLUGINEVAL-CANARY-6f1d4e2a-3b7c-4c1e-9a5d-2e8f0b7c41d9"
LICENSE = "Apache-2.0"
CST = timezone(timedelta(hours=8))
_HOLIDAYS = ("元旦", "春节", "除夕", "清明", "劳动节", "端午", "中秋", "国庆", "元宵", "七夕")


def record_id(query: str, plugin: str, kind: str) -> str:
    return "pe-" + hashlib.sha256(f"{query}\x1f{plugin}\x1f{kind}".encode()).hexdigest()[:16]


rng_for = stable_rng  # one seeding rule for the store, the tools and the builder


def special_days(start: date, end: date) -> list[date]:
    """Month ends, public holidays, the year boundary: the dates that trip date arithmetic."""
    out: set[date] = set()
    for y in range(start.year, end.year + 1):
        for m in range(1, 13):
            out.add(date(y, m, calendar.monthrange(y, m)[1]))
        out |= {date(y, 1, 1), date(y, 12, 31), date(y, 2, 28)}
        for h in _HOLIDAYS:
            d = holiday_date(h, y)
            if d is not None:
                out |= {d - timedelta(days=1), d}
    return sorted(d for d in out if start <= d <= end)


def reference_time(rng: random.Random, start: str, end: str) -> datetime:
    s, e = date.fromisoformat(start), date.fromisoformat(end)
    if rng.random() < 0.2:
        d = rng.choice(special_days(s, e))
    else:
        d = s + timedelta(days=rng.randrange((e - s).days + 1))
    minute = rng.randrange(7 * 60, 23 * 60)
    return datetime(d.year, d.month, d.day, minute // 60, minute % 60, tzinfo=CST)


def offered_tools(
    catalog: Catalog,
    plugin: Plugin,
    rng: random.Random,
    lo: int,
    hi: int,
    must: list[str] | None = None,
    avoid: list[str] | None = None,
) -> list[str]:
    """The target plugin's tools, ``must`` tools, and lo..hi distractors (half from the same domain),
    never one of ``avoid``."""
    names = list(plugin.tool_names) + [m for m in must or [] if m not in plugin.tool_names]
    domain = catalog.domain_of_plugin(plugin.id)
    skip = set(avoid or ())
    same = sorted(
        t.name
        for p in catalog.domain(domain).plugins
        if p.id != plugin.id
        for t in p.tools
        if t.name not in skip
    )
    other = sorted(
        t.name
        for t in catalog.tools
        if catalog.domain_of_plugin(catalog.plugin_of_tool(t.name).id) != domain and t.name not in skip
    )
    n = rng.randint(lo, hi)
    k_same = min(len(same), (n + 1) // 2)
    picked = rng.sample(same, k_same) + rng.sample(other, n - k_same)
    out = names + [p for p in picked if p not in names]
    rng.shuffle(out)
    return out


def alternatives_for(catalog: Catalog, calls: list[Call]) -> list[GoldAlternative]:
    out = []
    for c in calls:
        props = catalog.tool(c.name).properties
        omit = sorted(
            k for k, v in c.arguments.items() if "default" in props.get(k, {}) and props[k]["default"] == v
        )
        out.append(GoldAlternative(omittable=omit))
    return out


def annotations_for(catalog: Catalog, tools: list[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for n in tools:
        ann = catalog.tool(n).annotations
        if ann:
            out[n] = {a: v.model_dump(exclude_defaults=True) for a, v in sorted(ann.items())}
    return out


def difficulty_of_depth(depth: int) -> str:
    return "easy" if depth == 0 else "medium" if depth == 1 else "hard"


def difficulty_of_pk(p: float) -> str:
    return "easy" if p >= 1.0 else "hard" if p <= 0.0 else "medium"
