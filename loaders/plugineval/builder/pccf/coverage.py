"""Stage II coverage: units u = (plugin, scenario, difficulty) per split, budgets b(u), deficits,
split-disjoint patterns, and the near-duplicate and cross-split checks."""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass, field

from plugineval.catalog import Catalog

from ..synth.grammar import DEEP_STEPS, SLOT_RE, Pattern, PluginGrammar
from .config import SplitBudget
from .records import difficulty_of_depth
from .said import unit_weight

Unit = tuple[str, str, str]  # (plugin, scenario, difficulty)
FORM_STEPS = {
    "rel": "relative_time",
    "md": "year_inference",
    "cn": "numeral",
    "nick": "implicit_entity",
    "cal": "calendar_fact",
    "far": "calendar_fact",
    "work": "date_arithmetic",
    "tz": "timezone_conversion",
    "dur": "date_arithmetic",
}
SPLIT_ORDER = ("test", "validation", "train")


def pattern_steps(p: Pattern, g: PluginGrammar) -> set[str]:
    """The steps a pattern declares: its own list plus those its slot forms imply."""
    steps: set[str] = set(p.steps)
    for m in SLOT_RE.finditer(p.text):
        form = m.group("form")
        if form == "cn" and g.slots[m.group("name")].type == "time":
            steps.add("time_format")
        elif form in FORM_STEPS:
            steps.add(FORM_STEPS[form])
    return steps


def depth(steps: set[str] | list[str]) -> int:
    """A positive's inference depth: its inference steps (a relative time, an implied intent, a unit,
    an implicit entity…; surface rewrites such as 3月20号 or 下午三点 leave a record easy;
    docs/format.md §2.4)."""
    return len(set(steps) & DEEP_STEPS)


def is_multi_call(tools: list[str]) -> bool:
    """Three or more calls of two or more tools, each grounded on its own: a ``multi_call`` step."""
    return len(tools) >= 3 and len(set(tools)) >= 2


def pattern_difficulty(p: Pattern, g: PluginGrammar) -> str:
    steps = pattern_steps(p, g)
    if is_multi_call([c.tool for c in p.calls]):
        steps.add("multi_call")
    return difficulty_of_depth(depth(steps))


def split_of_pattern(rank: int, n: int) -> str:
    """Patterns of a scenario, ranked by a stable hash, go to test or train, alternately: no pattern
    is shared between them. Validation draws on test's patterns (it is a small sample of the same
    distribution; "no masked test pattern occurs in train" is the guarantee that matters)."""
    if n == 1:
        return "test"
    return "test" if rank % 2 == 0 else "train"


def patterns_by_split(plugin: str, scenario: str, g: PluginGrammar) -> dict[str, list[Pattern]]:
    pats = g.scenarios[scenario].patterns
    # a family is a source pattern with the readings ``deepen`` derived from it; in the calendar
    # profile the source itself may be absent (it is a default pattern), its readings still go together
    sources = sorted({p.family or p.id for p in pats})
    # multi-call sources alternate among themselves, so that test and train each get their share of
    # the few pair patterns (北京和上海明天天气) whatever the hash order of the single-call ones; a
    # scenario's hash decides which of the two takes its odd one
    multi = {p.family or p.id for p in pats if len(p.calls) > 1}
    first = hashlib.sha256(f"{plugin}/{scenario}/multi".encode()).digest()[0] % 2
    out: dict[str, list[Pattern]] = defaultdict(list)
    split_of: dict[str, str] = {}
    for start, group in (
        (0, [s for s in sources if s not in multi]),
        (first, [s for s in sources if s in multi]),
    ):
        ranked = sorted(group, key=lambda i: hashlib.sha256(f"{plugin}/{scenario}/{i}".encode()).hexdigest())
        for i, pid in enumerate(ranked):
            split_of[pid] = split_of_pattern(start + i, len(sources))
    for p in pats:  # authored order, each derived reading in its source's split
        out[split_of[p.family or p.id]].append(p)
    out["validation"] = list(out["test"])
    if len(sources) == 1:  # one pattern only: train shares it (reported as not disjoint)
        out["train"] = list(out["test"])
    return dict(out)


def _spread(total: int, keys: list[Unit]) -> dict[Unit, int]:
    if not keys:
        return {}
    base, rem = divmod(total, len(keys))
    order = sorted(keys, key=lambda u: hashlib.sha256("|".join(u).encode()).hexdigest())
    return {u: base + (1 if i < rem else 0) for i, u in enumerate(order)}


#: a unit whose patterns' expected weight is below this (they pack a calendar date beside two values,
#: or four values and more: 徐州7月29日洗车指数 for an easy day-specific index, where people say 明天)
#: is not owed a record of its own in a split: it takes its proportional share only
FLOOR_WEIGHT = 0.2


def _spread_weighted(
    total: int, keys: list[Unit], weights: dict[Unit, float], floored: set[Unit] | None = None
) -> dict[Unit, int]:
    """``total`` over ``keys`` in proportion to their weights (largest remainder, ties by the same
    hash order as ``_spread``), each unit of ``floored`` (all, when not given) at least one: a tier's
    records go more to the scenarios people say briefly, never to none of a scenario people say that
    way. A tier smaller than its floored units (validation's) is spread by weight alone."""
    if not keys:
        return {}
    floor = [u for u in keys if floored is None or u in floored]
    if total < len(floor):  # a small split (validation): by weight alone, not one each by hash order
        floor = []
    order = sorted(keys, key=lambda u: hashlib.sha256("|".join(u).encode()).hexdigest())
    w = {u: max(weights.get(u, 1.0), 1e-6) for u in order}
    rest = total - len(floor)
    scale = rest / sum(w.values())
    raw = {u: w[u] * scale for u in order}
    out = {u: (u in floor) + int(raw[u]) for u in order}
    left = total - sum(out.values())
    for u in sorted(order, key=lambda u: -(raw[u] - int(raw[u])))[:left]:
        out[u] += 1
    return {u: n for u, n in out.items() if n > 0}


def _floored(units: list[Unit], weights: dict[Unit, float], plugins_only: bool = False) -> set[Unit]:
    """The units owed one record each: those people say that way (``FLOOR_WEIGHT``; none with
    ``plugins_only``, for a split too small to hold one of each), and for a plugin with none such its
    heaviest unit, so every plugin keeps a positive."""
    out = set() if plugins_only else {u for u in units if weights.get(u, 1.0) >= FLOOR_WEIGHT}
    by_plugin: dict[str, list[Unit]] = defaultdict(list)
    for u in units:
        by_plugin[u[0]].append(u)
    for us in by_plugin.values():
        if not out.intersection(us):
            out.add(max(sorted(us), key=lambda u: weights.get(u, 1.0)))
    return out


@dataclass
class Coverage:
    split: str
    budgets: dict[Unit, int]
    counts: dict[Unit, int] = field(default_factory=lambda: defaultdict(int))
    unplaceable: dict[str, int] = field(default_factory=dict)  # difficulty budget no pattern can serve
    supply: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)  # pilot calibration
    planned: dict[Unit, int] = field(default_factory=dict)  # the budgets as planned, before any move
    # a trigger unit's ``unit_weight``: how briefly people say its patterns (moved budget follows it)
    weights: dict[Unit, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.planned:
            self.planned = dict(self.budgets)

    def deficit(self, u: Unit) -> int:
        return max(0, self.budgets.get(u, 0) - self.counts[u])

    def deficits(self) -> dict[Unit, int]:
        return {u: d for u in sorted(self.budgets) if (d := self.deficit(u)) > 0}

    def total_deficit(self) -> int:
        return sum(self.deficits().values())


def plan(
    split: str,
    budget: SplitBudget,
    catalog: Catalog,
    grammars: dict[str, PluginGrammar],
    supply: dict[tuple[str, str], dict[str, int]] | None = None,
) -> Coverage:
    """Budgets per unit: positives spread over the trigger scenarios that have patterns of that
    difficulty in this split; negatives over the scenarios of each kind, then over difficulties —
    by the pilot calibration's supply when there is one (see ``fit_negative_mix``), else by the
    split's difficulty shares in every scenario."""
    pos_units: dict[str, list[Unit]] = defaultdict(list)
    weights: dict[Unit, float] = {}
    neg_units: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for p in catalog.plugins:
        g = grammars.get(p.id)
        if g is None:
            continue
        for s in p.scenarios:
            if s.id not in g.scenarios:
                continue
            pats = patterns_by_split(p.id, s.id, g).get(split, [])
            if s.kind == "trigger":
                by_difficulty: dict[str, list[Pattern]] = defaultdict(list)
                for x in pats:
                    by_difficulty[pattern_difficulty(x, g)].append(x)
                for d in sorted(by_difficulty):
                    pos_units[d].append((p.id, s.id, d))
                    weights[(p.id, s.id, d)] = unit_weight(by_difficulty[d], g.slots)
            elif pats:
                neg_units[s.kind].append((p.id, s.id))
    budgets: dict[Unit, int] = {}
    unplaceable: dict[str, int] = {}
    every = [u for us in pos_units.values() for u in us]
    floored = _floored(every, weights)
    if any(n < len(floored.intersection(pos_units.get(d, []))) for d, n in budget.positives.items()):
        floored = _floored(every, weights, plugins_only=True)  # validation: one per plugin, then weight
    for d, n in budget.positives.items():
        if not pos_units.get(d):
            unplaceable[f"positive/{d}"] = n
        budgets |= _spread_weighted(n, pos_units.get(d, []), weights, floored)
    shares = {str(d): v for d, v in budget.negative_difficulty.items()}
    per_scenario: dict[tuple[str, str], int] = {}
    for kind, n in budget.negatives.items():
        scen = neg_units.get(kind, [])
        if not scen:
            unplaceable[kind] = n
            continue
        per = _spread(n, [(pid, sid, "") for pid, sid in scen])
        per_scenario |= {(pid, sid): k for (pid, sid, _), k in per.items() if k > 0}
    if supply and per_scenario and shares:  # a positives-only budget (the calendar config) has none
        mix = fit_negative_mix(per_scenario, catalog.scenario_kinds(), supply, shares)
    else:
        mix = {
            s: _largest_remainder(k, {d: float(v) for d, v in shares.items()})
            for s, k in per_scenario.items()
        }
    for (pid, sid), alloc in mix.items():
        for d, v in alloc.items():
            budgets[(pid, sid, d)] = budgets.get((pid, sid, d), 0) + v
    return Coverage(
        split,
        {u: b for u, b in budgets.items() if b > 0},
        unplaceable=unplaceable,
        supply=dict(supply or {}),
        weights=weights,
    )


def _largest_remainder(k: int, weights: dict[str, float]) -> dict[str, int]:
    total = sum(weights.values()) or 1.0
    raw = {d: k * w / total for d, w in weights.items()}
    alloc = {d: int(v) for d, v in raw.items()}
    for d in sorted(raw, key=lambda d: (-(raw[d] - alloc[d]), d))[: k - sum(alloc.values())]:
        alloc[d] += 1
    return alloc


def fit_negative_mix(
    counts: dict[tuple[str, str], int],
    kinds: dict[tuple[str, str], str],
    supply: dict[tuple[str, str], dict[str, int]],
    shares: dict[str, int],
    tilt: float = 4.0,
    iterations: int = 200,
) -> dict[tuple[str, str], dict[str, int]]:
    """The negatives' budget over (scenario, difficulty) so that each kind keeps its count and the
    split's totals follow the difficulty shares, as far as the scenarios can supply them.

    Behavioural difficulty is only known after calibration, and scenarios differ widely (a chit-chat
    question rarely lures the router; a boundary violation almost always does). The pilot gives, per
    scenario, how many drafts the router found easy, medium and hard (a scenario without drafts
    counts as the shares); a kind's supply of difficulty d is the sum of its scenarios' counts times
    their rates. One factor per difficulty, common to all kinds, tilts every kind's supply toward the
    split's targets; the factors are fit by proportional updates and bounded so that no difficulty is
    favoured over another by more than ``tilt`` (synthesis pays about 1/rate candidates per example
    of a cell: a difficulty the scenarios rarely give is asked for only so far, and one they never
    gave is not asked for). A kind's cell then goes to its scenarios in proportion to their supply of
    it. Every scenario keeps at least one example, in the difficulty it supplies best."""
    rows = sorted(s for s, k in counts.items() if k > 0)
    diffs = sorted(shares)
    total_share = sum(shares.values()) or 1
    rate: dict[tuple[str, str], dict[str, float]] = {}
    for s in rows:
        sup = supply.get(s, {})
        drafts = sum(sup.get(d, 0) for d in diffs)
        rate[s] = {d: (sup.get(d, 0) / drafts if drafts else shares[d] / total_share) for d in diffs}
    kind_list = sorted({kinds[s] for s in rows})
    kind_n = {k: sum(counts[s] for s in rows if kinds[s] == k) for k in kind_list}
    n = sum(kind_n.values())
    col_target = {d: n * shares[d] / total_share for d in diffs}
    base = {
        k: {d: sum(counts[s] * rate[s][d] for s in rows if kinds[s] == k) for d in diffs} for k in kind_list
    }
    lo, hi = tilt**-0.5, tilt**0.5
    f = dict.fromkeys(diffs, 1.0)

    def fitted() -> dict[str, dict[str, float]]:
        out = {}
        for k in kind_list:
            row = {d: base[k][d] * f[d] for d in diffs}
            tot = sum(row.values()) or 1.0
            out[k] = {d: x * kind_n[k] / tot for d, x in row.items()}
        return out

    for _ in range(iterations):
        m = fitted()
        for d in diffs:
            have = sum(m[k][d] for k in kind_list)
            if have > 0:
                f[d] *= col_target[d] / have
        g = math.exp(sum(math.log(x) for x in f.values()) / len(f))  # scale-free: centre, then bound
        f = {d: min(hi, max(lo, x / g)) for d, x in f.items()}
    m = fitted()
    cells = {k: _largest_remainder(kind_n[k], m[k]) for k in kind_list}
    out: dict[tuple[str, str], dict[str, int]] = {s: dict.fromkeys(diffs, 0) for s in rows}
    for k in kind_list:
        members = [s for s in rows if kinds[s] == k]
        for d in diffs:
            share = _largest_remainder(cells[k][d], {"|".join(s): counts[s] * rate[s][d] for s in members})
            for s in members:
                out[s][d] += share["|".join(s)]
        for s in members:  # every scenario stays represented
            if sum(out[s].values()) == 0:
                best = max(diffs, key=lambda d: (rate[s][d], d))
                donors = [o for o in members if sum(out[o].values()) > 1]
                if not donors:  # the kind's count is the budget: nobody can spare one
                    continue
                donor = max(donors, key=lambda o: (out[o][best] > 0, sum(out[o].values()), o))
                out[donor][  # from the same difficulty when it can
                    max(diffs, key=lambda d: (d == best and out[donor][d] > 0, out[donor][d]))
                ] -= 1
                out[s][best] += 1
    return out


def grams(text: str, n: int = 5) -> frozenset[str]:
    t = text.replace(" ", "")
    return frozenset(t[i : i + n] for i in range(max(1, len(t) - n + 1)))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)
