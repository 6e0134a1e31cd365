"""Dates that take a calendar fact or date arithmetic to find (docs/format.md §3: a step a capable
model can get wrong), resolved exactly:

- a lunar date: 农历十月初八, 阴历八月十六, 正月十二, 腊月廿六, 农历闰六月初三 (its next occurrence
  from today), or with its year: 明年农历三月初八, 去年农历八月十五, 今年正月十二 (only where the
  lunar year and the Gregorian year agree on the day: 腊月 often falls in the next January);
- a working-day count with the 调休 calendar: 今天之后的第三个工作日;
- a month's last or first working day: 下个月最后一个工作日, 这个月第一个工作日;
- the first working day after a public holiday: 国庆假期后的第一个工作日, 春节后第一个上班日, and the
  last one before it: 春节前最后一个工作日, 国庆节前的最后一个工作日 (a 调休 Saturday included);
- the n-th weekday of a month: 下个月第二个周五;
- a solar term (节气) named with its day: 霜降那天, 明年立春那天 (its next occurrence, or the one of
  the year said; 清明 and 冬至 are holidays and read as such).

Working days come from ``workdays`` (the State Council's arrangements). An expression whose answer
needs a year with no published arrangement resolves to nothing rather than to a guess.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from functools import cache

from . import limits
from .holidays import SOLAR_TERMS, solar_term_date
from .lunar import lunar_in_year, next_lunar, parse_lunar_day, parse_lunar_month
from .timeexpr import _TIME_RE, TimeValue, _day, _num, _with_time
from .workdays import day_info, holiday_rows, official

__all__ = [
    "CALENDAR_STEP",
    "SURFACE_RX",
    "calendar_kind",
    "calendar_step",
    "holiday_ends",
    "holiday_starts",
    "resolve_calendar",
]

_LDAY = (
    r"初[一二三四五六七八九十]|廿[一二三四五六七八九]|二十[一二三四五六七八九]?|十[一二三四五六七八九]|三十"
)
_LUNAR_RE = re.compile(
    rf"(?:(?:农历|阴历)(?P<leap>闰)?(?P<m>正|十一|十二|冬|腊|[一二三四五六七八九十])|(?P<m2>正|冬|腊))月(?P<d>{_LDAY})[日号]?"
)
_YLUNAR_RE = re.compile(
    rf"(?P<yr>今年|明年|去年|前年)的?(?:(?:农历|阴历)(?P<leap>闰)?(?P<m>正|十一|十二|冬|腊|[一二三四五六七八九十])"
    rf"|(?P<m2>正|冬|腊))月(?P<d>{_LDAY})[日号]?"
)
_YEARS = {"今年": 0, "明年": 1, "去年": -1, "前年": -2}
_TERM_RE = re.compile(rf"(?P<yr>今年|明年|去年|前年)?(?P<t>{'|'.join(SOLAR_TERMS)})(?:那天|当天|这天)")
_MONTHS = r"(?P<mon>这个月|本月|下个月|下月|下下个月)"
_EDGE_RE = re.compile(rf"{_MONTHS}的?(?P<edge>最后一个|第一个|头一个)(?:工作日|上班日)")
_NTH_RE = re.compile(rf"{_MONTHS}的?第(?P<n>[一二三四1-4])个(?:周|星期|礼拜)(?P<wd>[一二三四五六日天])")
_COUNT_RE = re.compile(r"今天(?:之后|以后|往后)的?第(?P<n>[0-9一二两三四五六七八九十]+)个工作日")
_HOLIDAYS = {
    "国庆": "国庆", "十一": "国庆", "春节": "春节", "五一": "劳动节", "劳动节": "劳动节",
    "端午": "端午", "中秋": "中秋", "清明": "清明", "元旦": "元旦",
}  # fmt: skip
_AFTER_RE = re.compile(
    r"(?P<h>国庆|十一|春节|五一|劳动节|端午|中秋|清明|元旦)节?(?:假期|长假|小长假|放假)?(?:结束)?[后完]的?"
    r"(?:第一个工作日|第一个上班日|第一天上班|上班第一天)"
)
_BEFORE_RE = re.compile(
    r"(?P<h>国庆|十一|春节|五一|劳动节|端午|中秋|清明|元旦)节?(?:假期|长假|小长假|放假)?(?:之)?前的?"
    r"(?:最后一个工作日|最后一个上班日|最后一天上班)"
)
_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}

#: the step each kind of expression is (docs/format.md §2.4)
CALENDAR_STEP = {"lunar": "calendar_fact", "ylunar": "calendar_fact", "edge": "calendar_fact"}
CALENDAR_STEP |= {"after": "calendar_fact", "before": "calendar_fact", "term": "calendar_fact"}
CALENDAR_STEP |= {"nth": "calendar_fact", "count": "date_arithmetic"}


def _month_of(word: str, today: date) -> tuple[int, int]:
    k = {"这个月": 0, "本月": 0, "下个月": 1, "下月": 1, "下下个月": 2}[word]
    m = today.month - 1 + k
    return today.year + m // 12, m % 12 + 1


_KINDS = (
    ("lunar", _LUNAR_RE),
    ("ylunar", _YLUNAR_RE),
    ("edge", _EDGE_RE),
    ("nth", _NTH_RE),
    ("count", _COUNT_RE),
    ("after", _AFTER_RE),
    ("before", _BEFORE_RE),
    ("term", _TERM_RE),
)


#: every calendar expression as one group-free pattern, 的 allowed where people say it (the
#: builder's exemplar alignment reads the query as written)
SURFACE_RX = "|".join(re.sub(r"\(\?P<\w+>", "(?:", rx.pattern) for _, rx in _KINDS)


def _may_be(t: str) -> bool:
    """Every kind says 月, 工作 / 上班 or a solar term's 那天 / 当天 / 这天 (a lunar day says 月): any
    other text is none without trying the patterns (the time scanner asks of every span)."""
    return "月" in t or "工作" in t or "上班" in t or "那天" in t or "当天" in t or "这天" in t


def _match(t: str) -> tuple[str, re.Match[str]] | None:
    """(kind, match) of a whole calendar expression."""
    if not _may_be(t):
        return None
    for kind, rx in _KINDS:
        m = rx.fullmatch(t)
        if m is not None:
            return kind, m
    return None


def _split_clock(t: str) -> tuple[str, re.Match[str]] | None:
    """(calendar expression, clock match) for "农历十月初八下午三点"; None when ``t`` is not one."""
    if not _may_be(t):
        return None
    for _kind_name, rx in _KINDS:
        m = rx.match(t)
        if m is not None and m.end() < len(t):
            clock = _TIME_RE.fullmatch(t[m.end() :])
            if clock is not None:
                return t[: m.end()], clock
    return None


def calendar_kind(surface: str) -> str | None:
    """The kind of a calendar expression (lunar, ylunar, edge, nth, count, after, before, term),
    None for any other text (and for a string longer than ``limits.MAX_NORMALIZE_CHARS``)."""
    if len(surface) > limits.MAX_NORMALIZE_CHARS:
        return None
    t = re.sub(r"\s+|的", "", surface)
    split = _split_clock(t)
    hit = _match(split[0] if split else t)
    return hit[0] if hit else None


def calendar_step(surface: str) -> str | None:
    """The step a calendar expression needs (calendar_fact / date_arithmetic), None for others."""
    kind = calendar_kind(surface)
    return CALENDAR_STEP[kind] if kind else None


def _workday(d: date) -> bool | None:
    """Is ``d`` a working day, by a published arrangement (None: no published arrangement)?"""
    if not official(d):
        return None
    return day_info(d)[0]


@cache
def _holiday_periods(name: str) -> tuple[tuple[date, date], ...]:
    """(first, last) day of each holiday period called ``name`` (of the whole calendar), in order."""
    days = sorted(date.fromisoformat(r[0]) for r in holiday_rows() if r[1] == "holiday" and name in r[2])
    periods: list[list[date]] = []
    for d in days:
        if periods and d == periods[-1][1] + timedelta(days=1):
            periods[-1][1] = d
        else:
            periods.append([d, d])
    return tuple((a, b) for a, b in periods)


def _holiday_ends(name: str) -> tuple[date, ...]:
    return tuple(b for _a, b in _holiday_periods(name))


def _holiday_starts(name: str) -> tuple[date, ...]:
    return tuple(a for a, _b in _holiday_periods(name))


def _holiday_end(name: str, today: date) -> date | None:
    """The last day of the next holiday period called ``name`` whose end is not before today - 1."""
    return next((e for e in _holiday_ends(name) if e >= today - timedelta(days=1)), None)


def holiday_ends() -> dict[str, tuple[date, ...]]:
    """Holiday name (as said: 国庆, 春节, 五一 …) → the last days of its periods."""
    return {said: _holiday_ends(name) for said, name in _HOLIDAYS.items()}


def holiday_starts() -> dict[str, tuple[date, ...]]:
    """Holiday name (as said) → the first days of its periods."""
    return {said: _holiday_starts(name) for said, name in _HOLIDAYS.items()}


def _lunar_name(m: re.Match[str]) -> tuple[int | None, int | None]:
    """(month, day) of a lunar date's match (农历十月初八, 腊月廿六)."""
    return parse_lunar_month(m.group("m") or m.group("m2")), parse_lunar_day(m.group("d"))


def resolve_calendar(t: str, ref: datetime) -> TimeValue | None:
    """Resolve one calendar expression (spaces and 的 already removed), or None; a clock time
    after it makes a date-time (农历十月初八下午三点)."""
    split = _split_clock(t)
    if split is not None:
        on = resolve_calendar(split[0], ref)
        if on is None or not isinstance(on.start, date):
            return None
        return _with_time(on.start, split[1], ref.tzinfo, None)
    hit = _match(t)
    if hit is None:
        return None
    kind, m = hit
    today = ref.date()
    if kind == "lunar":
        month, day = _lunar_name(m)
        if month is None or day is None:
            return None
        d = next_lunar(month, day, today, bool(m.group("leap")))
        return _day(d) if d else None
    if kind == "ylunar":
        month, day = _lunar_name(m)
        if month is None or day is None:
            return None
        d = lunar_in_year(today.year + _YEARS[m.group("yr")], month, day, bool(m.group("leap")))
        return _day(d) if d else None
    if kind == "edge":
        y, mo = _month_of(m.group("mon"), today)
        n = calendar.monthrange(y, mo)[1]
        days = [date(y, mo, k) for k in range(1, n + 1)]
        if m.group("edge") == "最后一个":
            days.reverse()
        for d in days:
            w = _workday(d)
            if w is None:
                return None
            if w:
                return _day(d)
        return None
    if kind == "nth":
        y, mo = _month_of(m.group("mon"), today)
        nth = _num(m.group("n"))
        wd = _WEEKDAY[m.group("wd")]
        if nth is None:
            return None
        hits = [date(y, mo, k) for k in range(1, calendar.monthrange(y, mo)[1] + 1)]
        hits = [d for d in hits if d.weekday() == wd]
        return _day(hits[nth - 1]) if 1 <= nth <= len(hits) else None
    if kind == "count":
        count = _num(m.group("n"))
        if not count or count > 60:
            return None
        d, seen = today, 0
        while seen < count:
            d += timedelta(days=1)
            w = _workday(d)
            if w is None:
                return None
            seen += w
        return _day(d)
    if kind == "after":
        end = _holiday_end(_HOLIDAYS[m.group("h")], today)
        if end is None:
            return None
        d = end
        for _ in range(10):
            d += timedelta(days=1)
            w = _workday(d)
            if w is None:
                return None
            if w:
                return _day(d)
        return None
    if kind == "before":
        return _last_workday_before(_HOLIDAYS[m.group("h")], today)
    if kind == "term":
        name, yr = m.group("t"), m.group("yr")
        if yr:
            d = solar_term_date(name, today.year + _YEARS[yr])
        else:
            d = solar_term_date(name, today.year)
            d = d if d is not None and d >= today else solar_term_date(name, today.year + 1)
        return _day(d) if d else None
    return None


def _last_workday_before(name: str, today: date) -> TimeValue | None:
    """The last working day before the next holiday period called ``name`` that starts after
    today; None when that day is before today, or a day on the way has no published arrangement."""
    start = next((s for s in _holiday_starts(name) if s > today), None)
    if start is None:
        return None
    d = start
    for _ in range(10):
        d -= timedelta(days=1)
        if d < today:
            return None
        w = _workday(d)
        if w is None:
            return None
        if w:
            return _day(d)
    return None
