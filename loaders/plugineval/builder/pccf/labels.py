"""Alternatives by execution for a label the tool only echoes back: a meeting's ``subject``, an
order's ``note``. The gold leaves it out (or writes the tool's placeholder), and a careful model
copies the user's own words into it ("新人入职培训，农历九月廿二，09:00到10:00" → ``subject``
新人入职培训): the booking is the same, so those words are accepted ``extra`` values. Only the
query's own segments are listed — never any value (an invented location is still an error) — and only
the words that name that field's content (``grounding.names_content``): 把季度复盘写进日程 is the
request, not a ``location``; 地方还没着落 is no ``subject``. An answer that lists nothing cannot tell an
echoed field from a filter (a ``keyword`` of 有点急 filters a day's events away, and a day without
events answers the same): there nothing is accepted."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from plugineval.baselines.textscan import find_places, find_times
from plugineval.schema import Call

from .answers import finds_nothing
from .grounding import names_content, names_person, person_arg, said_names

if TYPE_CHECKING:
    from .alternatives import Found

_SEGMENT = re.compile(r"[^，。、；;,.!！?？\s：:（）()]{2,20}")
_OBJECT = re.compile(
    r"把([^，。、；;,.!！?？\s：:（）()把]{2,20}?)(?:写进|写到|记到|记进|加到|加进|放进|排进|存到|记在|写在)[^，。、；;,.!！?？\s]*"
)
_HEADS = re.compile(r"[0-9一二三四五六七八九十两百]+\s*[个位名]?人")  # a head count: 十二个人
_PROBE = "甲乙丙丁"  # a value no user says: the answer it gives shows what the argument does


def segments(query: str, reference_time: str) -> list[str]:
    """The query's punctuation-delimited segments that name no place, with the times and head counts
    they say cut out (other arguments hold those), and no number left: the user's own words for what
    something is (新人入职培训; 组里碰个头 of 15:30到17:30组里十二个人碰个头), candidates for a label."""
    query = _OBJECT.sub(lambda m: "，" + m.group(1) + "，", query)  # 把季度复盘写进日程: 季度复盘
    times = [(m.start, m.end) for m in find_times(query, reference_time)]
    places = [(m.start, m.end) for m in find_places(query)]
    out = []
    for m in _SEGMENT.finditer(query):
        if any(a < m.end() and m.start() < b for a, b in places):
            continue
        seg = _cut(query, m.start(), m.end(), times)  # 15:30到17:30组里十二个人碰个头: 组里碰个头
        if len(seg) < 2 or re.search(r"[0-9一二三四五六七八九十两]", seg):
            continue
        if seg not in out:
            out.append(seg)
    return out


def _cut(query: str, start: int, end: int, times: list[tuple[int, int]]) -> str:
    """The segment ``query[start:end]`` without the times and head counts it says (other arguments'
    values), the words around them joined (the connectors that tied them to the cut, 到 or 和, dropped)."""
    chars = list(query[start:end])
    for a, b in times:
        for k in range(max(a, start), min(b, end)):
            chars[k - start] = "\0"
    pieces = _HEADS.sub("\0", "".join(chars)).split("\0")
    edge = "到至和跟与的在从,，、- "
    for k in range(len(pieces)):  # the words that joined the cut span to its neighbours go with it
        pieces[k] = pieces[k].lstrip(edge) if k > 0 else pieces[k]
        pieces[k] = pieces[k].rstrip(edge) if k < len(pieces) - 1 else pieces[k]
    return "".join(pieces)


async def own_words(
    found: Found,
    i: int,
    call: Call,
    tool: Any,
    query: str,
    ref: str,
    answer: str,
    answer_of: Callable[[Call, str], Awaitable[str | None]],
) -> None:
    """Each optional free-text argument the gold leaves out or sets to the schema's default, whose
    value only comes back as an echo (the answer with a nonsense value is the gold's): the query's
    segments as ``extra`` values, each checked by executing it too."""
    for arg, sch in tool.properties.items():
        if arg in tool.required or sch.get("type") != "string" or arg == "city" or arg.endswith("_city"):
            continue  # a city is a place the tool reads, never a label it echoes
        if any(k in sch for k in ("enum", "format", "pattern")) or (
            arg in call.arguments and call.arguments[arg] != sch.get("default")
        ):
            continue
        ann = tool.annotations.get(arg)
        if ann is not None and (ann.time_valued or ann.aliases):
            continue
        rest = {k: v for k, v in call.arguments.items() if k != arg}
        found.tried["own_words"] += 1
        if finds_nothing(json.loads(answer), tool):
            found.reject("own_words", "empty_answer")
            continue
        if await answer_of(Call(name=call.name, arguments={**rest, arg: _PROBE}), ref) != answer:
            continue  # the argument looks something up or filters: its value matters
        # a person's name is one the request says as a name (联系人王芳: 王芳), never a segment of it
        for seg in said_names(query) if person_arg(sch) else segments(query, ref):
            if not names_content(arg, sch, seg) or (
                person_arg(sch) and not names_person(seg, query, sch.get("default"))
            ):
                found.reject("own_words", "not_field_content")
                continue
            if (
                len(seg) <= sch.get("maxLength", 50)
                and await answer_of(Call(name=call.name, arguments={**rest, arg: seg}), ref) == answer
            ):
                found.add(i, "extra", arg, seg)


async def with_its_time(
    found: Found,
    i: int,
    call: Call,
    tool: Any,
    query: str,
    ref: str,
    answer: str,
    answer_of: Callable[[Call, str], Awaitable[str | None]],
) -> None:
    """A free-text argument the gold fills with the user's words (``content: 打卡``) takes them with the
    time said just before them too (下午2点打卡, train round AC), where the call holds that time in a
    time argument of its own and the value is only echoed back (the answer with a nonsense value is the
    gold's): a model that copies the span sets the same reminder."""
    if not any(a.time_valued for a in tool.annotations.values()):
        return
    times = find_times(query, ref)
    for arg, v in call.arguments.items():
        sch = tool.properties.get(arg, {})
        ann = tool.annotations.get(arg)
        if (
            sch.get("type") != "string"
            or any(k in sch for k in ("enum", "format", "pattern"))
            or (ann is not None and (ann.time_valued or ann.aliases))
            or not isinstance(v, str)
            or (pos := query.find(v)) < 0
        ):
            continue
        spans = [
            query[t.start : pos + len(v)] for t in times if t.end <= pos and query[t.end : pos] in ("", "的")
        ]
        if not spans:
            continue
        rest = {k: x for k, x in call.arguments.items() if k != arg}
        found.tried["with_its_time"] += 1
        if await answer_of(Call(name=call.name, arguments={**rest, arg: _PROBE}), ref) != answer:
            continue  # the argument looks something up: its value matters
        for span in spans:
            if len(span) <= sch.get("maxLength", 50):
                found.add(i, "values", arg, span)
