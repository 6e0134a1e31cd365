"""Self-contradictory requests (docs/format.md §4): a draft whose query contradicts itself has no right answer,
so the synthesizer rejects it before Stage I — a route from a place to itself (去武汉…武汉出发), an
explicit date whose stated weekday is another day (3月20日（周三） when the 20th is a Friday), a
phrase about the present that its reference time belies (都快半夜了 at 07:47, 年底了 in August)."""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from typing import Any

from plugineval.catalog import Catalog
from plugineval.normalize import canonical_place
from plugineval.schema import Call

# argument-name pairs that name the two ends of one trip
_ENDS = (("from", "to"), ("origin", "destination"), ("departure", "arrival"), ("start", "end"))
_WD = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_DATE = r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]"
_WEEK = r"(?:周|星期|礼拜)([一二三四五六日天])"
_DATE_THEN_WEEK = re.compile(_DATE + r"\s*[（(，,]?\s*" + _WEEK)
_WEEK_THEN_DATE = re.compile(_WEEK + r"\s*[（(，,]\s*" + _DATE)


def _end_pairs(args: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for a, b in _ENDS:
        for k in args:
            if k == a or k.startswith(a + "_"):
                other = b + k[len(a) :]
                if other in args:
                    out.append((k, other))
    return out


def _place(v: Any) -> str | None:
    if not isinstance(v, str) or not v.strip():
        return None
    return canonical_place(v) or v.strip()


def same_ends(catalog: Catalog, calls: list[Call]) -> str | None:
    """'tool: a = b' when a call's two ends (from/to, origin/destination …) name one place."""
    for c in calls:
        tool = catalog.tool(c.name)
        for a, b in _end_pairs(c.arguments):
            ann_a, ann_b = tool.annotations.get(a), tool.annotations.get(b)
            if (ann_a and ann_a.time_valued) or (ann_b and ann_b.time_valued):
                continue  # a range's two ends may be one day
            if "format" in tool.properties.get(a, {}) or "format" in tool.properties.get(b, {}):
                continue
            pa, pb = _place(c.arguments[a]), _place(c.arguments[b])
            if pa is not None and pa == pb:
                return f"{c.name}: {a} = {b} = {c.arguments[a]}"
    return None


def _resolve(year: str | None, month: int, day: int, ref: date) -> date | None:
    years = [int(year)] if year else [ref.year - 1, ref.year, ref.year + 1]
    options = []
    for y in years:
        try:
            options.append(date(y, month, day))
        except ValueError:
            continue
    return min(options, key=lambda d: abs((d - ref).days)) if options else None


def weekday_contradiction(query: str, reference_time: str) -> str | None:
    """'M月D日 is a <weekday>' when the query states a date with another weekday beside it."""
    ref = datetime.fromisoformat(reference_time).date()
    for m in _DATE_THEN_WEEK.finditer(query):
        y, mo, d, w = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        hit = _check(y, mo, d, w, ref, m.group(0))
        if hit:
            return hit
    for m in _WEEK_THEN_DATE.finditer(query):
        w, y, mo, d = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        hit = _check(y, mo, d, w, ref, m.group(0))
        if hit:
            return hit
    return None


def _check(y: str | None, mo: int, d: int, w: str, ref: date, text: str) -> str | None:
    day = _resolve(y, mo, d, ref)
    if day is not None and day.weekday() != _WD[w]:
        return f"{text}: {day.isoformat()} is weekday {day.weekday() + 1}"
    return None


# phrases that say what time it is now: the hours (local) or months they fit
_NOW_HOURS = {
    "都快半夜了": range(21, 24),
    "已经很晚了": range(20, 24),
    "大半夜": range(0, 5),
    "这么晚了": range(20, 24),
}
_NOW_MONTHS = {"年底了": (11, 12), "快过年了": (12, 1, 2), "快到年度汇算了": (1, 2, 3)}


def now_contradiction(query: str, reference_time: str) -> str | None:
    """'<phrase> at <now>' when the query says what time it is now (都快半夜了, 年底了) and its own
    reference time is another."""
    now = datetime.fromisoformat(reference_time)
    for phrase, hours in _NOW_HOURS.items():
        if phrase in query and now.hour not in hours:
            return f"{phrase} at {now:%H:%M}"
    for phrase, months in _NOW_MONTHS.items():
        if phrase in query and now.month not in months:
            return f"{phrase} in month {now.month}"
    return None


# a deadline a trip of today is asked against (中午前能到吗) and the hour it has passed from
_DEADLINES = {"中午前": 12, "上午能到": 12, "上午到": 12, "天黑前": 17, "赶得上晚饭": 18, "赶得上下午": 13}
_OTHER_DAY = re.compile(
    r"明天|后天|明早|明晚|周[一二三四五六日天末]|星期|礼拜|[0-9一二三四五六七八九十]+\s*[号日]|下周|下个|月底|天后|过几天"
)


def deadline_passed(query: str, reference_time: str) -> str | None:
    """厦门开车去福州中午前能到吗 asked at 13:01: a trip of today (no other day said) against a deadline
    that has passed has one answer, whatever the tools say (train round O: the model said so and
    the gold planned the route)."""
    now = datetime.fromisoformat(reference_time)
    if _OTHER_DAY.search(query):
        return None
    for phrase, hour in _DEADLINES.items():
        if phrase in query and now.hour >= hour:
            return f"{phrase} asked at {now:%H:%M} about today"
    return None


#: today's trading asked about (今天开盘多少, 今天涨了吗): none before the open, none on a weekend
_SESSION = re.compile(r"今天的?(?:开盘|最高|最低|涨了|跌了|涨没涨|跌没跌|是涨是跌|涨多少|跌多少)")
#: the tools that answer about a trading session (a weather request's 今天最高 is no such question)
SESSION_TOOLS = frozenset({"stock_quote", "stock_history", "fund_nav_query"})
OPEN_AT = (9, 30)


def before_the_open(query: str, reference_time: str, calls: list[Call]) -> str | None:
    """002624今天开盘多少 asked at 08:56 (or on a Saturday): there is no session of today to ask about
    yet, and a careful model says so rather than call (final sample 11)."""
    now = datetime.fromisoformat(reference_time)
    if not _SESSION.search(query) or not any(c.name in SESSION_TOOLS for c in calls):
        return None
    if now.weekday() >= 5:
        return f"today's trading asked on a {now:%A}"
    if (now.hour, now.minute) < OPEN_AT:
        return f"today's trading asked at {now:%H:%M}, before the open"
    return None


#: the tools that serve sessions of a day, and when the day's last session ends (the catalog's
#: descriptions: vaccination 14:00-16:30, clinics 13:30-17:00)
LAST_SESSION_ENDS = {"vaccine_slots": (16, 30), "vaccine_book": (16, 30), "doctor_schedule": (17, 0), "appointment_book": (17, 0)}  # fmt: skip


def sessions_over(reference_time: str, calls: list[Call]) -> str | None:
    """今天去西宁打流感疫苗约得上吗 asked at 21:08: the day's sessions have ended, and a careful model
    says so rather than look up today's slots (train round X)."""
    now = datetime.fromisoformat(reference_time)
    for c in calls:
        end = LAST_SESSION_ENDS.get(c.name)
        today = str(c.arguments.get("date", ""))[:10] == reference_time[:10]
        if end is not None and today and (now.hour, now.minute) >= end:
            return f"today's sessions asked at {now:%H:%M}, after the last one ended"
    return None


#: an event of the day a request asks the time of, and the field of the answer that gives it
_EVENTS = (
    (re.compile(r"日出|太阳几点(?:出来|升)|几点出太阳|几点天亮|天几点亮"), "sunrise"),
    (re.compile(r"日落|太阳几点(?:落|下山)|几点天黑|天几点黑"), "sunset"),
    (re.compile(r"月出|月亮几点(?:出来|升)|月亮(?:什么|啥)时候(?:出来|升)"), "moonrise"),
    (re.compile(r"月落|月亮几点(?:落|下去|下山)|月亮(?:什么|啥)时候(?:落|下去)"), "moonset"),
)
#: the tools whose answer gives those times
EVENT_TOOLS = frozenset({"sun_moon_times"})


def event_passed(query: str, reference_time: str, calls: list[Call], answers: list[Any]) -> str | None:
    """南昌月亮几点落 asked at 18:54, when today's moonset (04:42) has passed: the person means the next
    one, tomorrow's, and a gold of today answers what no one asked (final sample 11). Only where the
    request names no day of its own (the gold's day is today)."""
    from plugineval.baselines.textscan import find_times

    if find_times(query, reference_time):
        return None
    now = reference_time[11:16]
    for c, answer in zip(calls, answers, strict=True):
        if c.name not in EVENT_TOOLS or not isinstance(answer, dict):
            continue
        if answer.get("date", reference_time[:10]) != reference_time[:10]:
            continue
        for rx, field in _EVENTS:
            at = answer.get(field)
            if rx.search(query) and isinstance(at, str) and at < now:
                return f"{field} of today ({at}) asked at {now}"
    return None


#: a trip asked by the metro (坐地铁去望京)
_BY_METRO = re.compile(r"(?:坐|乘|搭)地铁")
#: the tools whose transit answer names the lines it takes
ROUTE_TOOLS = frozenset({"route_plan"})
#: the tools a contradiction can be read from the gold's answer only
ANSWER_TOOLS = EVENT_TOOLS | ROUTE_TOOLS


def metro_not_taken(query: str, calls: list[Call], answers: list[Any]) -> str | None:
    """北京大学坐地铁去望京 answered by the 162路 bus, where the store has no metro station near 北京大学:
    the person asked for the metro, and the gold answers another trip (train round W)."""
    if not _BY_METRO.search(query):
        return None
    for c, answer in zip(calls, answers, strict=True):
        if c.name not in ROUTE_TOOLS or c.arguments.get("mode") != "transit" or not isinstance(answer, dict):
            continue
        steps = json.dumps(answer.get("steps", []), ensure_ascii=False)
        if "地铁" not in steps and "号线" not in steps:
            return "a trip asked by the metro answered without a metro line"
    return None


def answer_contradiction(
    query: str, reference_time: str, calls: list[Call], answers: list[Any]
) -> str | None:
    """The name of the contradiction the gold's answers show, if any (``event_passed``,
    ``metro_not_taken``): checked in Stage I on the answers the alternatives step already has."""
    if event_passed(query, reference_time, calls, answers):
        return "event_passed"
    if metro_not_taken(query, calls, answers):
        return "metro_not_taken"
    return None


# "周日到六天后": six days after today, or after Sunday? A range whose second end counts days
# (N天后) after a first end that is not today has two readings.
_AMBIGUOUS_END = re.compile(
    r"(?:(?:周|星期|礼拜)[一二三四五六日天]|[明后]天|[号日])\s*(?:到|至)\s*[一二三四五六七八九十两百\d]+天后"
)


def ambiguous_end(query: str) -> str | None:
    m = _AMBIGUOUS_END.search(query)
    return f"{m.group(0)}: the second end counts from today or from the first" if m else None


def ambiguous_airport(query: str, calls: list[Call]) -> str | None:
    """'机场' alone in a city with two airports (上海: 浦东, 虹桥): a trip there has two answers."""
    from plugineval.normalize.places import all_facilities

    if "机场" not in query or any(f.name in query or any(a in query for a in f.aliases if a != "机场")
                                   for f in all_facilities() if f.kind == "airport"):  # fmt: skip
        return None
    cities = {_place(c.arguments.get("city")) for c in calls} - {None}
    for city in cities:
        n = sum(1 for f in all_facilities() if f.kind == "airport" and f.city == city)
        if n >= 2:
            return f"机场 in {city}, which has {n} airports"
    return None


WEEKEND = re.compile(r"周末|(?:周|星期|礼拜)[六日天]")


def weekend_contradiction(query: str, reference_time: str) -> str | None:
    """'周末 … <a weekday>': the query says the weekend (or 周六 / 周日) while every day its dates name
    is a weekday (周末跟朋友聚餐，今天之后的第六个工作日 → a Wednesday)."""
    from plugineval.baselines.textscan import find_times

    if not WEEKEND.search(query):
        return None
    days: list[date] = []
    for t in find_times(query, reference_time):
        v = t.value.start
        if t.value.kind in ("date", "datetime") and not WEEKEND.search(t.text) and isinstance(v, date):
            days.append(v.date() if isinstance(v, datetime) else v)
    if days and all(d.weekday() < 5 for d in days):
        return f"weekend words beside weekday dates {[d.isoformat() for d in days]}"
    return None


# "帮我查下下个月第一个周三": 查下 + 下个月, or 查 + 下下个月? A verb's 下 (查下, 看一下, 约一下) that runs
# into a relative date starting with 下 has two readings.
_PARTICLE_SHIFT = re.compile(r"(?:[查看搜找瞧试等约订问]|一)下下(?:个?月|周|星期|礼拜)")


def ambiguous_shift(query: str) -> str | None:
    m = _PARTICLE_SHIFT.search(query)
    return f"{m.group(0)}: a verb's 下 runs into a relative date (下… or 下下…)" if m else None


_PUBLISHED = re.compile(r"当日\S{0,6}于\s*(\d{1,2}):(\d{2})\s*后公布")


def not_yet_published(catalog: Catalog, reference_time: str, calls: list[Call]) -> str | None:
    """A call for today's value of a tool that states when the day's value is published (当日净值于
    20:00 后公布), drafted before that time: the answer cannot be today's (the tool falls back to the
    last published day), so 今天我的X涨了吗 at 18:14 is no request the tool serves as asked — a
    model that says so and calls nothing is right as well (train round M)."""
    now = datetime.fromisoformat(reference_time)
    today = now.date().isoformat()
    for c in calls:
        m = _PUBLISHED.search(catalog.tool(c.name).description)
        if m is None or not any(isinstance(v, str) and v[:10] == today for v in c.arguments.values()):
            continue
        if (now.hour, now.minute) < (int(m.group(1)), int(m.group(2))):
            return f"{c.name}: today's value is published after {m.group(1)}:{m.group(2)}"
    return None


# snow asked of (下雪没, 会下雪吗, 积雪), never 雪糕 or 雪碧
_SNOW = re.compile(r"下(了|不下)?雪|雪(下|停|大)|积雪|降雪")
_SUMMER = range(5, 10)


def out_of_season(query: str, reference_time: str) -> str | None:
    """贵阳下雪没 asked on July 12th: nobody asks after snow from May to September, and a strong model
    answers it from the season without a tool (train round AG)."""
    if _SNOW.search(query) and int(reference_time[5:7]) in _SUMMER:
        return "snow asked in summer"
    return None


def contradiction(catalog: Catalog, query: str, reference_time: str, calls: list[Call]) -> str | None:
    """Why a draft contradicts itself, or None."""
    return (
        same_ends(catalog, calls)
        or not_yet_published(catalog, reference_time, calls)
        or weekday_contradiction(query, reference_time)
        or weekend_contradiction(query, reference_time)
        or now_contradiction(query, reference_time)
        or deadline_passed(query, reference_time)
        or before_the_open(query, reference_time, calls)
        or sessions_over(reference_time, calls)
        or ambiguous_end(query)
        or ambiguous_shift(query)
        or ambiguous_airport(query, calls)
        or out_of_season(query, reference_time)
    )
