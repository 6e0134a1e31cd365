"""Alternatives by execution that a terse request's words imply (``implied``):

- an **ordering**: a sort argument set to the order the request asks for, by a surface the tool's
  annotations list (评分最高 → ``rating``) or by what its words mean (刘溪哪本值得看, 最好吃的, 便宜点的 →
  the rating or price ordering the enum names). Accepted where the gold leaves the order to the
  default, the answer is non-empty, the ordered answer lists the same items as the gold's (in its
  own order) or, where one page cannot hold them all, both orders list the same items at the largest
  page the tool gives (the same search, paged otherwise — never where the user sets the page), and
  the tool reads the argument (another order answers otherwise);
- a **category** the keyword names: the category alone for a keyword that is the category's own
  surface (超市 → ``category: supermarket``), a whole ``alternative_calls`` list when its answer is
  the gold's; and the keyword alone where the gold sets both (``carried``: 面馆 carries
  ``restaurant`` — ``_omitted`` then leaves the category out).

A word that implies nothing the tool orders by (哪有, 帮我找) sets nothing; a value the request neither
says nor implies stays refused.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from plugineval.schema import Call

from .answers import _strip, finds_nothing, is_echo
from .grounding import drops_part, said_values

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder, Found

_ORDERING = re.compile(r"^(sort|order)(_by)?$")
_CATEGORY = re.compile(r"^(category|cuisine|genre)$")
# what a request's words mean as an order (no alias needed) -> the enum values that order so
IMPLIED_ORDERS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (  # the best one (卖得最好的 is sales: 最好吃, 哪家好吃, 值得买; 有什么好吃的 and 华强北附近的好吃的
        # ask for food, and a list by rating is a reading of it beside the default, train rounds J, N)
        re.compile(
            r"值得一?(看|读|买|去|听|玩|入手|吃|住)|最好(吃|看|玩|听|用|住)|哪(家|个)最?好吃|口碑"
            r"|(?<!不)好吃的|有(什么|啥)\w{0,2}推荐|推荐(一下|下|几)?(本|部|首|家|个|款)?"
            r"|评价最?(好|高)|评分最?高|哪(家|本|个|部|首|款)最?(好|不错)"
            r"|(看|读|买|听|玩|吃|去)(什么|啥)\w{0,2}(好|不错)|(?<!不)好(看|玩|听)的"  # 三国看什么书好 (train round V)
        ),
        re.compile(r"^rating(_desc)?$"),
    ),
    (re.compile(r"便宜|实惠|省钱|价格最?低|低价|贵(吗|不贵)|多少钱"), re.compile(r"^price(_asc)?$")),
    (re.compile(r"好停|车位(紧|多|够)|停得下|有(空)?位|空位"), re.compile(r"^free_spaces$")),
    (re.compile(r"最近的一?(家|个|处)?|离(我|这儿?|这里)最?近|就近|近一点的"), re.compile(r"^distance$")),
    (re.compile(r"最新|新出|刚出|新上架|新书|新发布|刚发布"), re.compile(r"^(newest|latest)$")),
    (re.compile(r"卖得最?(好|火|多)|销量|热销|爆款|最火"), re.compile(r"^sales$")),
)


# a question about a condition of the place or trip, which any order of the same items answers
_CONDITION = re.compile(
    r"好停|车位(紧|多|够|还多)|停得下|停得进|停上|进得去|停满|满了|满没|挤不挤|挤吗|有(空)?位|空位|有空|排队|贵(吗|不贵)|多少钱"
)
# a request for the best, first or top items: its order chooses the answer, never only its listing
_SUPERLATIVE = re.compile(r"最|值得|口碑|排行|排名|第一|前\d|前[一二两三四五六七八九十]")
# words that ask for the items an order puts first (有便宜的吗, 值得买的, 离我最近的): that order is
# the request's own reading even where it lists other items than the gold's default order
_PREFERENCE = re.compile(
    r"便宜|实惠|省钱|价格最?低|低价|值得|口碑|评价最?(好|高)|评分最?高|最好(吃|看|玩|听|用|住)|(?<!不)好(吃|看|玩|听)的|推荐"
    r"|(看|读|买|听|玩|吃|去)(什么|啥)\w{0,2}(好|不错)"
    r"|最近的|离(我|这儿?|这里)最?近|就近|最新|新出|刚出|卖得最?(好|火|多)|销量|热销|最火"
)


def implied_orders(tool: Any, arg: str, query: str) -> list[Any]:
    """The orders of ``arg`` the request asks for: those whose surface it says (the annotations'
    aliases), else those its words mean (``IMPLIED_ORDERS``)."""
    sch = tool.properties.get(arg, {})
    if not _ORDERING.match(arg) or "enum" not in sch:
        return []
    said = said_values(tool, arg, query)
    if said:
        return sorted(said, key=str)
    out: list[Any] = []
    for words, values in IMPLIED_ORDERS:
        if words.search(query):
            out += [v for v in sch["enum"] if isinstance(v, str) and values.match(v) and v not in out]
    return out


def carried(tool: Any, call: Call, arg: str, value: Any, query: str) -> bool:
    """Another argument of the call holds the request's own surface of ``value`` (面馆 is both the
    ``keyword`` and a surface of ``category: restaurant``): the call still says what the user said
    with ``arg`` left out (the answer, checked by the caller, must stay the gold's)."""
    ann = tool.annotations.get(arg)
    surfaces = [s for s, x in (ann.aliases.items() if ann is not None else ()) if x == value and s in query]
    if isinstance(value, str) and value in query:
        surfaces.append(value)
    held = [x for k, x in call.arguments.items() if k != arg and isinstance(x, str)]
    return any(s in x for s in surfaces for x in held)


def _unordered(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _unordered(v) for k, v in x.items()}
    if isinstance(x, list):
        items = [_unordered(v) for v in x]
        return sorted(items, key=lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True))
    return x


def same_items(finder: AlternativeFinder, a: Call, ra: Any, b: Call, rb: Any) -> bool:
    """Two answers list the same items, each in its own order (the tools' echoes of their arguments,
    ids and timestamps aside)."""
    if not isinstance(ra, dict) or not isinstance(rb, dict):
        return False
    ea, eb = set(finder.catalog.tool(a.name).properties), set(finder.catalog.tool(b.name).properties)
    return bool(
        _unordered(_strip({k: v for k, v in ra.items() if not is_echo(k, v, ea)}))
        == _unordered(_strip({k: v for k, v in rb.items() if not is_echo(k, v, eb)}))
    )


async def implied(
    finder: AlternativeFinder, found: Found, gold: list[Call], i: int, query: str, ref: str, result: Any
) -> None:
    c = gold[i]
    tool = finder.catalog.tool(c.name)
    for arg, sch in tool.properties.items():
        if arg in tool.required:
            continue
        if _ORDERING.match(arg) and (arg not in c.arguments or c.arguments[arg] == sch.get("default")):
            await _ordering(finder, found, i, c, arg, query, ref, result)
        elif _ORDERING.match(arg):
            await _order_left_out(finder, found, i, c, arg, query, ref, result)
        elif _CATEGORY.match(arg) and arg not in c.arguments and "enum" in sch:
            await _category_only(finder, found, gold, i, arg, query, ref, result)


async def _ordering(
    finder: AlternativeFinder, found: Found, i: int, c: Call, arg: str, query: str, ref: str, result: Any
) -> None:
    tool = finder.catalog.tool(c.name)
    default = tool.properties[arg].get("default")
    for v in implied_orders(tool, arg, query):
        if v == default or v == c.arguments.get(arg):
            continue
        found.tried["implied"] += 1
        if finds_nothing(result, tool):
            found.reject("implied", "empty_answer")
            continue
        variant = Call(name=c.name, arguments={**c.arguments, arg: v})
        got = await finder._run(variant, ref)
        if got is None or finds_nothing(got, tool):
            continue
        if not same_items(finder, variant, got, c, result) and not await _same_search(
            finder, c, variant, ref
        ):
            if not _PREFERENCE.search(query) or any(a in c.arguments for a in _LIMIT):
                # other items: the order chose what is listed, no longer only how (and where the user
                # set the page, 3款值得买的, the count makes the order choose which items)
                continue
            # 长篇小说新的太贵了，有便宜的吗 (train round G): the cheapest first is what the words ask
            found.tried["implied_by_preference"] += 1
        if drops_part(finder.catalog.tool, query, [c], [variant]):
            found.reject("implied", "drops_part_of_request")
            continue
        seen = [x for x in (v, c.arguments.get(arg)) if x is not None]
        reason = await finder.evidence(variant, arg, seen, ref, finder._key(variant, got), result)
        if reason == "tool_ignores_argument" and _ORDERING.match(arg):
            # one item, or items every order lists alike (吴军 has one book): no other order changes
            # this answer, but the request's words ask for this one (值得看 → rating) and only it is
            # accepted — the words, not the equal answers, ground it
            found.tried["implied_by_words"] += 1
            reason = None
        if reason is not None:
            found.reject("implied", reason)  # an empty answer
            continue
        found.add(i, "values" if arg in c.arguments else "extra", arg, v)


async def _order_left_out(
    finder: AlternativeFinder, found: Found, i: int, c: Call, arg: str, query: str, ref: str, result: Any
) -> None:
    """The gold's order left to the default where the request asks about a condition of the place
    and never says the order (车位紧不紧 → ``free_spaces``; 空位最多的 says it and keeps it): accepted
    where the answer is non-empty and the user set no page — any order of the places answers a
    question about their condition, whether it lists the same items first or not, and whether or not
    the tool's order changes this answer (train rounds J, K)."""
    tool = finder.catalog.tool(c.name)
    v = c.arguments[arg]
    if v in said_values(tool, arg, query) or _SUPERLATIVE.search(query) or not _CONDITION.search(query):
        # the order said (空位最多的), the best one asked for (最好吃的), or a preference (便宜的先看):
        # the order is the request; only a question about a condition (车位紧不紧) leaves it free
        return
    found.tried["implied"] += 1
    if finds_nothing(result, tool):
        found.reject("implied", "empty_answer")
        return
    variant = Call(name=c.name, arguments={k: x for k, x in c.arguments.items() if k != arg})
    got = await finder._run(variant, ref)
    if got is None or finds_nothing(got, tool):
        return
    if not same_items(finder, variant, got, c, result) and not await _same_search(finder, variant, c, ref):
        if any(a in c.arguments for a in _LIMIT):
            return  # the user set the page: the order chooses which items are listed
        # 江汉路停车场现在有位吗 (train rounds J, K): the lots nearest first, each with its free spaces,
        # answer a question about the condition of the place as well as the freest first
        found.tried["implied_condition_any_order"] += 1
    reason = await finder.evidence(c, arg, [v], ref, finder._key(c, result), result)
    if reason == "tool_ignores_argument":
        # no order changes this answer (few lots near 江汉路): the words ask about a condition, not an
        # order, so the words, not the equal answers, ground leaving the order out (train rounds J, K)
        found.tried["implied_condition_unordered"] += 1
        reason = None
    if reason is not None:
        found.reject("implied", reason)
        return
    alt = found.alternatives[i]
    if arg not in alt.omittable:
        alt.omittable.append(arg)
        alt.omittable.sort()
        found.accepted["omittable"] += 1


_LIMIT = ("limit", "max_results", "page_size")


async def _same_search(finder: AlternativeFinder, c: Call, variant: Call, ref: str) -> bool:
    """The two orders search the same items, only the first page differing: at the largest page the
    tool gives (``limit`` 50), both list the same items. Never where the gold sets the page (前3本:
    the user's count makes the order choose which items)."""
    tool = finder.catalog.tool(c.name)
    limits = {
        b.argument: b.limit
        for b in finder.catalog.plugin_of_tool(c.name).boundaries
        if b.kind == "max_value" and c.name in b.tools and b.limit is not None
    }
    for arg in _LIMIT:
        top = tool.properties.get(arg, {}).get("maximum", limits.get(arg))
        if arg not in tool.properties or arg in c.arguments or not isinstance(top, int | float):
            continue
        a, b = (Call(name=x.name, arguments={**x.arguments, arg: int(top)}) for x in (c, variant))
        ra, rb = await finder._run(a, ref), await finder._run(b, ref)
        return ra is not None and rb is not None and same_items(finder, b, rb, a, ra)
    return False


async def _category_only(
    finder: AlternativeFinder,
    found: Found,
    gold: list[Call],
    i: int,
    arg: str,
    query: str,
    ref: str,
    result: Any,
) -> None:
    """The category in place of a keyword that is one of its surfaces (超市 → supermarket), when the
    category alone gives the gold's answer: an ``alternative_calls`` list (two arguments change)."""
    c = gold[i]
    tool = finder.catalog.tool(c.name)
    ann = tool.annotations.get(arg)
    kw = c.arguments.get("keyword")
    if ann is None or not isinstance(kw, str) or kw not in query or "keyword" in tool.required:
        return
    v = ann.aliases.get(kw)
    if v is None or v not in tool.properties[arg]["enum"]:
        return
    found.tried["implied"] += 1
    if finds_nothing(result, tool):
        found.reject("implied", "empty_answer")
        return
    rest = {k: x for k, x in c.arguments.items() if k != "keyword"}
    variant = Call(name=c.name, arguments={**rest, arg: v})
    answer = finder._key(c, result)
    if await finder._answer(variant, ref) != answer:
        return
    if not await finder.grounded(found, "implied", query, ref, c, variant, arg, answer, result):
        return
    found.add_calls(finder.catalog, [*gold[:i], variant, *gold[i + 1 :]])
