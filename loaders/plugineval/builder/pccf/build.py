"""The closed loop (docs/format.md §4, Stage II around Stage I): deficits drive synthesis, verified examples fill
the units of their observed difficulty, and the loop stops on budgets met, L rounds without gain, or
the synthesis budget spent."""

from __future__ import annotations

import hashlib
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from plugineval.baselines.router import ReferenceRouter
from plugineval.catalog import Catalog
from plugineval.schema import DIFFICULTIES, Record

from ..synth.grammar import PluginGrammar
from ..tools.server import ToolExecutor
from ..tools.store import Store
from .candidate import Context, fingerprint, process, process_real
from .config import BuildConfig
from .coverage import SPLIT_ORDER, Coverage, Unit, grams, jaccard, plan
from .generators import make_generators
from .journal import Journal
from .pilot import negative_supply
from .result import CandidateResult
from .retriever import TemplateRetriever
from .stage1 import StageOne


@dataclass
class SplitState:
    coverage: Coverage
    records: dict[str, Record] = field(default_factory=dict)
    masked: dict[str, list[frozenset[str]]] = field(default_factory=lambda: defaultdict(list))
    masked_strings: set[str] = field(default_factory=set)
    slot_keys: set[tuple[str, ...]] = field(default_factory=set)
    multi: int = 0
    positives: int = 0
    exhausted: set[Unit] = field(default_factory=set)
    dry: dict[Unit, int] = field(default_factory=dict)  # failed tries in a row per unit
    near_dups: int = 0
    moved_in: dict[Unit, int] = field(default_factory=dict)  # examples of budget a unit took from spent ones


@dataclass
class BuildStats:
    rounds: list[dict[str, Any]] = field(default_factory=list)
    rejections: Counter[str] = field(default_factory=Counter)
    candidates: int = 0
    verified: int = 0
    accepted: int = 0
    intended_differs: int = 0
    intended_compared: int = 0
    relabels: int = 0
    strengthened: int = 0
    strengthen_success: int = 0
    difficulty_deviation: list[int] = field(default_factory=list)
    stopped: dict[str, str] = field(default_factory=dict)
    journal_hits: int = 0
    seconds: float = 0.0
    proposals: int = 0
    mcp_calls: int = 0
    llm_calls: dict[str, int] = field(default_factory=dict)
    budget_transfers: int = 0
    reallocated: dict[str, int] = field(default_factory=dict)  # split -> budget moved off exhausted units
    real_candidates: int = 0
    real_accepted: int = 0
    real_budget_moved: int = 0  # real queries whose unit had no budget left took one of the same kind
    real_dropped: dict[str, int] = field(default_factory=dict)


RANK = {"easy": 0, "medium": 1, "hard": 2}


class Builder:
    def __init__(
        self,
        cfg: BuildConfig,
        catalog: Catalog,
        grammars: dict[str, PluginGrammar],
        work: Path,
        resume: bool = False,
        progress: bool | str = True,
        real: bool = True,
    ) -> None:
        self.cfg = cfg
        self.catalog = catalog
        self.grammars = grammars
        self.work = work
        self.resume = resume
        self.progress = progress
        self.stats = BuildStats()
        self.splits: dict[str, SplitState] = {}
        self.router = ReferenceRouter(catalog)
        self.queries: set[str] = set()
        from .real import load_real_candidates

        self.real, dropped = load_real_candidates(catalog) if real else ([], {})
        self.stats.real_dropped = dict(sorted(dropped.items()))
        self.masked_of: dict[str, str] = {}
        self.kind_of = catalog.scenario_kinds()

    async def run(self) -> dict[str, SplitState]:
        t0 = time.perf_counter()
        cfg = self.cfg
        fp = fingerprint(cfg, self.catalog, self.grammars)
        journal = Journal(self.work / "journal.sqlite", self.resume, fp)
        retriever = TemplateRetriever(self.catalog, self.grammars)
        domains = sorted({self.catalog.domain_of_plugin(p) for p in self.grammars})
        dbs = {d: Store.open([d], cfg.store_seed).readonly_connection() for d in domains}
        llm = None
        if cfg.roles:
            from .llm_roles import RoleClient

            llm = RoleClient(cfg.roles, self.work / "llm-cache.sqlite")
        try:
            async with ToolExecutor(self.catalog, cfg.store_seed) as ex:
                gens = make_generators(list(cfg.stage1.generators), self.catalog, self.router, retriever, llm)
                stage1 = StageOne(cfg.stage1, self.catalog, ex, gens, llm, retriever)
                ctx = Context(cfg, self.catalog, self.grammars, stage1, self.router, retriever, dbs, llm)
                for split in SPLIT_ORDER:
                    if split in cfg.splits:
                        await self._split(ctx, split, journal)
        finally:
            if llm is not None:
                self.stats.llm_calls = dict(llm.calls)
                await llm.aclose()
            journal.close()
            for db in dbs.values():
                db.close()
        self.stats.journal_hits = journal.hits
        self.stats.seconds = time.perf_counter() - t0
        return self.splits

    async def _split(self, ctx: Context, split: str, journal: Journal) -> None:
        cfg = self.cfg
        budget = cfg.splits[split]  # type: ignore[index]
        supply = await negative_supply(ctx, split, cfg.stage2.pilot_drafts)
        st = SplitState(plan(split, budget, self.catalog, self.grammars, supply))
        self.splits[split] = st
        bar = _bar(split, sum(st.coverage.budgets.values()), self.progress)
        await self._real(ctx, split, st, journal, bar)
        stale = 0
        for rnd in range(1, cfg.stage2.max_rounds + 1):
            deficits = st.coverage.deficits()
            if not deficits:
                self.stats.stopped[split] = "budgets met"
                break
            if all(u in st.exhausted for u in deficits):
                self.stats.stopped[split] = f"remaining {len(deficits)} units exhausted"
                break
            if self.stats.candidates >= cfg.stage2.synthesis_budget:
                self.stats.stopped[split] = "synthesis budget spent"
                break
            row: dict[str, Any] = {
                "split": split,
                "round": rnd,
                "deficit": sum(deficits.values()),
                "candidates": 0,
                "verified": 0,
                "accepted": 0,
            }
            for unit, d in deficits.items():
                if unit in st.exhausted:
                    continue
                n = math.ceil(d * cfg.stage2.oversample * self._tries_per_success(st, unit))
                tried = won = 0
                for i in range(n):
                    if st.coverage.deficit(unit) == 0 or self.stats.candidates >= cfg.stage2.synthesis_budget:
                        break
                    prefer_multi = (
                        unit[2] != ""
                        and st.positives > 0
                        and st.multi < budget.multi_call_min_share * max(st.positives, 1) * 1.2
                    )
                    key = f"{split}|{'/'.join(unit)}|r{rnd}|{i}|m{int(prefer_multi)}"
                    res = await _journaled(
                        journal, ctx, key, partial(process, ctx, key, split, unit, prefer_multi)
                    )
                    self.stats.proposals += res.proposals
                    self.stats.mcp_calls += res.mcp_calls
                    self.stats.candidates += 1
                    row["candidates"] += 1
                    tried += 1
                    if self._apply(st, split, unit, res):
                        row["accepted"] += 1
                        won += 1
                        bar.update(1)
                    if res.ok:
                        row["verified"] += 1
                # failed tries in a row, across rounds: a unit short by one gets two tries a round, and
                # three times the tries it needs per success, failed in a row, say its patterns are spent
                # (duplicates, refuted, full)
                st.dry[unit] = 0 if won else st.dry.get(unit, 0) + tried
                if st.dry[unit] >= self._dry_limit(st, unit):
                    st.exhausted.add(unit)
            if cfg.stage2.reallocate:
                self._reallocate(st, split)
            row["pass_rate"] = round(row["verified"] / row["candidates"], 4) if row["candidates"] else None
            row["covered"] = sum(st.coverage.counts.values())
            self.stats.rounds.append(row)
            stale = stale + 1 if row["accepted"] < cfg.stage2.min_gain else 0
            if stale >= cfg.stage2.rounds_without_gain:
                self.stats.stopped[split] = f"{stale} rounds without gain"
                break
            if not cfg.stage2.closed_loop:
                self.stats.stopped[split] = "single-shot (no closed loop)"
                break
        else:
            self.stats.stopped[split] = f"max rounds ({cfg.stage2.max_rounds})"
        self.stats.stopped.setdefault(split, "budgets met")
        bar.close()

    async def _real(self, ctx: Context, split: str, st: SplitState, journal: Journal, bar: Any) -> None:
        """Real queries enter Stage I before synthesis fills the remaining deficits."""
        for rq in self.real:
            h = int(hashlib.sha256(rq.origin.encode()).hexdigest(), 16) % 10
            if (
                "test" if h < 4 else "validation" if h < 5 else "train"
            ) != split or rq.plugin not in self.grammars:
                continue
            key = f"{split}|real|{rq.origin}"
            res = await _journaled(journal, ctx, key, partial(process_real, ctx, key, split, rq))
            self.stats.proposals += res.proposals
            self.stats.mcp_calls += res.mcp_calls
            self.stats.real_candidates += 1
            unit = (rq.plugin, rq.scenario, res.target or res.observed or "")
            if res.ok and res.observed is not None:
                self._room_for_real(st, (rq.plugin, rq.scenario, res.observed))
            if self._apply(st, split, unit, res):
                self.stats.real_accepted += 1
                bar.update(1)

    def _room_for_real(self, st: SplitState, unit: Unit) -> None:
        """A real query is not turned away for the shape of the plan (a small split has no budget for
        many (plugin, scenario, difficulty) units): when its unit has none left, one example of budget
        moves to it from a unit of the same kind and difficulty — its own plugin's first, else the one
        with the largest deficit — so the split's totals and its difficulty mix stay as planned."""
        if st.coverage.deficit(unit) > 0:
            return
        kind = self.kind_of[(unit[0], unit[1])]
        donors = [
            u
            for u in st.coverage.budgets
            if u[2] == unit[2] and self.kind_of[(u[0], u[1])] == kind and st.coverage.deficit(u) > 0
        ]
        if not donors:
            return
        donor = min(donors, key=lambda u: (u[0] != unit[0], -st.coverage.deficit(u), u))
        st.coverage.budgets[donor] -= 1
        st.coverage.budgets[unit] = st.coverage.budgets.get(unit, 0) + 1
        self.stats.real_budget_moved += 1

    def _tries_per_success(self, st: SplitState, unit: Unit) -> float:
        """Drafts a negative unit needs per example of its difficulty, by the pilot's rate (a scenario
        the router finds easy one time in eight needs eight drafts per easy example; at most 8). A
        trigger unit's difficulty is declared by its patterns: 1."""
        sup = st.coverage.supply.get((unit[0], unit[1]))
        if not sup or self.kind_of[(unit[0], unit[1])] == "trigger":
            return 1.0
        rate = sup.get(unit[2], 0) / max(1, sum(sup.values()))
        return min(8.0, 1.0 / max(rate, 1 / 8))

    def _dry_limit(self, st: SplitState, unit: Unit) -> int:
        """Failed tries in a row that say a unit is spent: three times the tries it needs per success
        (3 for a trigger unit, at most 24)."""
        return max(3, math.ceil(3 * self._tries_per_success(st, unit)))

    def _reallocate(self, st: SplitState, split: str) -> None:
        """The deficit of an exhausted unit moves to the live units of the same kind and difficulty in
        the split: a scenario whose patterns are spent cannot fill its share, and the split's kind and
        difficulty mix is what the budget fixes. Every plugin keeps the examples it already has.

        Positives move one example at a time to the live unit with the highest weight per example it
        has taken so far (``Coverage.weights``, the D'Hondt rule): moved budget follows the same
        preference for briefly said scenarios as the plan. Round-robin (the old rule) sent it evenly,
        so in test, where the masked near-duplicate rule spends short patterns first, most of it went
        to the scenarios with the most slots (a cleaning booking with day, hour, hours and city).
        Negatives go round-robin, the plugin's own units first. A negative kind with no live unit left
        at that difficulty takes it at another one: behavioural difficulty is only known after
        calibration, and the kind's count is the budget's; that share is counted apart."""
        kind_of = self.kind_of
        live: dict[tuple[str, str], list[Unit]] = defaultdict(list)
        for u in sorted(st.coverage.budgets, key=lambda u: hashlib.sha256("|".join(u).encode()).hexdigest()):
            if u not in st.exhausted:
                live[(kind_of[(u[0], u[1])], u[2])].append(u)
        weights = st.coverage.weights
        for u in sorted(st.exhausted):
            d = st.coverage.deficit(u)
            kind = kind_of[(u[0], u[1])]
            group = live.get((kind, u[2]), [])
            key = split
            if not group and kind != "trigger":
                group = [v for (k, _), us in sorted(live.items()) if k == kind for v in us]
                key = f"{split}, negatives at another difficulty"
            if d == 0 or not group:
                continue
            st.coverage.budgets[u] -= d
            if kind == "trigger":
                rank = {v: i for i, v in enumerate(group)}
                for _ in range(d):
                    v = max(
                        group, key=lambda v: (weights.get(v, 1.0) / (st.moved_in.get(v, 0) + 1), -rank[v])
                    )
                    st.moved_in[v] = st.moved_in.get(v, 0) + 1
                    st.coverage.budgets[v] += 1
            else:
                own = [v for v in group if v[0] == u[0]]
                order = own + [v for v in group if v[0] != u[0]]
                for i in range(d):
                    v = order[i % len(order)]
                    st.coverage.budgets[v] += 1
            self.stats.reallocated[key] = self.stats.reallocated.get(key, 0) + d

    def _transfer(self, st: SplitState, split: str, rec: Record, target: Unit) -> bool:
        """A negative whose observed difficulty unit is full may take one unit of budget from another
        difficulty of the same (plugin, scenario) while the split's share of that difficulty is not
        yet met: behavioural difficulty is only known after calibration, so the scenario's budget
        follows the examples, and the split keeps its easy/medium/hard mix. It still counts only in
        the unit of its observed difficulty."""
        if rec.kind == "positive":
            return False
        shares: dict[str, int] = {str(k): v for k, v in self.cfg.splits[split].negative_difficulty.items()}  # type: ignore[index]
        want = shares.get(target[2], 0)
        # the split's negative budget at this difficulty (not its records so far: units later in the
        # round would fill it anyway, and taking more would overshoot the difficulty mix)
        have = sum(
            b
            for u, b in st.coverage.budgets.items()
            if u[2] == target[2] and self.kind_of[(u[0], u[1])] != "trigger"
        )
        if have >= want:
            return False
        donors = [
            (st.coverage.deficit(u), u)
            for d in DIFFICULTIES
            if d != target[2] and st.coverage.deficit(u := (target[0], target[1], d)) > 0
        ]
        if not donors:
            return False
        donor = max(donors)[1]
        st.coverage.budgets[donor] -= 1
        st.coverage.budgets[target] = st.coverage.budgets.get(target, 0) + 1
        self.stats.budget_transfers += 1
        return True

    def _apply(self, st: SplitState, split: str, unit: Unit, res: CandidateResult) -> bool:
        s = self.stats
        if not res.ok or res.record is None or res.observed is None or res.masked is None:
            s.rejections[res.reason or "no_reason"] += 1
            return False
        s.verified += 1
        rec = Record.from_row(res.record)
        observed = res.observed
        if rec.kind == "positive":
            if res.intended_differs is not None:
                s.intended_compared += 1
                s.intended_differs += bool(res.intended_differs)
            if res.relabeled:
                s.relabels += 1
        else:
            s.difficulty_deviation.append(abs(RANK[res.target or observed] - RANK[observed]))
            if res.strengthened:
                s.strengthened += 1
        target_unit = (unit[0], unit[1], observed)
        if st.coverage.deficit(target_unit) == 0 and not self._transfer(st, split, rec, target_unit):
            s.rejections["unit_full_at_observed_difficulty"] += 1
            return False
        if rec.query in self.queries or any(rec.id in o.records for o in self.splits.values()):
            s.rejections["duplicate_record"] += 1
            return False
        masked = res.masked
        g = grams(masked)
        thr = self.cfg.records.near_duplicate_jaccard
        if split != "train" and any(jaccard(g, o) >= thr for o in st.masked[unit[0]]):
            # a few near-duplicates are tolerated: each pair puts two queries over the line, and the
            # split may hold fewer than 5% of queries with a near-duplicate (kept under 3.5% here)
            if 2 * (st.near_dups + 1) > 0.035 * (len(st.records) + 1):
                s.rejections["near_duplicate"] += 1
                return False
            st.near_dups += 1
        if split == "train" and "test" in self.splits:  # validation samples test's patterns on purpose
            test = self.splits["test"]
            if masked in test.masked_strings:
                s.rejections["masked_pattern_in_test"] += 1
                return False
            if len(res.slot_key) > 2 and tuple(res.slot_key) in test.slot_keys:
                s.rejections["slot_combination_in_test"] += 1
                return False
        st.coverage.counts[target_unit] += 1
        st.records[rec.id] = rec
        self.queries.add(rec.query)
        self.masked_of[rec.id] = masked
        st.masked[unit[0]].append(g)
        st.masked_strings.add(masked)
        st.slot_keys.add(tuple(res.slot_key))
        if rec.kind == "positive":
            st.positives += 1
            st.multi += len(rec.gold_calls) > 1
        s.accepted += 1
        return True


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


class _LineProgress:
    """Progress for a log, not a terminal: one line on stderr every ``every`` seconds and at the end
    (``./scripts/run`` piped or under CI shows the build moving instead of minutes of silence)."""

    def __init__(self, split: str, total: int, every: float = 15.0) -> None:
        self.split, self.total, self.every = split, total, every
        self.done = 0
        self.t0 = self.last = time.monotonic()
        self._say("started")

    def _say(self, what: str) -> None:
        el = time.monotonic() - self.t0
        share = f" ({100 * self.done / self.total:.0f} %)" if self.total else ""
        print(
            f"build {self.split}: {self.done}/{self.total} records{share}, {el:.0f} s — {what}",
            file=sys.stderr,
            flush=True,
        )

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            self._say("running")

    def close(self) -> None:
        self._say("done")


def _bar(split: str, total: int, mode: bool | str) -> Any:
    """A tqdm bar on a terminal, a line every few seconds in a log, or nothing."""
    if mode is True:
        mode = "bar"
    if mode == "lines":
        return _LineProgress(split, total)
    if mode != "bar":
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, desc=f"build {split}", unit="rec", dynamic_ncols=True)


async def _journaled(
    journal: Journal, ctx: Context, key: str, make: Callable[[], Awaitable[CandidateResult]]
) -> CandidateResult:
    """The candidate's result from the journal, or made now (with the proposals and MCP calls it
    took) and journaled: a rerun with ``--resume`` replays it."""
    row = journal.get(key)
    if row is not None:
        return CandidateResult.from_dict(row)
    p0, c0 = ctx.stage1.proposals, ctx.stage1.ex.calls
    res = await make()
    res.proposals, res.mcp_calls = ctx.stage1.proposals - p0, ctx.stage1.ex.calls - c0
    journal.put(key, res.to_dict())
    return res
