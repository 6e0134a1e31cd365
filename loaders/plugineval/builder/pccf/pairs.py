"""Alternatives read off the request's own words where execution cannot tell the readings apart.

- ``back_start``: a window counted back from today by months or weeks (近一个月, 最近两周) starts on
  the same date a month (two weeks) ago as well as the day after it: 08-28's 近一个月 is 07-28 … 08-28
  to one careful reader and 07-29 … 08-28 (thirty days, today counted) to another (train round Z: a
  strong model's 07-28 failed the judge twice);
- ``parallel_empty``: two parts asked in one breath (宝安机场附近西餐厅和面馆哪家好) are read alike: an
  argument accepted for one part whose own answer lists something (``category: restaurant`` beside
  面馆, every item found a restaurant) is accepted for its parallel part whose answer lists nothing,
  when that part with it still lists nothing — the same answer, and nothing in the store to refute
  the reading (train round Z);
- ``open_start``: a request that names no window at all (索尼MaxV7蓝牙耳机是不是最低价, 现在买会不会亏)
  leaves the window to the reader: the tool's default (the last 30 days) and any longer one back to the
  tool's longest span (180 days) are readings of it, where the widest still holds the gold's items
  (train rounds AB and AD: a strong model looked back six months, three times in 500 records).
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from plugineval.baselines.textscan import find_times
from plugineval.schema import Call

from .answers import finds_nothing, shared_values
from .widen import holds

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder
    from .found import Found

__all__ = ["back_start", "open_start", "parallel_empty"]

#: a window counted back from now by months or weeks: 近一个月, 最近两周, 过去三个月, 近半年
_BACK = re.compile(r"(近|最近|过去)\s*([一二三四五六七八九十两半\d]+)\s*(个月|周|星期|礼拜|年)")


async def back_start(finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str) -> None:
    """The day before the gold's start of a window the request counts back by months or weeks, where
    the gold's start is that window's as the request's time reader reads it, and the tool takes it."""
    tool = finder.catalog.tool(c.name)
    for t in find_times(query, ref):
        if not _BACK.search(query[t.start : t.end]):
            continue
        start = t.value.start.date() if isinstance(t.value.start, datetime) else t.value.start
        if not isinstance(start, date):
            continue
        for arg, v in c.arguments.items():
            ann = tool.annotations.get(arg)
            if ann is None or not ann.time_valued or not isinstance(v, str) or v[:10] != start.isoformat():
                continue
            earlier = (start - timedelta(days=1)).isoformat() + v[10:]
            found.tried["back_start"] += 1
            if await finder._run(Call(name=c.name, arguments={**c.arguments, arg: earlier}), ref) is None:
                continue  # the tool refuses it
            found.add(i, "values", arg, earlier)


def _parallel(a: Call, b: Call) -> bool:
    """Two calls of one tool with the same arguments, differing in one value only (the part asked)."""
    if a.name != b.name or a.arguments.keys() != b.arguments.keys():
        return False
    differ = [k for k in a.arguments if json.dumps(a.arguments[k]) != json.dumps(b.arguments[k])]
    return len(differ) == 1


async def parallel_empty(finder: AlternativeFinder, found: Found, gold: list[Call], ref: str) -> None:
    """For each gold part whose answer lists nothing, what is accepted for a parallel part whose answer
    lists something — an argument it adds, another value of an argument both share — where this part
    with it still lists nothing."""
    for i, c in enumerate(gold):
        mine = found.results[i]  # one answer per gold call (None: the call failed)
        tool = finder.catalog.tool(c.name)
        if mine is None or not finds_nothing(mine, tool):
            continue
        for j, other in enumerate(gold):
            theirs = found.results[j]
            if j == i or theirs is None or finds_nothing(theirs, tool) or not _parallel(c, other):
                continue
            alt = found.alternatives[j]
            # an argument the other part adds, or another value of one both parts share (宝安机场 and
            # 深圳宝安机场 for ``near``)
            offers = [("extra", a, vs) for a, vs in alt.extra.items() if a not in c.arguments] + [
                ("values", a, vs)
                for a, vs in alt.values.items()
                if c.arguments.get(a) == other.arguments.get(a)
            ]
            for kind, arg, vals in offers:
                if kind == "extra":  # what this part's own name is, where its items show it elsewhere
                    own = await _kind_of_name(finder, c, arg, ref)
                    vals = vals if own is None else own
                for v in list(vals):
                    mine_alt = found.alternatives[i]
                    if v in (mine_alt.extra if kind == "extra" else mine_alt.values).get(arg, []):
                        continue
                    found.tried["parallel_empty"] += 1
                    result = await finder._run(Call(name=c.name, arguments={**c.arguments, arg: v}), ref)
                    if result is not None and finds_nothing(result, tool):
                        found.add(i, kind, arg, v)


async def _kind_of_name(finder: AlternativeFinder, c: Call, arg: str, ref: str) -> list[Any] | None:
    """What the name a part searches for is, as its items across the tool's whole scope show it: the
    call with its required arguments and its keyword alone (瑞幸 in 武汉: every item a cafe, so
    ``category: cafe``, not the restaurant its parallel part 海底捞 shows; train round AC). None where
    the part names nothing or that lists nothing either; an empty list where its items differ."""
    tool = finder.catalog.tool(c.name)
    bare = {a: v for a, v in c.arguments.items() if a in tool.required or a == "keyword"}
    if not isinstance(c.arguments.get("keyword"), str) or bare == c.arguments:
        return None
    result = await finder._run(Call(name=c.name, arguments=bare), ref)
    if result is None or finds_nothing(result, tool):
        return None
    return shared_values(result, arg, least=1)


async def open_start(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """Every start between the tool's default one and its longest span before the end, for a window
    the request leaves wholly open (no time said) and the gold leaves to the tool's default (a start
    derived from an end that is today), where the widest window holds the gold's items (``result``, the
    gold's answer the finder already has)."""
    if find_times(query, ref):
        return  # a day, a month or a window said: the window is the user's
    tool = finder.catalog.tool(c.name)
    today = date.fromisoformat(ref[:10])
    for b in finder.catalog.plugin_of_tool(c.name).boundaries:
        start, end = b.argument, b.end_argument
        if b.kind != "max_span_days" or c.name not in b.tools or end is None or start in c.arguments:
            continue
        ann = tool.annotations.get(start)
        dd = ann.derived_default if ann is not None else None
        if dd is None or dd.of != "date" or dd.from_argument != end or not b.days:
            continue
        if str(c.arguments.get(end, today.isoformat()))[:10] != today.isoformat():
            continue
        default, top = today + timedelta(days=dd.days), today - timedelta(days=b.days)
        found.tried["open_start"] += 1
        widest = Call(name=c.name, arguments={**c.arguments, end: today.isoformat(), start: top.isoformat()})
        if result is None or finds_nothing(result, tool) or not await holds(finder, widest, ref, result):
            continue
        for k in range(1, (default - top).days + 1):
            found.add(i, "extra", start, (default - timedelta(days=k)).isoformat())
