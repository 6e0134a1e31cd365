"""Alternatives by execution: one call that answers what several gold calls of one tool ask.

- ``merged``: the gold calls differ in one optional argument only (成人票和儿童票: ticket_type adult,
  child) — the one call without it;
- ``united``: the gold calls differ in one list-valued argument only (two pairwise drug checks) —
  the one call with the lists united (a three-drug check), where the schema allows that many;
- ``spanned``: the gold calls each cover one of consecutive days (前天和昨天) — the one call over the
  span.

Either is accepted when its answer holds each gold call's answer whole (the tool's echo of its own
arguments aside: a schedule without ``period`` echoes none), and at least one gold answer lists
something — answers that list nothing are held by any answer, which proves nothing.
"""

from __future__ import annotations

import json
from datetime import date
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from plugineval.schema import Call

from .answers import _carries_selected, _holds_items, _strip, finds_nothing, is_echo, sub_answer
from .grounding import under_delivers

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder, Found


def _one_difference(gold: list[Call], results: list[Any]) -> str | None:
    """The one argument several answered gold calls of one tool differ in, else None."""
    if len(gold) < 2 or len({c.name for c in gold}) != 1 or any(r is None for r in results):
        return None
    keys = set().union(*(c.arguments.keys() for c in gold))
    differ = [
        k for k in sorted(keys) if len({json.dumps(c.arguments.get(k), sort_keys=True) for c in gold}) > 1
    ]
    return differ[0] if len(differ) == 1 else None


def _accept(
    finder: AlternativeFinder, found: Found, source: str, query: str, gold: list[Call], call: Call
) -> None:
    """``call`` alone as an accepted ``alternative_calls`` list, unless it drops part of what the
    request states that the gold calls serve (two rooms for 张伟 and 李娜: one booking of the default
    room for no one named is no alternative)."""
    if under_delivers(finder.catalog.tool, query, gold, [call]):
        found.reject(source, "drops_part_of_request")
        return
    found.add_calls(finder.catalog, [call])


def _unechoed(finder: AlternativeFinder, call: Call, result: Any) -> Any:
    """The answer without ids, timestamps and the tool's echo of its own arguments (``is_echo``: a
    scalar under an argument's name; a list under one is the answer itself)."""
    echo = set(finder.catalog.tool(call.name).properties)
    if isinstance(result, dict):
        result = {k: v for k, v in result.items() if not is_echo(k, v, echo)}
    return _strip(result)


def _informative(
    finder: AlternativeFinder, found: Found, source: str, gold: list[Call], results: list[Any]
) -> bool:
    tool = finder.catalog.tool(gold[0].name)
    if all(finds_nothing(r, tool) for r in results):
        found.reject(source, "empty_answer")
        return False
    return True


async def merged(
    finder: AlternativeFinder, found: Found, gold: list[Call], results: list[Any], ref: str, query: str = ""
) -> None:
    """Gold calls of one tool that differ in one optional argument only (成人票和儿童票: ticket_type
    adult, child): the one call without it — or one of the gold calls itself — when its answer holds
    each gold call's answer whole (``sub_answer``: every ticket the gold calls list is among the one
    call's) or carries each number they select under a key of its own."""
    arg = _one_difference(gold, results)
    if arg is None or arg in finder.catalog.tool(gold[0].name).required:
        return
    found.tried["merged"] += 1
    if not _informative(finder, found, "merged", gold, results):
        return
    one = Call(name=gold[0].name, arguments={k: v for k, v in gold[0].arguments.items() if k != arg})
    answer = await finder._run(one, ref)
    parts = [_strip(r) for r in results]
    bare = [_unechoed(finder, c, r) for c, r in zip(gold, results, strict=True)]
    # the call without the argument answers every value; a gold call alone only where its answer
    # carries each number the others select (date_diff with unit workdays still answers the days).
    # A gold call alone whose answer merely equals the others' (the same delivery days to 南宁 and to
    # 贵阳) searched one of them: it drops part of the request
    if answer is not None:
        whole = _strip(answer)
        if all(sub_answer(p, whole) for p in parts) or _carries_selected(parts, whole):
            _accept(finder, found, "merged", query, gold, one)
        elif all(_holds_items(p, _unechoed(finder, one, answer)) for p in bare):
            # 上午和下午各是哪些医生: the schedule without ``period`` lists each period's doctors
            _accept(finder, found, "merged", query, gold, one)
    for call, got in zip(gold, results, strict=True):
        whole = _strip(got)
        if _carries_selected(parts, whole):
            _accept(finder, found, "merged", query, gold, call)
        elif all(sub_answer(p, whole) for p in parts):
            found.reject("merged", "drops_part_of_request")


async def united(
    finder: AlternativeFinder, found: Found, gold: list[Call], results: list[Any], ref: str, query: str = ""
) -> None:
    """Gold calls of one tool that differ in one list-valued argument only (``drugs``
    [甲, 乙] and [甲, 丙]): the one call with the lists united in order ([甲, 乙, 丙]), when the
    schema takes that many items and the answer's lists hold each gold call's items."""
    arg = _one_difference(gold, results)
    if arg is None or not all(isinstance(c.arguments.get(arg), list) for c in gold):
        return
    items: list[Any] = []
    for c in gold:
        items += [x for x in c.arguments[arg] if x not in items]
    sch = finder.catalog.tool(gold[0].name).properties.get(arg, {})
    if len(items) > sch.get("maxItems", len(items)):
        return
    found.tried["united"] += 1
    if not _informative(finder, found, "united", gold, results):
        return
    one = Call(name=gold[0].name, arguments={**gold[0].arguments, arg: items})
    answer = await finder._run(one, ref)
    if answer is not None and all(_holds_items(_strip(r), _strip(answer)) for r in results):
        _accept(finder, found, "united", query, gold, one)


_SPANS = (("start_date", "end_date"), ("date_from", "date_to"))


def _consecutive(
    gold: list[Call], day: str, drop: tuple[str, ...]
) -> tuple[list[date], dict[str, Any]] | None:
    """The gold calls' days (``day``), in order, and the arguments they share, when they are alike but
    for ``drop`` and their days follow one another (周一和周五 are days apart: the span between is
    more than was asked)."""
    days = [c.arguments.get(day) for c in gold]
    rest = [{k: v for k, v in c.arguments.items() if k not in drop} for c in gold]
    if any(not isinstance(d, str) for d in days) or any(r != rest[0] for r in rest):
        return None
    try:
        ordered = sorted(date.fromisoformat(str(d)) for d in days)
    except ValueError:
        return None
    if any((b - a).days != 1 for a, b in pairwise(ordered)):
        return None
    return ordered, rest[0]


async def spanned(
    finder: AlternativeFinder, found: Found, gold: list[Call], results: list[Any], ref: str, query: str = ""
) -> None:
    """Gold calls of one tool, each over one day (``start_date`` = ``end_date``) and alike otherwise,
    whose days follow one another (前天和昨天哪天雨大: the 25th, the 26th): the one call over the span,
    when its answer lists each gold call's items. A forecast's start day and day count (``date``,
    ``days``) spans the same way: 明天跟后天多少度 is one forecast from tomorrow over two days."""
    if len(gold) < 2 or len({c.name for c in gold}) != 1 or any(r is None for r in results):
        return
    props = finder.catalog.tool(gold[0].name).properties
    if "date" in props and "days" in props and props["days"].get("type") == "integer":
        await _counted_span(finder, found, gold, results, ref, query)
    for lo, hi in _SPANS:
        if lo not in props or hi not in props:
            continue
        if any(c.arguments.get(hi) != c.arguments.get(lo) for c in gold):
            continue
        span = _consecutive(gold, lo, (lo, hi))
        if span is None:
            continue
        ordered, rest = span
        found.tried["spanned"] += 1
        if not _informative(finder, found, "spanned", gold, results):
            return
        one = Call(
            name=gold[0].name, arguments={**rest, lo: ordered[0].isoformat(), hi: ordered[-1].isoformat()}
        )
        answer = await finder._run(one, ref)
        if answer is not None and all(_holds_items(_strip(r), _strip(answer)) for r in results):
            _accept(finder, found, "spanned", query, gold, one)
        return


async def _counted_span(
    finder: AlternativeFinder, found: Found, gold: list[Call], results: list[Any], ref: str, query: str
) -> None:
    """``spanned`` for a start day and a day count: gold calls of one day each (``days`` 1, or absent:
    the day of the request, whatever the default count), consecutive, alike otherwise; each gold
    call's own day (run with ``days`` 1) must be among the one call's."""
    if any(c.arguments.get("days", 1) != 1 for c in gold):
        return
    span = _consecutive(gold, "date", ("date", "days"))
    if span is None:
        return
    ordered, rest = span
    found.tried["spanned"] += 1
    if not _informative(finder, found, "spanned", gold, results):
        return
    one = Call(name=gold[0].name, arguments={**rest, "date": ordered[0].isoformat(), "days": len(ordered)})
    answer = await finder._run(one, ref)
    if answer is None:
        return
    days = [await finder._run(Call(name=c.name, arguments={**c.arguments, "days": 1}), ref) for c in gold]
    if all(d is not None and _holds_items(_strip(d), _strip(answer)) for d in days):
        _accept(finder, found, "spanned", query, gold, one)
