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

**The time the answer states it used** (``_moved_time``): a tool that moves a time it is given to
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


def _identifier(tool: Any, arg: str, v: str, stated: str, tops: set[str]) -> bool:
    """``stated`` is the identifier of the entity the gold names by ``v`` (三环集团 → 300408)."""
    sch = tool.properties.get(arg, {})
    return (
        sch.get("type") == "string"
        and "enum" not in sch
        and not _ID.match(v)  # the gold already gives the identifier
        and v in tops  # the answer is about the entity the gold names
        and bool(_ID.match(stated))
    )


def _moved_time(tool: Any, arg: str, v: str, stated: str) -> bool:
    """``stated`` is the time the tool served in place of the gold's ``v`` (a holiday's reminder moved
    to the next working day), in the argument's own form."""
    ann = tool.annotations.get(arg)
    return ann is not None and ann.time_valued and len(stated) == len(v) and stated[:2] == v[:2]


async def stated_values(
    finder: AlternativeFinder, found: Found, i: int, c: Call, ref: str, answer: str, result: Any
) -> None:
    """Each value the answer states it used for an argument, in place of the gold's (an identifier or a
    moved time), accepted where the call with it gives the gold's answer."""
    if not isinstance(result, dict) or finds_nothing(result):
        return
    tool = finder.catalog.tool(c.name)
    tops = {v for v in result.values() if isinstance(v, str)}
    for arg, v in c.arguments.items():
        stated = result.get(arg)
        if not isinstance(v, str) or not isinstance(stated, str) or stated == v:
            continue
        if not (_identifier(tool, arg, v, stated, tops) or _moved_time(tool, arg, v, stated)):
            continue
        found.tried["stated"] += 1
        variant = Call(name=c.name, arguments={**c.arguments, arg: stated})
        if await finder._answer(variant, ref) == answer:
            found.add(i, "values", arg, stated)
        else:
            found.reject("stated", "other_answer")
