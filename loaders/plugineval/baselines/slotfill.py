"""A text-only slot filler: reads the query and a tool's JSON Schema (plus the judge's alias
annotations), never a gold or intended call. It records the inference steps it needed.

It is the builder's first generator and the argument filler of the reference router baseline.
``variant`` > 0 asks for the next-best interpretation (refinement after feedback).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..normalize import normalize_text
from ..normalize.places import all_facilities
from ..normalize.timeexpr import TimeValue
from .implied import implied_today
from .spans import directed, direction, hours_said, is_clock, since, span_days
from .textscan import (
    TimeMention,
    find_places,
    find_structure,
    find_times,
    numbers_outside,
    resolve_references,
)

_PLACE_WORDS = ("城市", "地点", "出发地", "目的地", "地址", "起点", "终点", "所在地", "位置", "站名")
_ORIGIN = re.compile(r"(from|origin|start|depart)", re.I)
_DEST = re.compile(r"(to_|dest|end|arriv|target)", re.I)
_PERSON_WORDS = ("姓名", "名字", "乘车人", "乘客", "联系人", "入住人", "就诊人", "收件人", "预订人", "用户名")
_SURNAME = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
)
_GIVEN = r"[^\s\d，。,、！？!?的了吧订买抢要查预坐去走来回给帮替为是和跟在从到]"
_PERSON = re.compile(
    rf"(?:(?:乘车人|乘客|名字写|姓名|联系人|入住人|就诊人|预订人|收件人|给|帮|替|为)(?:是|写|：|:)?|^|\s)"
    rf"([{_SURNAME}]{_GIVEN}{{1,2}}?)(?=$|\s|[，,。要想需的订抢预买坐])"
)
_PHONE = re.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)")
_FROM_MARK = re.compile(r"(从|由|自)$")
_TO_MARK = re.compile(r"(到|去|飞|往|至|→|->|回|抵达)$")
_AFTER_FROM = re.compile(r"^(出发|发车|始发|走|动身)")
_MEASURES = set(
    "张个位人晚间天次份件台辆元块斤克米里时分岁月年折层号瓶盒包袋杯碗道本首部集场座站楼室间单笔期"
)
_KILO = ("公里", "千米")
_CONJ = re.compile(r"[和跟、与及]|以及|还有|分别")
# a countdown to one day ("离5月1号还有几天", "距离国庆还有几周", "还有多少天到6月18号") counts from today
_COUNTDOWN = re.compile(r"(?:^|[，,])(?:离|距离?)|还有|还剩")


@dataclass
class Fill:
    tool: str
    arguments: dict[str, Any] | None
    missing: list[str] = field(default_factory=list)
    steps: set[str] = field(default_factory=set)
    # how a span of several days was read: "held" whole (a start and an end, or a start and a count
    # of days), "narrowed" to its first day (杭州下周天气 for a one-day tool), or None (no such span)
    span: str | None = None

    @property
    def abstained(self) -> bool:
        return self.arguments is None


def _fn(tool: dict[str, Any]) -> dict[str, Any]:
    fn: dict[str, Any] = tool.get("function", tool)
    return fn


def _is_place(name: str, sch: dict[str, Any]) -> bool:
    d = str(sch.get("description", ""))
    return (
        sch.get("type") == "string"
        and "enum" not in sch
        and (
            any(w in d for w in _PLACE_WORDS)
            or name in ("city", "from_city", "to_city", "origin", "destination")
        )
    )


_BARE_STATION = re.compile(r"^[东南西北]?站$|^(?:火车|高铁)站$")


def _city_only(name: str, sch: dict[str, Any]) -> bool:
    """An argument that takes a city, not any place."""
    return "city" in name or bool(
        re.match(r"^(?:出发|到达|目的|所在|起终点所在)?城市", str(sch.get("description", "")))
    )


def _role(name: str, sch: dict[str, Any]) -> str:
    d = str(sch.get("description", ""))
    if _ORIGIN.search(name):  # the name first: "destination: 终点，格式同起点" is no origin
        return "origin"
    if _DEST.search(name):
        return "dest"
    if "出发" in d or "起点" in d:
        return "origin"
    if "到达" in d or "目的" in d or "终点" in d:
        return "dest"
    return "any"


def _time_parts(v: TimeValue) -> tuple[str | None, str | None, str | None]:
    """(date, time, datetime) strings of a time value, where it has them."""
    s, e = v.start, v.end
    if v.kind == "date" and s is not None:
        return str(s), None, None
    if v.kind == "datetime" and s is not None:
        iso = s.isoformat()  # type: ignore[union-attr]
        return iso[:10], iso[11:16], iso
    if v.kind == "time" and s is not None:
        return None, str(s)[:5], None
    if v.kind in ("date_range", "datetime_range") and s is not None:
        return str(s)[:10], None, None
    del e
    return None, None, None


_DECLINE_BEFORE = re.compile(r"(?:少|不|别|免|避免|不想|不用|不要)$")
_DECLINE_AFTER = re.compile(r"^(?:少|最少|较少|尽量少|不)")


def _declined(query: str, at: int, end: int) -> bool:
    """A mention the query asks to avoid or minimize ("少走路", "步行最少的公交线路", "不开车")."""
    return bool(_DECLINE_BEFORE.search(query[max(0, at - 2) : at]) or _DECLINE_AFTER.match(query[end:]))


def _free_occurrence(query: str, surface: str, used: set[int]) -> int | None:
    """Where ``surface`` occurs in the query without overlapping characters another argument took;
    a Latin surface only as a word of its own ("T" is not in "Tom", "K" not in "EK")."""
    at = query.find(surface)
    latin = surface[:1].isascii() and surface[:1].isalpha()
    while at >= 0:
        end = at + len(surface)
        ok = not latin or not (
            (at > 0 and query[at - 1].isascii() and query[at - 1].isalpha())
            or (end < len(query) and query[end].isascii() and query[end].isalpha())
        )
        if ok and not used.intersection(range(at, end)) and not _declined(query, at, end):
            return at
        at = query.find(surface, at + 1)
    return None


class SlotFiller:
    """Fill a tool's arguments from the query text alone."""

    def __init__(
        self,
        tool: dict[str, Any],
        annotations: dict[str, Any] | None = None,
        stateful: bool = False,
        landmarks: Mapping[str, frozenset[str]] | None = None,
    ) -> None:
        fn = _fn(tool)
        self.landmarks = landmarks  # a place name -> the cities it is in (the store's data), or none
        self.annotations = dict(annotations or {})
        self.stateful = stateful
        self.name: str = fn["name"]
        self.description: str = fn.get("description", "")
        params = fn.get("parameters") or {}
        self.props: dict[str, Any] = params.get("properties", {}) or {}
        self.required: list[str] = list(params.get("required", []) or [])
        self.aliases: dict[str, list[tuple[str, Any]]] = {}
        self._ref_month = ""  # the reference time's YYYY-MM, set by fill
        self._span: str | None = None  # how the last fill read a span of several days (``Fill.span``)
        for arg, sch in self.props.items():
            pairs: list[tuple[str, Any]] = []
            ann = (annotations or {}).get(arg) or {}
            ann_aliases = ann.get("aliases", {}) if isinstance(ann, dict) else getattr(ann, "aliases", {})
            for surface, canon in ann_aliases.items():
                pairs.append((str(surface), canon))
            for v in sch.get("enum") or sch.get("items", {}).get("enum") or []:
                if isinstance(v, str):
                    pairs.append((v, v))
            pairs.sort(key=lambda p: -len(p[0]))
            self.aliases[arg] = pairs

    def fill(self, query: str, reference_time: str, variant: int = 0) -> Fill:
        # a request that comes with its context ("EK: …\nquery: …") is read alone, its explicit
        # references to the context ("小李微信里提到的地点") replaced by what the context names
        query, ref_steps = resolve_references(query, reference_time)
        self._ref_month = reference_time[:7]
        self._span = None
        # loose spans (最近一周, 这几天, 这周) read the way the tool looks: a history or a forecast
        times = directed(
            find_times(query, reference_time), query, reference_time, direction(self.description)
        )
        places = find_places(query)
        spans = [(t.start, t.end) for t in times]
        nums = numbers_outside(query, spans + [(p.start, p.end) for p in places])
        args: dict[str, Any] = {}
        steps: set[str] = set(ref_steps)
        self._fill_times(args, steps, times, variant)
        self._countdown(args, steps, query, times, reference_time)
        self._since(args, steps, query, times, reference_time)
        self._next_clock(args, steps, times, reference_time)
        self._today(args, steps, query, reference_time)
        self._fill_places(args, steps, query, places, variant)
        self._implicit_city(args, steps, query, places)
        used: set[int] = set()  # number spans already given to an argument
        for arg, sch in self.props.items():
            if arg in args:
                continue
            v = self._fill_other(arg, sch, query, nums, steps, variant, spans, used, times)
            if v is not None:
                args[arg] = v
        missing = [r for r in self.required if r not in args]
        if missing:
            return Fill(self.name, None, missing, steps)
        return Fill(self.name, args, [], steps, self._span)

    # --- kinds of arguments -----------------------------------------------------------------
    def _fill_times(
        self, args: dict[str, Any], steps: set[str], times: tuple[TimeMention, ...], variant: int
    ) -> None:
        date_args = [a for a, s in self.props.items() if s.get("format") == "date"]
        time_args = [a for a, s in self.props.items() if is_clock(s)]
        dt_args = [a for a, s in self.props.items() if s.get("format") == "date-time"]
        dates: list[tuple[str, TimeMention]] = []
        clock: list[tuple[str, TimeMention]] = []
        stamps: list[tuple[str, TimeMention]] = []
        for t in times:
            d, c, dt = _time_parts(t.value)
            if (
                t.value.kind in ("date_range", "datetime_range", "month")  # 上个月: its first and last day
                and len(date_args) >= 2
                and t.value.end is not None
            ):
                end = t.value.end
                end_s = str(end)[:10]
                dates += [(str(t.value.start)[:10], t), (end_s, t)]
                if (span_days(t.value) or 0) > 1:
                    self._span = "held"
                continue
            if d and variant >= 1 and "year_inference" in t.steps:
                d = _previous_year_if_future(d, t)  # refinement: "8月31日" may be the one past
            if d:
                dates.append((d, t))
            if c:
                clock.append((c, t))
            if dt:
                stamps.append((dt, t))
        if len(date_args) == 1 and dates:
            args[date_args[0]] = dates[0][0]
            steps.update(dates[0][1].steps)
            self._span_count(args, dates[0][1])
        elif len(date_args) >= 2:
            for a, (v, t) in zip(date_args, dates, strict=False):
                args[a] = v
                steps.update(t.steps)
        for a, (v, t) in zip(time_args, clock, strict=False):
            args[a] = v
            steps.update(t.steps)
        for a, (v, t) in zip(dt_args, stamps, strict=False):
            args[a] = v
            steps.update(t.steps)

    def _span_count(self, args: dict[str, Any], t: TimeMention) -> None:
        """A span said for a tool that takes a start date and a count of days (未来三天, 下周, 近七天
        for a forecast: 起始日期 and 天数): the count is the span's length, where the tool allows it."""
        n = span_days(t.value)
        if n is None:
            return
        for a, sch in self.props.items():
            if a in args or sch.get("type") != "integer" or "天数" not in str(sch.get("description", "")):
                continue
            lo, hi = sch.get("minimum"), sch.get("maximum")
            if (lo is None or n >= lo) and (hi is None or n <= hi):
                args[a] = n
                self._span = "held" if n > 1 else None
            return
        self._span = "narrowed" if n > 1 else None

    def _countdown(
        self,
        args: dict[str, Any],
        steps: set[str],
        query: str,
        times: tuple[TimeMention, ...],
        reference_time: str,
    ) -> None:
        """A countdown to one day ("离5月1号还有几天") between two required dates: the start is today
        (the request's time implies it), the end the day named."""
        date_args = [a for a, s in self.props.items() if s.get("format") == "date"]
        if (
            len(date_args) != 2
            or not all(a in self.required for a in date_args)
            or not _COUNTDOWN.search(query)
        ):
            return
        start, end = date_args
        named = [t for t in times if t.value.kind == "date" and t.value.start is not None]
        if len(named) != 1 or (end in args and start not in args):
            return
        today = reference_time[:10]
        day = str(named[0].value.start)[:10]
        if day <= today or args.get(start) != day or end in args:
            return
        args[start], args[end] = today, day
        steps.add("relative_time")

    def _since(
        self, args: dict[str, Any], steps: set[str], query: str, times: tuple[TimeMention, ...], ref: str
    ) -> None:
        """A range to now (9月14日以来) for a tool with a start and an end date: the end is today."""
        dates = [a for a, s in self.props.items() if s.get("format") == "date"]
        if len(dates) == 2 and (got := since(query, times, ref)) is not None:
            args[dates[0]], args[dates[1]] = got
            steps.add("relative_time")

    def _today(self, args: dict[str, Any], steps: set[str], query: str, reference_time: str) -> None:
        """A required fact-of-the-day date no time word names, asked in the present tense (北京天气,
        上海日落几点): today, by the same predicate that labels the value implied (``implied``)."""
        for a in self.required:
            if a in args or self.props.get(a, {}).get("format") != "date":
                continue
            if implied_today(self.props, self.annotations, self.stateful, [a], query, reference_time):
                args[a] = reference_time[:10]
                steps.add("relative_time")

    def _next_clock(
        self, args: dict[str, Any], steps: set[str], times: tuple[TimeMention, ...], reference_time: str
    ) -> None:
        """A clock time alone ("8点提醒我吃药", "每天7点叫我起床") for a required date-time, where the
        tool takes no separate date: its next occurrence after the request's time."""
        from datetime import datetime, timedelta

        dt_args = [a for a, s in self.props.items() if s.get("format") == "date-time"]
        if any(s.get("format") == "date" for s in self.props.values()) or not dt_args:
            return
        first = dt_args[0]
        if first in args or first not in self.required or len(times) != 1 or times[0].value.kind != "time":
            return
        clock = _time_parts(times[0].value)[1]
        if clock is None:
            return
        ref = datetime.fromisoformat(reference_time)
        hour, minute = int(clock[:2]), int(clock[3:5])
        at = ref.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if at <= ref:
            at += timedelta(days=1)
        args[first] = at.isoformat()
        steps.update(times[0].steps)
        steps.add("relative_time")

    def _fill_places(
        self, args: dict[str, Any], steps: set[str], query: str, places: list[Any], variant: int
    ) -> None:
        place_args = [(a, _role(a, s)) for a, s in self.props.items() if _is_place(a, s) and a not in args]
        if not place_args:
            return
        places = self._fill_structure(args, query, places, place_args)
        place_args = [(a, r) for a, r in place_args if a not in args]
        if not place_args or not places:
            return
        origin = [
            p for p in places if _FROM_MARK.search(query[: p.start]) or _AFTER_FROM.match(query[p.end :])
        ]
        dest = [p for p in places if _TO_MARK.search(query[: p.start])]
        order = list(places)
        if variant == 2 and len(order) >= 2:
            order[0], order[1] = order[1], order[0]
        used: set[int] = set()
        for a, role in place_args:
            pool = origin if role == "origin" else dest if role == "dest" else []
            pick = next((p for p in pool if p.start not in used), None)
            if pick is None:
                pick = next((p for p in order if p.start not in used), None)
            if pick is None:
                continue
            used.add(pick.start)
            args[a] = pick.name
            if pick.step:
                steps.add(pick.step)

    def _implicit_city(self, args: dict[str, Any], steps: set[str], query: str, places: list[Any]) -> None:
        """A required city no place names, where the request names a landmark, a station or an
        airport of exactly one city (三里屯附近的咖啡馆, 天坛门票): that city (``implicit_entity``). A
        name several cities have (人民广场) leaves it unread."""
        city = [a for a in self.required if a not in args and _city_only(a, self.props.get(a, {}))]
        if len(city) != 1 or places:
            return
        found = landmark_cities(query, self.landmarks)
        if len(found) == 1:
            args[city[0]] = next(iter(found))
            steps.add("implicit_entity")

    def _fill_structure(
        self, args: dict[str, Any], query: str, places: list[Any], place_args: list[tuple[str, str]]
    ) -> list[Any]:
        """Origin, destination and centre read from the sentence's structure (从X到Y, X附近, X 1公里内)
        for the arguments that take any place (not only a city): landmarks and stations the city
        gazetteer does not know. A span that is just one gazetteer place is left to the gazetteer.
        Returns the gazetteer places still free for the other arguments; a city a span starts with
        ("成都武侯祠") goes to the tool's city argument and leaves the span."""
        st = find_structure(query)
        has_city = any(_city_only(a, self.props[a]) for a in self.props)
        inside: list[Any] = []
        for a, role in place_args:
            sch = self.props[a]
            desc = str(sch.get("description", ""))
            if _city_only(a, sch) or "format" in sch or "keyword" in a or "时区" in desc:
                continue
            span = st.origin if role == "origin" else st.dest if role == "dest" else None
            if span is None and "中心" in desc:  # 中心地点: the place a search is centred on
                span = st.near
            if span is None or any(p.text == span for p in places):
                continue
            at = query.find(span)
            within = [p for p in places if at >= 0 and at <= p.start and p.end <= at + len(span)]
            head = next((p for p in within if p.start == at), None)
            rest = span[len(head.text) :] if head else ""
            if head is not None and has_city and len(rest) >= 2 and not _BARE_STATION.match(rest):
                span = rest
            args[a] = span
            inside += within
        if not inside:
            return places
        free = [p for p in places if p not in inside]
        return free or inside[:1]  # the city a landmark's own name gives

    def _fill_other(
        self,
        arg: str,
        sch: dict[str, Any],
        query: str,
        nums: list[Any],
        steps: set[str],
        variant: int,
        time_spans: list[tuple[int, int]],
        used: set[int],
        times: tuple[TimeMention, ...],
    ) -> Any:
        t = sch.get("type")
        d = str(sch.get("description", ""))
        if t == "integer" and ("年" in d or "year" in arg):  # a year given as a time mention: 2023年
            for tm in times:
                if tm.value.kind == "year" and tm.value.start is not None:
                    steps.update(tm.steps)
                    return int(str(tm.value.start)[:4])
        if t == "string" and re.search(r"YYYY-MM(?!-)", d):  # a month: 2025年8月, 上个月
            for tm in times:
                if tm.value.kind == "month" and tm.value.start is not None:
                    steps.update(tm.steps)
                    month = str(tm.value.start)[:7]
                    said = query[tm.start : tm.end]
                    if "账单" in d and month > self._ref_month and not re.search(r"[年下明]", said):
                        month = f"{int(month[:4]) - 1}{month[4:]}"  # a bill's year-less month is the past one
                    return month
        pairs = self.aliases.get(arg) or []
        if pairs:
            nq = normalize_text(query)
            # the earliest mention no other argument took (the longest at one position): one mention
            # serves one argument ("23公斤换算一下" has no target unit) and mentions fill arguments in
            # order ("把5英里换成公里": from mile, to km)
            # a one-character alias inside a time mention is part of the time ("5月1号" names no
            # unit of months, "下周三" none of weeks)
            inside = {i for s, e in time_spans for i in range(s, e)}
            found = [
                (at, -len(surface), surface, canon)
                for surface, canon in pairs
                if (at := _free_occurrence(query, surface, used | (inside if len(surface) == 1 else set())))
                is not None
            ]
            if found:
                at, _, surface, canon = min(found, key=lambda f: (f[0], f[1]))
                used.update(range(at, at + len(surface)))
                return [canon] if t == "array" else canon
            for surface, canon in pairs:
                if surface not in query and len(surface) > 2 and normalize_text(surface) in nq:
                    return [canon] if t == "array" else canon
            return None
        if t in ("integer", "number"):
            hours = hours_said(sch, times)
            return hours if hours is not None else self._number(arg, sch, query, nums, steps, variant, used)
        if t != "string" or "format" in sch:
            return None
        if "pattern" in sch:
            rx = re.compile(str(sch["pattern"]).lstrip("^").rstrip("$"))
            for hit in rx.finditer(query):  # not inside a date ("2025年" is no card number)
                if not any(hit.start() < e and hit.end() > s for s, e in time_spans):
                    return hit.group(0)
            return None
        if any(w in d for w in _PERSON_WORDS):
            m = _PERSON.search(query)
            return m.group(1) if m else None
        if "手机" in d or "电话" in d:
            m = _PHONE.search(query)
            return m.group(0) if m else None
        return None

    def _number(
        self,
        arg: str,
        sch: dict[str, Any],
        query: str,
        nums: list[Any],
        steps: set[str],
        variant: int,
        used: set[int],
    ) -> Any:
        desc = str(sch.get("description", "")) + arg
        lo, hi = sch.get("minimum"), sch.get("maximum")
        best: tuple[int, float, str, int] | None = None
        for v, a, b, step in nums:
            kilo = query[b : b + 2] in _KILO and "单位为米" in desc  # 1公里 for an argument in metres
            v = v * 1000 if kilo else v
            if a in used or (lo is not None and v < lo) or (hi is not None and v > hi):
                continue
            if b - a >= 9 and query[a:b].isdigit():  # a phone number or an id, not a quantity
                continue
            unit = query[b : b + 2]
            # a measure word right after the number that the argument's description also uses
            score = 2 if unit[:1] in _MEASURES and unit[:1] in desc else 0
            score += 1 if unit[:2] in desc and len(unit) == 2 else 0
            score = 2 if kilo else score
            if best is None or score > best[0]:
                best = (score, v, step, a)
        if best is None or (best[0] == 0 and arg not in self.required):
            return None
        used.add(best[3])
        if best[2]:
            steps.add(best[2])
        v = best[1]
        return int(v) if sch.get("type") == "integer" and float(v).is_integer() else v


def _previous_year_if_future(d: str, t: TimeMention) -> str:
    """The same month and day one year earlier (a year-less date read as the past occurrence)."""
    from datetime import date

    day = date.fromisoformat(d)
    try:
        return day.replace(year=day.year - 1).isoformat()
    except ValueError:  # 29 February
        return d


@cache
def _facility_cities() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for f in all_facilities():
        for name in (f.name, *f.aliases):
            if len(name) >= 3 and not name.isascii():
                out.setdefault(name, set()).add(f.city)
    return {k: frozenset(v) for k, v in out.items()}


def landmark_cities(query: str, landmarks: Mapping[str, frozenset[str]] | None = None) -> set[str]:
    """The cities of the landmarks, stations and airports a request names (the gazetteer's facilities
    and ``landmarks``, a name -> its cities), longest names first, a character read once; empty when
    any name belongs to several cities."""
    index = dict(_facility_cities())
    for k, v in (landmarks or {}).items():
        index[k] = index.get(k, frozenset()) | v
    taken: set[int] = set()
    cities: set[str] = set()
    for name in sorted(index, key=lambda n: (-len(n), n)):
        at = query.find(name)
        while at >= 0 and taken.intersection(range(at, at + len(name))):
            at = query.find(name, at + 1)
        if at < 0:
            continue
        if len(index[name]) != 1:
            return set()
        taken.update(range(at, at + len(name)))
        cities |= index[name]
    return cities


def _takes_places(sch: dict[str, Any]) -> bool:
    """A list argument whose items are places (目标时区列表，… 或城市名)."""
    d = str(sch.get("description", ""))
    return sch.get("type") == "array" and ("时区" in d or any(w in d for w in _PLACE_WORDS))


def multi_fill(filler: SlotFiller, query: str, reference_time: str, variant: int = 0) -> list[Fill]:
    """One fill, or one per mentioned place when the query joins several ('北京和上海的天气')."""
    base = filler.fill(query, reference_time, variant)
    query, _ = resolve_references(query, reference_time)
    places = find_places(query)
    place_args = [a for a, s in filler.props.items() if _is_place(a, s)]
    if base.abstained or len(place_args) != 1 or len(places) < 2 or not _CONJ.search(query):
        return [base]
    if any(_takes_places(s) for s in filler.props.values()):
        return [base]  # a tool that takes a list of places (to_timezones): the places are its items
    out = []
    for p in places:
        args = dict(base.arguments or {})
        args[place_args[0]] = p.name
        out.append(Fill(filler.name, args, [], set(base.steps), base.span))
    return out
