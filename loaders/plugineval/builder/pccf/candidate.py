"""One candidate, end to end: synthesize from its key, verify (Stage I), calibrate, assemble the record.

``process`` is a pure function of the candidate key (all randomness derives from it; tools read the
record's reference time; stateful tools get a fresh store), so the journal can replay it.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from plugineval._resources import hash_folder, package_folder
from plugineval.baselines.router import ReferenceRouter
from plugineval.catalog import Catalog
from plugineval.schema import Call, GoldAlternative, Record

from ..synth.consistency import contradiction, same_ends
from ..synth.grammar import DEEP_STEPS, Pattern, PluginGrammar
from ..synth.synthesizer import Candidate, instantiate
from .config import BuildConfig
from .coverage import Unit, is_multi_call, pattern_difficulty, pattern_steps, patterns_by_split
from .evaluators import OBSERVABLE_STEPS
from .generators import Task
from .records import (
    CANARY,
    LICENSE,
    alternatives_for,
    annotations_for,
    difficulty_of_depth,
    difficulty_of_pk,
    offered_tools,
    record_id,
    reference_time,
    rng_for,
)
from .result import CandidateResult
from .retriever import TemplateRetriever
from .said import draw_weight
from .stage1 import StageOne, Verification

# how a person mentions the target's business while asking for something else (the offline
# strengthener's surface similarity): setting it aside, never a backstory (之前问过…现在想问) or a
# parenthesis of description text — blind raters of validation read those as generated
# the packages whose code (and data files) decides a candidate's result (``fingerprint``)
FINGERPRINT_PACKAGES = (
    "plugineval.builder.pccf",
    "plugineval.builder.synth",
    "plugineval.builder.tools",
    "plugineval.baselines",
    "plugineval.normalize",
)
DIFF_RANK = {"easy": 0, "medium": 1, "hard": 2}


@dataclass
class Context:
    cfg: BuildConfig
    catalog: Catalog
    grammars: dict[str, PluginGrammar]
    stage1: StageOne
    router: ReferenceRouter
    retriever: TemplateRetriever
    dbs: dict[str, Any]
    llm: Any = None  # RoleClient when some roles are served by an LLM


def _trace_summary(v: Verification) -> list[dict[str, Any]]:
    """Per round, per generator: eligibility, score and what went wrong — enough to audit, small."""
    out = []
    for rnd in v.trace:
        props = []
        for e in rnd["proposals"]:
            d = {"generator": e["generator"], "eligible": e["eligible"], "score": e["score"]}
            for k in ("abstain", "validation_errors", "execution_errors", "S_arg", "S_out"):
                if k in e:
                    d[k] = e[k]
            props.append(d)
        out.append({"round": rnd["round"], "proposals": props})
    return out


async def process(ctx: Context, key: str, split: str, unit: Unit, prefer_multi: bool) -> CandidateResult:
    """One synthesized candidate through Stage I and calibration: the typed result the loop applies."""
    return CandidateResult.from_dict(await _process(ctx, key, split, unit, prefer_multi))


async def _process(ctx: Context, key: str, split: str, unit: Unit, prefer_multi: bool) -> dict[str, Any]:
    plugin_id, scenario_id, target = unit
    cat, cfg = ctx.catalog, ctx.cfg
    plugin = cat.plugin(plugin_id)
    scenario = next(s for s in plugin.scenarios if s.id == scenario_id)
    g = ctx.grammars[plugin_id]
    rng = rng_for(cfg.seed, key)
    pats = patterns_by_split(plugin_id, scenario_id, g).get(split, [])
    if scenario.kind == "trigger":
        pats = [p for p in pats if pattern_difficulty(p, g) == target]
        multi = [p for p in pats if len(p.calls) > 1]
        if prefer_multi and multi:
            pats = multi
    if not pats:
        return {"status": "rejected", "reason": "no_pattern"}
    pattern, cand = draft(ctx, rng, plugin_id, scenario, pats)
    db = ctx.dbs[cat.domain_of_plugin(plugin_id)]
    if cand is None:
        return {"status": "rejected", "reason": "slots_unfillable", "pattern": pattern.id}
    if ctx.llm is not None and ctx.llm.has("synthesizer"):
        cand = await _llm_query(ctx, cand, plugin, scenario)
        if cand is None:
            return {"status": "rejected", "reason": "synthesizer_dropped_values", "pattern": pattern.id}
    if contradiction(cat, cand.query, cand.reference_time, cand.intended_calls):
        return {"status": "rejected", "reason": "self_contradictory", "pattern": pattern.id}
    v = await ctx.stage1.verify(cand, plugin, scenario, db)
    base = {"pattern": pattern.id, "rounds": v.rounds}
    if not v.accepted:
        return {**base, "status": "rejected", "reason": v.reason}
    if v.gold and same_ends(cat, v.gold):
        return {**base, "status": "rejected", "reason": "gold_self_contradictory"}
    tools = offered_for(ctx, key, plugin, scenario, hard=target == "hard")
    declared = pattern_steps(pattern, g) | set(cand.declared_steps)
    info: dict[str, Any] = {"declared_steps": sorted(declared)}
    if scenario.kind == "trigger":
        other = await ctx.stage1.other_tool_readings(
            Task(cand.query, cand.reference_time, plugin, db), v.gold, tools, ctx.dbs
        )
        if other:
            gold_alts = v.alternatives or alternatives_for(cat, v.gold)
            other = [*other, *both_readings(v.gold, gold_alts, other)]
            v.alternative_calls = [*v.alternative_calls, *other]
            summary = v.evidence.setdefault("alternatives", {"tried": {}, "accepted": {}})
            summary["accepted"]["other_tool"] = len(other)
        if cand.also_calls and v.gold:
            summary = v.evidence.setdefault("alternatives", {"tried": {}, "accepted": {}})
            summary["tried"]["declared"] = len(cand.also_calls)
            refused: Counter[str] = Counter()
            held = await ctx.stage1.declared_readings(
                v.gold, cand.intended_calls, cand.also_calls, tools, cand.reference_time, refused, cand.query
            )
            if refused:
                summary.setdefault("rejected", {})["declared"] = dict(sorted(refused.items()))
            known = [a["calls"] for a in v.alternative_calls]
            held = [a for a in held if a["calls"] not in known]
            if held:
                v.alternative_calls = [*v.alternative_calls, *held]
                summary["accepted"]["declared"] = len(held)
        measured = v.steps | (declared - OBSERVABLE_STEPS)
        if is_multi_call([c.name for c in v.gold or []]):
            measured.add("multi_call")
        deep = sorted(measured & DEEP_STEPS)
        observed = difficulty_of_depth(len(deep))
        info |= {
            "measured_steps": sorted(measured),
            "relabeled": sorted(declared & OBSERVABLE_STEPS & DEEP_STEPS) != sorted(v.steps & DEEP_STEPS),
            "intended_differs": v.intended_differs,
        }
        rec = _record(
            ctx,
            cand,
            plugin_id,
            scenario,
            tools,
            split,
            v,
            observed,
            {"type": "inference_depth", "depth": len(deep), "steps": deep},
        )
        return {
            **base,
            "status": "ok",
            "observed": observed,
            "record": rec.to_row(),
            "masked": cand.masked,
            "slot_key": list(map(str, cand.slot_key())),
            **info,
        }
    # negatives: behavioural difficulty from the frozen router over K fixed-seed runs
    rec, p = await _negative(ctx, cand, plugin_id, scenario, tools, split, v)
    observed = difficulty_of_pk(p)
    strengthened = None
    if cfg.stage2.strengthen and DIFF_RANK[observed] < DIFF_RANK[target]:
        lures = g.scenarios[scenario_id].lures or _lures(plugin)
        plain = cand  # each attempt strengthens the drafted request, never an earlier attempt's
        lured = [x for x in pats if any(w in x.text for w in lures)]
        for attempt in range(2):
            if ctx.llm is not None and ctx.llm.has("strengthener"):
                rewritten = await _llm_strengthen(ctx, plain, plugin, scenario, lures, attempt)
                if rewritten is None:
                    continue
                strong, lure, drawn = rewritten, "llm", pattern
            else:
                # offline: another draft of the scenario's own patterns that says a lure word as people
                # do (经济型和高档酒店差在哪 for the hotel plugin) — a topic-switch preamble glued in front
                # (酒店先不看了，…) read as scripted to every blind rater
                if not lured:
                    break
                drawn, drafted = draft(ctx, rng, plugin_id, scenario, lured)
                said = [w for w in lures if drafted is not None and w in drafted.query]
                if drafted is None or not said or drafted.query == plain.query:
                    continue
                if contradiction(cat, drafted.query, drafted.reference_time, drafted.intended_calls):
                    continue
                strong, lure = Candidate(**{**drafted.__dict__, "lure": said[0]}), said[0]
            v2 = await ctx.stage1.verify(strong, plugin, scenario, db)
            if not v2.accepted:
                continue
            rec2, p2 = await _negative(ctx, strong, plugin_id, scenario, tools, split, v2)
            if p2 < p:
                strengthened = {"lure": lure, "attempt": attempt + 1, "p_K_before": p, "p_K_after": p2}
                rec, p, cand, observed = rec2, p2, strong, difficulty_of_pk(p2)
                base["pattern"] = drawn.id
            if DIFF_RANK[observed] >= DIFF_RANK[target]:
                break
        if strengthened is not None:
            rec = Record.model_validate(
                {**rec.model_dump(), "verification": {**rec.verification, "strengthened": strengthened}}
            )
    return {
        **base,
        "status": "ok",
        "observed": observed,
        "target": target,
        "p_K": p,
        "strengthened": strengthened is not None,
        "record": rec.to_row(),
        "masked": cand.masked,
        "slot_key": list(map(str, cand.slot_key())),
    }


def both_readings(
    gold: list[Call], gold_alts: list[GoldAlternative], other: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The gold's call and another plugin's reading at once, where each alone answers the request
    (6月26日厦门回佛山有车吗: the coach and the train, each a reading of 车; a model that searches both
    answers it too, train round Y). Only for a gold of one call and readings of one call."""
    if len(gold) != 1:
        return []
    mine = [c.model_dump() for c in gold]
    alts = [a.model_dump() for a in gold_alts]
    return [
        {"calls": [*mine, *o["calls"]], "alternatives": [*alts, *o["alternatives"]]}
        for o in other
        if len(o["calls"]) == 1
    ]


def draft(
    ctx: Context, rng: random.Random, plugin_id: str, scenario: Any, pats: list[Pattern]
) -> tuple[Pattern, Candidate | None]:
    """One synthesized draft, every draw from ``rng``: a pattern of ``pats``, a reference time, the
    slots filled from the store (None when they cannot be)."""
    cfg, cat = ctx.cfg, ctx.catalog
    pattern = rng.choices(pats, weights=[draw_weight(p, ctx.grammars[plugin_id].slots) for p in pats])[0]
    ref = reference_time(rng, cfg.records.ref_start, cfg.records.ref_end)
    cand = instantiate(
        pattern,
        ctx.grammars[plugin_id],
        plugin=plugin_id,
        scenario=scenario.id,
        kind=scenario.kind,
        ref=ref,
        rng=rng,
        catalog=cat,
        db=ctx.dbs[cat.domain_of_plugin(plugin_id)],
    )
    return pattern, cand


HARD_EXTRA_DISTRACTORS = 3


def offered_for(ctx: Context, key: str, plugin: Any, scenario: Any, hard: bool = False) -> list[str]:
    """The tools a candidate's record offers (drawn from the candidate key): the plugin's own, 3-7
    distractors (three more for a hard unit, half of them from the same domain: tools whose names
    and descriptions look alike), and for about half of the neg_B records the plugin really needed."""
    cfg = ctx.cfg
    offered_rng = rng_for(cfg.seed, key, "tools")
    must: list[str] = []
    avoid: list[str] = []
    if scenario.kind == "neg_B" and scenario.needed_plugin:
        needed = ctx.catalog.plugin(scenario.needed_plugin).tool_names
        if offered_rng.random() < cfg.records.neg_b_offer_needed:
            must = needed
        else:  # not offered means not among the distractors either
            avoid = needed
    return offered_tools(
        ctx.catalog,
        plugin,
        offered_rng,
        cfg.records.distractors_min + (HARD_EXTRA_DISTRACTORS if hard else 0),
        cfg.records.distractors_max + (HARD_EXTRA_DISTRACTORS if hard else 0),
        must,
        avoid,
    )


async def calibrate(
    ctx: Context, cand: Candidate, plugin_id: str, kind: str, offered: list[dict[str, Any]], rid: str
) -> tuple[float, str]:
    """p_K of a negative: the share of the reference router's K fixed-seed runs that decide right
    (neg_A: no call; the targeted kinds: no tool of the target plugin), and the router's description."""
    k = ctx.cfg.router.k
    targets = set(ctx.catalog.plugin(plugin_id).tool_names)
    glob = kind == "neg_A"

    def correct(t: str | None) -> bool:
        return t is None if glob else t not in targets

    if ctx.llm is not None and ctx.llm.has("router"):
        p = await _llm_p_k(ctx, cand, offered, correct, k)
        return p, ctx.llm.roles["router"].describe() + f", K={k}, seeds 0..{k - 1}, temperature 0.7"
    return ctx.router.p_k(cand.query, offered, correct, k, key=rid), ctx.router.version


def _lures(plugin: Any) -> list[str]:
    """The plugin's own name (电影票, 股票行情) where its grammar authors no lures: a word people say,
    never a cut of a description (查询某城市某天的)."""
    return [plugin.name]


def _record(
    ctx: Context,
    cand: Candidate,
    plugin_id: str,
    scenario: Any,
    tools: list[str],
    split: str,
    v: Verification,
    difficulty: str,
    basis: dict[str, Any],
) -> Record:
    cat = ctx.catalog
    kind = "positive" if scenario.kind == "trigger" else scenario.kind
    gold = v.gold if kind == "positive" else []
    aux = sorted({cp.scenario for cp, _ in ctx.retriever.matches(plugin_id, cand.query)} - {scenario.id})
    verification = {
        **v.summary(),
        "trace": _trace_summary(v),
        "pattern": cand.pattern,
        "intended_calls": [c.model_dump() for c in cand.intended_calls],
    }
    if scenario.kind == "underspecified":
        verification["missing"] = sorted(scenario.missing)
    target_tools = cat.plugin(plugin_id).tool_names
    return Record(
        id=record_id(cand.query, plugin_id, kind),
        version=ctx.cfg.version,
        language="zh",
        query=cand.query,
        reference_time=cand.reference_time,
        domain=cat.domain_of_plugin(plugin_id),
        target_plugin=plugin_id,
        target_tools=target_tools,
        kind=kind,  # type: ignore[arg-type]
        negative_scope="none" if kind == "positive" else "global" if kind == "neg_A" else "targeted",
        needs_tool=kind != "neg_A",
        target_relevant=kind in ("positive", "underspecified"),
        tools=[cat.tool(t).openai_function() for t in tools],
        tool_annotations=annotations_for(cat, tools),
        gold_calls=gold,
        gold_alternatives=(v.alternatives or alternatives_for(cat, gold)) if gold else [],
        alternative_calls=v.alternative_calls if gold else [],
        difficulty=difficulty,  # type: ignore[arg-type]
        difficulty_basis=basis,  # type: ignore[arg-type]
        primary_scenario=scenario.id,
        aux_scenarios=aux,
        source={
            "type": "synthetic",
            "origin": f"pccf/{plugin_id}/{scenario.id}/{cand.pattern}",
            "license": LICENSE,
            "canary": CANARY,
        },  # type: ignore[arg-type]
        verification=verification,
        split=split,  # type: ignore[arg-type]
    )


async def _negative(
    ctx: Context,
    cand: Candidate,
    plugin_id: str,
    scenario: Any,
    tools: list[str],
    split: str,
    v: Verification,
) -> tuple[Record, float]:
    k = ctx.cfg.router.k
    rid = record_id(cand.query, plugin_id, scenario.kind)
    offered = [ctx.catalog.tool(t).openai_function() for t in tools]
    p, router = await calibrate(ctx, cand, plugin_id, scenario.kind, offered, rid)
    basis = {"type": "behavioral", "p_K": p, "K": k}
    rec = _record(ctx, cand, plugin_id, scenario, tools, split, v, difficulty_of_pk(p), basis)
    rec = Record.model_validate({**rec.model_dump(), "verification": {**rec.verification, "router": router}})
    return rec, p


async def _llm_query(ctx: Context, cand: Candidate, plugin: Any, scenario: Any) -> Candidate | None:
    """The LLM synthesizer writes the query around the sampled slot surfaces; every surface must
    survive (else the intended call would not match the text)."""
    from .llm_roles import QueryOut, RoleError

    data = {
        "plugin": {"name": plugin.name, "description": plugin.description},
        "tools": [t.openai_function() for t in plugin.tools],
        "scenario": {"description": scenario.description, "example": scenario.example},
        "slots": {k: {"surface": s} for k, s in sorted(cand.surfaces.items())},
        "exemplar": cand.query,
    }
    try:
        out = await ctx.llm.ask("synthesizer", data, QueryOut)
    except RoleError:
        return None
    q = out.query.strip()
    if not all(s in q for s in cand.surfaces.values()):
        return None
    masked = q
    for k, s in sorted(cand.surfaces.items(), key=lambda kv: -len(kv[1])):
        masked = masked.replace(s, f"<{k}>")
    return Candidate(**{**cand.__dict__, "query": q, "masked": masked})


async def _llm_strengthen(
    ctx: Context, cand: Candidate, plugin: Any, scenario: Any, lures: list[str], attempt: int
) -> Candidate | None:
    from .llm_roles import QueryOut, RoleError

    data = {
        "query": cand.query,
        "kind": scenario.kind,
        "target_plugin": {"name": plugin.name, "description": plugin.description},
        "vocabulary": lures,
        "attempt": attempt + 1,
    }
    try:
        out = await ctx.llm.ask("strengthener", data, QueryOut)
    except RoleError:
        return None
    q = out.query.strip()
    return Candidate(**{**cand.__dict__, "query": q, "masked": q, "lure": "llm"})


async def _llm_p_k(
    ctx: Context, cand: Candidate, offered: list[dict[str, Any]], correct: Any, k: int
) -> float:
    """The LLM router over K runs with fixed seeds 0..K-1 and a fixed temperature (0.7)."""
    from .llm_roles import RoleError, RouteOut

    data = {"query": cand.query, "reference_time": cand.reference_time, "tools": offered}
    ok = 0
    for j in range(k):
        try:
            out = await ctx.llm.ask("router", data, RouteOut, seed=j, temperature=0.7)
            tool = out.tool if out.tool in {t["function"]["name"] for t in offered} else None
        except RoleError:
            tool = "__router_failed__"  # a failed run counts as a wrong decision, never as a right one
        ok += bool(correct(tool)) and tool != "__router_failed__"
    return ok / k


def fingerprint(cfg: BuildConfig, catalog: Catalog, grammars: dict[str, PluginGrammar]) -> str:
    h = hashlib.sha256(cfg.model_dump_json().encode())
    # the code and data that decide a candidate's result, read from the imported packages' own folders
    # (a checkout or an installed wheel alike): a journal from other code is never replayed
    for package in FINGERPRINT_PACKAGES:
        h.update(f"\0{package}\0".encode())
        hash_folder(h, package_folder(package))
    h.update(b"\0plugineval.builder.real\0")  # the real queries and their mapping (a data folder)
    hash_folder(h, package_folder("plugineval.builder") / "real")
    for p in catalog.plugins:
        h.update(p.model_dump_json().encode())
    for pid in sorted(grammars):
        h.update(grammars[pid].model_dump_json().encode())
    return h.hexdigest()[:16]


async def process_real(ctx: Context, key: str, split: str, rq: Any) -> CandidateResult:
    """A real query (HammerBench) through Stage I. No synthesizer meant anything here, so a positive
    needs two text-only generators that agree (or an LLM generator) before its gold is trusted."""
    return CandidateResult.from_dict(await _process_real(ctx, key, split, rq))


async def _process_real(ctx: Context, key: str, split: str, rq: Any) -> dict[str, Any]:
    cat = ctx.catalog
    plugin = cat.plugin(rq.plugin)
    scenario = next(s for s in plugin.scenarios if s.id == rq.scenario)
    would_be = [Call(name=scenario.tools[0], arguments={})] if rq.kind == "underspecified" else []
    cand = Candidate(
        rq.query, rq.plugin, rq.scenario, rq.kind, "real", rq.reference_time, would_be, [], rq.query
    )
    db = ctx.dbs.get(cat.domain_of_plugin(rq.plugin))
    v = await ctx.stage1.verify(cand, plugin, scenario, db)
    base = {"pattern": "real", "rounds": v.rounds, "origin": rq.origin}
    if not v.accepted:
        return {**base, "status": "rejected", "reason": f"real_{v.reason}"}
    if rq.kind == "trigger" and v.generator != "llm":
        agree = [
            e
            for rnd in v.trace
            for e in rnd["proposals"]
            if e["generator"] != v.generator
            and e["generator"] != "intended"
            and e.get("eligible")
            and "calls" in e
            and ctx.stage1.equivalent([Call(**c) for c in e["calls"]], v.gold, rq.reference_time)
        ]
        if not agree:
            return {**base, "status": "rejected", "reason": "real_no_second_generator_agrees"}
    tools = offered_tools(
        cat,
        plugin,
        rng_for(ctx.cfg.seed, key, "tools"),
        ctx.cfg.records.distractors_min,
        ctx.cfg.records.distractors_max,
    )
    source = {"type": "real", "origin": rq.origin, "license": rq.license, "canary": CANARY}
    if rq.kind == "trigger":
        deep = sorted(v.steps & DEEP_STEPS)
        observed = difficulty_of_depth(len(deep))
        rec = _record(
            ctx,
            cand,
            rq.plugin,
            scenario,
            tools,
            split,
            v,
            observed,
            {"type": "inference_depth", "depth": len(deep), "steps": deep},
        )
    else:
        rec, p = await _negative(ctx, cand, rq.plugin, scenario, tools, split, v)
        observed = difficulty_of_pk(p)
        base["target"] = observed
    rec = Record.model_validate({**rec.model_dump(), "source": source})
    return {
        **base,
        "status": "ok",
        "observed": observed,
        "record": rec.to_row(),
        "masked": rq.query,
        "slot_key": [rq.origin],
    }
