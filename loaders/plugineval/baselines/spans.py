"""Spans said against now, read the way the tool looks (docs/format.md §3): a tool about the past
(历史天气) and one about the future (天气预报) read the same loose words (最近一周, 这几天, 这周) in
their own direction. Words that name their direction themselves (过去七天, 未来三天, 下周, 上周)
keep it: a forecast asked for 过去一周 is a request the tool cannot serve, not a coming week.

- 近N天 / 最近N天 / 最近一周: the normalizer's past window (today−(N−1) … today); for a tool about
  the future the coming N days (today … today+(N−1)).
- 这几天: three days (a forecast's default span, 天数 默认 3 天): today−2 … today for a tool about
  the past, today … today+2 for one about the future; no reading for a tool with no direction.
- 这周 / 本周: the current Monday–Sunday week cut at today: Monday … today for the past,
  today … Sunday for the future.

Also here, the time-valued arguments the schema marks otherwise than by ``format``: a clock time
declared by its HH:MM pattern (``is_clock``), and a count of hours said as a duration
(``hours_said``).
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any, Literal

from ..normalize.timeexpr import TimeValue
from .textscan import TimeMention

Direction = Literal["past", "future"]

_PAST_TOOL = re.compile(r"历史|过去|已发生|以往")
_FUTURE_TOOL = re.compile(r"预报|预测|未来")
_LOOSE_WINDOW = re.compile(r"^(?:最近|近)")
_THIS_WEEK = re.compile(r"^(?:这|本)个?(?:周|星期|礼拜)$")
_FEW_DAYS = re.compile(r"这几天")


def direction(description: str) -> Direction | None:
    """Which way a tool looks, by the first sentence of its description (what it does, before the
    plugin's text and the limits that name other tools): 历史 (the past) or 预报 (the future)."""
    description = description.split("。", 1)[0]
    past, future = bool(_PAST_TOOL.search(description)), bool(_FUTURE_TOOL.search(description))
    if past == future:
        return None
    return "past" if past else "future"


def _range(a: date, b: date) -> TimeValue:
    return TimeValue("date_range", a, b)


def directed(
    times: tuple[TimeMention, ...], query: str, reference_time: str, way: Direction | None
) -> tuple[TimeMention, ...]:
    """The time mentions with the loose spans read in the tool's direction (``way``), and 这几天 added
    as a mention of its own where the tool has a direction."""
    if way is None:
        return times
    today = datetime.fromisoformat(reference_time).date()
    out: list[TimeMention] = []
    for t in times:
        v, s, e = t.value, t.value.start, t.value.end
        if v.kind == "date_range" and isinstance(s, date) and isinstance(e, date):
            if way == "future" and _LOOSE_WINDOW.match(t.text) and e == today and s < today:
                v = _range(today, today + (e - s))
            elif _THIS_WEEK.match(t.text) and s <= today <= e:
                v = _range(s, today) if way == "past" else _range(today, e)
        out.append(t if v is t.value else TimeMention(v, t.start, t.end, t.text, t.steps))
    for m in _FEW_DAYS.finditer(query):
        if any(t.start < m.end() and m.start() < t.end for t in out):
            continue
        two = timedelta(days=2)
        v = _range(today - two, today) if way == "past" else _range(today, today + two)
        out.append(TimeMention(v, m.start(), m.end(), m.group(0), ("relative_time",)))
    return tuple(sorted(out, key=lambda t: t.start))


def span_days(v: TimeValue) -> int | None:
    """The number of days a date range covers, both ends included."""
    s, e = v.start, v.end
    if v.kind != "date_range" or not isinstance(s, date) or not isinstance(e, date):
        return None
    s = s.date() if isinstance(s, datetime) else s
    e = e.date() if isinstance(e, datetime) else e
    return (e - s).days + 1


def is_clock(sch: dict[str, Any]) -> bool:
    """A clock-time argument: ``format: time``, or a string whose pattern takes HH:MM (08:00)."""
    if sch.get("format") == "time":
        return True
    pat = sch.get("pattern")
    if sch.get("type") != "string" or not isinstance(pat, str):
        return False
    try:
        return re.fullmatch(pat, "08:00") is not None and re.fullmatch(pat, "2026-01-01") is None
    except re.error:
        return False


def hours_said(sch: dict[str, Any], times: tuple[TimeMention, ...]) -> float | int | None:
    """A count of hours said as the one duration of the request (保洁10个小时, 停两个半小时) for an
    argument in 小时: the duration is a time mention, so no bare number is left to read."""
    if "小时" not in str(sch.get("description", "")):
        return None
    durs = [t.value.seconds for t in times if t.value.kind == "duration" and t.value.seconds]
    if len(durs) != 1:
        return None
    h = durs[0] / 3600
    if sch.get("type") == "integer":
        return int(h) if h.is_integer() and h >= 1 else None
    return h


_SINCE = re.compile(r"^\s*(?:以来|至今|到现在|到今天为止)")


def since(query: str, times: tuple[TimeMention, ...], reference_time: str) -> tuple[str, str] | None:
    """A range from one day to now (9月14日以来, 3月1号至今): that day — its last occurrence, never a
    future one — and today; None where the request says no such range."""
    if len(times) != 1 or times[0].value.kind != "date" or not _SINCE.match(query[times[0].end :]):
        return None
    start = times[0].value.start
    today = date.fromisoformat(reference_time[:10])
    if not isinstance(start, date):
        return None
    if start > today:
        try:
            start = start.replace(year=start.year - 1)
        except ValueError:  # 29 February
            return None
    return (start.isoformat(), today.isoformat()) if start < today else None
