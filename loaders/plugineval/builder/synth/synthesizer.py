"""The offline synthesizer: a pattern of a scenario, filled from the store, becomes a candidate query."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from plugineval.catalog import Catalog
from plugineval.schema import Call

from .grammar import SLOT_RE, Pattern, PluginGrammar, alternatives, expand
from .slots import SlotContext, SlotValue
from .typed import typed


@dataclass
class Candidate:
    """A synthesized query with what the synthesizer meant (never gold by itself)."""

    query: str
    plugin: str
    scenario: str
    kind: str
    pattern: str
    reference_time: str
    intended_calls: list[Call]
    declared_steps: list[str]
    masked: str
    slots: dict[str, Any] = field(default_factory=dict)
    lure: str | None = None
    surfaces: dict[str, str] = field(default_factory=dict)
    also_calls: list[list[Call]] = field(default_factory=list)
    """the pattern's ``also`` call lists with this candidate's values (unverified)"""

    def slot_key(self) -> tuple[Any, ...]:
        return (self.plugin, self.scenario, *sorted((k, str(v)) for k, v in self.slots.items()))


def _fill(template: Any, values: dict[str, SlotValue]) -> Any:
    if isinstance(template, str):
        m = SLOT_RE.fullmatch(template)
        if m:
            return values[m.group("name")].value
        return SLOT_RE.sub(lambda mm: str(values[mm.group("name")].value), template)
    if isinstance(template, list):
        return [_fill(t, values) for t in template]
    if isinstance(template, dict):
        return {k: _fill(v, values) for k, v in template.items()}
    return template


_PARAM_RE = re.compile(r":([a-z_][a-z0-9_]*)")


def _dependency_order(forms: dict[str, str | None], grammar: PluginGrammar) -> list[str]:
    """The slots in the order they are first used, except that a ``sql`` slot comes after the slots
    its query binds (``:city``): a place implied by the request (a famous sight, with its city only in
    the call) draws the city first."""
    order: list[str] = []

    def visit(name: str, seen: frozenset[str]) -> None:
        if name in order or name in seen:
            return
        spec = grammar.slots[name]
        for dep in _PARAM_RE.findall(spec.sql or "") if spec.type == "sql" else ():
            if dep in grammar.slots and dep in forms:
                visit(dep, seen | {name})
        order.append(name)

    for name in forms:
        visit(name, frozenset())
    return order


_ALNUM_END = re.compile(r"[A-Za-z0-9]$")
_DIGIT_START = re.compile(r"^[0-9]")


def _said(text: str, vals: dict[str, SlotValue]) -> str:
    """The request with its slots said; two values whose digits would run together (MF1511 and
    1月2日 read as MF15111月2日) are kept apart by a space, as people type them; the pattern's own
    commas are mostly left out, as people type a short request (``typed``)."""
    out: list[tuple[str, bool]] = []
    pos = 0

    def ends_alnum() -> bool:
        return bool(_ALNUM_END.search("".join(t for t, _ in out)))

    for m in SLOT_RE.finditer(text):
        out.append((text[pos : m.start()], True))
        surface = vals[m.group("name")].surface
        if ends_alnum() and _DIGIT_START.match(surface):
            out.append((" ", True))
        out.append((surface, False))
        pos = m.end()
    rest = text[pos:]
    if pos > 0 and ends_alnum() and _DIGIT_START.match(rest):
        out.append((" ", True))
    out.append((rest, True))
    return typed(out).strip()


FILL_ATTEMPTS = 4

#: how much likelier a pattern's shorter wording is: each character a branch of an alternative
#: ``[想买个|准备入手|]`` says beyond another multiplies its weight by this. People say a request in the
#: fewest words that carry it (a median of 8 characters in real requests to a voice assistant), and
#: blind raters score ours lower the longer they run (3.9 under eight characters, 3.0 for twelve to
#: fifteen, 2.4 from twenty, docs/probes.md); a slot inside a branch counts as one character
SHORTER_BRANCH = 0.8


def branch_weights(group: list[str]) -> list[float]:
    """The draw weight of each branch of one alternative group: ``SHORTER_BRANCH`` per character, a
    slot counting as one. ``branch_choice`` draws by it and ``pccf.said.literal_length`` weighs by it."""
    return [SHORTER_BRANCH ** len(SLOT_RE.sub("值", b)) for b in group]


def branch_choice(text: str, rng: random.Random) -> list[int]:
    """A branch of each alternative group of ``text``, the shorter ones drawn more often
    (``SHORTER_BRANCH``)."""
    return [rng.choices(range(len(g)), weights=branch_weights(g))[0] for g in alternatives(text)]


def instantiate(
    pattern: Pattern,
    grammar: PluginGrammar,
    *,
    plugin: str,
    scenario: str,
    kind: str,
    ref: datetime,
    rng: random.Random,
    catalog: Catalog,
    db: Any = None,
) -> Candidate | None:
    """Fill one pattern; None when the store has no values that satisfy its slots (in
    ``FILL_ATTEMPTS`` draws: a slot bound to an earlier one — a working day's ``，`` after a drawn
    date — may hold for another draw of it)."""
    forms: dict[str, str | None] = {}
    for m in SLOT_RE.finditer(pattern.text):
        forms.setdefault(m.group("name"), m.group("form"))
    for c in [*pattern.calls, *(c for calls in pattern.also for c in calls)]:
        for v in c.args.values():
            for m in SLOT_RE.finditer(v) if isinstance(v, str) else ():
                forms.setdefault(m.group("name"), None)
    order = _dependency_order(forms, grammar)
    for _ in range(FILL_ATTEMPTS):
        ctx = SlotContext(rng, ref, catalog, db)
        for name in order:
            v = ctx.sample(name, grammar.slots[name], forms[name])
            if v is None:
                break
            ctx.chosen[name] = v
        else:
            break
    else:
        return None
    vals = ctx.chosen
    used_in_text = {m.group("name") for m in SLOT_RE.finditer(pattern.text)}
    choice = branch_choice(pattern.text, rng)
    text = expand(pattern.text, choice)
    query = _said(text, vals)
    masked = SLOT_RE.sub(lambda m: f"<{m.group('name')}>", text).strip()
    steps: set[str] = set(pattern.steps)
    for name in SLOT_RE.findall(pattern.text):
        steps |= set(vals[name[0] if isinstance(name, tuple) else name].steps)
    calls = [Call(name=c.tool, arguments=_fill(c.args, vals)) for c in pattern.calls]
    also = [[Call(name=c.tool, arguments=_fill(c.args, vals)) for c in cs] for cs in pattern.also]
    return Candidate(
        query=query,
        plugin=plugin,
        scenario=scenario,
        kind=kind,
        pattern=pattern.id,
        reference_time=ref.isoformat(),
        intended_calls=calls,
        also_calls=also,
        declared_steps=sorted(steps),
        masked=masked,
        slots={k: v.value for k, v in vals.items()},
        surfaces={k: v.surface for k, v in vals.items() if k in used_in_text},
    )
