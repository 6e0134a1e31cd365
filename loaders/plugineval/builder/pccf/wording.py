"""Alternatives by execution in the user's own wording (``wording``): the name the request says for an
entity the tool resolves, in place of the gold's resolved value —

- a place as the request names it (机场 with ``city: 无锡``, 虹桥火车站), in a string argument or in an
  item of an array of names (``to_timezones: [慕尼黑]`` where the gold has ``Europe/Berlin``: the tool
  takes city names too);
- a family member as the request calls them (我妈, 媳妇) where the gold has the family group's name (妈妈,
  老婆);
- a name the request says that differs from the gold's only by the generic affixes: a place's name in
  front, with or without 市/省/县/区 (洛阳中心医院 / 中心医院 where the gold has 洛阳市中心医院).

Each is accepted only by execution equality: the answer is the gold's (the tool's echo of the name it
was given aside: ``results[].query`` 慕尼黑 for Europe/Berlin), the answer is non-empty, the value is
said by the request and names what the argument holds, and another value of that argument or item
answers otherwise (the tool reads it). An array with several items replaced is accepted only as the
combination executed.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, Any

from plugineval.baselines.textscan import find_places
from plugineval.normalize import canonical_place
from plugineval.schema import Call

from .answers import finds_nothing
from .evaluators import _leaves
from .grounding import drops_part, is_city, road_spelling, said, value_reason

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder, Found

# a place word a resolving tool reads with the call's city (the user's own wording)
PLACE_WORDS = ("机场", "火车站", "高铁站", "汽车站", "客运站", "市中心", "地铁站")
_ADMIN = "市省县区"
_NOT_NAME = re.compile(r"[，。、；;,.!！?？\s：:（）()]|^(帮我|请|给我|我想|我要)|[吗呢吧啊]$")
_PROBE = "甲乙丙丁"  # a value no user says
_CONTRAST_CITIES = ("北京", "乌鲁木齐", "纽约", "伦敦")
_MAX_COMBOS = 8  # arrays whose items are replaced together: at most this many combinations executed
# a generic noun the request says after the gold's name (a coupon's 券, a team's 队): the same thing
# named as the user names it, where the tool resolves it alike (checked by execution)
_SAID_SUFFIXES = ("券", "的券", "优惠券", "队")
# a family member as people call them (我妈, 老婆, 闺女): where the gold names the member as the tool's
# family group does (妈妈), the request's own word for them, checked by execution like any other
_KIN = re.compile(
    r"(?:我的?)?(?:妈妈|老妈|母亲|爸爸|老爸|父亲|老婆|媳妇儿?|老公|爱人|妻子|丈夫|儿子|女儿|闺女|"
    r"外婆|姥姥|外公|姥爷|奶奶|爷爷|哥哥|姐姐|弟弟|妹妹|妈|爸)"
)


def kin_mentions(query: str) -> list[str]:
    """The words the request calls a family member by, with and without its 我/我的 (我妈, 妈)."""
    out: list[str] = []
    for m in _KIN.finditer(query):
        w = m.group(0)
        out += [w, w.removeprefix("我的"), w.removeprefix("我")]
    return [w for w in dict.fromkeys(out) if w]


def facility_mentions(query: str) -> list[str]:
    """Railway stations and airports the query names, as it names them (longest first)."""
    from plugineval.normalize.places import all_facilities

    names = {n for f in all_facilities() for n in (f.name, *f.aliases) if len(n) >= 3 and n in query}
    return sorted(names, key=lambda n: (-len(n), n))


def place_surfaces(query: str) -> list[str]:
    """The places the request names, as it names them. A nickname (羊城, 山城) is an inference step
    the record's difficulty counts: its resolution is what the gold asks for, so the nickname itself
    is not the user's wording."""
    out = [m.text for m in find_places(query) if m.step is None]
    out += [w for w in PLACE_WORDS if w in query]
    out += facility_mentions(query)  # 虹桥火车站: a station as the user names it
    return list(dict.fromkeys(out))


def _prefixes(query: str, call: Call) -> list[str]:
    """Place names that may stand in front of a name: those the request says and the call's cities."""
    names = {m.text for m in find_places(query)} | {m.name for m in find_places(query)}
    names |= {
        v for k, v in call.arguments.items() if isinstance(v, str) and (k == "city" or k.endswith("_city"))
    }
    names |= {canonical_place(n) or n for n in names}
    return sorted((n for n in names if n), key=lambda n: (-len(n), n))


def _core(value: str, prefixes: list[str]) -> str:
    """``value`` without a place's name in front (and the 市/省/县/区 after it)."""
    for p in prefixes:
        if value.startswith(p):
            rest = value[len(p) :]
            rest = rest[1:] if rest[:1] and rest[0] in _ADMIN else rest
            if len(rest) >= 2:
                return rest
    return value


def affix_variants(value: str, query: str, call: Call) -> list[str]:
    """The names the request says that differ from ``value`` only by the generic affixes: a place's
    name in front, with or without 市/省/县/区 (洛阳市中心医院: 洛阳中心医院 and 中心医院 where the request
    says 洛阳中心医院). Never ``value`` itself, never a bare place, never a bare two-character word
    (大学 of 北京大学)."""
    prefixes = _prefixes(query, call)
    core = _core(value, prefixes)
    if len(core) < 2 or core in prefixes:
        return []
    out: list[str] = []
    for m in re.finditer(re.escape(core), query):
        if len(core) >= 3:  # 大学 of 北京大学 names no one place
            out.append(core)
        before = query[: m.start()]
        for p in prefixes:
            for pre in (p, *(p + a for a in _ADMIN)):
                if before.endswith(pre):
                    out.append(pre + core)
    return [s for s in dict.fromkeys(out) if s != value and not _NOT_NAME.search(s)]


def swapped(result: Any, names: dict[str, Any]) -> Any:
    """``result`` with each string equal to a name given to the tool put back as the gold's value: the
    tool's echo of what it was asked (``query: 慕尼黑``) is no part of the answer."""
    if isinstance(result, dict):
        return {k: swapped(v, names) for k, v in result.items()}
    if isinstance(result, list):
        return [swapped(v, names) for v in result]
    return names.get(result, result) if isinstance(result, str) else result


async def _same(
    finder: AlternativeFinder, variant: Call, ref: str, answer: str, names: dict[str, Any]
) -> bool:
    result = await finder._run(variant, ref)
    return result is not None and finder._key(variant, swapped(result, names)) == answer


async def _reads(
    finder: AlternativeFinder, gold: Call, put: Any, gold_value: str, said_value: str, ref: str, answer: str
) -> bool:
    """Another value in the slot (``put(value)`` is the call with it) answers otherwise, its echo
    aside: the tool reads the slot, so an equal answer says the two values mean the same. A place's
    slot counts another place's answer only (a tool may check a city and then ignore it: route_plan
    fails on 甲乙丙丁 and answers 北京 as it answers 上海), and far-apart ones (乌鲁木齐 keeps Beijing
    time); any other slot a name no one says too (a hospital the tool cannot find)."""
    cityish = is_city(said_value) or is_city(gold_value)
    others = [c for c in _CONTRAST_CITIES if c not in (said_value, gold_value)] if cityish else [_PROBE]
    for other in others:
        result = await finder._run(put(other), ref)
        if result is None:
            if cityish:
                continue
            return True
        if finder._key(put(other), swapped(result, {other: gold_value})) != answer:
            return True
    return False


async def wording(
    finder: AlternativeFinder, found: Found, i: int, c: Call, query: str, ref: str, answer: str, result: Any
) -> None:
    """The user's own wording for each string argument and each item of a string array the gold
    resolved (``values`` entries)."""
    tool = finder.catalog.tool(c.name)
    places = place_surfaces(query)
    for arg, v in c.arguments.items():
        sch = tool.properties.get(arg, {})
        ann = tool.annotations.get(arg)
        if any(k in sch for k in ("enum", "format")) or (ann is not None and ann.time_valued):
            continue
        if sch.get("type") == "string" and isinstance(v, str):
            await _string(finder, found, i, c, arg, v, query, ref, answer, result, places)
        elif sch.get("type") == "array" and isinstance(v, list) and _free_items(sch):
            await _items(finder, found, i, c, arg, v, query, ref, answer, result, places)


def _free_items(sch: dict[str, Any]) -> bool:
    items = sch.get("items")
    return (
        isinstance(items, dict)
        and items.get("type") == "string"
        and not any(k in items for k in ("enum", "format", "pattern"))
    )


def qualified(v: str, result: Any, query: str) -> list[str]:
    """The keyword with another word the request says that the answer's items carry (五月天 倔强 for
    倔强: the song found is 五月天's), joined by a space as a search box takes it, either order."""
    items = [
        x for vs in (result.values() if isinstance(result, dict) else []) if isinstance(vs, list) for x in vs
    ]
    words = {
        w
        for it in items
        if isinstance(it, dict)
        for w in it.values()
        if isinstance(w, str) and len(w) >= 2 and w in query and w not in v and v not in w
    }
    return [s for w in sorted(words) for s in (f"{w} {v}", f"{v} {w}")]


def short_names(v: str, result: Any, query: str) -> list[str]:
    """A name the answer gives for ``v`` with a space in it (the store's 漫步者MaxA7 运动耳机 for 漫步者MaxA7运动耳机),
    cut at its first space where the request says that part: brand, series and model as people say a
    device (漫步者MaxA7), which the tool resolves alike where it names one product (final sample 11:
    the judge left it undecided)."""
    bare = "".join(v.split())
    heads = (
        x.strip().split()[0]
        for x in _leaves(result)
        if isinstance(x, str) and " " in x.strip() and "".join(x.split()) == bare
    )
    return list(dict.fromkeys(h for h in heads if len(h) >= 3 and h in query and h != v))


def _candidates(v: str, c: Call, query: str, places: list[str], arg: str = "") -> list[str]:
    """The request's names for ``v``: the places it names (where the gold's value is not said as it
    is), the names around it (``affix_variants``), and for a road argument ``arg`` the road's other
    spelling (``road_spelling``). A value another argument of the call holds (``city: 洛阳``) names
    nothing new."""
    out = [] if v in query else [s for s in places if (canonical_place(s) or s) != (canonical_place(v) or v)]
    out += affix_variants(v, query, c)
    out += [v + x for x in _SAID_SUFFIXES if v + x in query]  # 奥迪双钻8.8折券 for 奥迪双钻8.8折
    # …8.8折的券 said: 耳机8.8折券 names it as well (the 的 is the sentence's, not the name's)
    out += [v + x[1:] for x in _SAID_SUFFIXES if x.startswith("的") and v + x in query]
    if (spelt := road_spelling(arg, v)) is not None:  # 内环快速路 for 内环快速 (final sample 8)
        out.append(spelt)
    if _KIN.fullmatch(v):  # 我妈 for the family group's 妈妈
        out += kin_mentions(query)
    held = {x for k, x in c.arguments.items() if isinstance(x, str)}
    held |= {canonical_place(x) or x for x in held}
    return [
        s for s in dict.fromkeys(out) if s != v and s not in held and (canonical_place(s) or s) not in held
    ]


async def _string(
    finder: AlternativeFinder,
    found: Found,
    i: int,
    c: Call,
    arg: str,
    v: str,
    query: str,
    ref: str,
    answer: str,
    result: Any,
    places: list[str],
) -> None:
    tool = finder.catalog.tool(c.name)
    extra = qualified(v, result, query) if arg == "keyword" else []
    for s in [*_candidates(v, c, query, places, arg), *short_names(v, result, query), *extra]:
        found.tried["wording"] += 1
        variant = Call(name=c.name, arguments={**c.arguments, arg: s})
        suffixed = s.startswith(v) and s[len(v) :] in _SAID_SUFFIXES  # the answer names it so itself
        if not await _same(finder, variant, ref, answer, {} if suffixed else {s: v}):
            continue
        if s in extra:  # words apart: each said by the request
            reason = None if all(w in query for w in s.split()) else "not_in_request"
        else:  # a suffix said after 的 (…8.8折的券) grounds the name without it
            said_as = v + "的" + s[len(v) :] if suffixed and s not in query else s
            reason = value_reason(tool, variant.arguments, arg, said_as, query)
        if reason is None and finds_nothing(result, tool):
            reason = "empty_answer"
        if reason is None and drops_part(finder.catalog.tool, query, [c], [variant]):
            reason = "drops_part_of_request"
        if reason is None and not await _reads(
            finder, c, lambda x: Call(name=c.name, arguments={**c.arguments, arg: x}), v, s, ref, answer
        ):
            reason = "tool_ignores_argument"
        if reason is not None:
            found.reject("wording", reason)
            continue
        found.add(i, "values", arg, s)


async def _items(
    finder: AlternativeFinder,
    found: Found,
    i: int,
    c: Call,
    arg: str,
    v: list[Any],
    query: str,
    ref: str,
    answer: str,
    result: Any,
    places: list[str],
) -> None:
    """Each item of the gold's array in the request's wording, checked alone; then every combination
    of the accepted items executed as a whole (慕尼黑、温哥华 for Europe/Berlin, America/Vancouver)."""
    tool = finder.catalog.tool(c.name)

    def put(j: int, x: str) -> Call:
        return Call(name=c.name, arguments={**c.arguments, arg: [*v[:j], x, *v[j + 1 :]]})

    ok: list[list[str]] = []
    for j, item in enumerate(v):
        ok.append([])
        if not isinstance(item, str):
            continue
        for s in _candidates(item, c, query, places):
            if s in v:
                continue
            found.tried["wording"] += 1
            if not await _same(finder, put(j, s), ref, answer, {s: item}):
                continue
            reason = None
            if not said(s, query):
                reason = "not_in_request"
            elif _NOT_NAME.search(s):
                reason = "not_field_content"
            elif finds_nothing(result, tool):
                reason = "empty_answer"
            elif not await _reads(finder, c, lambda x, j=j: put(j, x), item, s, ref, answer):
                reason = "tool_ignores_argument"
            if reason is not None:
                found.reject("wording", reason)
                continue
            ok[-1].append(s)
    choices = [[item, *alts] for item, alts in zip(v, ok, strict=True)]
    combos = [list(x) for x in itertools.product(*choices) if list(x) != v][:_MAX_COMBOS]
    for combo in combos:
        names = {s: g for s, g in zip(combo, v, strict=True) if s != g}
        variant = Call(name=c.name, arguments={**c.arguments, arg: combo})
        if len(names) > 1:  # one item replaced was executed above; several are executed together
            found.tried["wording"] += 1
            if not await _same(finder, variant, ref, answer, names):
                continue
        found.add(i, "values", arg, combo)
