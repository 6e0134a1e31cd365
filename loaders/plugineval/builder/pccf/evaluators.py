"""Stage I evaluators, offline implementations.

Argument evaluator (S_arg): each argument is grounded in the query — literally, through a declared
synonym, a place alias, a time expression that resolves to it, or a number that parses to it — and
the inference steps of the grounding chain are recorded (they measure a positive's difficulty).
Result evaluator (S_out): the MCP response answers the request — no error, not empty, and it speaks
of the requested entities and dates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from plugineval.baselines.implied import implied_today
from plugineval.baselines.slotfill import SlotFiller, _city_only, landmark_cities
from plugineval.baselines.textscan import find_places, find_times, numbers_outside, split_context
from plugineval.catalog import Catalog
from plugineval.normalize import canonical_place, normalize_text
from plugineval.schema import Call, Plugin

from ..tools.server import CallOutcome

OBSERVABLE_STEPS = frozenset(
    {
        "relative_time",
        "year_inference",
        "time_format",
        "numeral",
        "implicit_entity",
        "calendar_fact",
        "date_arithmetic",
        "timezone_conversion",
    }
)


@dataclass
class ArgAssessment:
    score: float
    grounded: dict[str, str | None] = field(default_factory=dict)  # "call.arg" -> how (None: ungrounded)
    steps: set[str] = field(default_factory=set)
    note: str = ""
    used: int = 0  # the request's mentions (times, places, numbers, exemplar constraints) the calls use
    mentions: int = 0  # ... of how many

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": round(self.score, 4),
            "grounded": self.grounded,
            "steps": sorted(self.steps),
            "note": self.note,
        }


_BARE_MONTH = re.compile(r"^([0-9]{1,2}|[一二三四五六七八九十]{1,2})月份?$")  # 7月: this year's or last


def _mention_strings(t: Any) -> set[str]:
    """What a time mention can ground; a year-less date ("8月31日") or month ("7月在…花了多少") also
    its past occurrence."""
    out = _time_strings(t.value)
    if "year_inference" in t.steps or (t.value.kind == "month" and _BARE_MONTH.match(t.text)):
        out |= {f"{int(s[:4]) - 1}{s[4:]}" for s in list(out) if s[:4].isdigit()}
    return out


def _time_strings(v: Any) -> set[str]:
    out: set[str] = set()
    s, e = v.start, v.end
    for x in (s, e):
        if x is None:
            continue
        iso = x.isoformat()
        out.add(iso[:10])
        if v.kind == "month":
            out.add(iso[:7])
        if v.kind == "year":
            out.add(iso[:4])
        if len(iso) > 10 and "T" in iso:
            out.add(iso)
            out.add(iso[11:16])
        elif ":" in iso:
            out.add(iso[:5])
    return out


_HEIGHT = re.compile(r"([12])米([0-9一二三四五六七八九])([0-9一二三四五六七八九])?")
_CN_DIGIT = {c: i for i, c in enumerate("零一二三四五六七八九")}
_FACTORS: dict[str, tuple[float, ...]] = {
    "%": (100.0,),
    "利率": (100.0,),
    "百分": (100.0,),
    "厘米": (100.0, 0.01),
    "cm": (100.0, 0.01),
    "公斤": (0.5, 1.0),
    "千克": (0.5, 1.0),
    "kg": (0.5, 1.0),
    "克": (1000.0, 500.0),
    "月": (12.0, 1 / 12),
}


_MONTHLY = re.compile(r"(月薪|月收入|月工资|工资每月|每个?月|一个月)[^0-9一二三四五六七八九十两]{0,2}$")


def _monthly(query: str, n: Any) -> bool:
    """Is the number ``n`` (a ``numbers_outside`` entry) said as a monthly amount (月薪15000)?"""
    return bool(_MONTHLY.search(query[max(0, n[1] - 4) : n[1]]))


def _yearly(desc: str) -> bool:
    """An amount per year (全年税前收入, 年收入), not per month."""
    return bool(re.search("全年|年收入|年薪|每年", desc)) and "月" not in desc


def _converted(query: str, v: float, desc: str, nums: list[Any]) -> bool:
    """Is ``v`` a number of the query after a unit conversion the argument's description implies?
    A monthly amount (月薪15000) for a yearly argument is twelve of it."""
    if _yearly(desc) and any(_monthly(query, n) and abs(n[0] * 12 - v) < 1e-6 for n in nums):
        return True
    if ("厘米" in desc or "cm" in desc) and (m := _HEIGHT.search(query)):
        d = [_CN_DIGIT.get(x, int(x) if x and x.isdigit() else 0) if x else 0 for x in m.groups()]
        if abs(d[0] * 100 + d[1] * 10 + d[2] - v) < 1e-6:
            return True
    for unit, factors in _FACTORS.items():
        if unit in desc and any(abs(n[0] * f - v) < 1e-6 for n in nums for f in factors):
            return True
    return False


def _from_context(query: str, values: list[Any], reference_time: str) -> bool:
    """Do these values come from the context a request refers to, not from the request itself?"""
    context, request = split_context(query)
    if not context:
        return False
    times = find_times(request, reference_time)
    places = {p.name for p in find_places(request)}
    for v in values:
        if not isinstance(v, str) or v in request or (canonical_place(v) or v) in places:
            continue
        if any(v in _mention_strings(t) for t in times):
            continue
        return True
    return False


def _leaves(v: Any) -> Iterator[Any]:
    """The scalar values inside an argument structure (dict values, list items), depth first."""
    if isinstance(v, dict):
        for x in v.values():
            yield from _leaves(x)
    elif isinstance(v, list):
        for x in v:
            yield from _leaves(x)
    else:
        yield v


class ArgumentEvaluator:
    def __init__(self, catalog: Catalog) -> None:
        self.landmarks: dict[str, frozenset[str]] = {}  # the store's places -> their cities (``learn``)
        self._learned: set[int] = set()
        self.catalog = catalog

    def vacuous(self, name: str, arguments: dict[str, Any]) -> bool:
        """A call that takes nothing from the query: its tool requires no argument and every argument
        it passes equals the schema's default. Such a call can be made from any text at all (a
        listing tool: coupon_list, typhoon_list), so by itself it says nothing about what was asked."""
        tool = self.catalog.tool(name)
        if tool.required:
            return False
        props = tool.properties
        return all("default" in props.get(k, {}) and props[k]["default"] == v for k, v in arguments.items())

    def mentions_used(self, query: str, reference_time: str, calls: list[Call]) -> tuple[int, int]:
        """(used, total) time and place mentions of the query: a proposal that ignores part of the
        request (one trip of a round trip) leaves mentions unused. The context a request comes with
        ("EK: …\nquery: …") is no request: its mentions are not counted."""
        query = split_context(query)[1]
        times = find_times(query, reference_time)
        places = find_places(query)
        values: set[str] = set()
        numeric: set[float] = set()
        for c in calls:  # nested values count too: an order's items carry their quantities
            for x in _leaves(c.arguments):
                if isinstance(x, str):
                    values |= {x, x[:10], x[:7], canonical_place(x) or x}
                elif isinstance(x, int | float) and not isinstance(x, bool):
                    numeric.add(float(x))
                    if isinstance(x, int):
                        values.add(str(x))
        used = sum(1 for t in times if _mention_strings(t) & values)
        used += sum(1 for p in places if p.name in values)
        nums = [
            n for n in numbers_outside(query, [(t.start, t.end) for t in times]) if not (n[2] - n[1] >= 9)
        ]
        monthly = {n for n in nums if _monthly(query, n)}  # 月薪15000: 180000 a year
        used += sum(
            1
            for n in nums
            if any(
                abs(n[0] - x) < 1e-9
                or abs(n[0] * 100 - x) < 1e-9
                or (n in monthly and abs(n[0] * 12 - x) < 1e-6)
                for x in numeric
            )
        )
        return used, len(times) + len(places) + len(nums)

    def ground(self, query: str, reference_time: str, call: Call) -> tuple[dict[str, str | None], set[str]]:
        tool = self.catalog.tool(call.name)
        times = find_times(query, reference_time)
        places = find_places(query)
        nums = numbers_outside(query, [(t.start, t.end) for t in times])
        nq = normalize_text(query)
        out: dict[str, str | None] = {}
        steps: set[str] = set()
        for arg, value in call.arguments.items():
            sch = tool.properties.get(arg, {})
            ann = tool.annotations.get(arg)
            how: str | None = None
            values = value if isinstance(value, list) else [value]
            hows = []
            for v in values:
                h: str | None = None
                if "default" in sch and v == sch["default"]:
                    h = "default"
                elif isinstance(v, str) and v and (v in query or normalize_text(v) in nq):
                    h = "literal"
                elif ann and any(
                    c == v and (a in query or normalize_text(a) in nq) for a, c in ann.aliases.items()
                ):
                    h = "alias"
                elif isinstance(v, str) and ((ann and ann.time_valued) or sch.get("format")):
                    hit = next((t for t in times if v in _mention_strings(t)), None)
                    if hit is not None:
                        h = "time"
                        steps.update(hit.steps)
                elif isinstance(v, str) and (cp := canonical_place(v) or v):
                    hit_p = next((p for p in places if p.name == cp), None)
                    if hit_p is not None:
                        h = "place"
                        if hit_p.step:
                            steps.add(hit_p.step)
                if h is None and isinstance(v, int | float) and not isinstance(v, bool):
                    hit_n = next((n for n in nums if abs(n[0] - float(v)) < 1e-9), None)
                    desc = str(sch.get("description", ""))
                    if hit_n is not None and _yearly(desc) and _monthly(query, hit_n):
                        hit_n = None  # 月薪15000 is no yearly income of 15000 (×12 below)
                    if hit_n is not None:
                        h = "number"
                        if hit_n[3]:
                            steps.add(hit_n[3])
                    elif any(tm.value.kind == "year" and str(tm.value.start)[:4] == str(v) for tm in times):
                        h = "time"
                    else:  # a conversion the description implies: 1米6 -> 160 (cm), 90斤 -> 45 (kg), 8万 …
                        conv = _converted(query, float(v), desc, nums)
                        if conv:
                            h = "number"
                            steps.add("unit_conversion")
                if h is None and isinstance(v, str):
                    h = self._implied(query, reference_time, tool, arg, v, places, steps)
                hows.append(h)
            how = None if any(h is None for h in hows) else ",".join(sorted({h for h in hows if h}))
            out[arg] = how
            if how and how != "default" and _from_context(query, values, reference_time):
                steps.add("implicit_entity")  # "小李微信里提到的地点": the value is in the context only
        return out, steps

    def learn(self, db: Any) -> None:
        """Take in the places a domain's store names (its landmarks and scenic spots), once per store."""
        if id(db) in self._learned:
            return
        from .generators import store_landmarks

        self._learned.add(id(db))
        for name, cities in store_landmarks(db).items():
            self.landmarks[name] = self.landmarks.get(name, frozenset()) | cities

    def _implied(
        self, query: str, reference_time: str, tool: Any, arg: str, v: str, places: list[Any], steps: set[str]
    ) -> str | None:
        """A value the request implies, as the slot parser reads it: today for a fact-of-the-day date
        asked in the present tense (relative_time); the one city a named landmark is in
        (implicit_entity)."""
        sch = tool.properties.get(arg, {})
        if sch.get("format") == "date" and v == reference_time[:10]:
            if implied_today(tool.properties, tool.annotations, tool.stateful, [arg], query, reference_time):
                steps.add("relative_time")
                return "implied"
        elif (
            sch.get("type") == "string"
            and _city_only(arg, sch)
            and not places
            and landmark_cities(query, self.landmarks or None) == {canonical_place(v) or v}
        ):
            steps.add("implicit_entity")
            return "landmark"
        return None

    def assess(
        self,
        query: str,
        reference_time: str,
        plugin: Plugin,
        calls: list[Call],
        lexicon: set[tuple[str, str, str]] | None = None,
        requested: set[str] | None = None,
    ) -> ArgAssessment:
        """``lexicon``: (tool, arg, value) that the plugin's exemplars align to spans of this query
        ("还没发货" -> status=pending_shipment): surface forms the rules do not know. ``requested``:
        the tools the plugin's trigger exemplars read this query as asking for (None: unknown). A
        vacuous call (``vacuous``) to a tool outside it is grounded in nothing: its ``i.*`` entry is
        None ("帮我领张券" is no request for the coupon listing, though coupon_list() fills from it)."""
        if any(c.name not in plugin.tool_names for c in calls):
            return ArgAssessment(0.0, note="a call to a tool outside the target plugin")
        grounded: dict[str, str | None] = {}
        steps: set[str] = set()
        note = ""
        for i, c in enumerate(calls):
            if requested is not None and c.name not in requested and self.vacuous(c.name, c.arguments):
                grounded[f"{i}.*"] = None
                note = f"{c.name} takes nothing from the query and no exemplar reads it as requested"
            g, s = self.ground(query, reference_time, c)
            for k, v in g.items():
                if (
                    v is None
                    and lexicon
                    and (c.name, k, json.dumps(c.arguments[k], ensure_ascii=False)) in lexicon
                ):
                    g[k] = "exemplar"
            grounded |= {f"{i}.{k}": v for k, v in g.items()}
            steps |= s
        if not grounded:
            return ArgAssessment(1.0, grounded, steps)
        score = sum(v is not None for v in grounded.values()) / len(grounded)
        used, total = self.mentions_used(query, reference_time, calls)
        if lexicon:  # constraints the exemplars align in this query ("附近兵马俑" -> near) count as mentions
            mine = {
                (c.name, k, json.dumps(v, ensure_ascii=False)) for c in calls for k, v in c.arguments.items()
            }
            wanted = set(lexicon)  # a call to another tool of the plugin leaves them all unused
            total += len(wanted)
            used += len(wanted & mine)
        if total:  # leaving part of the request out costs; context mentions cost little
            score = 0.75 * score + 0.25 * used / total
        if len(calls) > 1 and len({json.dumps(c.model_dump(), sort_keys=True) for c in calls}) < len(calls):
            score *= 0.5  # duplicated calls are not independent requests
        return ArgAssessment(score, grounded, steps, note, used, total)

    def abstention(
        self,
        query: str,
        reference_time: str,
        plugin: Plugin,
        claimed_missing: list[str],
        requested: set[str] | None = None,
    ) -> tuple[bool, list[str]]:
        """A missing-information abstention is justified when no tool of the plugin can be filled
        from the text; returns (justified, the required arguments the best tool lacks). A vacuous
        fill (a tool that needs nothing, filled with nothing) counts only for a tool in ``requested``
        (the tools the plugin's trigger exemplars read the query as asking for; None: every tool):
        it fills from any text, so it shows no request by itself."""
        best: list[str] | None = None
        for t in plugin.tools:
            filler = SlotFiller(t.openai_function(), t.annotations, t.stateful, self.landmarks or None)
            f = filler.fill(query, reference_time)
            if f.arguments is not None:
                if requested is not None and t.name not in requested and self.vacuous(t.name, f.arguments):
                    continue
                return False, []
            if best is None or len(f.missing) < len(best):
                best = f.missing
        return True, best or claimed_missing


class ResultEvaluator:
    """Does the response answer the request: execution succeeded, the entities the call names (free
    text: a city, a title, a station) come back in it, and nothing asked for came back empty.
    Arguments with an enum or a non-string type are the schema's to check: a tool need not echo a
    category it filtered on, and penalizing that would make the call that drops the constraint win."""

    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog
        self._free_text: dict[str, frozenset[str] | None] = {}

    def _entity_args(self, tool: str) -> frozenset[str] | None:
        """The tool's free-text string arguments (None: unknown tool, every string counts)."""
        if tool not in self._free_text:
            props = None
            if self.catalog is not None:
                try:
                    props = self.catalog.tool(tool).parameters.get("properties", {})
                except KeyError:
                    props = None
            self._free_text[tool] = (
                None
                if props is None
                else frozenset(
                    k for k, sch in props.items() if sch.get("type") == "string" and "enum" not in sch
                )
            )
        return self._free_text[tool]

    def _found_nothing(self, tool: str, result: dict[str, Any]) -> bool:
        """Every list of the response is empty (no show, no train, no event) — unless the call changed
        state and confirms it (a status beside the created thing): an event created with no attendees
        and no conflicts is a full answer, and capping it made a listing call outscore the creation."""
        lists = [v for v in result.values() if isinstance(v, list)]
        if not lists or any(lists):
            return False
        if self.catalog is not None and "status" in result:
            try:
                return not self.catalog.tool(tool).stateful
            except KeyError:
                return True
        return True

    def assess(self, calls: list[Call], outcomes: list[CallOutcome]) -> tuple[float, str]:
        if not outcomes or any(not o.ok for o in outcomes):
            return 0.0, "execution failed"
        scores = []
        notes = []
        for c, o in zip(calls, outcomes, strict=True):
            text = json.dumps(o.result, ensure_ascii=False)
            entity = self._entity_args(c.name)
            wanted = [
                v
                for k, v in c.arguments.items()
                if isinstance(v, str) and 1 < len(v) <= 30 and (entity is None or k in entity)
            ]
            # spacing is no part of a name: a product said without the store's space (索尼MaxZ3降噪耳机)
            # is echoed by 索尼MaxZ3 降噪耳机
            bare = "".join(text.split())
            echoed = [
                v
                for v in wanted
                if v in text or "".join(v.split()) in bare or (canonical_place(v) or "\0") in text
            ]
            s = 1.0 if not wanted else 0.5 + 0.5 * len(echoed) / len(wanted)
            if self._found_nothing(c.name, o.result or {}):
                s = min(s, 0.7)
                notes.append(
                    f"{c.name}: empty {', '.join(k for k, v in (o.result or {}).items() if isinstance(v, list))}"
                )
            scores.append(s)
        return min(scores), "; ".join(notes)
