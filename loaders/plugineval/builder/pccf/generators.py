"""Stage I generators: each proposes a complete call list or abstains (docs/format.md §4).

``slot_parser`` and ``template_retriever`` read only the query text; ``intended`` returns what the
synthesizer meant and is a cross-check only: its proposal never becomes gold by itself. An LLM
generator (``llm``) lives in ``llm_roles.py``. Round k > 0 passes the history (proposals, validation
errors, execution outcomes, assessments) so a generator can move to its next interpretation.

Both text-only readings resolve a year-less date by the request's own order of events
(``in_event_order``): 2月5日买的 beside 去年农历九月初一卖的 is the 2月5日 before the sale, and the end of a
range after a start said with its year (从2025年2月10日到10月4号) the first 10月4日 on or after the start.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from datetime import date, datetime
from itertools import pairwise
from typing import Any, Protocol

from plugineval.baselines.router import ReferenceRouter
from plugineval.baselines.slotfill import SlotFiller, multi_fill
from plugineval.baselines.textscan import find_times, resolve_references
from plugineval.catalog import Catalog
from plugineval.normalize import resolve
from plugineval.schema import Call, Plugin

from .retriever import ExemplarReader, TemplateRetriever, fill_args

TEXT_ONLY = frozenset({"slot_parser", "template_retriever", "llm"})


@dataclass
class Proposal:
    generator: str
    calls: list[Call] | None  # None: abstain
    missing: list[str] = field(default_factory=list)  # what an abstention says is missing
    abstain_reason: str | None = None  # missing_information | unsupported | no_request

    @property
    def abstains(self) -> bool:
        return self.calls is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "generator": self.generator,
            "calls": None if self.calls is None else [c.model_dump() for c in self.calls],
            "missing": self.missing,
            "abstain_reason": self.abstain_reason,
        }


@dataclass
class Task:
    """What a generator sees: the query text and the target plugin (plus, for ``intended`` only,
    the synthesizer's intended calls)."""

    query: str
    reference_time: str
    plugin: Plugin
    db: sqlite3.Connection | None
    intended: list[Call] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ref(self) -> datetime:
        return datetime.fromisoformat(self.reference_time)


class Generator(Protocol):
    name: str

    async def propose(self, task: Task, round_: int) -> Proposal: ...


# an event said right after its date, and the events that come after it (买 … 卖, 入住 … 退房)
_FIRST = re.compile(r"^(?:的)?\s*(?:就|才|先|是)?(买入|买|购入|申购|入手|入住|出发|借|开始|存入|存)")
_THEN = re.compile(
    r"^(?:的)?\s*(?:就|才|又|再|是)?(卖出|卖|赎回|抛|清仓|退房|离店|返回|回来|回程|还|结束|取出|取)"
)


# a range's connector between its start and its end (从A到B, A到B, A至B, A起到B)
_RANGE_JOIN = re.compile(r"^\s*(?:起|开始)?\s*(?:到|至)\s*$")
_YEARLESS = re.compile(r"^\s*[0-9零一二两三四五六七八九十]+月[0-9零一二两三四五六七八九十]+[日号]?\s*$")


def _range_ends(query: str, reference_time: str) -> list[tuple[date, date]]:
    """Each range whose start is said with its year (or relative to today) and whose end is a bare
    month and day: (the start, the end as read alone)."""
    ref = datetime.fromisoformat(reference_time)
    out: list[tuple[date, date]] = []
    ms = [m for m in find_times(query, reference_time) if isinstance(m.value.start, date)]
    for m in ms:  # one mention: 2025年2月10日到10月4号
        if m.value.kind != "date_range":
            continue
        parts = re.split(r"起?(?:到|至)", m.text, maxsplit=1)
        if len(parts) != 2 or _YEARLESS.match(parts[0]) or not _YEARLESS.match(parts[1]):
            continue
        end = resolve(parts[1].strip(), ref)
        if end is not None and end.kind == "date" and isinstance(end.start, date):
            out.append((_day(m.value.start), _day(end.start)))
    for a, b in pairwise(ms):  # two mentions: 2025年12月10日起到1月4号
        if (
            a.value.kind == "date"
            and b.value.kind == "date"
            and "year_inference" not in a.steps
            and "year_inference" in b.steps
            and _RANGE_JOIN.match(query[a.end : b.start])
        ):
            out.append((_day(a.value.start), _day(b.value.start)))
    return out


def _day(v: Any) -> date:
    return v.date() if isinstance(v, datetime) else v


def _first_on_or_after(d: date, start: date) -> date:
    """The first day with ``d``'s month and day on or after ``start``."""
    for y in range(start.year, start.year + 9):  # 29 February: the next leap year
        try:
            x = d.replace(year=y)
        except ValueError:
            continue
        if x >= start:
            return x
    return d


def _occurrences(d: date) -> list[date]:
    """The same month and day in the years around ``d`` (29 February only in leap years)."""
    out = []
    for y in range(d.year - 3, d.year + 3):
        try:
            out.append(d.replace(year=y))
        except ValueError:
            continue
    return out


def in_event_order(query: str, reference_time: str, calls: list[Call]) -> list[Call]:
    """The calls with each year-less date moved to the year the request's order of events gives it:
    a date said before its event (2月5日买的) is the last occurrence before the later event's date
    (去年农历九月初一卖的: 2025-10-21 → 2025-02-05); a year-less date of a later event, after a first
    event said with its year (去年12月1日入住，1月3日退房), the first occurrence after it. Dates said
    with their year, or by a calendar fact, stay as said. The bare end of a range after a start said
    with its year (从2025年2月10日到10月4号, 2025年12月10日起到1月4号) is its first occurrence on or after
    the start, whatever year it was read in alone."""
    moved: dict[str, str] = {}
    for start, end in _range_ends(query, reference_time):
        target = _first_on_or_after(end, start)
        for x in _occurrences(end):
            if x != target and x != start:
                moved.setdefault(x.isoformat(), target.isoformat())
    firsts: list[tuple[date, bool]] = []
    thens: list[tuple[date, bool]] = []
    for m in find_times(query, reference_time):
        if m.value.kind != "date" or not isinstance(m.value.start, date):
            continue
        after = query[m.end : m.end + 6]
        bare = "year_inference" in m.steps
        if _FIRST.match(after):
            firsts.append((m.value.start, bare))
        elif _THEN.match(after):
            thens.append((m.value.start, bare))
    if firsts and thens:
        _order_events(firsts, thens, moved)
    if not moved:
        return calls

    def fix(v: Any) -> Any:
        if isinstance(v, str) and v[:10] in moved:
            return moved[v[:10]] + v[10:]
        if isinstance(v, list):
            return [fix(x) for x in v]
        if isinstance(v, dict):
            return {k: fix(x) for k, x in v.items()}
        return v

    return [Call(name=c.name, arguments=fix(c.arguments)) for c in calls]


def _order_events(
    firsts: list[tuple[date, bool]], thens: list[tuple[date, bool]], moved: dict[str, str]
) -> None:
    """Year-less dates of a first event and a later one (买 … 卖), moved into their order."""
    if not any(bare for _, bare in firsts):
        start = max(d for d, _ in firsts)
        for d, bare in thens:
            later = [x for x in _occurrences(d) if x > start]
            if bare and later and later[0] != d:
                moved[d.isoformat()] = later[0].isoformat()
    end = min(date.fromisoformat(moved.get(d.isoformat(), d.isoformat())) for d, _ in thens)
    for d, bare in firsts:
        earlier = [x for x in _occurrences(d) if x < end]
        if bare and earlier and earlier[-1] != d:
            moved[d.isoformat()] = earlier[-1].isoformat()


# a scenic spot's generic ending, dropped for the name people say (天坛公园: 天坛, 故宫博物院: 故宫)
_SPOT_SUFFIX = re.compile(r"(?:公园|博物院|风景区|景区|旅游区)$")
# what a name is when nothing of its own is left (北京动物园 without 北京 is any 动物园)
_GENERIC = re.compile(
    r"^(?:[东南西北中]?(?:动物园|植物园|海洋馆|科技馆|博物馆|欢乐谷|古镇|古寺|湿地公园|森林公园|遗址公园|风景区|公园"
    r"|广场|站|机场|大学|步行街)|人民广场|中心广场|市中心|市区|市政府"
    # names many cities give a place (深圳's 东门 and 科技园 are no proof of 深圳: train round T)
    r"|[东西南北]门|科技园|市民中心|钟楼|鼓楼|东湖|世界之窗|新街口|北京路|世纪公园)$"
)


def store_landmarks(db: sqlite3.Connection | None) -> dict[str, frozenset[str]]:
    """The places the store's data puts in a city (the navigation landmarks; scenic spots by their
    name, without the city's name, and without a generic ending): a name -> its cities."""
    from ..tools.domains.navigation_data import EXTRA_LANDMARKS, LANDMARKS

    out: dict[str, set[str]] = {}

    def add(name: str, city: str) -> None:
        if len(name) >= 2 and not _GENERIC.match(name):
            out.setdefault(name, set()).add(city)

    for table in (LANDMARKS, EXTRA_LANDMARKS):
        for city, marks in table.items():
            for name in marks:
                add(name, city)
    if db is not None:
        try:
            rows = db.execute("SELECT name, city FROM scenic_spots").fetchall()
        except sqlite3.Error:
            rows = []
        for name, city in rows:
            bare = name[len(city) :] if name.startswith(city) else name
            for n in {name, bare, _SPOT_SUFFIX.sub("", bare)}:
                add(n, city)
    return {k: frozenset(v) for k, v in out.items()}


class SlotParserGenerator:
    name = "slot_parser"

    def __init__(self, catalog: Catalog, router: ReferenceRouter) -> None:
        self.catalog = catalog
        self.router = router
        self._landmarks: dict[int, dict[str, frozenset[str]]] = {}

    def landmarks(self, db: sqlite3.Connection | None) -> dict[str, frozenset[str]]:
        key = id(db)
        if key not in self._landmarks:
            self._landmarks[key] = store_landmarks(db)
        return self._landmarks[key]

    async def propose(self, task: Task, round_: int) -> Proposal:
        tools = [t.openai_function() for t in task.plugin.tools]
        ranked = sorted(self.router.scores(task.query, tools).items(), key=lambda kv: (-kv[1], kv[0]))
        best_missing: list[str] | None = None
        readings: list[tuple[set[str | None], list[Call]]] = []
        for name, _ in ranked:
            spec = self.catalog.tool(name)
            filler = SlotFiller(
                spec.openai_function(), spec.annotations, spec.stateful, self.landmarks(task.db)
            )
            fills = multi_fill(filler, task.query, task.reference_time, variant=round_)
            if all(f.arguments is not None for f in fills):
                calls = [Call(name=f.tool, arguments=f.arguments or {}) for f in fills]
                readings.append(({f.span for f in fills}, calls))
            elif best_missing is None:
                best_missing = fills[0].missing
        # a tool that holds the whole span said (未来三天: a start and 天数, 近七天: a start and an end)
        # before one that keeps only its first day, whatever the router's order; otherwise that order
        held = any("held" in spans for spans, _ in readings)
        complete = [c for _, c in sorted(readings, key=lambda r: held and "narrowed" in r[0])]
        if complete:
            calls = complete[min(round_ // 2, len(complete) - 1)]
            return Proposal(self.name, in_event_order(task.query, task.reference_time, calls))
        return Proposal(self.name, None, best_missing or [], "missing_information")


class TemplateRetrieverGenerator:
    name = "template_retriever"

    def __init__(self, retriever: TemplateRetriever) -> None:
        self.retriever = retriever
        self.reader = ExemplarReader(retriever)

    async def propose(self, task: Task, round_: int) -> Proposal:
        hit = self.retriever.fill(task.plugin.id, task.query, task.ref, task.db, variant=round_)
        if hit is None and round_ == 0:  # no exemplar aligns as a whole: read by the exemplars' slots
            request, _ = resolve_references(task.query, task.reference_time)
            hit = self.reader.read(task.plugin.id, request, task.ref, task.db)
        if hit is None:
            return Proposal(self.name, None, [], "no_request")
        cp, values = hit
        calls = []
        for c in cp.pattern.calls:
            args = {k: v for k, v in fill_args(c.args, values).items() if v not in (None, "")}
            calls.append(Call(name=c.tool, arguments=args))
        owners = {self.retriever.catalog.plugin_of_tool(c.name).id for c in calls}
        if cp.kind == "underspecified" and calls:
            tool = self.retriever.catalog.tool(calls[0].name)
            missing = [r for r in tool.required if r not in calls[0].arguments]
            return Proposal(self.name, None, missing, "missing_information")
        if not calls or owners != {task.plugin.id}:
            return Proposal(self.name, None, [], "no_request" if not calls else "unsupported")
        return Proposal(self.name, in_event_order(task.query, task.reference_time, calls))


class IntendedGenerator:
    """The synthesizer's intended call: a cross-check, never gold by itself."""

    name = "intended"

    async def propose(self, task: Task, round_: int) -> Proposal:
        if not task.intended:
            return Proposal(self.name, None, [], "no_request")
        return Proposal(self.name, list(task.intended))


def make_generators(
    names: list[str], catalog: Catalog, router: ReferenceRouter, retriever: TemplateRetriever, llm: Any = None
) -> list[Generator]:
    out: list[Generator] = []
    for n in names:
        if n == "slot_parser":
            out.append(SlotParserGenerator(catalog, router))
        elif n == "template_retriever":
            out.append(TemplateRetrieverGenerator(retriever))
        elif n == "intended":
            out.append(IntendedGenerator())
        elif n == "llm":
            if llm is None:
                raise ValueError("generator 'llm' needs an endpoint: configure [roles.generator] or drop it")
            from .llm_roles import LLMGenerator

            out.append(LLMGenerator(llm))
        else:
            raise ValueError(f"unknown generator {n!r}")
    return out
