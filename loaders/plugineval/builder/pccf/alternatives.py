"""Accepted alternatives by execution (docs/format.md §4, Stage I).

Beside the gold, the variants a careful model would plausibly emit are executed through MCP:

- ``proposal``: another generator's verified proposal (schema-valid, executed, every argument grounded,
  scored at tau) that reads the request otherwise with the same tools;
- ``entailed``: an optional argument the query entails — an enum value whose surface form the query
  says, or a value every item of the gold's answer shares (羽绒服 → ``category: clothing``; a place's
  city);
- ``wording``: the query's own wording for an entity the tool resolves (机场 with ``city: 无锡``);
- ``omitted``: an optional choice of the gold left out that changes nothing (the default song search
  finds the singer's songs as ``search_type: artist`` does);
- ``narrowed``, ``merged``: a forecast window cut to the one day asked; one call that answers what
  several gold calls of one tool ask (no ``ticket_type``: every ticket type).

A variant whose output is the gold's answer (ids and timestamps aside) is accepted: an added argument
becomes an ``extra`` entry, a changed value a ``values`` entry, a whole other call list an
``alternative_calls`` entry. A variant that changes the answer stays wrong. Defaults written out
(at any depth, and derived defaults) are the judge's rules and need no entry here.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from plugineval.baselines.textscan import find_places
from plugineval.catalog import Catalog
from plugineval.normalize import canonical_place
from plugineval.normalize.places import place_info
from plugineval.schema import Call, GoldAlternative

from .answers import (
    _VOLATILE,
    _clipped,
    _holds_items,
    _lists_nothing,
    _strip,
    answer_key,
    shared_values,
    sub_answer,
)
from .labels import own_words
from .merge import merged, united

# a place word a resolving tool reads with the call's city (the user's own wording)
PLACE_WORDS = ("机场", "火车站", "高铁站", "汽车站", "客运站", "市中心", "地铁站")
_COUNT = re.compile(r"[张人份间个件台本]数")
_ABSENT = object()


@dataclass
class Found:
    """What the alternatives step accepted for one gold list, and what it tried."""

    alternatives: list[GoldAlternative]
    alternative_calls: list[dict[str, Any]] = field(default_factory=list)
    tried: Counter[str] = field(default_factory=Counter)
    accepted: Counter[str] = field(default_factory=Counter)

    def add(self, i: int, kind: str, arg: str, value: Any) -> None:
        """Accept ``value`` for ``arg`` of gold call ``i`` as an ``extra`` or ``values`` entry (once).
        A city argument takes a city only: a tool that ignores a wrong one (route_plan resolves its
        places without it) gives the gold's answer for 开车 or 汉口站 too, which proves nothing."""
        if (arg == "city" or arg.endswith("_city")) and not _is_city(value):
            self.tried["not_a_city"] += 1
            return
        alt = self.alternatives[i]
        listed = (alt.extra if kind == "extra" else alt.values).setdefault(arg, [])
        if value not in listed:
            listed.append(value)
            self.accepted[kind] += 1

    def summary(self) -> dict[str, Any]:
        return {"tried": dict(sorted(self.tried.items())), "accepted": dict(sorted(self.accepted.items()))}


def _is_city(value: Any) -> bool:
    info = place_info(canonical_place(value) or "") if isinstance(value, str) else None
    return info is not None and info.kind not in ("province", "autonomous_region", "country")


_NEAR = re.compile(
    r"附近|周边|周围|旁边|边上|\d+\s*(公里|千米|米|km|m)\b|[一二三四五六七八九十两百]+(公里|千米|米)"
)


def _facility_mentions(query: str) -> list[str]:
    """Railway stations and airports the query names, as it names them (longest first)."""
    from plugineval.normalize.places import all_facilities

    names = {n for f in all_facilities() for n in (f.name, *f.aliases) if len(n) >= 3 and n in query}
    return sorted(names, key=lambda n: (-len(n), n))


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
            result = {k: v for k, v in result.items() if k not in echo}
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
        for i, c in enumerate(gold):
            answer = answers[i]
            if answer is None:
                continue
            await self._entailed(found, i, c, query, ref, answer, results[i])
            await self._wording(found, i, c, query, ref, answer)
            await self._narrowed(found, i, c, ref, results[i])
            await self._omitted(found, i, c, ref, answer)
            await self._widened(found, i, c, query, ref, results[i])
            await self._widened_end(found, i, c, query, ref, results[i])
            await own_words(found, i, c, self.catalog.tool(c.name), query, ref, answer, self._answer)
        await merged(self, found, gold, results, ref)
        await united(self, found, gold, results, ref)
        await self._proposals(found, gold, answers, ref, trace)
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
            out += shared_values(result, arg)
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
                # a category the items carry — or an answer that lists nothing, which the user's own
                # word cannot change (京剧 beside category opera where no opera show is on)
                carried = shared_values(result, k, least=1) == [v] or _lists_nothing(result)
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
        arguments name places of one city."""
        cities: set[str] = set()
        for m in find_places(query):
            info = place_info(m.name)
            if info is None:
                continue
            if info.kind in ("municipality", "city"):
                cities.add(info.name)
        return [cities.pop()] if len(cities) == 1 else []

    async def _entailed(
        self, found: Found, i: int, c: Call, query: str, ref: str, answer: str, result: Any
    ) -> None:
        tool = self.catalog.tool(c.name)
        for arg in tool.properties:
            if arg in c.arguments or arg in tool.required:
                continue
            for v in self._entailed_values(c, arg, query, result):
                found.tried["entailed"] += 1
                variant = Call(name=c.name, arguments={**c.arguments, arg: v})
                if await self._answer(variant, ref) == answer:
                    found.add(i, "extra", arg, v)

    # --- an optional choice the gold makes that changes nothing --------------------------------
    async def _omitted(self, found: Found, i: int, c: Call, ref: str, answer: str) -> None:
        """An optional enum argument of the gold left out (``search_type: artist`` where the tool's
        default song search matches the singer too): ``omittable`` when the answer stays the gold's."""
        tool = self.catalog.tool(c.name)
        for arg, v in c.arguments.items():
            sch = tool.properties.get(arg, {})
            if arg in tool.required or "enum" not in sch or sch.get("default") == v:
                continue
            if arg in found.alternatives[i].omittable:
                continue
            found.tried["omitted"] += 1
            rest = Call(name=c.name, arguments={k: x for k, x in c.arguments.items() if k != arg})
            if await self._answer(rest, ref) == answer:
                found.alternatives[i].omittable.append(arg)
                found.alternatives[i].omittable.sort()
                found.accepted["omittable"] += 1

    # --- a search area widened to the tool's limit where the query sets none ---------------------
    async def _widened(self, found: Found, i: int, c: Call, query: str, ref: str, result: Any) -> None:
        """``radius_m`` at the tool's maximum for a request that sets no area (拉萨评分最高的面馆: the
        whole city, not 1 km around its centre), when the wider search still holds the gold's answer
        whole (``sub_answer``). Never where the query says 附近 or gives a distance: there the
        default area is the reading."""
        if _NEAR.search(query):
            return
        tool = self.catalog.tool(c.name)
        limits = {
            b.argument: b.limit
            for b in self.catalog.plugin_of_tool(c.name).boundaries
            if b.kind == "max_value" and c.name in b.tools and b.limit is not None
        }
        for arg, sch in tool.properties.items():
            top, default = sch.get("maximum", limits.get(arg)), sch.get("default")
            if isinstance(top, float) and top.is_integer() and sch.get("type") == "integer":
                top = int(top)
            if arg in c.arguments or not arg.startswith("radius") or not isinstance(top, int | float):
                continue
            if isinstance(default, int | float) and default >= top:
                continue
            found.tried["widened"] += 1
            if await self._holds(Call(name=c.name, arguments={**c.arguments, arg: top}), ref, result):
                found.add(i, "extra", arg, top)

    async def _holds(self, variant: Call, ref: str, result: Any, clip: str | None = None) -> bool:
        """The wider ``variant`` answers and its answer holds the gold's (``result``) whole: every
        item the gold found is among its items (echoes of the arguments and counts aside). With
        ``clip`` (the narrower window's last day), an item's date that the narrower window cut at
        that day may run on in the wider answer (a show's ``last_date``: 08-16 in a month's window,
        09-15 in two months')."""
        wider = await self._run(variant, ref) if isinstance(result, dict) else None
        if not isinstance(wider, dict):
            return False
        echo = set(self.catalog.tool(variant.name).properties)
        part = _strip({k: v for k, v in result.items() if k not in echo})
        whole = _strip({k: v for k, v in wider.items() if k not in echo})
        if clip is not None:
            part, whole = _clipped(part, clip), _clipped(whole, clip)
        return sub_answer(part, whole) or _holds_items(part, whole)

    async def _widened_end(self, found: Found, i: int, c: Call, query: str, ref: str, result: Any) -> None:
        """A range left open by the user (11月30号以后: no end) may end at the tool's longest span
        instead of its default one (``date_to`` = ``date_from`` + 60 days where the default is + 30),
        when the longer range still holds the gold's answer."""
        from datetime import date, timedelta

        from plugineval.baselines.textscan import find_times

        times = find_times(query, ref)
        if len(times) != 1 or times[0].value.kind != "date":
            return  # a second time or a range: the end may be the user's
        plugin = self.catalog.plugin_of_tool(c.name)
        for b in plugin.boundaries:
            end, start = b.end_argument, b.argument
            if b.kind != "max_span_days" or c.name not in b.tools or end is None or end in c.arguments:
                continue
            ann = self.catalog.tool(c.name).annotations.get(end)
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
            widest = Call(name=c.name, arguments={**c.arguments, end: top.isoformat()})
            if await self._holds(widest, ref, result, clip=default.isoformat()):
                # every end from the default's to the longest span: each window holds the default
                # one and lies within the widest (a user who gave no end asked for all of them)
                for k in range(1, (top - default).days + 1):
                    found.add(i, "extra", end, (default + timedelta(days=k)).isoformat())

    # --- a window of days narrowed to the one day asked -----------------------------------------
    async def _narrowed(self, found: Found, i: int, c: Call, ref: str, result: Any) -> None:
        """``days: 1`` for a forecast of the one day the gold asks for (its default is longer): the
        answer is the gold's, cut to that day — every list a part of the gold's list, the asked day
        in it, nothing else changed."""
        tool = self.catalog.tool(c.name)
        sch = tool.properties.get("days", {})
        default = sch.get("default")
        if (
            "days" in c.arguments
            or sch.get("type") != "integer"
            or not isinstance(default, int)
            or default <= 1
        ):
            return
        days = {
            str(v)[:10]
            for k, v in c.arguments.items()
            if (a := tool.annotations.get(k)) is not None and a.time_valued and isinstance(v, str)
        }
        if len(days) != 1:
            return
        found.tried["narrowed"] += 1
        narrow = await self._run(Call(name=c.name, arguments={**c.arguments, "days": 1}), ref)
        if narrow is None or not result:
            return
        v, g = _strip(narrow), _strip(result)
        if v != g and sub_answer(v, g) and days.pop() in json.dumps(v, ensure_ascii=False):
            found.add(i, "extra", "days", 1)

    # --- the user's own wording for an entity the tool resolves --------------------------------
    async def _wording(self, found: Found, i: int, c: Call, query: str, ref: str, answer: str) -> None:
        tool = self.catalog.tool(c.name)
        # a nickname (羊城, 山城) is an inference step the record's difficulty counts: its resolution
        # is what the gold asks for, so the nickname itself is not accepted as the user's wording
        surfaces = [m.text for m in find_places(query) if m.step is None]
        surfaces += [w for w in PLACE_WORDS if w in query]
        surfaces += _facility_mentions(query)  # 虹桥火车站: a station as the user names it
        for arg, v in c.arguments.items():
            sch = tool.properties.get(arg, {})
            ann = tool.annotations.get(arg)
            if (
                not isinstance(v, str)
                or sch.get("type") != "string"
                or "enum" in sch
                or "format" in sch
                or (ann is not None and ann.time_valued)
                or v in query
            ):
                continue
            for s in dict.fromkeys(surfaces):
                if s == v or (canonical_place(s) or s) == (canonical_place(v) or v):
                    continue  # the place normalizer already equates them
                found.tried["wording"] += 1
                variant = Call(name=c.name, arguments={**c.arguments, arg: s})
                if await self._answer(variant, ref) == answer:
                    found.add(i, "values", arg, s)

    # --- other generators' verified readings ---------------------------------------------------
    async def _proposals(
        self, found: Found, gold: list[Call], answers: list[str | None], ref: str, trace: list[dict[str, Any]]
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
                if await self._same_answers(calls, gold, answers, ref):
                    self._accept_reading(found, gold, calls)

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
        from .records import alternatives_for

        alts = alternatives_for(self.catalog, calls)
        found.alternative_calls.append(
            {"calls": [x.model_dump() for x in calls], "alternatives": [a.model_dump() for a in alts]}
        )
        found.accepted["alternative_calls"] += 1

    async def _same_answers(
        self, calls: list[Call], gold: list[Call], answers: list[str | None], ref: str
    ) -> bool:
        """Every call of ``calls`` answers as one gold call of the same tool does (a one-to-one match)."""
        left = list(range(len(gold)))
        for c in calls:
            a = await self._answer(c, ref)
            hit = next(
                (j for j in left if gold[j].name == c.name and a is not None and answers[j] == a), None
            )
            if hit is None:
                return False
            left.remove(hit)
        return not left

    async def other_tools(
        self, task: Any, gold: list[Call], offered: list[str], dbs: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Another offered plugin that serves the request (metro_route for 坐地铁 beside route_plan
        with mode transit): the gold's plugin declares that the other serves its requests too (the
        grammar's ``serves_also``: a plausible reading of one tool by another is no proof of it — a
        charging query read as a bare nearby search had the same free values), the query says one of
        its cue words (the grammar's lures: 地铁, 换乘), and Stage I accepts a text-only reading of the
        query for it — grounded, executed and scored at tau, as many calls as the gold, carrying every
        value the gold reads from the query. Each such reading is an ``alternative_calls`` list."""
        from .generators import Task
        from .records import alternatives_for

        s1, retriever = self.s1, self.s1.retriever
        offered_set = set(offered)
        gold_plugins = {self.catalog.plugin_of_tool(c.name).id for c in gold}
        declared = {
            q for p in gold_plugins if p in retriever.grammars for q in retriever.grammars[p].serves_also
        }
        plugins = sorted(({self.catalog.plugin_of_tool(t).id for t in offered} & declared) - gold_plugins)
        need = free_values(self.catalog, gold)
        out: list[dict[str, Any]] = []
        for pid in plugins:
            plugin = self.catalog.plugin(pid)
            db = dbs.get(self.catalog.domain_of_plugin(pid))
            if pid not in retriever.grammars or db is None:
                continue  # a build over some plugins knows no exemplars of the others
            cues = {w for sc in retriever.grammars[pid].scenarios.values() for w in sc.lures}
            if not any(w in task.query for w in cues):
                continue  # the request names nothing this plugin is for (地铁 for the metro guide)
            v = await s1.annotate(Task(task.query, task.reference_time, plugin, db))
            if not (v.accepted and v.outcome == "call" and len(v.gold) == len(gold)):
                continue
            if not all(c.name in offered_set for c in v.gold):
                continue
            if not need <= free_values(self.catalog, v.gold):
                continue  # it leaves out part of what the gold reads (陆家嘴 of 陆家嘴附近哪里能停车)
            alts = alternatives_for(self.catalog, v.gold)
            out.append(
                {"calls": [c.model_dump() for c in v.gold], "alternatives": [a.model_dump() for a in alts]}
            )
        return out


def free_values(catalog: Catalog, calls: list[Call]) -> set[str]:
    """The values a call list reads from the query beyond its tools' own vocabularies (enums):
    places, times, numbers, names — what another tool's reading must carry too."""
    out: set[str] = set()
    for c in calls:
        props = catalog.tool(c.name).properties
        for k, v in c.arguments.items():
            if "enum" in props.get(k, {}) or v == props.get(k, {}).get("default", _ABSENT):
                continue
            for x in v if isinstance(v, list) else [v]:
                text = json.dumps(x, ensure_ascii=False, sort_keys=True).strip('"')
                out.add(canonical_place(text) or text)
    return out
