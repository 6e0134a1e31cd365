"""The synthesizer's grammars: data files (``loaders/plugineval/builder/grammars/<domain>.yaml``)
validated at load.

A pattern's text mixes literal Chinese, alternatives ``[帮我|麻烦你|]`` (an empty branch makes the
part optional) and slots ``{name}`` or ``{name:form}``. Slots are declared once per plugin (type,
range, source); a form picks a surface (``full`` 2026年3月20日, ``iso``, ``md`` 3月20号, ``rel`` 明天 /
下周三 …, ``cn`` 三张 …). A pattern declares the inference steps a reader needs beyond the ones its
forms imply; the builder checks them against the steps the text-only generator actually needed.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Literal, get_args

import yaml
from pydantic import Field, model_validator

from plugineval.schema import SchemaError, StrictModel
from plugineval.schema._base import validate_or_raise

GRAMMAR_DIR = Path(__file__).resolve().parents[1] / "grammars"
SLOT_RE = re.compile(r"\{(?P<name>[a-z_][a-z0-9_]*)(?::(?P<form>[a-z_]+))?\}")
ALT_RE = re.compile(r"\[([^\[\]]*)\]")

SlotType = Literal[
    "city", "foreign_city", "date", "time", "datetime", "int", "enum", "choice", "person", "phone", "sql"
]  # fmt: skip
Step = Literal[
    # inferences a reader makes beyond copying the request's words: each counts toward the depth
    # (docs/format.md §2.4)
    "relative_time",  # 明天, 下周三, 月底 → a date resolved against now
    "implied_intent",  # 明天出门要带伞吗 asks for a forecast: the request does not name the action
    "unit_conversion",  # 三斤 → 1.5 kg, 1米75 → 175 cm
    "implicit_entity",  # a place or thing named by description or implied by the request (鹏城 → 深圳)
    "calendar_fact",  # 农历十月初八, 春节前最后一个工作日 (调休): counts where the request carries it
    "date_arithmetic",  # 今天之后的第三个工作日, 开始后开一个半小时 → the end
    "timezone_conversion",  # 纽约时间3月12日上午10点 → +08:00 (summer time)
    "indirect_constraint",  # 预算比上次少两成
    "multi_call",  # three or more calls, of two or more tools, each grounded on its own
    # surface rewrites: recorded, never counted (a date format, a numeral, a polite prefix)
    "year_inference",
    "time_format",
    "numeral",
    "enum_paraphrase",
]
STEPS: tuple[str, ...] = get_args(Step)  # the inference steps a pattern may declare
DEEP_STEPS = frozenset(STEPS[:9])
"""The steps that make a positive harder (docs/format.md §2.4): a relative time resolved against
now, an implied intent, a unit conversion, an implicit entity, and — where the request carries
them — a calendar fact, date arithmetic or a time zone. The rest are surface rewrites (3月20号 for a
date, 三张 for 3, 下午三点 for 15:00) and leave a record easy."""

#: slot forms that exist to test calendar and place reasoning (a lunar date, a far lunar date, a
#: working-day count, a city nickname, a time in another zone): people seldom say them, so a
#: pattern that uses one — and every reading ``deepen`` derives — belongs to the opt-in
#: ``calendar`` config, never to the default configs (docs/authoring.md)
STRESS_FORMS = frozenset({"nick", "cal", "far", "work", "tz"})
Profile = Literal["default", "calendar"]


class Choice(StrictModel):
    text: str
    value: Any


class SlotSpec(StrictModel):
    type: SlotType
    distinct: list[str] = Field(default_factory=list)
    """slots that must take a different value"""
    min_days: int = 0
    max_days: int = 14
    """date: days after the reference date"""
    weekdays: bool = False
    """date: Monday to Friday only (a fund bought 上周六 is priced at the next trading day, not the
    day the tool's 非交易日 rule reads: a purchase day is drawn among trading days)"""
    far_days: tuple[int, int] | None = None
    """date: where the tool's window reaches months ahead or back, the range (days after the
    reference date, negative for the past) a far calendar reading of this slot takes (``deepen``:
    明年农历三月初八 in a flight search, 去年农历腊月初八 in a weather history)"""
    min: int = 1
    max: int = 9
    """int: inclusive range"""
    tool: str | None = None
    arg: str | None = None
    """enum: the tool argument whose enum (and declared aliases) it draws from"""
    choices: list[Choice] = Field(default_factory=list)
    """choice: surface text -> call value"""
    sql: str | None = None
    """sql: SELECT returning one column (value = surface) from the domain's store; :slot parameters allowed"""
    hours: tuple[int, int] = (7, 21)
    """time, datetime: hour range (China time)"""
    after: str | None = None
    """time, datetime with form ``dur``: the start slot this one ends a duration after"""
    minutes: tuple[int, int] = (30, 180)
    """form ``dur``: the duration's range, in minutes (a multiple of 15)"""
    identifier: bool = False
    """the value is a code people seldom type (an order or tracking number, a flight number, a stock
    or fund code, an account number, a card's tail): said, it costs one more (``said_cost``); a
    ``phone`` slot is one always"""

    @model_validator(mode="after")
    def _check(self) -> SlotSpec:
        if self.type == "enum" and (not self.tool or not self.arg):
            raise ValueError("an enum slot names tool and arg")
        if self.type == "choice" and not self.choices:
            raise ValueError("a choice slot lists choices")
        if self.type == "sql" and not self.sql:
            raise ValueError("a sql slot has a SELECT")
        if self.min_days > self.max_days or self.min > self.max:
            raise ValueError("empty range")
        far = self.far_days
        if far is not None and (self.type != "date" or far[0] > far[1] or far[0] <= 0 <= far[1]):
            raise ValueError("far_days is a date slot's range, all ahead or all back (0 outside it)")
        return self


class CallTemplate(StrictModel):
    tool: str
    args: dict[str, Any]


class Pattern(StrictModel):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    text: str
    calls: list[CallTemplate] = Field(default_factory=list)
    also: list[list[CallTemplate]] = Field(default_factory=list)
    """Other call lists that answer the request as well, with the same slots (a daily forecast for
    要带雨衣吗 beside the hourly one; the year's typhoon list, which names each landfall, for 在哪登陆的).
    Never accepted on the author's word: the build keeps one only where each tool is offered, each
    answer is non-empty and names every value the gold reads (``pccf.declared.declared``)."""
    steps: list[Step] = Field(default_factory=list)
    family: str | None = None
    """a derived pattern's source (``deepen``): it goes to the source's split"""


class ScenarioGrammar(StrictModel):
    patterns: list[Pattern] = Field(min_length=1)
    lures: list[str] = Field(default_factory=list)
    """negatives: target-plugin phrases the strengthener may add (surface similarity, no label change)"""


class PluginGrammar(StrictModel):
    slots: dict[str, SlotSpec] = Field(default_factory=dict)
    scenarios: dict[str, ScenarioGrammar]
    serves_also: list[str] = Field(default_factory=list)
    """Other plugins whose tools serve this plugin's requests too (the metro guide's route beside the
    route planner's transit route): Stage I tries them, when offered, for ``alternative_calls``."""
    modes: list[str] = Field(default_factory=list)
    """Words that name this plugin's own mode (高铁, 动车 for rail): a request that says one is this
    plugin's alone, and no ``serves_also`` plugin is tried for it (海口到东莞的车 is rail or coach;
    海口到东莞的动车 is rail)."""
    measures: dict[str, str] = Field(default_factory=dict)
    """Words that ask for a measure, with the output field that gives it (紫外线 → uv_index): where this
    plugin serves another's request (``serves_also``), only its tools whose answer carries the field
    serve a request that says the word."""

    @model_validator(mode="after")
    def _check_slots(self) -> PluginGrammar:
        for sid, sc in self.scenarios.items():
            for p in sc.patterns:
                used = {m.group("name") for m in SLOT_RE.finditer(p.text)}
                for c in p.calls:
                    used |= {
                        m.group("name")
                        for v in c.args.values()
                        if isinstance(v, str)
                        for m in SLOT_RE.finditer(v)
                    }
                unknown = sorted(used - set(self.slots))
                if unknown:
                    raise ValueError(f"scenario {sid} pattern {p.id}: undeclared slots {unknown}")
                if "[" in ALT_RE.sub("", p.text) or "]" in ALT_RE.sub("", p.text):
                    raise ValueError(f"scenario {sid} pattern {p.id}: unbalanced or nested [ ]")
            ids = [p.id for p in sc.patterns]
            if len(ids) != len(set(ids)):
                raise ValueError(f"scenario {sid}: pattern ids are not unique")
        return self


class DomainGrammar(StrictModel):
    domain: str
    plugins: dict[str, PluginGrammar]


def load_grammar_file(path: Path) -> DomainGrammar:
    try:
        raw = yaml.load(
            path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        )
    except yaml.YAMLError as e:
        raise SchemaError(str(path), [f"not valid YAML: {e}"]) from None
    return validate_or_raise(DomainGrammar, raw, str(path))


def is_stress(p: Pattern) -> bool:
    """Does the pattern belong to the ``calendar`` config: a reading ``deepen`` derived, or a slot
    said in one of the ``STRESS_FORMS``?"""
    return p.family is not None or any(m.group("form") in STRESS_FORMS for m in SLOT_RE.finditer(p.text))


def select_profile(g: PluginGrammar, profile: Profile) -> PluginGrammar | None:
    """The grammar's patterns of one profile (``default``: the requests as people make them;
    ``calendar``: the stress readings), scenarios left without a pattern dropped; None when none is
    left. A calendar pattern's source stays with it for ``patterns_by_split`` (``family``)."""
    scenarios = {}
    for sid, sc in g.scenarios.items():
        pats = [p for p in sc.patterns if is_stress(p) == (profile == "calendar")]
        if pats:
            scenarios[sid] = sc.model_copy(update={"patterns": pats})
    return g.model_copy(update={"scenarios": scenarios}) if scenarios else None


@functools.cache
def load_grammars(folder: str | None = None, profile: Profile = "default") -> dict[str, PluginGrammar]:
    """plugin id -> grammar, from every ``*.yaml`` in the grammar folder: the patterns of one profile
    (``select_profile``), the calendar profile holding every pattern's deeper readings (``deepen``)."""
    from .deepen import deepen

    out: dict[str, PluginGrammar] = {}
    seen: set[str] = set()
    for f in sorted(Path(folder or GRAMMAR_DIR).glob("*.yaml")):
        g = load_grammar_file(f)
        for pid, pg in g.plugins.items():
            if pid in seen:
                raise SchemaError(str(f), [f"plugin {pid} has grammars in two files"])
            seen.add(pid)
            chosen = select_profile(deepen(pg), profile)
            if chosen is not None:
                out[pid] = chosen
    return out


def alternatives(text: str) -> list[list[str]]:
    """The alternative groups of a pattern, in order."""
    return [m.group(1).split("|") for m in ALT_RE.finditer(text)]


def expand(text: str, choice: list[int]) -> str:
    """The text with alternative group i replaced by its choice[i]-th branch."""
    it = iter(choice)
    groups = alternatives(text)
    k = 0

    def pick(m: re.Match[str]) -> str:
        nonlocal k
        branch = groups[k][next(it) % len(groups[k])]
        k += 1
        return branch

    return ALT_RE.sub(pick, text)
