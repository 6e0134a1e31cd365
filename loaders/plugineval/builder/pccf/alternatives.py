"""Accepted alternatives by execution (docs/format.md §4, Stage I).

Beside the gold, the variants a careful model would plausibly emit are executed through MCP:

- ``proposal``: another generator's verified proposal (schema-valid, executed, every argument grounded,
  scored at tau) that reads the request otherwise with the same tools;
- ``entailed``: an optional argument the query entails — an enum value whose surface form the query
  says, or a value every item of the gold's answer shares (羽绒服 → ``category: clothing``; a place's
  city);
- ``wording`` (``wording.py``): the query's own wording for an entity the tool resolves (机场 with
  ``city: 无锡``), in an array of names too (``to_timezones: [慕尼黑]``), or a name it says that
  differs from the gold's by the generic affixes (中心医院 for 洛阳市中心医院);
- ``implied`` (``implied.py``): the order or category a terse request implies (哪本值得看 → ``sort:
  rating`` where the sorted answer lists the gold's items; 公园 as ``category: park`` alone);
- ``omitted``: an optional choice of the gold left out that changes nothing (the default song search
  finds the singer's songs as ``search_type: artist`` does; no ``date``: the latest published value);
- ``keyword``: the user's own word in place of the category the gold chose (奶茶 for ``cuisine:
  dessert``), when every item it finds is one the gold's category finds;
- ``widened``, ``narrowed``, ``breakdown`` (``widen.py``), ``merged``, ``united`` (``merge.py``), ``own_words``
  (``labels.py``): a wider search, a window cut to the one day asked, one call that answers what
  several gold calls of one tool ask, the user's own words in a field the tool only echoes.

A variant whose output is the gold's answer (ids and timestamps aside) is accepted: an added argument
becomes an ``extra`` entry, a changed value a ``values`` entry, a whole other call list an
``alternative_calls`` entry — once it is grounded (``grounding.py``): the value means what its
argument means and the request says or entails it, the answers are non-empty, the varied argument
changes what the tool does for some value, and the variant serves every part of the request. A
variant that changes the answer stays wrong. Defaults written out (at any depth, and derived
defaults) are the judge's rules and need no entry here.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime, timedelta
from typing import Any

from plugineval.baselines.textscan import find_places
from plugineval.catalog import Catalog
from plugineval.normalize import canonical_place
from plugineval.normalize.places import place_info
from plugineval.schema import Call, GoldAlternative

from .answers import (
    _VOLATILE,
    answer_key,
    finds_nothing,
    is_echo,
    shared_values,
    sub_answer,
)
from .found import Found
from .grounding import contrasts, drops_part, is_city, said, said_values, value_reason
from .implied import carried, implied
from .labels import own_words, with_its_time
from .merge import merged, spanned, united
from .pairs import back_start, open_start, parallel_empty
from .stated import stated_values
from .widen import (
    breakdown,
    ends_between,
    evening_start,
    keyword_for_category,
    named_part,
    narrowed,
    narrowed_start,
    one_day_end,
    reversed_pair,
    scaled,
    widened,
    widened_end,
)
from .wording import wording

__all__ = ["AlternativeFinder", "Found", "answer_key", "free_values", "shared_values", "sub_answer"]

_COUNT = re.compile(r"[张人份间个件台本]数")
_CATEGORY = re.compile(r"^(category|cuisine|genre)$")  # what kind of thing the request asks for
_ABSENT = object()


# a time the request says (a day word, a weekday, a date, a clock time)
_TIME_SAID = re.compile(
    r"[今明后昨前]天|大后天|周[一二三四五六日天末]|星期|礼拜|[0-9一二三四五六七八九十]+[号日]|[0-9一二三四五六七八九十]+点|\d:\d|月底|月初|下个?月|上个?月"
)


def _other_days(value: Any, sch: dict[str, Any]) -> list[Any]:
    """Other dates, date-times or months than ``value``: the contrast of a time-valued argument."""
    v = str(value)
    try:
        if re.fullmatch(r"\d{4}-\d{2}", v):  # a month (YYYY-MM): the one before, and a year earlier
            y, m = int(v[:4]), int(v[5:])
            return [f"{y - (m == 1)}-{(m - 2) % 12 + 1:02d}", f"{y - 1}-{m:02d}"]
        if sch.get("format") == "date" or re.fullmatch(r"\d{4}-\d{2}-\d{2}", v):
            d = date.fromisoformat(v[:10])
            return [(d - timedelta(days=k)).isoformat() for k in (30, 400)]
        t = datetime.fromisoformat(v)
        return [(t - timedelta(days=k)).isoformat() for k in (30, 400)]
    except ValueError:
        return []


def _the_city_said(arg: str, value: Any, query: str) -> bool:
    """``city`` is the one city the request names, in its own words (上海 of 去上海南站): where the tool
    ignores the argument, equality proves nothing, and the request itself is the evidence. A city the
    request never says (人民广场→外滩 read as 上海: a name many cities have) has none; the one city of
    the landmarks it names is said (华强北 lies in 深圳 only)."""
    if arg != "city" or not isinstance(value, str):
        return False
    if value not in query:
        return said(value, query)  # the landmarks' one city
    named = {canonical_place(m.name) for m in find_places(query, institutions=True)}  # 武汉大学: 武汉
    named = {n for n in named if n is not None and is_city(n)}
    return named == {canonical_place(value)}


def _keep_parts_apart(found: Found, gold: list[Call]) -> None:
    """A value accepted for one gold call that another call of the same tool holds as its own (我和陈宇雪
    各一间: the first room's ``guest_name`` may not be 陈宇雪) is withdrawn: with it, two calls for the
    same part of the request would match both gold calls and leave the other part undone."""
    for i, c in enumerate(gold):
        alt = found.alternatives[i]
        for j, other in enumerate(gold):
            if j == i or other.name != c.name:
                continue
            for table in (alt.extra, alt.values):
                for arg, vals in list(table.items()):
                    theirs = other.arguments.get(arg)
                    if theirs is not None and theirs != c.arguments.get(arg) and theirs in vals:
                        vals.remove(theirs)
                        found.reject("cross_call", "another_calls_value")
                        if not vals:
                            del table[arg]


class AlternativeFinder:
    """Executes the variants of an accepted gold list; ``stage1`` lends its executor, validators and
    argument evaluator (the variant's values must be grounded like a proposal's)."""

    def __init__(self, catalog: Catalog, stage1: Any) -> None:
        self.catalog = catalog
        self.s1 = stage1

    def _key(self, call: Call, result: Any) -> str:
        """The answer without the tool's echo of its own arguments (``search_type: song`` beside the
        songs found): what the user learns, not what was asked."""
        echo = set(self.catalog.tool(call.name).properties)
        if isinstance(result, dict):
            result = {k: v for k, v in result.items() if not is_echo(k, v, echo)}
        return answer_key(result)

    async def _run(self, call: Call, ref: str) -> Any:
        """The answer of one schema-valid call on a fresh store, or None (invalid, failed, empty)."""
        if self.s1._validator(call.name).errors(call.arguments):
            return None
        self.s1.ex.reset_state()
        out = await self.s1.ex.call(call.name, call.arguments, ref)
        return out.result if out.ok and out.result else None

    async def _answer(self, call: Call, ref: str) -> str | None:
        result = await self._run(call, ref)
        return None if result is None else self._key(call, result)

    # --- the grounding gate --------------------------------------------------------------------
    async def evidence(
        self, variant: Call, arg: str, seen: list[Any], ref: str, answer: str, result: Any
    ) -> str | None:
        """Why the variant's equal answer proves nothing, or None: the gold's answer lists nothing
        (a keyword that filters everything away gives it too), or no other value of ``arg`` changes
        the answer (the tool ignores the argument: a wrong value gives the gold's answer as well)."""
        if finds_nothing(result, self.catalog.tool(variant.name)):
            return "empty_answer"
        sch = self.catalog.tool(variant.name).properties.get(arg, {})
        ann = self.catalog.tool(variant.name).annotations.get(arg)
        timed = (ann is not None and ann.time_valued) or "format" in sch
        others = (
            _other_days(next((v for v in seen if v is not None), ""), sch) if timed else contrasts(sch, seen)
        )
        if not others:
            return "no_contrast"  # nothing tells an argument that matters from one that is ignored
        for v in others:
            if (
                await self._answer(Call(name=variant.name, arguments={**variant.arguments, arg: v}), ref)
                != answer
            ):
                return None
        return "tool_ignores_argument"

    async def grounded(
        self,
        found: Found,
        source: str,
        query: str,
        ref: str,
        gold: Call,
        variant: Call,
        arg: str,
        answer: str,
        result: Any,
    ) -> bool:
        """The variant of ``gold`` that sets (or leaves out) ``arg`` passes the grounding gate; a
        refusal is counted under ``source``."""
        tool = self.catalog.tool(gold.name)
        reason = None
        if arg in variant.arguments:
            reason = value_reason(tool, variant.arguments, arg, variant.arguments[arg], query)
        if reason is None and drops_part(self.catalog.tool, query, [gold], [variant]):
            reason = "drops_part_of_request"
        stated = (
            isinstance(result, dict)
            and arg in variant.arguments
            and result.get(arg) == variant.arguments[arg]
        )
        if reason is None and stated:
            # the answer states the value it used (tax_year 2025, bill_month 2025-06, 2106号台风's year
            # 2021): writing it out restates what the tool did, whether or not another value differs
            reason = "empty_answer" if finds_nothing(result, tool) else None
        elif reason is None:
            seen = [variant.arguments.get(arg), gold.arguments.get(arg)]
            reason = await self.evidence(
                variant, arg, [v for v in seen if v is not None], ref, answer, result
            )
            if reason == "tool_ignores_argument" and _the_city_said(arg, variant.arguments.get(arg), query):
                reason = None
        if reason is not None:
            found.reject(source, reason)
            return False
        return True

    async def find(
        self, query: str, ref: str, gold: list[Call], alts: list[GoldAlternative], trace: list[dict[str, Any]]
    ) -> Found:
        found = Found([a.model_copy(deep=True) for a in alts])
        answers: list[str | None] = []
        results: list[Any] = []
        for c in gold:
            result = await self._run(c, ref)
            results.append(result)
            answers.append(None if result is None else self._key(c, result))
        found.results = results
        found.empty = all(
            r is None or finds_nothing(r, self.catalog.tool(c.name))
            for c, r in zip(gold, results, strict=True)
        )
        for i, c in enumerate(gold):
            answer = answers[i]
            if answer is None:
                continue
            await self._entailed(found, i, c, query, ref, answer, results[i])
            await wording(self, found, i, c, query, ref, answer, results[i])
            await stated_values(self, found, i, c, ref, answer, results[i])
            await implied(self, found, gold, i, query, ref, results[i])
            await narrowed(self, found, i, c, query, ref, results[i])
            await evening_start(self, found, i, c, query, ref, results[i])
            await breakdown(self, found, i, c, query, ref, results[i])
            await named_part(self, found, i, c, query, ref, results[i])
            await scaled(self, found, i, c, ref, results[i])
            await narrowed_start(self, found, i, c, query, ref, results[i])
            await one_day_end(self, found, i, c, query, ref)
            await back_start(self, found, i, c, query, ref)
            await open_start(self, found, i, c, query, ref, results[i])
            await self._omitted(found, i, c, query, ref, answer, results[i])
            await widened(self, found, i, c, query, ref, results[i])
            await widened_end(self, found, i, c, query, ref, results[i])
            await keyword_for_category(self, found, gold, i, query, ref, results[i])
            await own_words(found, i, c, self.catalog.tool(c.name), query, ref, answer, self._answer)
            await with_its_time(found, i, c, self.catalog.tool(c.name), query, ref, answer, self._answer)
        await merged(self, found, gold, results, ref, query)
        await united(self, found, gold, results, ref, query)
        await spanned(self, found, gold, results, ref, query)
        await self._proposals(found, query, gold, answers, results, ref, trace)
        await parallel_empty(self, found, gold, ref)
        _keep_parts_apart(found, gold)
        ends_between(self.catalog, found, gold)
        if len(gold) == 1 and answers[0] is not None:  # last: it copies the gold's own alternatives
            await reversed_pair(self, found, 0, gold[0], ref, results[0])
        return found

    # --- an optional argument the query entails ------------------------------------------------
    def _entailed_values(self, c: Call, arg: str, query: str, result: Any) -> list[Any]:
        tool = self.catalog.tool(c.name)
        sch = tool.properties[arg]
        out: list[Any] = []
        ann = tool.annotations.get(arg)
        if "enum" in sch:
            if ann is not None:
                out += [v for s, v in sorted(ann.aliases.items(), key=lambda kv: -len(kv[0])) if s in query]
            out += [v for v in sch["enum"] if isinstance(v, str) and len(v) > 2 and v in query]
        if sch.get("type") in ("string", "integer", "number", None):
            # the kind of thing every item found is (火锅 near the airport: one restaurant found): for a
            # category argument one item shows it as well as many — it is what the request asks for
            # (a category only: cuisine or genre is a style of the items, no kind the user asks for;
            # and only beside the keyword the user said — 有啥演出 names no kind of show)
            said = isinstance(c.arguments.get("keyword"), str)
            if arg != "category":
                out += shared_values(result, arg)
            elif (
                said
            ):  # 后天洛阳有啥演出推荐: every show found a concert, yet no kind was asked (final sample 12)
                out += shared_values(result, arg, least=1)
            # a fact the answer states of the one entity the call names (2106号台风: year 2021;
            # stock 300122: market sz) — the answer's own top-level field of that name
            top = result.get(arg) if isinstance(result, dict) else None
            if isinstance(top, str | int | float) and not isinstance(top, bool) and not _VOLATILE.match(arg):
                out.append(
                    top
                )  # (never an id: a user_id or room_id the answer names is no fact the query gives)
        if sch.get("type") == "integer" and _COUNT.search(str(sch.get("description", ""))):
            out += [len(v) for v in c.arguments.values() if isinstance(v, list) and v]  # 3 seats: count 3
        if sch.get("type") == "string" and "enum" not in sch:
            # the user's own word for a category the gold selects (京剧 for category opera) as a keyword
            for k, v in c.arguments.items():
                a = tool.annotations.get(k)
                # a category the items carry (an answer that lists nothing carries none: a keyword
                # that filters everything away gives it too)
                carried = shared_values(result, k, least=1) == [v]
                if a is not None and k != arg and carried:
                    out += [s for s, x in a.aliases.items() if x == v and s in query and len(s) >= 2]
        if arg == "city":
            out += self._city_of_places(c, query)
        seen: list[Any] = []
        for v in out:
            if v not in seen and ("enum" not in sch or v in sch["enum"]) and sch.get("default") != v:
                seen.append(v)
        return seen

    def _city_of_places(self, c: Call, query: str) -> list[Any]:
        """The one city the query's places lie in (徐家汇→上海南站: 上海), when the call's place
        arguments name places of one city; a university named after its city counts (武汉大学)."""
        cities: set[str] = set()
        for m in find_places(query, institutions=True):
            info = place_info(m.name)
            if info is None:
                continue
            if info.kind in ("municipality", "city"):
                cities.add(info.name)
        return [cities.pop()] if len(cities) == 1 else []

    @staticmethod
    def _attribute_of_items(tool: Any, arg: str, v: Any, query: str, result: Any) -> bool:
        """An enum value that only the answer's items share, for an argument that is no category of
        what the request asks for: every doctor found works mornings, every song found is Cantonese —
        a ``period`` or ``language`` filter the request never says (羽绒服 → ``category: clothing``
        names what the user asks for; the answer's own fact of the one entity it names stays)."""
        sch = tool.properties.get(arg, {})
        if "enum" not in sch or _CATEGORY.match(arg) or v in said_values(tool, arg, query):
            return False
        top = result.get(arg) if isinstance(result, dict) else None
        return top != v and v in shared_values(result, arg)

    async def _entailed(
        self, found: Found, i: int, c: Call, query: str, ref: str, answer: str, result: Any
    ) -> None:
        tool = self.catalog.tool(c.name)
        for arg in tool.properties:
            if arg in c.arguments or arg in tool.required:
                continue
            values = self._entailed_values(c, arg, query, result)
            desc = str(tool.properties[arg].get("description", ""))
            if "不填则为今天" in desc:
                values.append(ref[:10])  # the default written out: 北京天气 with today's date
            if "当前整点" in desc and tool.properties[arg].get("type") == "integer":
                values.append(int(ref[11:13]))  # 雨几点停 from now on: the hour the tool starts at anyway
            for v in values:
                found.tried["entailed"] += 1
                if self._attribute_of_items(tool, arg, v, query, result):
                    found.reject("entailed", "not_in_request")
                    continue
                variant = Call(name=c.name, arguments={**c.arguments, arg: v})
                if await self._answer(variant, ref) == answer and await self.grounded(
                    found, "entailed", query, ref, c, variant, arg, answer, result
                ):
                    found.add(i, "extra", arg, v)

    # --- an optional choice the gold makes that changes nothing --------------------------------
    async def _omitted(
        self, found: Found, i: int, c: Call, query: str, ref: str, answer: str, result: Any
    ) -> None:
        """An optional enum argument of the gold left out (``search_type: artist`` where the tool's
        default song search matches the singer too), or an optional date whose default serves the
        request (a fund's NAV asked before the day's is published: no ``date`` gives the latest
        published value, the gold's): ``omittable`` when the answer stays the gold's, the argument
        changes what the tool does for another value, and the request does not say the value left
        out (上午的医生: ``period: morning`` is the user's)."""
        tool = self.catalog.tool(c.name)
        for arg, v in c.arguments.items():
            sch = tool.properties.get(arg, {})
            ann = tool.annotations.get(arg)
            timed = ann is not None and ann.time_valued and sch.get("format") in ("date", "date-time")
            if arg in tool.required or not ("enum" in sch or timed) or sch.get("default") == v:
                continue
            if arg in found.alternatives[i].omittable:
                continue
            if timed and v != ref[:10] and _TIME_SAID.search(query):
                continue  # 这周日 / 周五8点 said: the default (today, now) answers another time
            found.tried["omitted"] += 1
            rest = Call(name=c.name, arguments={k: x for k, x in c.arguments.items() if k != arg})
            if await self._answer(rest, ref) != answer:
                continue
            if v in said_values(tool, arg, query) and not carried(tool, c, arg, v, query):
                found.reject("omitted", "drops_part_of_request")
                continue
            if await self.grounded(found, "omitted", query, ref, c, rest, arg, answer, result):
                found.alternatives[i].omittable.append(arg)
                found.alternatives[i].omittable.sort()
                found.accepted["omittable"] += 1

    # --- other generators' verified readings ---------------------------------------------------
    async def _proposals(
        self,
        found: Found,
        query: str,
        gold: list[Call],
        answers: list[str | None],
        results: list[Any],
        ref: str,
        trace: list[dict[str, Any]],
    ) -> None:
        tau = self.s1.cfg.tau
        seen: list[list[Call]] = []
        for rnd in trace:
            for e in rnd["proposals"]:
                if not e.get("eligible") or "calls" not in e or e["score"] < tau:
                    continue
                if e["generator"] == "intended" or not all((e.get("grounding") or {}).values()):
                    continue
                calls = [Call(**x) for x in e["calls"]]
                if sorted(x.name for x in calls) != sorted(g.name for g in gold) or any(
                    calls == s for s in seen
                ):
                    continue
                seen.append(calls)
                if self.s1.equivalent(calls, gold, ref) or not free_values(self.catalog, gold) <= free_values(
                    self.catalog, calls
                ):
                    continue  # the same reading, or one that drops what the gold reads (a venue's name
                    # for its category, 北京大学 for 大学): the same answer from a sparse store proves nothing
                found.tried["proposal"] += 1
                pairs = await self._same_answers(calls, gold, answers, ref)
                if pairs is None:
                    continue
                reason = await self._reading_reason(query, ref, gold, calls, pairs, answers, results)
                if reason is not None:
                    found.reject("proposal", reason)
                    continue
                self._accept_reading(found, gold, calls)

    async def _reading_reason(
        self,
        query: str,
        ref: str,
        gold: list[Call],
        calls: list[Call],
        pairs: list[int],
        answers: list[str | None],
        results: list[Any],
    ) -> str | None:
        """Why another reading with the gold's answers is still no alternative, or None: a value it
        reads otherwise is not grounded, it drops part of the request, or an argument it reads
        otherwise proves nothing by execution (empty answers, an argument the tool ignores)."""
        if drops_part(self.catalog.tool, query, gold, calls):
            return "drops_part_of_request"
        for c, j in zip(calls, pairs, strict=True):
            g, tool = gold[j], self.catalog.tool(c.name)
            for k in sorted(g.arguments.keys() | c.arguments.keys()):
                if g.arguments.get(k, _ABSENT) == c.arguments.get(k, _ABSENT):
                    continue
                if k in c.arguments:
                    reason = value_reason(tool, c.arguments, k, c.arguments[k], query)
                    if reason is not None:
                        return reason
                seen = [x for x in (c.arguments.get(k), g.arguments.get(k)) if x is not None]
                reason = await self.evidence(c, k, seen, ref, answers[j] or "", results[j])
                if reason == "tool_ignores_argument" and _the_city_said(k, c.arguments.get(k), query):
                    reason = None
                if reason is not None:
                    return reason
        return None

    def _accept_reading(self, found: Found, gold: list[Call], calls: list[Call]) -> None:
        """Another reading with the gold's answers: one argument added, changed or left out of a
        one-call gold becomes an ``extra``, ``values`` or ``omittable`` entry; anything else (two
        arguments changed together, several calls) a whole ``alternative_calls`` list, so that no
        combination of changes is accepted that was never executed."""
        if len(gold) == 1 and len(calls) == 1:
            g, c, alt = gold[0].arguments, calls[0].arguments, found.alternatives[0]
            diff = [k for k in sorted(g.keys() | c.keys()) if g.get(k, _ABSENT) != c.get(k, _ABSENT)]
            if len(diff) == 1:
                k = diff[0]
                if k not in c:  # left out (an enum or a default: free values are kept, see above)
                    if k not in self.catalog.tool(gold[0].name).required and k not in alt.omittable:
                        alt.omittable.append(k)
                        alt.omittable.sort()
                        found.accepted["omittable"] += 1
                    return
                found.add(0, "extra" if k not in g else "values", k, c[k])
                return
        found.add_calls(self.catalog, calls)

    async def _same_answers(
        self, calls: list[Call], gold: list[Call], answers: list[str | None], ref: str
    ) -> list[int] | None:
        """The gold call each call of ``calls`` answers as (a one-to-one match of one tool's calls), or
        None."""
        left = list(range(len(gold)))
        pairs: list[int] = []
        for c in calls:
            a = await self._answer(c, ref)
            hit = next(
                (j for j in left if gold[j].name == c.name and a is not None and answers[j] == a), None
            )
            if hit is None:
                return None
            left.remove(hit)
            pairs.append(hit)
        return pairs if not left else None

    async def other_tools(
        self, task: Any, gold: list[Call], offered: list[str], dbs: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Another offered plugin that serves the request (``pccf.served.other_tools``)."""
        from .served import other_tools

        return await other_tools(self, task, gold, offered, dbs)


def free_values(catalog: Catalog, calls: list[Call]) -> set[str]:
    """The values a call list reads from the query beyond its tools' own vocabularies (enums):
    places, times, numbers, names — what another tool's reading must carry too."""
    out: set[str] = set()
    for c in calls:
        props = catalog.tool(c.name).properties
        for k, v in c.arguments.items():
            sch = props.get(k, {})
            if "enum" in sch or "enum" in sch.get("items", {}) or v == sch.get("default", _ABSENT):
                continue  # the tool's own vocabulary (an array of enum items too: indices [dressing])
            for x in v if isinstance(v, list) else [v]:
                text = json.dumps(x, ensure_ascii=False, sort_keys=True).strip('"')
                out.add(canonical_place(text) or text)
    return out
