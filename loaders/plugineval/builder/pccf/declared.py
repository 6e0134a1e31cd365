"""Readings of a request a pattern declares beside its gold (``also``), kept only where execution
bears them out (docs/builder.md, the ``declared`` source; docs/authoring.md)."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from plugineval.schema import Call

from .alternatives import free_values
from .answers import finds_nothing
from .records import alternatives_for

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder

__all__ = ["declared"]


async def declared(
    finder: AlternativeFinder,
    gold: list[Call],
    intended: list[Call],
    also: list[list[Call]],
    offered: list[str],
    ref: str,
    refused: Counter[str] | None = None,
    query: str | None = None,
) -> list[dict[str, Any]]:
    """The pattern's ``also`` readings that hold by execution (要带雨衣吗 by the daily forecast beside
    the hourly gold; 2022年台风天鹅在哪登陆的 by the year's list, which names each landfall): only
    where Stage I's gold is the reading the pattern meant, each tool is offered, each call is valid
    and finds something, and every value the gold reads from the request is in the reading's
    arguments or its answers (天鹅 in the year's list). Each is an ``alternative_calls`` list,
    whose own variants are found as the gold's are where ``query`` is given (晚上 → ``start_hour``
    of the hourly forecast beside the moon's times); ``refused`` counts the others by reason."""
    refused = Counter() if refused is None else refused
    if not also:
        return []
    if not finder.s1.equivalent(intended, gold, ref):
        refused["not_the_patterns_reading"] += len(also)
        return []
    need = free_values(finder.catalog, gold)
    out: list[dict[str, Any]] = []
    for calls in also:
        if not all(c.name in offered for c in calls):
            refused["not_offered"] += 1
            continue
        if finder.s1.equivalent(calls, gold, ref):
            refused["the_gold"] += 1
            continue
        results = [await finder._run(c, ref) for c in calls]
        if any(
            r is None or finds_nothing(r, finder.catalog.tool(c.name))
            for r, c in zip(results, calls, strict=True)
        ):
            refused["empty_answer"] += 1  # an error or an empty answer proves nothing
            continue
        text = json.dumps(results, ensure_ascii=False)
        if not all(v in text for v in need - free_values(finder.catalog, calls)):
            refused["drops_part_of_request"] += 1  # it neither asks for nor answers what the gold reads
            continue
        alts = alternatives_for(finder.catalog, calls)
        if query is not None:
            alts = (await finder.find(query, ref, calls, alts, [])).alternatives
            await _watched_from(finder, calls, alts, results, query, ref)
        out.append({"calls": [c.model_dump() for c in calls], "alternatives": [a.model_dump() for a in alts]})
    return out


#: the moment a request about the sun watches, by its words, and the field of the sun's times holding it
_WATCHED = (("sunset", ("日落", "夕阳", "晚霞", "落日")), ("sunrise", ("日出",)))


async def _watched_from(
    finder: AlternativeFinder,
    calls: list[Call],
    alts: list[Any],
    results: list[Any],
    query: str,
    ref: str,
) -> None:
    """An hourly forecast beside the sun's times for a sunset or sunrise watched (后天佛山看夕阳几点去合适,
    train round AC): a model that starts the forecast at an hour of its choosing (``start_hour: 15``)
    answers it as well, so long as the forecast still lists the watched hour — each such start is an
    accepted ``extra``, by execution."""
    hour = next(
        (
            int(r[field][:2])
            for field, words in _WATCHED
            if any(w in query for w in words)
            for r in results
            if isinstance(r, dict) and isinstance(r.get(field), str) and r[field][:2].isdigit()
        ),
        None,
    )
    if hour is None:
        return
    for k, c in enumerate(calls):
        if "start_hour" not in finder.catalog.tool(c.name).properties or "start_hour" in c.arguments:
            continue
        for h in range(hour + 1):
            if h in alts[k].extra.get("start_hour", []):
                continue
            r = await finder._run(Call(name=c.name, arguments={**c.arguments, "start_hour": h}), ref)
            listed = json.dumps(r, ensure_ascii=False) if r is not None else ""
            if f'"{hour:02d}:00"' in listed:
                alts[k].extra.setdefault("start_hour", []).append(h)
