"""Relative time expressions (今天, 下周三, 三天后, 春节 …) and the judge's comparator.

Split from ``timeexpr`` for size; import the public names from ``timeexpr``.
Conventions are documented in ``docs/time_conventions.md``.  A string longer than
``limits.MAX_NORMALIZE_CHARS`` is not read: ``resolve`` gives None, ``is_relative`` False.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, timedelta, tzinfo
from functools import lru_cache

from . import limits
from .calendar_expr import calendar_step, resolve_calendar
from .holidays import HOLIDAY_ALIASES, holiday_date, next_holiday
from .timeexpr import (
    _RANGE_SPLIT_RE,
    _WEEKDAYS,
    TIME,
    N,
    TimeValue,
    Verdict,
    _add_months,
    _combine,
    _day,
    _days,
    _has_clock,
    _month,
    _month_tail,
    _norm,
    _num,
    _with_time,
    parse_absolute,
)

__all__ = ["compare_time", "is_relative", "resolve"]

_NUMLIKE = frozenset({"五一", "六一", "七一", "八一", "十一", "五四", "三八", "二月二", "正月十五"})
_DIGITS = "0-9零〇一二两三四五六七八九十"


def _hol_alt() -> str:
    parts = []
    for name in sorted(HOLIDAY_ALIASES, key=len, reverse=True):
        if name in _NUMLIKE or name[0] in "五六七八十三二正":
            parts.append(rf"(?<![{_DIGITS}]){name}(?![{_DIGITS}点时月号日分:])")
        else:
            parts.append(name)
    return "|".join(parts)


HOL = _hol_alt()
_DAY_WORDS = {
    "今天": 0, "今日": 0, "今儿": 0, "当天": 0, "明天": 1, "明日": 1, "明儿": 1,
    "次日": 1, "隔天": 1, "第二天": 1, "后天": 2, "大后天": 3, "昨天": -1, "昨日": -1,
    "昨儿": -1, "前天": -2, "大前天": -3,
}  # fmt: skip
_DAY_PERIODS = {
    "今早": (0, "早上"), "今晨": (0, "早上"), "今晚": (0, "晚上"), "今夜": (0, "晚上"),
    "明早": (1, "早上"), "明晨": (1, "早上"), "明晚": (1, "晚上"), "明夜": (1, "晚上"),
    "昨晚": (-1, "晚上"), "昨夜": (-1, "晚上"), "昨早": (-1, "早上"),
}  # fmt: skip
_SHIFT = {"上上": -2, "上": -1, "这": 0, "本": 0, "下": 1, "下下": 2}
_YEARS = {"前年": -2, "去年": -1, "今年": 0, "明年": 1, "来年": 1, "后年": 2, "大后年": 3}


def _alt(words: object) -> str:
    return "|".join(sorted(words, key=len, reverse=True))  # type: ignore[call-overload]


_DAY_PART = (
    rf"(?:(?P<rd>{_alt(_DAY_WORDS)})|(?P<rdp>{_alt(_DAY_PERIODS)})"
    r"|(?P<wp>上上|下下|上|这|本|下)?个?(?P<ww>周|星期|礼拜)(?P<wd>[一二三四五六日天七末])?"
    rf"|(?P<mp>上上|下下|上|这|本|下)个?月(?:(?P<mday>{N})[号日]|(?P<mt>底|末|初|中))?"
    rf"|(?P<yp>{_alt(_YEARS)})(?:(?P<ym>{N})月(?:(?P<yd>{N})[日号]?|(?P<ymt>底|末|初|中|份))?"
    rf"|(?P<yhol>{HOL})|(?P<yt>底|末|初))?"
    rf"|(?P<ay>\d{{4}})年(?P<ahol>{HOL})"
    rf"|(?P<mm>{N})月(?:(?P<md>{N})[日号]?|(?P<mmt>底|末|初|中|份))?"
    rf"|(?P<dom>{N})[号日]"
    r"|(?P<bmt>月底|月末|月初|月中)|(?P<byt>年底|年末|年初)"
    rf"|(?P<hol>{HOL})"
    rf"|(?P<on>{N}|半)(?P<oh>个半)?个?(?P<ou>天|日|周|星期|礼拜|月|年)"
    r"(?P<od>后|之后|以后|过后|前|之前|以前))"
)
_DAY_RE = re.compile(rf"{_DAY_PART}的?(?P<tp>{TIME})", re.IGNORECASE)
_OFFSET_TIME_RE = re.compile(
    rf"(?P<n>{N}|半)(?P<half>个半)?个?(?P<u>小时|钟头|分钟|分|秒钟|秒|刻钟)"
    r"(?P<d>后|之后|以后|过后|前|之前|以前)"
)
_WINDOW_RE = re.compile(
    rf"(?:(?P<w>最近|近|过去|未来|接下来|今后|往后)(?P<n>{N})|(?P<n2>{N}))"
    r"个?(?P<u>天|日|周|星期|礼拜|月|年)(?P<tail>内|以内|之内|里|来)?"
)
_NOW_RE = re.compile(r"现在|此刻|当前|目前|此时|当下")
_REL_RE = re.compile(
    rf"{_alt(_DAY_WORDS)}|{_alt(_DAY_PERIODS)}"
    r"|(?:上上|下下|上|这|本|下)个?(?:周|星期|礼拜|月|季度)|(?:周|星期|礼拜)[一二三四五六日天七末]"
    rf"|{_alt(_YEARS)}|(?<![{_DIGITS}])月[底末初中]|(?<![{_DIGITS}])年[底末初]"
    rf"|(?<![年{_DIGITS}])[{_DIGITS}]+月|(?<![月{_DIGITS}-])[{_DIGITS}]+[号日]"
    # (searched: a run of numerals is tried from its first character only, never again inside it)
    rf"|(?<![{_DIGITS}半几])[{_DIGITS}半几]+个?半?(?:秒钟?|分钟|刻钟|小时|钟头|天|日|周|星期|礼拜|月|年)"
    r"(?:后|之后|以后|过后|前|之前|以前|内|以内|之内)"
    r"|最近|近[0-9零一二两三四五六七八九十]|过去|未来|接下来|今后|往后|这两天|这几天|刚才"
    r"|马上|立刻|现在|此刻|目前|当前|稍后|待会|一会儿|周末"
    rf"|(?<!年)(?:{HOL})"
)


def _today(ref: datetime) -> date:
    return ref.date()


def _week(ref: datetime, m: re.Match[str]) -> TimeValue | None:
    today = _today(ref)
    wp, wd = m.group("wp"), m.group("wd")
    if wp is None and wd is None:
        return None
    monday = today - timedelta(days=today.weekday()) + timedelta(weeks=_SHIFT.get(wp or "这", 0))
    if wd is None:
        return _days(monday, monday + timedelta(days=6))
    if wd == "末":
        return _days(monday + timedelta(days=5), monday + timedelta(days=6))
    if wp is None:  # bare 周X: next occurrence on or after today
        return _day(today + timedelta(days=(_WEEKDAYS[wd] - today.weekday()) % 7))
    return _day(monday + timedelta(days=_WEEKDAYS[wd]))


def _next_md(today: date, mo: int, d: int) -> TimeValue | None:
    for y in range(today.year, today.year + 5):
        try:
            cand = date(y, mo, d)
        except ValueError:
            continue
        if cand >= today:
            return _day(cand)
    return None


def _base(m: re.Match[str], ref: datetime) -> tuple[TimeValue | None, str | None]:
    """The day part as a value, and the day period it implies (今晚 → 晚上)."""
    today = _today(ref)
    g = m.group
    if g("rd"):
        return _day(today + timedelta(days=_DAY_WORDS[g("rd")])), None
    if g("rdp"):
        k, period = _DAY_PERIODS[g("rdp")]
        return _day(today + timedelta(days=k)), period
    if g("ww"):
        return _week(ref, m), None
    if g("mp"):
        first = _add_months(today.replace(day=1), _SHIFT[g("mp")])
        if g("mday"):
            dd = _num(g("mday"))
            try:
                return (None if dd is None else _day(first.replace(day=dd))), None
            except ValueError:
                return None, None
        if g("mt"):
            return _month_tail(first.year, first.month, g("mt")), None
        return _month(first.year, first.month), None
    if g("yp"):
        y = today.year + _YEARS[g("yp")]
        if g("ym"):
            mo = _num(g("ym"))
            if mo is None or not 1 <= mo <= 12:
                return None, None
            if g("yd"):
                dd = _num(g("yd"))
                try:
                    return (None if dd is None else _day(date(y, mo, dd))), None
                except ValueError:
                    return None, None
            return _month_tail(y, mo, g("ymt")), None
        if g("yhol"):
            hd = holiday_date(g("yhol"), y)
            return (None if hd is None else _day(hd)), None
        if g("yt"):
            return _day(date(y, 12, 31) if g("yt") in "底末" else date(y, 1, 1)), None
        return TimeValue("year", date(y, 1, 1), date(y, 12, 31)), None
    if g("ahol"):
        hd = holiday_date(g("ahol"), int(g("ay")))
        return (None if hd is None else _day(hd)), None
    if g("mm"):
        mo = _num(g("mm"))
        if mo is None or not 1 <= mo <= 12:
            return None, None
        if g("md"):
            dd = _num(g("md"))
            return (None if dd is None else _next_md(today, mo, dd)), None
        y = today.year if mo >= today.month else today.year + 1
        return _month_tail(y, mo, g("mmt")), None
    if g("dom"):
        dd = _num(g("dom"))
        if dd is None or not 1 <= dd <= 31:
            return None, None
        first = today.replace(day=1)
        for k in range(0, 13):
            mfirst = _add_months(first, k)
            if dd <= calendar.monthrange(mfirst.year, mfirst.month)[1]:
                cand = mfirst.replace(day=dd)
                if cand >= today:
                    return _day(cand), None
        return None, None
    if g("bmt"):
        return _month_tail(today.year, today.month, g("bmt")[1]), None
    if g("byt"):
        return _day(date(today.year, 12, 31) if g("byt")[1] in "底末" else date(today.year, 1, 1)), None
    if g("hol"):
        hd = next_holiday(g("hol"), today)
        return (None if hd is None else _day(hd)), None
    if g("on"):
        return _offset_day(today, g("on"), bool(g("oh")), g("ou"), g("od")), None
    return None, None


MAX_OFFSET = 3650
"""The largest count an offset (N天后, N个月前, N年后) is read with: a day, week, month or year count
past it (a stock code run into 十二天前) is no date."""


def _offset_day(today: date, n: str, half: bool, unit: str, direction: str) -> TimeValue | None:
    sign = -1 if direction.endswith("前") else 1
    if n == "半":
        if unit not in ("月", "年"):
            return None
        v, extra_days, extra_months = 0, 15 if unit == "月" else 0, 6 if unit == "年" else 0
    else:
        parsed = _num(n)
        if parsed is None:
            return None
        v, extra_days, extra_months = parsed, 0, 0
        if not 0 <= v <= MAX_OFFSET:  # 600519十二天前: a code run into the count is no offset
            return None
        if half:
            extra_days = {"天": 0, "日": 0, "月": 15}.get(unit, 0)
            extra_months = 6 if unit == "年" else 0
            if unit in ("天", "日", "周", "星期", "礼拜"):
                return None
    if unit in ("天", "日"):
        return _day(today + timedelta(days=sign * v))
    if unit in ("周", "星期", "礼拜"):
        return _day(today + timedelta(weeks=sign * v))
    months = v * (12 if unit == "年" else 1) + extra_months
    return _day(_add_months(today, sign * months) + timedelta(days=sign * extra_days))


def _window(ref: datetime, m: re.Match[str]) -> TimeValue | None:
    today = _today(ref)
    w = m.group("w")
    if w is None and m.group("tail") not in ("内", "以内", "之内"):
        return None
    n = _num(m.group("n") or m.group("n2"))
    if not n:
        return None
    unit = m.group("u")
    past = w in ("最近", "近", "过去")
    if unit in ("天", "日", "周", "星期", "礼拜"):
        span = timedelta(days=n * (1 if unit in ("天", "日") else 7) - 1)
        return _days(today - span, today) if past else _days(today, today + span)
    months = n * (12 if unit == "年" else 1)
    if past:
        return _days(_add_months(today, -months) + timedelta(days=1), today)
    return _days(today, _add_months(today, months) - timedelta(days=1))


def _relative_one(t: str, ref: datetime) -> TimeValue | None:
    tz = ref.tzinfo
    m = _DAY_RE.fullmatch(t)
    if m is not None:
        base, hint = _base(m, ref)
        if base is None:
            return None
        if base.kind != "date":
            has_time = m.group("period") or _has_clock(m) or m.group("ampm")
            return None if has_time or hint else base
        assert isinstance(base.start, date)
        return _with_time(base.start, m, tz, hint)
    m = _OFFSET_TIME_RE.fullmatch(t)
    if m is not None:
        n = 0.5 if m.group("n") == "半" else _num(m.group("n"))
        if n is None:
            return None
        unit = m.group("u")
        secs = {"小时": 3600, "钟头": 3600, "分钟": 60, "分": 60, "秒钟": 1, "秒": 1, "刻钟": 900}[unit]
        total = (n + (0.5 if m.group("half") else 0)) * secs
        sign = -1 if m.group("d").endswith("前") else 1
        dt = ref + timedelta(seconds=sign * total)
        return TimeValue("datetime", dt, dt)
    m = _WINDOW_RE.fullmatch(t)
    if m is not None:
        return _window(ref, m)
    if _NOW_RE.fullmatch(t):
        return TimeValue("datetime", ref, ref)
    return resolve_calendar(t, ref)  # 农历十月初八, 下个月最后一个工作日, 今天之后第三个工作日 …


def resolve(s: str, reference_time: datetime) -> TimeValue | None:
    """Resolve an absolute or relative expression against ``reference_time``.

    Results are in the reference time's zone.  See docs/time_conventions.md.
    """
    if len(s) > limits.MAX_NORMALIZE_CHARS:
        return None  # not read, and not cached
    return _resolve(s, reference_time)


@lru_cache(maxsize=65536)
def _resolve(s: str, reference_time: datetime) -> TimeValue | None:
    tz = reference_time.tzinfo or UTC
    v = parse_absolute(s, tz)
    if v is not None:
        return v
    t = re.sub(r"\s+|的", "", _norm(s))
    if not t:
        return None
    v = _relative_one(t, reference_time)
    if v is not None or not _RANGE_SPLIT_RE.search(t):
        return v
    left, right = _RANGE_SPLIT_RE.split(t, maxsplit=1)
    a = _relative_one(left, reference_time) or parse_absolute(left, tz)
    b = _relative_one(right, reference_time) or parse_absolute(right, tz)
    if a is None or b is None:
        return None
    if a.kind == "datetime_range" and b.kind in ("time", "datetime"):
        a = TimeValue("datetime", a.start, a.start)
    return _combine(a, b)


_UTC: tzinfo = UTC


def is_relative(s: str) -> bool:
    """True when ``s`` needs "today" to be understood (明天, 下周三, 3月18号, 春节 …).

    A clock time alone (下午3点) is not relative; an absolute date that carries a
    weekday (2026年3月18日周三) is not relative either.  False for a string longer than
    ``limits.MAX_NORMALIZE_CHARS`` (not read).
    """
    if len(s) > limits.MAX_NORMALIZE_CHARS:
        return False  # not read, and not cached
    return _is_relative(s)


@lru_cache(maxsize=65536)
def _is_relative(s: str) -> bool:
    t = _norm(s)
    if _REL_RE.search(t) is None:
        return calendar_step(t) is not None
    return parse_absolute(t, _UTC) is None


def compare_time(pred: str, gold: str, reference_time: datetime, tz: tzinfo) -> Verdict:
    """Judge helper: how a predicted time string relates to the (absolute) gold."""
    if pred.strip() == gold.strip():
        return "equal"
    p = parse_absolute(pred, tz)
    if p is None:
        if is_relative(pred):
            return "relative"
        p = resolve(pred, reference_time)  # e.g. 2026年春节: named, but absolute
        if p is None:
            return "unparsed"
    g = parse_absolute(gold, tz) or resolve(gold, reference_time)
    if g is None:
        return "different"
    return "format_variant" if p.same_as(g) else "different"
