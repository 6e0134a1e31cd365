"""Grounded alternatives (docs/format.md §4, docs/builder.md "Grounded alternatives"): the checks a variant's value passes
before execution equality may accept it.

Execution equality alone accepted wrong values: the user's own words as a field's value (a calendar
``location`` of 把季度复盘写进日程, a ``keyword`` of 有点急 that filters the day's events away), a
``from_city`` equal to the destination, a hospital the request never names (every doctor found works
there), one airline searched where the user asked to compare two. So, on its own:

- **meaning** — a value means what its argument means: a city argument takes a city, a place takes
  no value another argument of the call already holds (the destination is no ``from_city``), a
  location takes a place, free text takes words that name content (no instruction, no mood);
- **said or entailed** — a free value is said by the request (literally, or as a place the request
  names by another name); an enum value is the tool's own vocabulary, entailed by a surface the
  request says or by the answer's items;
- **every part** — a variant that restricts an argument to one value where the request says several
  values of it (国航和东航) drops part of the request.

The execution checks (the answers are non-empty, the varied argument changes what the tool does) need
the executor and live in ``AlternativeFinder.evidence``. Each refusal is counted per source of variants
(``Found.rejected``) and in the build report.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from plugineval.baselines.slotfill import landmark_cities
from plugineval.baselines.textscan import find_places
from plugineval.normalize import canonical_place
from plugineval.normalize.places import place_info

# words that make a span an instruction, a mood or a question rather than the name of a thing
_NOT_CONTENT = re.compile(
    r"^(帮我|帮忙|请|麻烦|给我|我想|我要)|把.{1,20}(写|记|加|放|排|存|设)|(写进|写到|记到|记进|记一下|加到|加进|放进"
    r"|排进|存到|设个|建个)|日程|提醒我|有点|有些|挺急|很急|着急|急着|比较急|想要|^想(约|去|找|买|吃|看|查|问|让|跟|和)"
    r"|打算|还没|还缺|缺个|(订|预订|定|约|开|安排)个|着落|[吗呢啊呀嘛]$|^(哪有|哪儿有|哪里有|有没有|有无|能否|是否|可否)|(哪有|有没有|行不行|好不好|在哪儿?)$|(?<![酒网水书清氧茶])吧$|怎么|如何|什么|哪[里儿个些家]|能不能|可不可以|是不是|一下"
)
# how a place's name ends (a room, a building, a street, a venue)
_PLACE_END = re.compile(
    r"(室|厅|楼|馆|中心|大厦|广场|酒店|宾馆|公园|路|街|道|巷|号|店|园|区|层|院|站|机场|场|城|村|镇|校|所|部|厂|寺|湖|山|桥)$"
)
_LOCATION_ARGS = re.compile(r"^(location|address|place|venue|near|origin|destination)$")
# a person-name argument (姓名, 联系人姓名, 入住人姓名, 乘车人姓名 …) and what makes a span a name the request says
_PERSON_ARG = re.compile(r"^([\u4e00-\u9fff]{1,3}人)?姓名")
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜"
    "崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤欧司诸上"
)
_NAMING = re.compile(
    r"(叫|名叫|名字是|姓名是?|联系人是?|入住人是?|乘车人是?|乘客是?|就诊人是?|接种人是?|预订人是?)[：:]?$"
)
_NAME_BEFORE = re.compile(r"(^|[\s，,。；;：:、和跟与及同给为替帮])$")
_NAME_AFTER = re.compile(r"^($|[\s，,。；;！!？?、和跟与及同的各两一住订预坐看打先女名])")
_NOT_NAME = re.compile(
    r"朋友|同事|家人|孩子|客户|老板|自己|我们|大家|他们|她们|老人|父母|爸妈|领导|对象|生日"
)
_COUNT_ARG = re.compile(r"[张人份间]数")


def is_city(value: Any) -> bool:
    info = place_info(canonical_place(value) or "") if isinstance(value, str) else None
    return info is not None and info.kind not in ("province", "autonomous_region", "country")


def _place_arg(arg: str) -> bool:
    return arg == "city" or arg.endswith("_city") or bool(_LOCATION_ARGS.match(arg))


def said(value: str, query: str) -> bool:
    """The request says ``value``: literally, or as a place it names by another name (魔都 → 上海), or
    — a city — as the one city of the landmarks it names (市民中心到华强北 entails 深圳)."""
    if value and value in query:
        return True
    canon = canonical_place(value)
    if canon is None:
        return False
    if any(canonical_place(m.name) == canon for m in find_places(query)):
        return True
    cities = {canonical_place(c) or c for c in landmark_cities(query, _landmarks())}
    return cities == {canon}


@functools.cache
def _landmarks() -> dict[str, frozenset[str]]:
    from .generators import store_landmarks

    return store_landmarks(None)


def names_content(arg: str, sch: dict[str, Any], value: str) -> bool:
    """``value`` names what the field holds: a location a place, any free text a thing (no instruction,
    mood or question: 把季度复盘写进日程, 有点急, 想约人喝咖啡 name nothing a field holds)."""
    if _NOT_CONTENT.search(value):
        return False
    desc = str(sch.get("description", ""))
    if _LOCATION_ARGS.match(arg) or (not arg.endswith("city") and re.search(r"^(地点|地址|位置)", desc)):
        return bool(find_places(value)) or bool(_PLACE_END.search(value)) or value.startswith("线上")
    return True


def person_arg(sch: dict[str, Any]) -> bool:
    """An argument that takes a person's name (its description begins 姓名, 联系人姓名, 入住人姓名 …)."""
    return bool(_PERSON_ARG.match(str(sch.get("description", ""))))


def names_person(value: str, query: str, default: Any = None) -> bool:
    """``value`` is the tool's default (本人) or a person's name the request says: 2–4 Han characters
    the request uses as a name — after a naming word (叫, 联系人, 入住人是), or beginning with a surname
    and standing alone (给王芳订, 张伟和李娜): never a fragment of the request (有就帮我订, 给朋友过生日)."""
    if value == default:
        return True
    if (
        not value
        or value[0] in "叫是给为替帮和跟与及同"
        or not re.fullmatch(r"[\u4e00-\u9fff]{2,4}", value)
        or _NOT_NAME.search(value)
        or _NOT_CONTENT.search(value)
    ):
        return False
    for m in re.finditer(re.escape(value), query):
        before, after = query[: m.start()], query[m.end() :]
        if not _NAME_AFTER.match(after):
            continue
        if _NAMING.search(before):
            return True
        if value[0] in _SURNAMES and _NAME_BEFORE.search(before[-1:] if before else ""):
            return True
    return False


def said_names(query: str) -> list[str]:
    """The persons' names the request says (``names_person``), the shortest at each position."""
    out: list[str] = []
    for i in range(len(query)):
        for n in (2, 3, 4):
            v = query[i : i + n]
            if len(v) == n and names_person(v, query):
                if v not in out:
                    out.append(v)
                break
    return out


def free_text(tool: Any, arg: str) -> bool:
    """A string argument with no vocabulary of its own: no enum, no format, no pattern, not a time."""
    sch = tool.properties.get(arg, {})
    ann = tool.annotations.get(arg)
    return (
        sch.get("type") == "string"
        and not any(k in sch for k in ("enum", "format", "pattern"))
        and not (ann is not None and (ann.time_valued or ann.aliases))
    )


def road_spelling(arg: str, value: str) -> str | None:
    """A road's name spelled the other way, with or without its generic 路 (内环快速 / 内环快速路), for a
    road argument; None for any other argument."""
    if "road" not in arg:
        return None
    return value[:-1] if value.endswith("路") and len(value) >= 4 else value + "路"


def value_reason(tool: Any, args: dict[str, Any], arg: str, value: Any, query: str) -> str | None:
    """Why ``value`` for ``arg`` (beside the call's other ``args``) is not grounded, or None."""
    sch = tool.properties.get(arg, {})
    if (arg == "city" or arg.endswith("_city")) and not is_city(value):
        return "not_a_city"
    if not isinstance(value, str):
        return None
    if _place_arg(arg):
        canon = canonical_place(value) or value
        for k, v in args.items():
            if k != arg and _place_arg(k) and isinstance(v, str) and (canonical_place(v) or v) == canon:
                return "same_as_other_argument"  # the destination is no from_city
    if not free_text(tool, arg):
        return None
    core = road_spelling(arg, value)
    if core is not None and len(core) < len(value) and said(core, query):
        return None  # 内环快速路 for the said 内环快速: a road's name with its generic 路
    if not said(value, query):
        return "not_in_request"  # a hospital every doctor found works at, never named
    if person_arg(sch) and not names_person(value, query, sch.get("default")):
        return "not_field_content"
    if not names_content(arg, sch, value):
        return "not_field_content"
    return None


def said_values(tool: Any, arg: str, query: str) -> set[Any]:
    """The enum values of ``arg`` whose surface forms (aliases, the value itself) the request says,
    longest surface first so that 超级经济舱 is not also 经济舱."""
    sch = tool.properties.get(arg, {})
    if "enum" not in sch:
        return set()
    ann = tool.annotations.get(arg)
    surfaces = dict(ann.aliases) if ann is not None else {}
    surfaces.update({v: v for v in sch["enum"] if isinstance(v, str) and len(v) > 2})
    text, out = query, set()
    for s in sorted(surfaces, key=lambda x: (-len(x), x)):
        if s in text:
            out.add(surfaces[s])
            text = text.replace(s, "\0")
    return out


def covered(calls: list[Any], tool_name: str, arg: str, said: set[Any]) -> set[Any]:
    """Of the values the request says, those the calls of ``tool_name`` search: a call without ``arg``
    searches every value, a call with it that one."""
    out: set[Any] = set()
    for c in calls:
        if c.name != tool_name:
            continue
        v = c.arguments.get(arg)
        out |= said if v is None else ({v} & said)
    return out


def drops_part(tools: Any, query: str, gold: list[Any], calls: list[Any]) -> bool:
    """``calls`` search fewer of the values the request names for an enum argument than the gold does
    (国航和东航比一比: one call with ``airline: CA`` leaves 东航 out), or book less (``under_delivers``)."""
    for name in sorted({c.name for c in gold}):
        tool = tools(name)
        for arg in tool.properties:
            want = said_values(tool, arg, query)
            if len(want) < 2:
                continue
            if covered(gold, name, arg, want) - covered(calls, name, arg, want):
                return True
    return under_delivers(tools, query, gold, calls)


def under_delivers(tools: Any, query: str, gold: list[Any], calls: list[Any]) -> bool:
    """``calls`` book less than the gold does of what the request states: fewer rooms, seats or
    places in all (订两间: two bookings of one room are no one booking of the default one), or leave out
    a person the gold names as the request does (入住人张伟和李娜: a booking for 本人 names neither)."""
    for name in sorted({c.name for c in gold}):
        tool = tools(name)
        for arg, sch in tool.properties.items():
            mine, theirs = [c for c in gold if c.name == name], [c for c in calls if c.name == name]
            if person_arg(sch):
                want = {c.arguments[arg] for c in mine if isinstance(c.arguments.get(arg), str)}
                want = {v for v in want if v != sch.get("default") and v in query}
                have = {v for c in theirs if isinstance(v := c.arguments.get(arg), str)}
                if want - have:  # a variant's value may be any JSON (a list of names): only strings name one
                    return True
            elif (
                tool.stateful
                and sch.get("type") == "integer"
                and _COUNT_ARG.search(str(sch.get("description", "")))
            ) and _total(theirs, arg, sch) < _total(mine, arg, sch):
                return True
    return False


def _total(calls: list[Any], arg: str, sch: dict[str, Any]) -> int:
    """How many of ``arg`` the calls book together (a call without it books the default, else one)."""
    out = 0
    for c in calls:
        v = c.arguments.get(arg, sch.get("default", 1))
        out += v if isinstance(v, int) and not isinstance(v, bool) else 1
    return out


def contrasts(sch: dict[str, Any], values: list[Any]) -> list[Any]:
    """Values of the argument unlike ``values`` (at most three): what the tool does with them shows
    whether it reads the argument at all."""
    if "enum" in sch:
        return [v for v in sch["enum"] if v not in values][:3]
    t = sch.get("type")
    v0 = values[0] if values else None
    if t == "boolean":
        return [not v0] if isinstance(v0, bool) else [True, False]
    if t in ("integer", "number") and isinstance(v0, int | float) and not isinstance(v0, bool):
        lo, hi = sch.get("minimum"), sch.get("maximum")
        out = [x for x in (v0 + 1, v0 - 1, v0 * 2 + 3) if (lo is None or x >= lo) and (hi is None or x <= hi)]
        return [int(x) if t == "integer" else x for x in out if x not in values][:3]
    if t == "string":
        if any(isinstance(v, str) and is_city(v) for v in values):
            return [c for c in ("北京", "乌鲁木齐") if c not in values][:1]
        return ["甲乙丙丁"]
    return []
