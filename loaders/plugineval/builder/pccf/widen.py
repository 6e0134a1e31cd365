"""Alternatives by execution that widen or narrow what the gold searches:

- ``widened``: ``radius*`` at the tool's limit where the request sets no area; ``limit`` up to the
  largest the tool takes where the request asks for all (都找出来) or what only the whole list answers
  (孙燕姿有哪些歌, 有几个版本); a range's end at the tool's longest span where the user gave none
  (11月30号以后) — each when the wider answer holds the gold's whole;
- ``evening_start``: a span from now (接下来一周) asked in the evening, started tomorrow;
- ``narrowed``: ``days: 1`` for a forecast of the one day asked, when the answer is the gold's cut to
  that day; a window's end (``date_to``) on the one day the request names where the gold leaves the
  tool's default window after it (西甲奥萨苏纳昨天赢了吗: ``date_to`` yesterday) — grounded by the request
  alone, though the answer narrows;
- ``breakdown``: another ``granularity`` of a total the request asks alone (上个月一共走了多少步), when
  every total of the answer is the gold's;
- ``keyword``: the user's own word in place of the category the gold chose (奶茶 for ``cuisine:
  dessert``), when the tool searched by it and every item it finds is among the gold's.

An answer that lists nothing holds in any other: such an answer is no evidence (``empty_answer``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from plugineval.baselines.textscan import find_times
from plugineval.schema import Call

from .answers import _clipped, _holds_items, _strip, finds_nothing, is_echo, sub_answer

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder, Found

_NEAR = re.compile(
    r"附近|周边|周围|旁边|边上|\d+\s*(公里|千米|米|km|m)\b|[一二三四五六七八九十两百]+(公里|千米|米)"
)
# the request asks for every item there is (都找出来, 全部列出来, 所有的)
_ALL = re.compile(r"都(找|列|查|搜|给|拿|翻|看)|全部|所有|全都|一个不落|统统|一网打尽")
# a date said as the start of an open range (3月20号以后, 3月25日起)
_OPEN = re.compile(r"\s*(以后|之后|往后|后面|起|开始|及以后)")
_FEW = re.compile(r"[几前]\s*[个家条首本件]|[一二三四五六七八九十两\d]+\s*[个家条首本件]")
# a question only the whole list answers: which ones (孙燕姿有哪些歌, train round AF) or how many (有几个版本)
_COUNT = re.compile(r"有几[个首本部家条]|几个版本|多少[个首本部家条]")
_WHOLE = re.compile(r"有哪些|都有什么|有什么歌|" + _COUNT.pattern)


async def holds(
    finder: AlternativeFinder, variant: Call, ref: str, result: Any, clip: str | None = None
) -> bool:
    """The wider ``variant`` answers and its answer holds the gold's (``result``) whole: every item the
    gold found is among its items (echoes of the arguments and counts aside). With ``clip`` (the
    narrower window's last day), an item's date that the narrower window cut at that day may run on in
    the wider answer (a show's ``last_date``: 08-16 in a month's window, 09-15 in two months')."""
    wider = await finder._run(variant, ref) if isinstance(result, dict) else None
    if not isinstance(wider, dict):
        return False
    echo = set(finder.catalog.tool(variant.name).properties)
    part = _strip({k: v for k, v in result.items() if k not in echo})
    whole = _strip({k: v for k, v in wider.items() if k not in echo})
    if clip is not None:
        part, whole = _clipped(part, clip), _clipped(whole, clip)
    return sub_answer(part, whole) or _holds_items(part, whole)


def _informative(finder: AlternativeFinder, found: Found, source: str, c: Call, result: Any) -> bool:
    if finds_nothing(result, finder.catalog.tool(c.name)):
        found.reject(source, "empty_answer")
        return False
    return True


async def widened(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """``radius_m`` at the tool's maximum for a request that sets no area (拉萨评分最高的面馆: the
    whole city, not 1 km around its centre), and ``limit`` at its maximum for a request that asks for
    all (都找出来), when the wider search still holds the gold's answer whole. Never a radius where the
    query says 附近 or gives a distance (there the default area is the reading), never a limit where it
    asks for a number of items."""
    tool = finder.catalog.tool(c.name)
    limits = {
        b.argument: b.limit
        for b in finder.catalog.plugin_of_tool(c.name).boundaries
        if b.kind == "max_value" and c.name in b.tools and b.limit is not None
    }
    for arg, sch in tool.properties.items():
        top, default = sch.get("maximum", limits.get(arg)), sch.get("default")
        if isinstance(top, float) and top.is_integer() and sch.get("type") == "integer":
            top = int(top)
        if arg in c.arguments or not isinstance(top, int | float):
            continue
        if arg.startswith("radius"):
            if _NEAR.search(query):
                continue
        elif arg in ("limit", "max_results", "page_size"):
            if not (_ALL.search(query) or _WHOLE.search(query)) or (
                _FEW.search(query) and not _COUNT.search(query)
            ):
                continue
        elif arg == "days":
            if find_times(query, ref) or _FROM_NOW.search(query) or _SPAN_SAID.search(query):
                continue  # the request names its own day or span (温州什么时候有雨 names none)
        else:
            continue
        if isinstance(default, int | float) and default >= top:
            continue
        found.tried["widened"] += 1
        if not _informative(finder, found, "widened", c, result):
            continue
        if await holds(finder, Call(name=c.name, arguments={**c.arguments, arg: top}), ref, result):
            if arg.startswith("radius") or not isinstance(default, int):
                found.add(i, "extra", arg, top)
                continue
            for n in range(default + 1, int(top) + 1):  # a longer list holds the default one: any length
                found.add(i, "extra", arg, n)


async def widened_end(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """A range left open by the user (11月30号以后: no end) may end at the tool's longest span
    instead of its default one (``date_to`` = ``date_from`` + 60 days where the default is + 30),
    when the longer range still holds the gold's answer."""
    times = find_times(query, ref)
    if len(times) != 1 or times[0].value.kind != "date":
        return  # a second time or a range: the end may be the user's
    if not _OPEN.match(query[times[0].end :]):
        return  # 3月21日有什么安排 asks about that day: a month's listing is another answer
    plugin = finder.catalog.plugin_of_tool(c.name)
    for b in plugin.boundaries:
        end, start = b.end_argument, b.argument
        if b.kind != "max_span_days" or c.name not in b.tools or end is None or end in c.arguments:
            continue
        ann = finder.catalog.tool(c.name).annotations.get(end)
        dd = ann.derived_default if ann is not None else None
        if dd is None or dd.of != "date" or dd.from_argument != start:
            continue
        try:
            first = date.fromisoformat(str(c.arguments.get(start))[:10])
        except ValueError:
            continue
        default, top = first + timedelta(days=dd.days), first + timedelta(days=b.days or 0)
        if top <= default:
            continue
        found.tried["widened"] += 1
        if not _informative(finder, found, "widened", c, result):
            continue
        widest = Call(name=c.name, arguments={**c.arguments, end: top.isoformat()})
        if await holds(finder, widest, ref, result, clip=default.isoformat()):
            # every end from the default's to the longest span: each window holds the default
            # one and lies within the widest (a user who gave no end asked for all of them)
            for k in range(1, (top - default).days + 1):
                found.add(i, "extra", end, (default + timedelta(days=k)).isoformat())


def one_day(query: str, ref: str) -> date | None:
    """The one day the request's time expressions name (昨天, 下星期二, 下周六下午), or None where it names
    none, several (周六和周日), a range (这周末, 下周) or an open start (3月20号以后)."""
    times = find_times(query, ref)
    if len(times) != 1 or _OPEN.match(query[times[0].end :]):
        return None
    v = times[0].value
    start, end = v.start, v.end
    if isinstance(start, datetime) and isinstance(end, datetime):
        if end > start and end.time() == time(0):
            end -= timedelta(microseconds=1)  # 3月21日晚上 runs to midnight
        start, end = start.date(), end.date()
    if v.kind not in ("date", "datetime", "datetime_range") or start != end or not isinstance(start, date):
        return None
    return start


async def one_day_end(finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str) -> None:
    """A window's end (``date_to``) on the one day the request names, where the gold gives that day
    as the start and leaves the end to the tool's default window (a week of matches, a month of shows):
    a single day said is a single day searched, so ``date_to`` = ``date_from`` is an ``extra`` — grounded
    by the request, not by execution (the answer narrows to that day). Never where the request names a
    range or several days (这周末, 下周, 周六和周日): there the end is the user's or the default's."""
    tool = finder.catalog.tool(c.name)
    for end, ann in tool.annotations.items():
        dd = ann.derived_default
        if end in c.arguments or end in tool.required or dd is None or dd.of != "date" or dd.days <= 0:
            continue
        if dd.from_argument not in c.arguments:
            continue
        day = one_day(query, ref)
        found.tried["narrowed"] += 1
        start = str(c.arguments.get(dd.from_argument, ""))[:10]
        if day is not None and start[5:] == day.isoformat()[5:] and start != day.isoformat():
            # a year-less day (12月10日那场…赢了吗): its year is the gold's, read from the request's
            # tense and order of events; the scanner alone takes the next 12月10日
            day = date.fromisoformat(start)
        if day is None or start != day.isoformat():
            found.reject("narrowed", "not_in_request")
            continue
        one = Call(name=c.name, arguments={**c.arguments, end: day.isoformat()})
        one_result = await finder._run(one, ref)
        if one_result is None:
            continue  # the tool refuses it
        found.add(i, "extra", end, day.isoformat())
        # a window one day longer that finds exactly what the one day finds (a match said by its date
        # whose kick-off may fall after midnight Beijing time: 曼联昨天输没输 searched to today)
        later = (day + timedelta(days=1)).isoformat()
        if later not in found.alternatives[i].extra.get(end, []):
            found.tried["narrowed"] += 1
            wider = Call(name=c.name, arguments={**c.arguments, end: later})
            same = await finder._answer(wider, ref)
            if same is not None and same == finder._key(one, one_result):
                found.add(i, "extra", end, later)


#: words that ask about more than one day though they name none (这几天, 未来, 七天内)
_SPAN = re.compile(r"几天|最近|未来|近期|天内|一周|这周|周末|以后|之后|每天|哪天")


async def narrowed(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """``days: 1`` for a forecast of the one day the gold asks for (its default is longer): the
    answer is the gold's, cut to that day — every list a part of the gold's list, the asked day
    in it, nothing else changed. A gold without a day, for a request that names no time and no
    span (无锡最高几度, 乌鲁木齐是晴天吗), asks about today (final sample 10: ``days: 1`` with today's
    date failed twice)."""
    tool = finder.catalog.tool(c.name)
    sch = tool.properties.get("days", {})
    default = sch.get("default")
    if "days" in c.arguments or sch.get("type") != "integer" or not isinstance(default, int) or default <= 1:
        return
    days = {
        str(v)[:10]
        for k, v in c.arguments.items()
        if (a := tool.annotations.get(k)) is not None and a.time_valued and isinstance(v, str)
    }
    if not days and not find_times(query, ref) and not _SPAN.search(query):
        days = {ref[:10]}
    if len(days) != 1:
        return
    found.tried["narrowed"] += 1
    narrow = await finder._run(Call(name=c.name, arguments={**c.arguments, "days": 1}), ref)
    if narrow is None or not result:
        return
    v, g = _strip(narrow), _strip(result)
    if v != g and sub_answer(v, g) and days.pop() in json.dumps(v, ensure_ascii=False):
        found.add(i, "extra", "days", 1)


#: words that start a span at now (接下来一周, 未来三天, 这几天): said in the evening, the span starts tomorrow
_FROM_NOW = re.compile(
    r"接下来|未来|这几天|往后|最近几天|近几天|[一二三四五六七八九十两\d]+天[之以]?内|一周[之以]?内"
)
EVENING_HOUR = 18


async def evening_start(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """A span from now (接下来一周哪天能晒被子) asked in the evening starts tomorrow as well as today: the
    forecast's start (``date``, today by default) on tomorrow, with the gold's ``days`` — a careful
    reader of 上海接下来一周 at 18:08 counts the week from tomorrow (train round T). Only where the
    request names no day of its own and the tool takes the later start."""
    tool = finder.catalog.tool(c.name)
    if "days" not in tool.properties or "date" not in tool.properties or not result:
        return
    if int(ref[11:13]) < EVENING_HOUR or not _FROM_NOW.search(query):
        return
    today = ref[:10]
    # only the span from now itself (接下来一周), no day of the request's own
    for t in find_times(query, ref):
        start = t.value.start.date() if isinstance(t.value.start, datetime) else t.value.start
        if not _FROM_NOW.search(query[t.start : t.end]) or str(start) != today:
            return
    if str(c.arguments.get("date", today))[:10] != today:
        return
    tomorrow = (date.fromisoformat(today) + timedelta(days=1)).isoformat()
    found.tried["evening_start"] += 1
    later = await finder._run(Call(name=c.name, arguments={**c.arguments, "date": tomorrow}), ref)
    if later is None:
        return  # the tool refuses it (a window that would end beyond its range)
    found.add(i, "extra", "date", tomorrow)


_CLOCK = re.compile(r"\d{1,2}\s*[点:：]|[一二三四五六七八九十两]+点")
# the hours a day-part word starts at, as people mean it (晚上 is from about six; 傍晚 five to seven)
DAY_PARTS: tuple[tuple[re.Pattern[str], range], ...] = (
    (re.compile(r"早上|早晨|一早|清早|明早|今早|上学|上班|早高峰|晨跑"), range(5, 9)),  # 送孩子上学: morning
    (re.compile(r"上午"), range(8, 12)),
    (re.compile(r"中午"), range(11, 14)),
    (re.compile(r"下午"), range(12, 18)),
    (re.compile(r"傍晚|下班|放学|晚高峰"), range(16, 20)),
    (re.compile(r"晚上|今晚|明晚|夜里|晚间"), range(17, 22)),
    (re.compile(r"半夜|深夜"), range(21, 24)),
)


async def narrowed_start(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """``start_hour`` at the part of the day the request names (晚上在郑州拍月亮 → from 18): the
    answer is the gold's, cut to the hours from then on — every list a part of the gold's, nothing
    else changed — and the hour lies in the part of the day said (train round L: the evening's
    hourly forecast from 18:00 beside the moon's times failed the judge)."""
    tool = finder.catalog.tool(c.name)
    sch = tool.properties.get("start_hour", {})
    if "start_hour" in c.arguments or sch.get("type") != "integer" or not result:
        return
    hours = sorted({h for words, span in DAY_PARTS if words.search(query) for h in span})
    if not hours or _CLOCK.search(query):
        return  # no part of the day said, or a clock time said (晚上8点 reads as 20, the gold's own)
    whole = _strip(result)
    for h in hours:
        found.tried["narrowed"] += 1
        got = await finder._run(Call(name=c.name, arguments={**c.arguments, "start_hour": h}), ref)
        if got is None or finds_nothing(got, tool):
            continue
        part = _strip(got)
        if part != whole and sub_answer(part, whole):
            found.add(i, "extra", "start_hour", h)


async def _keyword_filters(finder: AlternativeFinder, v: Call, ref: str) -> bool:
    probe = await finder._run(Call(name=v.name, arguments={**v.arguments, "keyword": "甲乙丙丁"}), ref)
    return probe is not None and finds_nothing(probe, finder.catalog.tool(v.name))


async def keyword_for_category(
    finder: AlternativeFinder, found: Found, gold: list[Call], i: int, query: str, ref: str, result: Any
) -> None:
    """A category the gold chose by the user's word (奶茶 → ``cuisine: dessert``) replaced by that
    word as the tool's ``keyword``: an ``alternative_calls`` list (the gold's with that one call
    replaced) when its answer is non-empty, the tool searched by the word (every item names it, or a
    word no item says finds nothing: 牛排 matches unlisted dishes; 标间 matches no hotel, and a tool
    that answers anyway ignored it) and every item is among the gold's. Refused where the gold's
    answer lists nothing."""
    c = gold[i]
    tool = finder.catalog.tool(c.name)
    kw = tool.properties.get("keyword", {})
    if "keyword" in c.arguments or kw.get("type") != "string" or "keyword" in tool.required:
        return
    for k, v in c.arguments.items():
        ann = tool.annotations.get(k)
        if k in tool.required or ann is None or "enum" not in tool.properties.get(k, {}):
            continue
        words = [s for s, x in ann.aliases.items() if x == v and len(s) >= 2 and s in query]
        for s in words:
            found.tried["keyword"] += 1
            if finds_nothing(result, tool):
                found.reject("keyword", "empty_answer")
                continue
            variant = Call(
                name=c.name, arguments={**{a: x for a, x in c.arguments.items() if a != k}, "keyword": s}
            )
            got = await finder._run(variant, ref)
            if got is None or finds_nothing(got, tool):
                found.reject("keyword", "empty_answer")
                continue
            echo = set(tool.properties)
            part = _strip({a: x for a, x in got.items() if not is_echo(a, x, echo)})
            whole = _strip({a: x for a, x in result.items() if not is_echo(a, x, echo)})
            items = [x for got_list in part.values() if isinstance(got_list, list) for x in got_list]
            if not all(s in json.dumps(x, ensure_ascii=False) for x in items) and not await _keyword_filters(
                finder, variant, ref
            ):  # 牛排 matches dishes the listing does not show: a word no menu says must find nothing
                found.reject("keyword", "tool_ignores_argument")
                continue
            if sub_answer(part, whole) or _holds_items(part, whole):
                found.add_calls(finder.catalog, [*gold[:i], variant, *gold[i + 1 :]])


async def named_part(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """An optional list of kinds the gold leaves out (the life index's ``indices``: every index),
    set to the kinds the request names by their declared words (穿毛衣热不热 → ``[dressing]``): the
    answer is the gold's, cut to those kinds — a part of it, and not empty. A list the gold gives
    may take the other kinds the request names beside it (户外跑步晒不晒: ``[uv]`` and, for 跑步,
    ``[sport, uv]``), where the gold's answer is a part of the wider one."""
    tool = finder.catalog.tool(c.name)
    for arg, sch in tool.properties.items():
        items = sch.get("items", {}) if sch.get("type") == "array" else {}
        ann = tool.annotations.get(arg)
        if "enum" not in items or ann is None:
            continue
        named = sorted({v for s, v in ann.aliases.items() if s in query and v in items["enum"]})
        if not named:
            continue
        if arg in c.arguments:
            await _named_whole(finder, found, i, c, arg, named, ref, result)
            continue
        found.tried["named_part"] += 1
        variant = Call(name=c.name, arguments={**c.arguments, arg: named})
        narrow = await finder._run(variant, ref)
        if narrow is None or not result or finds_nothing(narrow, tool):
            found.reject("named_part", "empty_answer")
            continue
        v, g = _strip(narrow), _strip(result)
        if v != g and sub_answer(v, g):
            found.add(i, "extra", arg, named)


async def _named_whole(
    finder: AlternativeFinder,
    found: Found,
    i: int,
    c: Call,
    arg: str,
    named: list[Any],
    ref: str,
    result: Any,
) -> None:
    gold = c.arguments[arg]
    if not isinstance(gold, list) or not set(named) - set(gold):
        return
    wide = sorted(set(gold) | set(named))
    found.tried["named_part"] += 1
    answer = await finder._run(Call(name=c.name, arguments={**c.arguments, arg: wide}), ref)
    if answer is None or not result or not sub_answer(_strip(result), _strip(answer)):
        found.reject("named_part", "not_a_part")
        return
    found.add(i, "values", arg, wide)


SCALE_PROBES = (7, 100, 2500)  # amounts that tell a field the argument scales from one it does not


async def scaled(finder: AlternativeFinder, found: Found, i: int, c: Call, ref: str, result: Any) -> None:
    """An optional amount the gold leaves out, which only scales fields of the answer the catalog
    names (``scales``: the converted sum of 泰铢什么价格): the request asks for the rest (the rate), so
    any amount serves — ``free``, once each probe amount leaves the rest of the answer as the gold's."""
    tool = finder.catalog.tool(c.name)
    for arg, ann in tool.annotations.items():
        if (
            not ann.scales
            or arg in c.arguments
            or not isinstance(result, dict)
            or finds_nothing(result, tool)
        ):
            continue
        found.tried["scaled"] += 1
        rest = {k: v for k, v in _strip(result).items() if k not in ann.scales}
        for v in SCALE_PROBES:
            other = await finder._run(Call(name=c.name, arguments={**c.arguments, arg: v}), ref)
            if (
                not isinstance(other, dict)
                or {k: x for k, x in _strip(other).items() if k not in ann.scales} != rest
            ):
                found.reject("scaled", "changes_the_answer")
                break
        else:
            alt = found.alternatives[i]
            if arg not in alt.free:
                alt.free.append(arg)
                alt.free.sort()
                found.accepted["free"] += 1


def _facts(answer: Any, scaled: set[str]) -> list[str]:
    """The answer's leaf values (the fields an amount scales left out), as a sorted multiset."""
    out: list[str] = []

    def walk(x: Any, key: str = "") -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k not in scaled:
                    walk(v, k)
        elif isinstance(x, list):
            for v in x:
                walk(v, key)
        else:
            out.append(json.dumps(round(x, 6) if isinstance(x, float) else x, ensure_ascii=False))

    walk(_strip(answer))
    return sorted(out)


async def reversed_pair(
    finder: AlternativeFinder, found: Found, i: int, c: Call, ref: str, result: Any
) -> None:
    """A pair of arguments the catalog declares interchangeable for a rate (``swaps_with``: 日元什么价
    as JPY→CNY or CNY→JPY), where the gold gives no amount to scale: the call with the pair swapped is
    an ``alternative_calls`` list when its answer states the same facts (rate and inverse rate trade
    places; the bank's quotes per 100 units stay), with the gold's own alternatives but for the pair."""
    tool = finder.catalog.tool(c.name)
    scaled = {f for a in tool.annotations.values() for f in a.scales}
    if any(a.scales and k in c.arguments for k, a in tool.annotations.items()):
        return  # 500日元换多少: the amount is in the first currency, the order is the request's
    for arg, ann in tool.annotations.items():
        other = ann.swaps_with
        if other is None or arg not in c.arguments or other not in c.arguments or finds_nothing(result, tool):
            continue
        found.tried["reversed_pair"] += 1
        variant = Call(
            name=c.name, arguments={**c.arguments, arg: c.arguments[other], other: c.arguments[arg]}
        )
        answer = await finder._run(variant, ref)
        if answer is not None and _facts(answer, scaled) == _facts(result, scaled):
            own = found.alternatives[i].model_copy(deep=True)  # the gold's, but for the swapped pair
            for entries in (own.values, own.extra):
                entries.pop(arg, None)
                entries.pop(other, None)
            found.alternative_calls.append(
                {"calls": [variant.model_dump()], "alternatives": [own.model_dump()]}
            )
            found.accepted["alternative_calls"] += 1
        else:
            found.reject("reversed_pair", "changes_the_answer")


# the request asks a total (一共, 总共, 加起来) or an average (平均每天, 日均) and no breakdown of it
# (每天, 按周, 哪天); the 每天 of 平均每天 names the average, no breakdown (train round AB)
_TOTAL = re.compile(r"一共|总共|合计|累计|总计|加起来|总数|平均|日均")
_AVERAGE = re.compile(r"(平均|日均)每(天|日)")
_BREAKDOWN = re.compile(r"每(天|日|周|星期|礼拜|月)|按(天|日|周|月)|哪(天|周|个月)|最(多|少|高|低)")


async def breakdown(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, result: Any
) -> None:
    """Another ``granularity`` where the request asks a total alone (上个月一共走了多少步, train round
    W): the breakdown is a detail of the answer the request does not ask for, so a value is accepted
    where its answer is non-empty and carries every total of the gold's (each field that is no list
    and no object, the echo of the granularity aside) — 上个月 by month is one line holding the same
    total as the gold's 31 days."""
    tool = finder.catalog.tool(c.name)
    sch = tool.properties.get("granularity", {})
    if "enum" not in sch or not isinstance(result, dict) or finds_nothing(result, tool):
        return
    asked = _AVERAGE.sub("平均", query)
    if not _TOTAL.search(asked) or _BREAKDOWN.search(asked):
        return

    def totals(answer: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in answer.items() if k != "granularity" and not isinstance(v, list | dict)}

    own = c.arguments.get("granularity", sch.get("default"))
    for v in sch["enum"]:
        if v == own:
            continue
        found.tried["breakdown"] += 1
        got = await finder._run(Call(name=c.name, arguments={**c.arguments, "granularity": v}), ref)
        if not isinstance(got, dict) or finds_nothing(got, tool) or totals(got) != totals(result):
            continue
        found.add(i, "values" if "granularity" in c.arguments else "extra", "granularity", v)


#: a span of days said without a date (这几天, 一周, 三天): the request's own window
_SPAN_SAID = re.compile(r"几天|[一二三四五六七八九十两\d]+天|一周|一星期|周末")

#: the end of a window of days the tool searches
_WINDOW_ENDS = ("date_to", "end_date")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def ends_between(catalog: Any, found: Found, gold: list[Call]) -> None:
    """Every end between two accepted ends of a window of days (昨天英超布伦特福德那场几比几: the one day
    asked, 08-23, and the tool's default week, to 08-29, are accepted, so 08-24 is too — a model that
    reads an English evening's match onto Beijing's next day, train round Y). The wider end is accepted
    because the answer holds the asked day's; each end between holds it as well. A forecast's ``days``
    likewise, the default counting where the gold leaves it out (温州什么时候有雨: 1, the tool's 15 and
    the gold's default 3 accepted, so every count between; final sample 12)."""
    for i, c in enumerate(gold):
        alt = found.alternatives[i]
        sch = catalog.tool(c.name).properties.get("days", {})
        listed = alt.extra.get("days") if "days" not in c.arguments else alt.values.get("days")
        if sch.get("type") == "integer" and listed:
            own = c.arguments.get("days", sch.get("default"))
            if added := _between(listed, own, _count, int):
                found.accepted["between"] += added
        for arg in _WINDOW_ENDS:
            for listed in (alt.extra.get(arg), alt.values.get(arg)):
                if listed is not None and (added := _between(listed, c.arguments.get(arg), _day, _iso_day)):
                    found.accepted["between"] += added


def _count(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _day(v: Any) -> int | None:
    return date.fromisoformat(v).toordinal() if isinstance(v, str) and _ISO_DAY.fullmatch(v) else None


def _iso_day(n: int) -> str:
    return date.fromordinal(n).isoformat()


def _between(
    listed: list[Any], own: Any, key: Callable[[Any], int | None], value: Callable[[int], Any]
) -> int:
    """Adds to ``listed`` every value between the least and the greatest of ``listed`` and ``own``, as
    ``key`` orders them (a value it cannot read is left out), never ``own`` itself; how many it added."""
    keys = [k for k in map(key, [*listed, own]) if k is not None]
    added = 0
    for k in range(min(keys) + 1, max(keys)) if len(keys) >= 2 else ():
        if (v := value(k)) not in listed and v != own:
            listed.append(v)
            added += 1
    return added
