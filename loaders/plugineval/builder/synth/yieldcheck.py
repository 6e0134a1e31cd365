"""Grammar yield: what each pattern gives the builder, measured the way the builder does.

An authoring aid. For each pattern it reports the split it serves (test/validation or train — they
never share a pattern), its difficulty, how many mutually distinct masked surfaces it can produce
(two queries whose slot-masked texts have character 5-gram Jaccard >= 0.8 are near-duplicates, and
a test split may hold fewer than 5% of those), and — with ``--samples N`` — how many of N instances
pass Stage I (text-only generators agree, execution succeeds) and at which observed difficulty.
Per plugin it sums the test capacity by difficulty and the multi-call capacity: the budget of the
default config asks ~13 test positives per trigger scenario, ≥ 10% of them multi-call.

Negative scenarios (neg_A, neg_B, neg_C, underspecified) are reported too. Their difficulty is
behavioural, known only from samples: an instance that passes Stage I is calibrated as the builder
does (the reference router over K fixed-seed runs on the tools a record would offer: p_K 1.0 easy,
0.0 hard, else medium; before any strengthening). Per negative scenario it sums capacity x pass
rate for test and train, and at the end lists the negative scenarios that never calibrated easy.

    python -m plugineval.builder.synth.yieldcheck movie_tickets weather_forecast --samples 6
    python -m plugineval.builder.synth.yieldcheck --kinds neg_A,underspecified --samples 6
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

from ..pccf.coverage import (
    depth,
    grams,
    is_multi_call,
    jaccard,
    pattern_difficulty,
    pattern_steps,
    patterns_by_split,
)
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


NEGATIVE_KINDS = ("neg_A", "neg_B", "neg_C", "underspecified")
KINDS = ("trigger", *NEGATIVE_KINDS)


@dataclass
class PatternYield:
    scenario: str
    pattern: str
    split: str
    difficulty: str  # declared (trigger); "-" for a negative (behavioural: see ``observed``)
    calls: int
    capacity: int  # distinct masked surfaces, greedily, against the plugin's earlier patterns too
    kind: str = "trigger"
    samples: int = 0
    accepted: int = 0
    observed: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    example: str = ""
    differs: int = 0  # accepted positives whose gold is not equivalent to the synthesizer's intent
    differs_example: str = ""


def capacities(
    catalog: Catalog, plugin: str, g: PluginGrammar, kinds: tuple[str, ...] = KINDS
) -> list[PatternYield]:
    """Triggers first, then negatives, each scenario in catalog order (the near-duplicate rule holds
    across all of a plugin's test records, whatever their kind)."""
    out: list[PatternYield] = []
    chosen: dict[str, list[frozenset[str]]] = {"test": [], "train": []}
    p = catalog.plugin(plugin)
    ordered = [s for s in p.scenarios if s.kind == "trigger"] + [
        s for s in p.scenarios if s.kind != "trigger"
    ]
    for s in ordered:
        if s.id not in g.scenarios:
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
                if s.kind not in kinds:
                    continue
                diff = pattern_difficulty(pat, g) if s.kind == "trigger" else "-"
                out.append(PatternYield(s.id, pat.id, split, diff, len(pat.calls), cap, s.kind))
    return out


async def sample_yield(
    catalog: Catalog, plugin: str, g: PluginGrammar, rows: list[PatternYield], n: int, seed: int
) -> None:
    """Run ``n`` instances of every pattern through Stage I (offline roles), as the builder does; a
    negative that passes is calibrated by the reference router (p_K over K runs, as ``_negative``)."""
    from ..pccf.config import BuildConfig
    from ..pccf.evaluators import OBSERVABLE_STEPS
    from ..pccf.generators import make_generators
    from ..pccf.records import (
        difficulty_of_depth,
        difficulty_of_pk,
        reference_time,
    )
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
                        pat, g, plugin=plugin, scenario=row.scenario, kind=row.kind, ref=ref, rng=rng,
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
                    if row.kind != "trigger":
                        p_k = _calibrate(catalog, router, cfg, pl, scen[row.scenario], c.query, rng)
                        row.observed[difficulty_of_pk(p_k)] += 1
                        continue
                    if v.intended_differs:
                        row.differs += 1
                        row.differs_example = row.differs_example or (
                            f"{c.query} -> {[x.model_dump() for x in v.gold]}"
                        )
                    declared = pattern_steps(pat, g) | set(c.declared_steps)
                    measured = v.steps | (declared - OBSERVABLE_STEPS)
                    if is_multi_call([x.name for x in v.gold or []]):
                        measured.add("multi_call")
                    # the builder's tier: the deep steps only (a surface rewrite leaves a record easy)
                    row.observed[difficulty_of_depth(depth(measured))] += 1
    finally:
        db.close()


def _calibrate(
    catalog: Catalog, router: ReferenceRouter, cfg: Any, plugin: Any, scenario: Any, query: str, rng: Any
) -> float:
    """p_K of a verified negative, as the builder's ``_negative`` computes it (offline router)."""
    from ..pccf.records import offered_tools, record_id

    must: list[str] = []
    if scenario.kind == "neg_B" and scenario.needed_plugin and rng.random() < cfg.records.neg_b_offer_needed:
        must = catalog.plugin(scenario.needed_plugin).tool_names
    tools = offered_tools(
        catalog, plugin, rng, cfg.records.distractors_min, cfg.records.distractors_max, must
    )
    offered = [catalog.tool(t).openai_function() for t in tools]
    targets = set(plugin.tool_names)

    def correct(t: str | None) -> bool:
        return t is None if scenario.kind == "neg_A" else t not in targets

    k = cfg.router.k
    return router.p_k(query, offered, correct, k, key=record_id(query, plugin.id, scenario.kind))


def _eff(r: PatternYield, sampled: bool) -> float:
    return r.capacity * (r.accepted / r.samples if sampled and r.samples else 1.0)


def report(plugin: str, rows: list[PatternYield], sampled: bool) -> str:
    lines = [f"== {plugin}"]
    for r in rows:
        label = r.difficulty if r.kind == "trigger" else r.kind
        s = f"  {r.scenario}/{r.pattern:<18} {r.split:<5} {label:<6} calls={r.calls} cap={r.capacity:<3}"
        if sampled:
            obs = ",".join(f"{k}:{v}" for k, v in sorted(r.observed.items()))
            why = ",".join(f"{k}:{v}" for k, v in r.reasons.most_common(2))
            s += f" pass={r.accepted}/{r.samples} obs[{obs}] {why}"
            if r.differs:
                s += f" gold!=intent={r.differs}"
            if r.accepted * 2 < r.samples and r.example:
                s += f"\n      e.g. {r.example}"
            if r.differs_example:
                s += f"\n      gold!=intent e.g. {r.differs_example}"
        lines.append(s)
    test = [r for r in rows if r.split == "test" and r.kind == "trigger"]
    if test:
        by_d = Counter[str]()
        for r in test:
            by_d[r.difficulty] += round(_eff(r, sampled))
        multi = round(sum(_eff(r, sampled) for r in test if r.calls > 1))
        scen = Counter[str]()
        for r in test:
            scen[r.scenario] += round(_eff(r, sampled))
        lines.append(
            f"  test capacity{' x pass rate' if sampled else ''}: "
            + ", ".join(f"{d} {by_d[d]}" for d in ("easy", "medium", "hard"))
            + f"; multi-call {multi}; per scenario min {min(scen.values(), default=0)}"
            f" ({min(scen, key=lambda k: scen[k], default='-')})"
        )
    for sid, kind, eff, seen, rate in negative_summary(rows, sampled):
        s = f"  {kind} {sid}: capacity{' x pass rate' if sampled else ''} test {eff['test']}, train {eff['train']}"
        if sampled:
            s += f"; pass {rate}; router " + (",".join(f"{k}:{v}" for k, v in sorted(seen.items())) or "-")
        lines.append(s)
    return "\n".join(lines)


def negative_summary(
    rows: list[PatternYield], sampled: bool
) -> list[tuple[str, str, dict[str, int], Counter[str], str]]:
    """Per negative scenario: (id, kind, capacity x pass rate by split, observed difficulties, pass)."""
    out = []
    for sid in dict.fromkeys(r.scenario for r in rows if r.kind != "trigger"):
        rs = [r for r in rows if r.scenario == sid]
        eff = {sp: round(sum(_eff(r, sampled) for r in rs if r.split == sp)) for sp in ("test", "train")}
        obs: Counter[str] = Counter()
        for r in rs:
            obs.update(r.observed)
        rate = f"{sum(r.accepted for r in rs)}/{sum(r.samples for r in rs)}"
        out.append((sid, rs[0].kind, eff, obs, rate))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m plugineval.builder.synth.yieldcheck",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("plugins", nargs="*", help="plugin ids (default: all with a grammar)")
    ap.add_argument("--samples", type=int, default=0, help="instances per pattern run through Stage I")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument(
        "--kinds",
        default=",".join(KINDS),
        help=f"comma-separated scenario kinds to report (default: all of {','.join(KINDS)})",
    )
    ap.add_argument("--scenarios", default="", help="comma-separated scenario ids to report (default: all)")
    a = ap.parse_args(argv)
    kinds = tuple(k for k in a.kinds.split(",") if k)
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        print(f"unknown kind: {', '.join(bad)}", file=sys.stderr)
        return 2
    only = {x for x in a.scenarios.split(",") if x}
    catalog = load_catalog()
    grammars = load_grammars()
    plugins = a.plugins or sorted(grammars)
    unknown = [p for p in plugins if p not in grammars]
    if unknown:
        print(f"no grammar for: {', '.join(unknown)}", file=sys.stderr)
        return 2
    total = Counter[str]()
    gold_vs_intent = Counter[str]()
    never_easy: list[str] = []
    for pid in plugins:
        rows = [r for r in capacities(catalog, pid, grammars[pid], kinds) if not only or r.scenario in only]
        if not rows:
            continue
        if a.samples:
            asyncio.run(sample_yield(catalog, pid, grammars[pid], rows, a.samples, a.seed))
        print(report(pid, rows, bool(a.samples)), flush=True)
        for r in rows:
            if r.kind == "trigger":
                gold_vs_intent["accepted"] += r.accepted
                gold_vs_intent["differs"] += r.differs
            if r.split == "test" and r.kind == "trigger":
                total[r.difficulty] += r.capacity
                total["multi"] += r.capacity if r.calls > 1 else 0
        if a.samples:
            never_easy += [
                f"{pid}/{sid} ({kind}; pass {rate}; router {dict(sorted(obs.items())) or '-'})"
                for sid, kind, _, obs, rate in negative_summary(rows, True)
                if not obs.get("easy")
            ]
    if total:
        print("all test capacity (no pass rate):", dict(total))
    if a.samples and gold_vs_intent["accepted"]:
        print(
            f"accepted positives whose gold differs from the synthesizer's intent: "
            f"{gold_vs_intent['differs']}/{gold_vs_intent['accepted']}"
        )
    if a.samples and any(k != "trigger" for k in kinds):
        print(f"negative scenarios never calibrated easy ({len(never_easy)}):")
        for line in never_easy:
            print("  " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
