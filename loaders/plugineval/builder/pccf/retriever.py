"""The retrieval-based extractor: aligns the query with the plugin's exemplar patterns and parses each
aligned span with the normalizers. It reads only the query text (never which pattern made it, nor the
synthesizer's slot values): a span "下周三" becomes a date by resolving it against the reference time.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from plugineval.baselines.implied import implied_today
from plugineval.baselines.textscan import find_times
from plugineval.catalog import Catalog
from plugineval.normalize import canonical_place, parse_absolute, parse_number, resolve
from plugineval.normalize.calendar_expr import SURFACE_RX as CALENDAR_SURFACES

from ..synth.grammar import ALT_RE, SLOT_RE, Pattern, PluginGrammar, SlotSpec
from ..synth.slots import NICKNAMES
from ..synth.typed import SLIPS, STANDARD_FOR
from ..tools.domains._common import CITIES, FOREIGN_CITIES

_NICK_INV = {v: k for k, v in NICKNAMES.items()}
_NICK_TO_CITY = {nick: city for city, nick in NICKNAMES.items()}
del _NICK_INV


@dataclass(frozen=True)
class CompiledPattern:
    scenario: str
    kind: str
    pattern: Pattern
    regex: re.Pattern[str]
    groups: dict[str, str]  # regex group -> slot name


_N = "[0-9零一二两三四五六七八九十百千]+"
_CITY = "|".join(
    sorted(map(re.escape, [*CITIES, *FOREIGN_CITIES, *NICKNAMES.values()]), key=len, reverse=True)
)
_TYPE_RX = {
    "city": f"(?:{_CITY})市?",
    "foreign_city": f"(?:{_CITY})",
    "date": (
        rf"\d{{4}}年\d{{1,2}}月\d{{1,2}}[日号]|\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|{_N}月{_N}[日号]?"
        rf"|今天|明天|后天|大后天|{_N}天[后以之]后?|(?:这|本|下下|下)?(?:周|星期|礼拜)[一二三四五六日天]"
        # the past a request looks back on (昨天的空气, 上周三的节目, 三天前)
        rf"|昨天|前天|大前天|{_N}天前|上上?个?(?:周|星期|礼拜)[一二三四五六日天]"
        rf"|月底|下个?月{_N}[号日]"
        # calendar facts and working-day counts; the derived readings of a pattern (deepen) are
        # matched through their source's exemplar
        rf"|{CALENDAR_SURFACES}"
    ),
    "time": rf"\d{{1,2}}:\d{{2}}|(?:凌晨|早上|上午|中午|下午|晚上|傍晚)?{_N}点(?:半|{_N}分?)?",
    "int": _N,
    "person": "[\u4e00-\u9fff]{2,3}",
    "phone": "1\\d{10}",
}


def _slot_rx(spec: SlotSpec | None, catalog: Catalog | None) -> str:
    if spec is None:
        return ".+?"
    if spec.type in _TYPE_RX:
        return _TYPE_RX[spec.type]
    words: list[str] = []
    if spec.type == "choice":
        words = [c.text for c in spec.choices]
    elif spec.type == "enum" and catalog is not None and spec.tool and spec.arg:
        tool = catalog.tool(spec.tool)
        ann = tool.annotations.get(spec.arg)
        words = [*(ann.aliases if ann else {}), *[str(e) for e in tool.properties[spec.arg].get("enum", [])]]
    if words:
        return "|".join(sorted(map(re.escape, set(words)), key=len, reverse=True))
    return ".+?"


def _arg_rx(p: Pattern, slot: str, catalog: Catalog | None) -> str | None:
    """The shape of a slot the grammar gives no type (a value drawn from the store) from the tool
    argument it fills: a time, a date, a number or a city is spelled like one, so adjacent slots
    ("{date}{time}{city}{cinema}" read as "15:20苏州…") split where the values do, not at the first
    character a lazy match allows."""
    if catalog is None:
        return None
    for c in p.calls:
        for arg, v in c.args.items():
            if v != "{" + slot + "}":
                continue
            try:
                sch = catalog.tool(c.tool).properties.get(arg, {})
            except KeyError:
                return None
            if sch.get("format") in ("time", "date"):
                return _TYPE_RX[sch["format"]]
            if sch.get("type") == "integer":
                return _TYPE_RX["int"]
            if sch.get("type") == "string" and (arg == "city" or arg.endswith("_city")):
                return _TYPE_RX["city"]
            return None
    return None


def _as_typed(words: str, last: bool = False) -> str:
    """A pattern's own words as a regex that also matches them as the request was typed
    (``synth/typed.py``): the commas left out, the standard words (什么 for 啥, 怎么 for 咋), a
    question that ends in 没 asked with 吗, and the slips made in a pattern's own words (查寻, 帐,
    在来一首; a closing 嘛 only at a question's end)."""
    rx = re.escape(words).replace("，", "，?")
    for word, standard in STANDARD_FOR.items():
        rx = rx.replace(word, f"(?:{word}|{standard})")
    if last:
        rx = re.sub("没有?$", "(?:没有?|了?吗)", rx)
    for slip_rx, slip in SLIPS:
        if not slip_rx.pattern.endswith("$"):
            rx = slip_rx.sub(f"(?:\\g<0>|{slip})", rx)
        elif last:  # a closing word (吗$) slips at the request's end only, the 没 reading's 吗 too
            word = slip_rx.pattern[:-1]
            rx = re.sub(f"{word}(\\)?)$", f"(?:{word}|{slip})\\1", rx)
    return rx


def _compile(
    p: Pattern, slots: dict[str, SlotSpec] | None = None, catalog: Catalog | None = None
) -> tuple[re.Pattern[str], dict[str, str]]:
    """The pattern as a regex, each slot a named group (``groups``: group -> slot name). A slot inside
    an alternation (``[{kw}来{n:cn}款|推荐{n:cn}款{kw}]``) is a group in its branch: a slot said twice
    in two branches gets a group in each, and only the branch that matched fills its groups."""
    groups: dict[str, str] = {}

    def slot(m: re.Match[str]) -> str:
        g = f"s{len(groups)}"
        groups[g] = m.group("name")
        spec = (slots or {}).get(m.group("name"))
        rx = _slot_rx(spec, catalog)
        if rx == ".+?" and spec is not None and spec.type == "sql":
            rx = _arg_rx(p, m.group("name"), catalog) or rx
        return f"(?P<{g}>{rx})"

    def plain(text: str, last: bool = False) -> str:
        out, pos = [], 0
        for m in SLOT_RE.finditer(text):
            out += [_as_typed(text[pos : m.start()]), slot(m)]
            pos = m.end()
        return "".join(out) + _as_typed(text[pos:], last)

    out: list[str] = []
    pos = 0
    text = p.text
    for m in ALT_RE.finditer(text):
        out.append(plain(text[pos : m.start()]))
        at_end = m.end() == len(text)
        out.append("(?:" + "|".join(plain(b, at_end) for b in m.group(1).split("|")) + ")")
        pos = m.end()
    out.append(plain(text[pos:], True))
    return re.compile("^" + "".join(out) + r"[。.!！?？]*$"), groups


def _literal_len(p: Pattern) -> int:
    return len(SLOT_RE.sub("", ALT_RE.sub("", p.text)))


_YEARLESS = re.compile(r"[0-9零一二两三四五六七八九十]+月[0-9零一二两三四五六七八九十]+[日号]?")


class TemplateRetriever:
    def __init__(self, catalog: Catalog, grammars: dict[str, PluginGrammar]) -> None:
        self.catalog = catalog
        self.grammars = grammars

    @functools.cache  # noqa: B019 - one retriever per build; the cache is the compiled library
    def patterns(self, plugin: str) -> list[CompiledPattern]:
        g = self.grammars.get(plugin)
        if g is None:
            return []
        kinds = {s.id: s.kind for s in self.catalog.plugin(plugin).scenarios}
        out = []
        for sid, sg in g.scenarios.items():
            for p in sg.patterns:
                if p.family is not None:  # a deeper reading: its source's exemplar reads it
                    continue
                rx, groups = _compile(p, g.slots, self.catalog)
                out.append(CompiledPattern(sid, kinds.get(sid, "trigger"), p, rx, groups))
        out.sort(key=lambda c: -_literal_len(c.pattern))  # most specific exemplar first
        return out

    def matches(self, plugin: str, query: str) -> list[tuple[CompiledPattern, dict[str, str]]]:
        out = []
        for cp in self.patterns(plugin):
            m = cp.regex.match(query.strip())
            if m is None:
                continue
            spans: dict[str, str] = {}
            ok = True
            for g, slot in cp.groups.items():
                s = m.group(g)
                if s is None:  # a slot of an alternation branch that did not match
                    continue
                if slot in spans and spans[slot] != s:
                    ok = False
                spans[slot] = s
            if ok:
                out.append((cp, spans))
        return out

    def parse_slot(
        self, spec: SlotSpec, surface: str, ref: datetime, db: sqlite3.Connection | None, past: bool = False
    ) -> Any:
        s = surface.strip()
        t = spec.type
        if t in ("city", "foreign_city"):
            c = _NICK_TO_CITY.get(s) or canonical_place(s) or s.removesuffix("市")
            return c if c in CITIES or c in FOREIGN_CITIES else None
        if t == "date":
            v = parse_absolute(s, ref.tzinfo) if ref.tzinfo else None  # type: ignore[arg-type]
            v = v or resolve(s, ref)
            if v is None or v.kind not in ("date", "datetime"):
                return None
            day = str(v.start)[:10]
            if past and _YEARLESS.fullmatch(s) and day > ref.date().isoformat():
                day = f"{int(day[:4]) - 1}{day[4:]}"  # refinement: the past occurrence
            return day
        if t == "time":
            v = parse_absolute(s, ref.tzinfo) if ref.tzinfo else None  # type: ignore[arg-type]
            v = v or resolve(s, ref)
            if v is None or v.start is None:
                return None
            return v.start.isoformat()[11:16] if v.kind == "datetime" else str(v.start)[:5]
        if t == "int":
            n = parse_number(s)
            return int(n) if n is not None and float(n).is_integer() else None
        if t == "enum":
            tool = self.catalog.tool(spec.tool or "")
            ann = tool.annotations.get(spec.arg or "")
            if ann and s in ann.aliases:
                return ann.aliases[s]
            enum = tool.properties[spec.arg or ""].get("enum") or []
            return s if s in enum else None
        if t == "choice":
            return next((c.value for c in spec.choices if c.text == s), None)
        if t == "sql":
            if spec.sql is not None and (words := _sql_words(spec.sql)):
                return s if s in words else None  # 三环路 is a road; 三环路昨天早上8点 is none
            if db is None or spec.sql is None or ":" in spec.sql:
                return s
            rows = {str(r[0]) for r in db.execute(spec.sql).fetchall()}
            return s if s in rows else None
        return s  # person, phone: the span itself

    def fill(
        self, plugin: str, query: str, ref: datetime, db: sqlite3.Connection | None, variant: int = 0
    ) -> tuple[CompiledPattern, dict[str, Any]] | None:
        """An exemplar whose slots all parse, with the parsed slot values. Refinement rounds move on:
        variant 1 reads year-less dates as their past occurrence, variant 2 takes the next exemplar."""
        past, want = variant % 2 == 1, variant // 2
        for k, hit in enumerate(self.aligned(plugin, query, ref, db, past)):
            if k == want:
                return hit
        return None

    def aligned(
        self, plugin: str, query: str, ref: datetime, db: sqlite3.Connection | None, past: bool = False
    ) -> Iterator[tuple[CompiledPattern, dict[str, Any]]]:
        """Every exemplar whose slots all parse, most specific first, with the parsed slot values."""
        g = self.grammars[plugin]
        for cp, spans in self.matches(plugin, query):
            values: dict[str, Any] = {}
            for slot, surface in spans.items():
                v = self.parse_slot(g.slots[slot], surface, ref, db, past)
                if v is None:
                    break
                values[slot] = v
            else:
                self._implied(cp, query, ref, values)
                yield cp, values

    def _implied(self, cp: CompiledPattern, query: str, ref: datetime, values: dict[str, Any]) -> None:
        """The date slots an exemplar's call has and its text does not ("{city}空气质量", "今晚{ch}放啥"
        for a call with date: '{today}'): today where the request's own time implies it (the core's
        predicate, the one the slot parser and the label use); else the one time the request says
        (今晚, 昨晚; 这周末 for a from/to pair); a year slot, the one year said (去年); else they stay
        unfilled."""
        now = ref.isoformat()
        said = [t for t in find_times(query, now) if t.value.start is not None]
        for c in cp.pattern.calls:
            tool = self.catalog.tool(c.tool)
            free: list[tuple[str, str]] = []
            for arg, v in c.args.items():
                m = SLOT_RE.fullmatch(v) if isinstance(v, str) else None
                slot = m.group("name") if m else None
                if slot is None or slot in values or slot in cp.groups.values():
                    continue
                sch = tool.properties.get(arg, {})
                if sch.get("format") == "date":
                    free.append((arg, slot))
                elif sch.get("type") == "integer" and "year" in arg:  # 去年的台风: the year said
                    years = [t for t in said if t.value.kind == "year"]
                    if len(years) == 1:
                        values[slot] = int(str(years[0].value.start)[:4])
            if not free:
                continue
            if implied_today(
                tool.properties, tool.annotations, tool.stateful, [a for a, _ in free], query, now
            ):
                values.update({slot: ref.date().isoformat() for _, slot in free})
                continue
            if len(said) != 1:
                continue
            t = said[0].value
            if len(free) == 1 and t.kind in ("date", "datetime", "date_range", "datetime_range"):
                values[free[0][1]] = str(t.start)[:10]
            elif len(free) == 2 and t.kind == "date_range" and t.end is not None:
                values[free[0][1]], values[free[1][1]] = str(t.start)[:10], str(t.end)[:10]

    def requested_tools(
        self, plugin: str, query: str, ref: datetime, db: sqlite3.Connection | None
    ) -> set[str]:
        """The tools of the trigger exemplars the query aligns with (its slots parse, either reading
        of a year-less date): what the plugin's exemplars read the query as asking for."""
        return {
            c.tool
            for past in (False, True)
            for cp, _ in self.aligned(plugin, query, ref, db, past)
            if cp.kind == "trigger"
            for c in cp.pattern.calls
        }


def fill_args(template: Any, values: dict[str, Any]) -> Any:
    if isinstance(template, str):
        m = SLOT_RE.fullmatch(template)
        if m:
            return values.get(m.group("name"))
        return SLOT_RE.sub(lambda mm: str(values.get(mm.group("name"), "")), template)
    if isinstance(template, dict):
        return {k: fill_args(v, values) for k, v in template.items()}
    if isinstance(template, list):
        return [fill_args(v, values) for v in template]
    return template


# --- the exemplar-guided reading (a query no exemplar aligns with as a whole) -------------------
_SQL_VALUES = re.compile(
    r"WITH t\((?P<cols>[^)]*)\) AS \(VALUES (?P<rows>.*)\) SELECT (?:DISTINCT )?(?P<col>\w+) FROM t"
)
_ROW = re.compile(r"\(((?:'[^']*',?)+)\)")
_ANCHOR_LEN = 2  # literal characters on each side of a slot that the query should share


def _sql_words(sql: str) -> set[str]:
    """The values a VALUES-table slot can take (the column it selects), whatever its parameters."""
    m = _SQL_VALUES.search(sql)
    if m is None:
        return set()
    cols = [c.strip() for c in m.group("cols").split(",")]
    if m.group("col") not in cols:
        return set()
    k = cols.index(m.group("col"))
    out = set()
    for row in _ROW.finditer(m.group("rows")):
        vals = re.findall(r"'([^']*)'", row.group(1))
        if len(vals) == len(cols):
            out.add(vals[k])
    return out


def _tokens(p: Pattern) -> list[tuple[str, str]]:
    """The pattern as (kind, text) tokens: ("lit", text) | ("slot", name); alternations keep their
    first branch as literal context."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in sorted([*ALT_RE.finditer(p.text), *SLOT_RE.finditer(p.text)], key=lambda m: m.start()):
        if m.start() < pos:
            continue
        if m.start() > pos:
            out.append(("lit", p.text[pos : m.start()]))
        if m.re is ALT_RE:
            out.append(("alt", m.group(1)))
        else:
            out.append(("slot", m.group("name")))
        pos = m.end()
    if pos < len(p.text):
        out.append(("lit", p.text[pos:]))
    return out


class ExemplarReader:
    """Reads a query that no exemplar aligns with as a whole: each exemplar's slots are looked for in
    the query in the exemplar's order, by the slots' own vocabularies (the grammar's value lists,
    the catalog's enum synonyms, city names, date and time forms); the exemplar whose slots all
    occur, whose constant arguments the query states (a mode named by a synonym) and whose literal
    anchors around the slots the query shares most is the reading. It never looks at the slot
    filler's reading: a second, independent reader of the same text."""

    def __init__(self, retriever: TemplateRetriever) -> None:
        self.r = retriever

    @functools.cache  # noqa: B019 - one reader per build
    def _vocab(self, plugin: str, slot: str) -> re.Pattern[str] | None:
        spec = self.r.grammars[plugin].slots.get(slot)
        if spec is None:
            return None
        words: set[str] = set()
        if spec.type == "sql" and spec.sql:
            words = _sql_words(spec.sql)
        if words:
            return re.compile("|".join(sorted(map(re.escape, words), key=len, reverse=True)))
        rx = _slot_rx(spec, self.r.catalog)
        return None if rx == ".+?" else re.compile(rx)

    def _stated(self, tool: str, arg: str, value: Any, query: str) -> bool:
        """A constant argument of the exemplar's call that the query states (by a synonym)."""
        t = self.r.catalog.tool(tool)
        sch = t.properties.get(arg, {})
        if "enum" not in sch:
            return True
        ann = t.annotations.get(arg)
        surfaces = [a for a, c in (ann.aliases if ann else {}).items() if c == value] + [str(value)]
        for s in surfaces:
            for m in re.finditer(re.escape(s), query):
                before, after = query[max(0, m.start() - 2) : m.start()], query[m.end() : m.end() + 2]
                if not re.search(r"(少|不|别|免)$", before) and not re.match(r"(少|最少|不)", after):
                    return True
        return False

    def read(
        self, plugin: str, query: str, ref: datetime, db: sqlite3.Connection | None
    ) -> tuple[CompiledPattern, dict[str, Any]] | None:
        g = self.r.grammars.get(plugin)
        if g is None:
            return None
        best: tuple[tuple[int, int, int], CompiledPattern, dict[str, Any]] | None = None
        for cp in self.r.patterns(plugin):
            if cp.kind != "trigger" or not cp.pattern.calls:
                continue
            got = self._align(plugin, cp, query, ref, db)
            if got is None:
                continue
            values, anchors = got
            constants = [
                (c.tool, k, v)
                for c in cp.pattern.calls
                for k, v in c.args.items()
                if not (isinstance(v, str) and SLOT_RE.search(v))
            ]
            if not all(self._stated(t, k, v, query) for t, k, v in constants):
                continue
            # a constant the request states (公交 → mode transit) is read as much as a slot: the reading
            # that accounts for more of what the request says wins over a shorter exemplar's
            key = (len(values) + len(constants), anchors, -len(cp.pattern.calls))
            if best is None or key > best[0]:
                best = (key, cp, values)
        return None if best is None else (best[1], best[2])

    def _align(
        self, plugin: str, cp: CompiledPattern, query: str, ref: datetime, db: sqlite3.Connection | None
    ) -> tuple[dict[str, Any], int] | None:
        g = self.r.grammars[plugin]
        toks = _tokens(cp.pattern)
        values: dict[str, Any] = {}
        pos, anchors = 0, 0
        prev: tuple[int, int] | None = None
        for i, (kind, name) in enumerate(toks):
            if kind != "slot":
                continue
            if name in values:
                continue
            rx = self._vocab(plugin, name)
            if rx is None:
                return None
            spec = g.slots[name]
            hit = next(
                (m for m in rx.finditer(query, pos) if self.r.parse_slot(spec, m.group(0), ref, db)), None
            )
            if hit is None and prev is not None:  # a place whose name starts with the city: 广州塔
                hit = next(
                    (m for m in rx.finditer(query, prev[0]) if m.start() == prev[0] and m.end() > prev[1]),
                    None,
                )
            if hit is None:
                return None
            values[name] = self.r.parse_slot(g.slots[name], hit.group(0), ref, db)
            left = toks[i - 1][1][-_ANCHOR_LEN:] if i > 0 and toks[i - 1][0] == "lit" else ""
            right = toks[i + 1][1][:_ANCHOR_LEN] if i + 1 < len(toks) and toks[i + 1][0] == "lit" else ""
            anchors += bool(left) and query[: hit.start()].endswith(left)
            anchors += bool(right) and query[hit.end() :].startswith(right)
            pos, prev = hit.end(), (hit.start(), hit.end())
        return (values, anchors) if values else None
