"""Alternatives by execution: the tool's own identifier of the entity the request names (``stated``).

A tool that takes a name or its code (``stock_history``'s ``symbol``: 三环集团 or 300408) answers with
both: the identifier it resolved the name to, in the answer's top-level field of the argument's name,
beside the name itself (``{"symbol": "300408", "name": "三环集团", …}``). That identifier is a value of
the argument the answer states it used for the one entity the request names — like a year or a market
the answer states (docs/builder.md, "Grounded alternatives": a value the answer states it used needs no
contrast). It is accepted when

- the gold's value is a name the answer carries at its top level (the answer is about that entity);
- the stated value differs from it and looks like an identifier (letters, digits, dots and dashes:
  300408, 600519.SH, CA1234), never another name;
- the call with the identifier gives the gold's answer, and that answer found something.

**The time the answer states it used** (``stated_time``): a tool that moves a time it is given to
the one it serves (a working-day reminder set for a holiday fires on the first working day after it:
``remind_at`` 2026-02-18 answers ``remind_at: 2026-02-24``) states that time in the answer's field of
the argument's name. That time is accepted for the argument where the call with it gives the gold's
answer (train round AJ: 下个月18号起上班的日子9点写日报 with the first working day from the 18th, the
Spring Festival holiday running to the 23rd).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from plugineval.schema import Call

from .answers import finds_nothing

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder, Found

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.\-]{1,15}$")


async def stated_id(
    finder: AlternativeFinder, found: Found, i: int, c: Call, ref: str, answer: str, result: Any
) -> None:
    if not isinstance(result, dict) or finds_nothing(result):
        return
    tool = finder.catalog.tool(c.name)
    tops = {v for v in result.values() if isinstance(v, str)}
    for arg, v in c.arguments.items():
        sch = tool.properties.get(arg, {})
        stated = result.get(arg)
        if (
            sch.get("type") != "string"
            or "enum" in sch
            or not isinstance(v, str)
            or _ID.match(v)  # the gold already gives the identifier
            or v not in tops  # the answer is about the entity the gold names
            or not isinstance(stated, str)
            or stated == v
            or not _ID.match(stated)
        ):
            continue
        found.tried["stated"] += 1
        variant = Call(name=c.name, arguments={**c.arguments, arg: stated})
        if await finder._answer(variant, ref) == answer:
            found.add(i, "values", arg, stated)
        else:
            found.reject("stated", "other_answer")


async def stated_time(
    finder: AlternativeFinder, found: Found, i: int, c: Call, ref: str, answer: str, result: Any
) -> None:
    if not isinstance(result, dict) or finds_nothing(result):
        return
    tool = finder.catalog.tool(c.name)
    for arg, v in c.arguments.items():
        ann = tool.annotations.get(arg)
        stated = result.get(arg)
        if ann is None or not ann.time_valued or not isinstance(v, str) or not isinstance(stated, str):
            continue
        if stated == v or len(stated) != len(v) or stated[:2] != v[:2]:
            continue  # the same time, or no time of the argument's form
        found.tried["stated"] += 1
        variant = Call(name=c.name, arguments={**c.arguments, arg: stated})
        if await finder._answer(variant, ref) == answer:
            found.add(i, "values", arg, stated)
        else:
            found.reject("stated", "other_answer")
