"""Grammar yield: what each trigger pattern gives the builder, measured the way the builder does.

An authoring aid. For each pattern it reports the split it serves (test/validation or train — they
never share a pattern), its difficulty, how many mutually distinct masked surfaces it can produce
(two queries whose slot-masked texts have character 5-gram Jaccard >= 0.8 are near-duplicates, and
a test split may hold fewer than 5% of those), and — with ``--samples N`` — how many of N instances
pass Stage I (text-only generators agree, execution succeeds) and at which observed difficulty.
Per plugin it sums the test capacity by difficulty and the multi-call capacity: the budget of the
default config asks ~13 test positives per trigger scenario, ≥ 10% of them multi-call.

    python -m plugineval.builder.synth.yieldcheck movie_tickets weather_forecast --samples 6
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from plugineval.baselines.router import ReferenceRouter
from plugineval.catalog import Catalog, load_catalog

from ..pccf.coverage import grams, jaccard, pattern_difficulty, pattern_steps, patterns_by_split
from .grammar import SLOT_RE, Pattern, PluginGrammar, alternatives, expand, load_grammars

THRESHOLD = 0.8


def masked_forms(p: Pattern, cap: int = 400) -> list[str]:
    """The slot-masked surfaces a pattern can produce (all of them, or ``cap`` seeded samples)."""
    alts = alternatives(p.text)
    n = 1
    for a in alts:
        n *= len(a)
    rng = random.Random(p.id)
    choices: Any = (
        itertools.product(*[range(len(a)) for a in alts])
        if n <= cap
        else ([rng.randrange(len(a)) for a in alts] for _ in range(cap))
    )
    out = {SLOT_RE.sub(lambda m: f"<{m.group('name')}>", expand(p.text, list(c))).strip() for c in choices}
    return sorted(out)


@dataclass
class PatternYield:
    scenario: str
    pattern: str
    split: str
    difficulty: str
    calls: int
    capacity: int  # distinct masked surfaces, greedily, against the plugin's earlier patterns too
    samples: int = 0
    accepted: int = 0
    observed: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    example: str = ""


def capacities(catalog: Catalog, plugin: str, g: PluginGrammar) -> list[PatternYield]:
    out: list[PatternYield] = []
    chosen: dict[str, list[frozenset[str]]] = {"test": [], "train": []}
    p = catalog.plugin(plugin)
    for s in p.scenarios:
        if s.kind != "trigger" or s.id not in g.scenarios:
            continue
        by = patterns_by_split(plugin, s.id, g)
        for split in ("test", "train"):
            for pat in by.get(split, []):
                cap = 0
                for m in masked_forms(pat):
                    gm = grams(m)
                    if all(jaccard(gm, o) < THRESHOLD for o in chosen[split]):
                        chosen[split].append(gm)
                        cap += 1
                out.append(PatternYield(s.id, pat.id, split, pattern_difficulty(pat, g), len(pat.calls), cap))
    return out


async def sample_yield(
    catalog: Catalog, plugin: str, g: PluginGrammar, rows: list[PatternYield], n: int, seed: int
) -> None:
    """Run ``n`` instances of every pattern through Stage I (offline roles), as the builder does."""
    from ..pccf.config import BuildConfig
    from ..pccf.evaluators import OBSERVABLE_STEPS
    from ..pccf.generators import make_generators
    from ..pccf.records import difficulty_of_depth, reference_time
    from ..pccf.retriever import TemplateRetriever
    from ..pccf.stage1 import StageOne
    from ..tools.server import ToolExecutor
    from ..tools.store import Store
    from .synthesizer import instantiate

    cfg = BuildConfig.load(None)
    grammars = load_grammars()
    router = ReferenceRouter(catalog)
    retriever = TemplateRetriever(catalog, grammars)
    domain = catalog.domain_of_plugin(plugin)
    db = Store.open([domain], cfg.store_seed).readonly_connection()
    pl = catalog.plugin(plugin)
    scen = {s.id: s for s in pl.scenarios}
    try:
        async with ToolExecutor(catalog, cfg.store_seed) as ex:
            gens = make_generators(list(cfg.stage1.generators), catalog, router, retriever, None)
            stage1 = StageOne(cfg.stage1, catalog, ex, gens, None, retriever)
            for row in rows:
                pat = next(p for p in g.scenarios[row.scenario].patterns if p.id == row.pattern)
                for i in range(n):
                    rng = random.Random(f"{seed}|{plugin}|{row.scenario}|{row.pattern}|{i}")
                    ref = reference_time(rng, cfg.records.ref_start, cfg.records.ref_end)
                    c = instantiate(
                        pat, g, plugin=plugin, scenario=row.scenario, kind="trigger", ref=ref, rng=rng,
                        catalog=catalog, db=db,
                    )  # fmt: skip
                    row.samples += 1
                    if c is None:
                        row.reasons["slots_unfillable"] += 1
                        continue
                    v = await stage1.verify(c, pl, scen[row.scenario], db)
                    if not v.accepted:
                        row.reasons[v.reason] += 1
                        row.example = row.example or c.query
                        continue
                    row.accepted += 1
                    declared = pattern_steps(pat, g) | set(c.declared_steps)
                    measured = v.steps | (declared - OBSERVABLE_STEPS)
                    row.observed[difficulty_of_depth(len(measured))] += 1
    finally:
        db.close()


def report(plugin: str, rows: list[PatternYield], sampled: bool) -> str:
    lines = [f"== {plugin}"]
    for r in rows:
        s = f"  {r.scenario}/{r.pattern:<18} {r.split:<5} {r.difficulty:<6} calls={r.calls} cap={r.capacity:<3}"
        if sampled:
            obs = ",".join(f"{k}:{v}" for k, v in sorted(r.observed.items()))
            why = ",".join(f"{k}:{v}" for k, v in r.reasons.most_common(2))
            s += f" pass={r.accepted}/{r.samples} obs[{obs}] {why}"
            if r.accepted * 2 < r.samples and r.example:
                s += f"\n      e.g. {r.example}"
        lines.append(s)
    test = [r for r in rows if r.split == "test"]

    def eff(r: PatternYield) -> float:
        return r.capacity * (r.accepted / r.samples if sampled and r.samples else 1.0)

    by_d = Counter[str]()
    for r in test:
        by_d[r.difficulty] += round(eff(r))
    multi = round(sum(eff(r) for r in test if r.calls > 1))
    scen = Counter[str]()
    for r in test:
        scen[r.scenario] += round(eff(r))
    lines.append(
        f"  test capacity{' x pass rate' if sampled else ''}: "
        + ", ".join(f"{d} {by_d[d]}" for d in ("easy", "medium", "hard"))
        + f"; multi-call {multi}; per scenario min {min(scen.values(), default=0)}"
        f" ({min(scen, key=lambda k: scen[k], default='-')})"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m plugineval.builder.synth.yieldcheck",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("plugins", nargs="*", help="plugin ids (default: all with a grammar)")
    ap.add_argument("--samples", type=int, default=0, help="instances per pattern run through Stage I")
    ap.add_argument("--seed", type=int, default=11)
    a = ap.parse_args(argv)
    catalog = load_catalog()
    grammars = load_grammars()
    plugins = a.plugins or sorted(grammars)
    unknown = [p for p in plugins if p not in grammars]
    if unknown:
        print(f"no grammar for: {', '.join(unknown)}", file=sys.stderr)
        return 2
    total = Counter[str]()
    for pid in plugins:
        rows = capacities(catalog, pid, grammars[pid])
        if a.samples:
            asyncio.run(sample_yield(catalog, pid, grammars[pid], rows, a.samples, a.seed))
        print(report(pid, rows, bool(a.samples)), flush=True)
        for r in rows:
            if r.split == "test":
                total[r.difficulty] += r.capacity
                total["multi"] += r.capacity if r.calls > 1 else 0
    print("all test capacity (no pass rate):", dict(total))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
