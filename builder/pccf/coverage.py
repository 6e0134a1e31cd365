"""Stage II coverage: units u = (plugin, scenario, difficulty) per split, budgets b(u), deficits,
split-disjoint patterns, and the near-duplicate and cross-split checks."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from plugineval.catalog import Catalog

from ..synth.grammar import SLOT_RE, Pattern, PluginGrammar
from .config import SplitBudget
from .records import difficulty_of_depth

Unit = tuple[str, str, str]  # (plugin, scenario, difficulty)
FORM_STEPS = {"rel": "relative_time", "md": "year_inference", "cn": "numeral", "nick": "implicit_entity"}
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


def pattern_difficulty(p: Pattern, g: PluginGrammar) -> str:
    return difficulty_of_depth(len(pattern_steps(p, g)))


def split_of_pattern(rank: int, n: int) -> str:
    """Patterns of a scenario, ranked by a stable hash, go to test or train, alternately: no pattern
    is shared between them. Validation draws on test's patterns (it is a small sample of the same
    distribution; "no masked test pattern occurs in train" is the guarantee that matters)."""
    if n == 1:
        return "test"
    return "test" if rank % 2 == 0 else "train"


def patterns_by_split(plugin: str, scenario: str, g: PluginGrammar) -> dict[str, list[Pattern]]:
    pats = g.scenarios[scenario].patterns
    ranked = sorted(pats, key=lambda p: hashlib.sha256(f"{plugin}/{scenario}/{p.id}".encode()).hexdigest())
    out: dict[str, list[Pattern]] = defaultdict(list)
    for i, p in enumerate(ranked):
        out[split_of_pattern(i, len(ranked))].append(p)
    out["validation"] = list(out["test"])
    if len(ranked) == 1:  # one pattern only: train shares it (reported as not disjoint)
        out["train"] = list(out["test"])
    return dict(out)


def _spread(total: int, keys: list[Unit]) -> dict[Unit, int]:
    if not keys:
        return {}
    base, rem = divmod(total, len(keys))
    order = sorted(keys, key=lambda u: hashlib.sha256("|".join(u).encode()).hexdigest())
    return {u: base + (1 if i < rem else 0) for i, u in enumerate(order)}


@dataclass
class Coverage:
    split: str
    budgets: dict[Unit, int]
    counts: dict[Unit, int] = field(default_factory=lambda: defaultdict(int))
    unplaceable: dict[str, int] = field(default_factory=dict)  # difficulty budget no pattern can serve

    def deficit(self, u: Unit) -> int:
        return max(0, self.budgets.get(u, 0) - self.counts[u])

    def deficits(self) -> dict[Unit, int]:
        return {u: d for u in sorted(self.budgets) if (d := self.deficit(u)) > 0}

    def total_deficit(self) -> int:
        return sum(self.deficits().values())


def plan(split: str, budget: SplitBudget, catalog: Catalog, grammars: dict[str, PluginGrammar]) -> Coverage:
    """Budgets per unit: positives spread over the trigger scenarios that have patterns of that
    difficulty in this split; negatives over the scenarios of each kind, then by difficulty share."""
    pos_units: dict[str, list[Unit]] = defaultdict(list)
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
                for d in sorted({pattern_difficulty(x, g) for x in pats}):
                    pos_units[d].append((p.id, s.id, d))
            elif pats:
                neg_units[s.kind].append((p.id, s.id))
    budgets: dict[Unit, int] = {}
    unplaceable: dict[str, int] = {}
    for d, n in budget.positives.items():
        if not pos_units.get(d):
            unplaceable[f"positive/{d}"] = n
        budgets |= _spread(n, pos_units.get(d, []))
    shares = budget.negative_difficulty
    total_share = sum(shares.values()) or 1
    for kind, n in budget.negatives.items():
        scen = neg_units.get(kind, [])
        if not scen:
            unplaceable[kind] = n
            continue
        per = _spread(n, [(pid, sid, "") for pid, sid in scen])
        for (pid, sid, _), k in per.items():
            for d in shares:
                budgets[(pid, sid, d)] = budgets.get((pid, sid, d), 0)
            # the unit's examples, split by the target difficulty mix (largest remainder)
            raw = {d: k * share / total_share for d, share in shares.items()}
            alloc = {d: int(v) for d, v in raw.items()}
            for d in sorted(raw, key=lambda d: (-(raw[d] - alloc[d]), d))[: k - sum(alloc.values())]:
                alloc[d] += 1
            for d, v in alloc.items():
                budgets[(pid, sid, d)] += v
    return Coverage(split, {u: b for u, b in budgets.items() if b > 0}, unplaceable=unplaceable)


def grams(text: str, n: int = 5) -> frozenset[str]:
    t = text.replace(" ", "")
    return frozenset(t[i : i + n] for i in range(max(1, len(t) - n + 1)))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)
