"""Find mentions in free text: time expressions, places, numbers — with their spans and the
inference step each needed (a relative date, a year to infer, a Chinese numeral …)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import date, datetime, time, tzinfo

from ..normalize import all_places, find_numbers, is_relative, parse_absolute, resolve
from ..normalize.calendar_expr import calendar_step
from ..normalize.places import CITY_NICKNAMES
from ..normalize.timeexpr import TimeValue
from ..normalize.zones import DURATION_AFTER, ZONE_BEFORE, duration_of, zone

# 中 after a month that starts a name, not the middle of the month: 上个月中信银行, 9月中国银行, 3月中山公园
# (train round X)
_NAME_AFTER_MID = "信国央山华石铁行心关医银粮建联兴海科大原环通"
_TIME_START = re.compile(
    r"[0-9０-９零〇一二两三四五六七八九十今明后昨前大下上这本周星礼月年春中元端清国除圣平七重腊小早晚凌午半农阴冬正立雨惊谷芒夏处白秋寒霜]"
    r"|[去来](?=年)"  # 去年, 来年 (去 and 来 alone start no time: 去北京)
    # a window said against now (未来三天, 近七天, 最近一周, 过去一周, 接下来三天, 往后五天): read
    # whole, so its word gives the direction ("最近一周内" is the past week, not "一周内" ahead)
    r"|未(?=来)|接(?=下来)|往(?=后)|最(?=近)|近(?=[0-9零一二两三四五六七八九十])|过(?=去)"
)
# 周天 (Sunday) is not the start of 天气: 这周天气 is this week's weather, not Sunday's
_WEEK_WEATHER = re.compile(r"(?:周|星期|礼拜)天$")
_MAX_SPAN = 24  # a full-date range "2025年1月11日至2025年2月11日" is 21 characters
_NOT_A_COUNT = set("下些点起直样般定共旦边会切同")


@dataclass(frozen=True)
class TimeMention:
    value: TimeValue
    start: int
    end: int
    text: str
    steps: tuple[str, ...]  # relative_time / year_inference, and time_format; () for a literal absolute form


@dataclass(frozen=True)
class PlaceMention:
    name: str
    start: int
    end: int
    text: str
    step: str | None  # implicit_entity for nicknames


NICKNAMES = CITY_NICKNAMES


_MD = re.compile(r"\s*[0-9零一二两三四五六七八九十]+月[0-9零一二两三四五六七八九十]+[日号]?")
_CLOCK_WORDS = re.compile(r"[上下中]午|晚上|早上|凌晨|傍晚|[0-9零一二两三四五六七八九十]点")


def _steps_for(surface: str, v: TimeValue) -> tuple[str, ...]:
    """The inference steps a reader needs to turn this surface into an API value."""
    steps: list[str] = []
    deep = calendar_step(surface)
    if deep:  # 农历十月初八, 下个月最后一个工作日: the calendar is the step, not the relative reading
        return (deep,)
    if is_relative(surface):
        steps.append(
            "year_inference"
            if _MD.match(surface) and not re.search(r"[今明后昨前下上这本周]", surface)
            else "relative_time"
        )
    if v.kind in ("time", "datetime", "datetime_range") and _CLOCK_WORDS.search(surface):
        steps.append("time_format")
    return tuple(steps)


@functools.lru_cache(maxsize=4096)
def find_times(text: str, reference_time: str) -> tuple[TimeMention, ...]:
    """Non-overlapping time expressions, longest match first at each position, left to right."""
    ref = datetime.fromisoformat(reference_time)
    tz = ref.tzinfo
    assert tz is not None
    out: list[TimeMention] = []
    i, n = 0, len(text)
    while i < n:
        if not _TIME_START.match(text, i):
            i += 1
            continue
        found = None
        for j in range(min(n, i + _MAX_SPAN), i, -1):
            s = text[i:j]
            if s[-1] in "的，,。 ？?从到去在":
                continue
            if text[j : j + 1] == "气" and _WEEK_WEATHER.search(s):
                continue
            if s[-1] == "中" and j < n and text[j] in _NAME_AFTER_MID:
                continue  # 上个月中信银行: 中 starts the bank's name, not the middle of the month
            v = parse_absolute(s, tz) or resolve(s, ref)
            if v is not None:
                found = TimeMention(v, i, j, s, _steps_for(s, v))
                break
        if found is None or _is_bare_number(found.text):
            i += 1
            continue
        out.append(_in_zone(text, found, tz))
        i = found.end
        if (end := _end_after(text, out[-1])) is not None:
            out.append(end)
            i = end.end
    return tuple(out)


def _in_zone(text: str, t: TimeMention, tz: tzinfo) -> TimeMention:
    """A date-time said in another zone ("纽约时间3月12日上午10点") as the same instant here."""
    z = ZONE_BEFORE.search(text[max(0, t.start - 8) : t.start])
    if z is None or t.value.kind != "datetime" or not isinstance(t.value.start, datetime):
        return t
    wall = t.value.start.replace(tzinfo=zone(z.group("z")))
    here = wall.astimezone(tz)
    return TimeMention(
        TimeValue("datetime", here, here), t.start, t.end, t.text, (*t.steps, "timezone_conversion")
    )


def _end_after(text: str, t: TimeMention) -> TimeMention | None:
    """The end a duration gives a start ("下午两点开始，开一个半小时"): a mention of its own."""
    m = DURATION_AFTER.match(text, t.end)
    if m is None or t.value.kind not in ("datetime", "time") or t.value.start is None:
        return None
    dur = duration_of(m)
    if dur is None:
        return None
    start = t.value.start
    if isinstance(start, datetime):
        end: datetime | time = start + dur
    else:
        assert isinstance(start, time)
        e = datetime.combine(date(2000, 1, 1), start) + dur
        if e.date() != date(2000, 1, 1):
            return None
        end = e.time()
    a, b = m.span("d")
    return TimeMention(TimeValue(t.value.kind, end, end), a, b, text[a:b], ("date_arithmetic",))


def _is_bare_number(s: str) -> bool:
    """A lone number ('3', '三', '2026') is a count or an amount, not a time."""
    return bool(re.fullmatch(r"[0-9零〇一二两三四五六七八九十百千]+", s))


@functools.cache
def _place_index() -> tuple[re.Pattern[str], dict[str, str]]:
    names: dict[str, str] = {}
    for p in all_places():
        for a in (p.name, *p.aliases):
            if re.search(r"[\u4e00-\u9fff]", a) and len(a) >= 2:
                names.setdefault(a, p.name)
    for nick, city in NICKNAMES.items():
        names[nick] = city
    alt = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(alt), names


# Common words a place name sits inside across a word boundary: the place there is no mention
# (医保定点 holds no 保定, 三明治 no 三明, 未开封 no 开封, 大理石 no 大理).
NOT_PLACES = (
    "医保", "三明治", "未开封", "没开封", "已开封", "大同小异", "长治久安", "大理石",
    # named after a person or another city, lying elsewhere: 中山陵 is in 南京, 南京路 in 上海 (train round X)
    "中山陵", "中山路", "中山北路", "中山南路", "中山东路", "中山西路", "中山公园", "中山大学", "中山纪念堂",
    "中山堂", "中山门", "中山广场", "南京路", "北京路",
)  # fmt: skip
_NOT_PLACES_RX = re.compile("|".join(map(re.escape, NOT_PLACES)))
# a university named after its province or city (浙江大学, 武汉大学) names the campus, not the place: a
# place it implies comes from the store's landmarks (``landmark_cities``), never from the name's head
_INSTITUTION = ("大学",)


def find_places(text: str, institutions: bool = False) -> list[PlaceMention]:
    """Place names in free text, longest first, left to right; a name that a common word (``NOT_PLACES``)
    overlaps and reaches beyond is part of that word, not a mention (医保定点药店; 保定的医保定点药店
    still mentions 保定 once). A place in front of 大学 names the university, no place the request
    is about — unless ``institutions``: where the university lies (武汉大学 is in 武汉)."""
    rx, names = _place_index()
    words = [(w.start(), w.end()) for w in _NOT_PLACES_RX.finditer(text)]
    out = []
    for m in rx.finditer(text):
        a, b = m.start(), m.end()
        if any(ws < b and we > a and (ws < a or we > b) for ws, we in words):
            continue
        if text.startswith(_INSTITUTION, b) and not institutions:
            continue
        s = m.group(0)
        out.append(PlaceMention(names[s], a, b, s, "implicit_entity" if s in NICKNAMES else None))
    return out


def numbers_outside(text: str, spans: list[tuple[int, int]]) -> list[tuple[float, int, int, str]]:
    """Numbers not inside the given spans (dates, times), with the step a Chinese numeral needs."""
    out = []
    for v, a, b in find_numbers(text):
        if any(a < e and b > s for s, e in spans):
            continue
        surface = text[a:b]
        if surface == "一" and text[b : b + 1] in _NOT_A_COUNT:
            continue  # 查一下, 一些, 一点: not a number
        step = None if re.fullmatch(r"[0-9.,]+", surface) else "numeral"
        out.append((v, a, b, step or ""))
    return out


# --- context and structure ---------------------------------------------------------------------
# A query may come with the text it refers to: "EK:<a message, a note>\nquery:<the request>"
# (HammerBench's external-knowledge rows). The request is what asks; the context only answers an
# explicit reference to it ("小李微信里提到的地点", "记事本里提到的那天").
_CONTEXT = re.compile(
    r"^\s*(?:EK|背景|上下文|context)\s*[:：](?P<ctx>.*?)\n\s*(?:query|问题|请求)\s*[:：]\s*(?P<req>.+)$",
    re.S | re.I,
)
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
)
_MEDIUM = "短信|微信|消息|信息|记事本|邮件|备忘录|便签|笔记|聊天记录|日程|留言"
_REFERENCE = re.compile(
    rf"(?:[A-Za-z]{{1,12}}|[小老阿][\u4e00-\u9fff]|[{_SURNAMES}][\u4e00-\u9fff]{{1,2}}?|我|朋友|同事|老板|家人)?"
    r"(?:通过[A-Za-z\u4e00-\u9fff]{1,4}?)?(?:发给我的|给我发的|发来的)?"
    rf"(?:{_MEDIUM})(?:里|中|上)?(?:提到|说|写|约)的(?P<what>地点|地方|位置|车站|城市|那天|日子|日期)"
)
# Where a context text names a place: 在X集合, 去X逛逛, 抵达X，, 从X到Y …
_CTX_PLACE = re.compile(
    r"(?:在|去|到|抵达|从|来)(?P<p>[\u4e00-\u9fffA-Za-z0-9]{2,10}?)"
    r"(?=[，。,！!？?\s]|集合|等|见面|碰头|逛|玩|吃|度过|走走|旁边|附近|门口|[东南西北]?出口|的|了|到|吧)"
)
_CTX_NOT_PLACE = re.compile(r"^(?:市区|这里|那里|那边|这边|目的地|一起|酒店|家|公司)")


def split_context(text: str) -> tuple[str, str]:
    """(context, request): the context is "" when the text is a request alone."""
    m = _CONTEXT.match(text)
    return (m.group("ctx"), m.group("req").strip()) if m else ("", text)


def _context_places(context: str) -> list[str]:
    return [m.group("p") for m in _CTX_PLACE.finditer(context) if not _CTX_NOT_PLACE.match(m.group("p"))]


def resolve_references(text: str, reference_time: str) -> tuple[str, set[str]]:
    """The request with its explicit references to the context replaced by what the context names:
    a place (the first one the request does not already name) or a day. Unresolvable references
    stay as they are. Returns the text and the steps taken (``implicit_entity``)."""
    context, request = split_context(text)
    if not context:
        return text, set()
    steps: set[str] = set()

    def sub(m: re.Match[str]) -> str:
        if m.group("what") in ("那天", "日子", "日期"):
            for t in find_times(context, reference_time):
                if t.value.kind in ("date", "datetime") and t.value.start is not None:
                    d = str(t.value.start)[:10]
                    steps.add("implicit_entity")
                    return f"{int(d[:4])}年{int(d[5:7])}月{int(d[8:10])}日"
            return m.group(0)
        for p in _context_places(context):
            if p not in request:
                steps.add("implicit_entity")
                return p
        return m.group(0)

    return _REFERENCE.sub(sub, request), steps


# Spans a sentence gives its places by structure: 从X到Y, X到Y, 在X附近, X N公里(范围)内.
_NAME_STOP = "，。,！!？?、；;：:\\s的了吗呢吧啊从到去往至在乘坐搭找查搜看帮给我你想要有和跟与及"
_NAME = rf"[^{_NAME_STOP}0-9]{{2,12}}"
_LEAD = re.compile(r"^(?:一下|下|一|忙|问|请问|请|麻烦|能|可以|出发)+")
_CONJ_CHARS = ("和", "与", "及", "跟", "、")
_NOT_NAME = re.compile(
    r"开车|打车|骑车|步行|走路|过去|过来|大概|现在|这会|马上|出门|一下|多久|时间|路线|线路|公交|地铁|[这那哪]|地方|两边"
)
_TAIL = re.compile(
    r"(?:应该|该(?=怎|如|咋|坐|走)|怎么|怎样|如何|要?多久|多长时间|几点|几分钟|多远|多少|有没有|有什么|有哪些|附近|周边|周围|出发|换乘|需要|路线|线路|吗"
    r"|[0-9零一二两三四五六七八九十半]+个?(?:分钟|小时|钟头|刻钟)|能到|到得了|来得及|赶得上|够|大概|大约|大致|差不多|现在|现$|这会|马上"
    r"|(?:坐|乘|搭)(?:地铁|公交|车)|打车|开车|骑车|步行|走路).*$"
)
_FROM_TO = re.compile(
    rf"(?:从|由)?(?P<a>{_NAME})(?:出发)?[，,]?(?:乘地铁|坐地铁|乘坐地铁|坐公交|乘公交|打车|开车|骑车|步行|走路)?"
    rf"(?:到|去|至|前往|→|->)(?P<b>{_NAME})"
)
_NEAR = re.compile(
    rf"(?P<a>{_NAME}?)(?:(?:附近|周边|周围|方圆)(?=[0-9零一二两三四五六七八九十百千]|有|的|[，,。？?]|$)"
    rf"|(?=[0-9零一二两三四五六七八九十百千.]+(?:公里|千米|米)(?:范围)?(?:以内|之内|内)))"
)


@dataclass(frozen=True)
class Structure:
    origin: str | None = None
    dest: str | None = None
    near: str | None = None


def _clean(name: str | None, head: bool) -> str | None:
    if name is None:
        return None
    s = _LEAD.sub("", name) if head else name
    s = _TAIL.sub("", s)
    return s if len(s) >= 2 and not _NOT_NAME.search(s) else None


# a clock time or a calendar date said before a place (后天晚上9点成都站…, 3月5号国贸…): a name never
# starts with its tail (点成都站, train round W)
_WHEN = re.compile(r"(?:\d+|[零一二两三四五六七八九十]+)[点:：](?:\d+分?|半|一刻|三刻)?钟?|\d+月\d+[号日]")


def find_structure(text: str) -> Structure:
    """The origin, destination and centre a sentence names by its structure, whatever the names are
    (landmarks, stations, streets: no gazetteer needed)."""
    origin = dest = near = None
    text = _WHEN.sub("，", text)
    m = _FROM_TO.search(text)
    if m:
        origin, dest = _clean(m.group("a"), True), _clean(m.group("b"), False)
        if origin is None or dest is None:
            origin = dest = None
    n = _NEAR.search(text)
    if n and n.group("a") and text[n.start("a") - 1 : n.start("a")] not in _CONJ_CHARS:
        near = _clean(n.group("a"), True)  # not "A和B附近": two centres are two searches
    return Structure(origin, dest, near)
