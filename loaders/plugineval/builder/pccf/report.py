"""The build report (docs/format.md §4): candidates, verified, pass rates, coverage per unit, difficulty deviation,
rejection reasons, intended-vs-accepted disagreements, depth relabels, near-duplicate rates, roles.
Everything in it is deterministic (no timings: those go to the work folder)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from plugineval.baselines.router import ReferenceRouter
from plugineval.catalog import Catalog
from plugineval.schema import Record

from .build import BuildStats, SplitState
from .config import BuildConfig
from .coverage import grams
from .llm_roles import describe_roles

ROLES_OFFLINE = {
    "synthesizer": "offline: Chinese grammars per scenario (builder/grammars), slots filled from the tools' store",
    "generators": "offline: slot_parser (normalizers, text only), template_retriever (exemplar alignment, text only), intended (cross-check only)",
    "argument_evaluator": "offline: grounding of every argument in the query (literal, synonym, place alias, resolved time, parsed number)",
    "result_evaluator": "offline: MCP response without error, not empty, speaking of the requested entities and dates",
    "reference_router": "",
    "negative_strengthener": "offline: target-plugin lure phrases from the grammars, re-verified and re-calibrated",
}


def near_duplicate_share(texts: list[str], others: list[str] | None = None, thr: float = 0.8) -> float | None:
    """Share of ``texts`` with a near-duplicate (5-gram Jaccard ≥ thr) among the others (or each other)."""
    if not texts:
        return None
    pool = others if others is not None else texts
    gs = [grams(t) for t in pool]
    index: dict[str, list[int]] = defaultdict(list)
    for i, g in enumerate(gs):
        for x in g:
            index[x].append(i)
    hit = 0
    for j, t in enumerate(texts):
        a = grams(t)
        shared: Counter[int] = Counter()
        for x in a:
            shared.update(index.get(x, ()))
        for i, n in shared.items():
            if others is None and i == j:
                continue
            if n / (len(a) + len(gs[i]) - n) >= thr:
                hit += 1
                break
    return round(hit / len(texts), 4)


def _slot_masked(records: Iterable[Record], masked_of: dict[str, str]) -> list[str]:
    return [masked_of.get(r.id, r.query) for r in records]


def build_report(
    cfg: BuildConfig,
    stats: BuildStats,
    splits: dict[str, SplitState],
    router: ReferenceRouter,
    ablation: str | None,
    masked_of: dict[str, str],
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "version": cfg.version,
        "seed": cfg.seed,
        "ablation": ablation,
        "roles": describe_roles(
            cfg.roles,
            {
                **ROLES_OFFLINE,
                "reference_router": f"offline: frozen {router.version}, K={cfg.router.k} fixed-seed runs",
            },
        ),
        "parameters": {
            "M": len(cfg.stage1.generators),
            "generators": list(cfg.stage1.generators),
            "R_max": cfg.stage1.max_rounds,
            "tau": cfg.stage1.tau,
            "lambda_arg": cfg.stage1.lambda_arg,
            "lambda_out": cfg.stage1.lambda_out,
            "K": cfg.router.k,
            "L": cfg.stage2.rounds_without_gain,
            "synthesis_budget": cfg.stage2.synthesis_budget,
        },
        "totals": {
            "candidates": stats.candidates,
            "verified": stats.verified,
            "accepted": stats.accepted,
            "pass_rate": round(stats.verified / stats.candidates, 4) if stats.candidates else None,
            "proposals": stats.proposals,
            "mcp_calls": stats.mcp_calls,
        },
        "rounds": stats.rounds,
        "rejections": dict(sorted(stats.rejections.items())),
        "intended_vs_accepted": {
            "compared": stats.intended_compared,
            "differs": stats.intended_differs,
            "rate": round(stats.intended_differs / stats.intended_compared, 4)
            if stats.intended_compared
            else None,
            "what_happened": "the accepted gold (a text-only generator's proposal) is kept; the intended call is stored in verification.intended_calls",
        },
        "depth_relabels": stats.relabels,
        "difficulty_deviation": {
            "negatives_mean_abs": round(sum(stats.difficulty_deviation) / len(stats.difficulty_deviation), 4)
            if stats.difficulty_deviation
            else None,
            "n": len(stats.difficulty_deviation),
            "scale": "easy/medium/hard = 0/1/2; target = the unit's difficulty at synthesis, calibrated = the router's p_K",
        },
        "strengthened_negatives": stats.strengthened,
        "negative_budget_transfers": stats.budget_transfers,
        "reallocated_from_exhausted_units": dict(sorted(stats.reallocated.items())),
        "real_queries": {
            "source": "HammerBench zh single-turn (Apache-2.0), builder/real/",
            "entered_stage_I": stats.real_candidates,
            "accepted": stats.real_accepted,
            "budget_moved_to_real": stats.real_budget_moved,
            "dropped_before_stage_I": stats.real_dropped,
        },
        "stopped": stats.stopped,
        "splits": {},
    }
    for name, st in splits.items():
        recs = sorted(st.records.values(), key=lambda r: r.id)
        by = Counter((r.kind, r.difficulty) for r in recs)
        pos = [r for r in recs if r.kind == "positive"]
        masked = _slot_masked(recs, masked_of)
        info: dict[str, Any] = {
            "records": len(recs),
            "budget": sum(st.coverage.budgets.values()),
            "unplaceable_budget": st.coverage.unplaceable,
            "by_kind_difficulty": {f"{k}/{d}": n for (k, d), n in sorted(by.items())},
            "multi_call_share": round(sum(len(r.gold_calls) > 1 for r in pos) / len(pos), 4) if pos else None,
            "plugins": len({r.target_plugin for r in recs}),
            "plugin_negative_kinds": len({(r.target_plugin, r.kind) for r in recs if r.kind != "positive"}),
            "neg_b_needed_offered_share": _needed_offered_share(recs, router.catalog),
            "alternatives": alternatives_summary(pos),
            "coverage": [
                {"unit": "/".join(u), "budget": b, "verified": st.coverage.counts.get(u, 0)}
                for u, b in sorted(st.coverage.budgets.items())
            ],
            "unmet_units": sum(1 for u, b in st.coverage.budgets.items() if st.coverage.counts.get(u, 0) < b),
            "exhausted_units": sorted("/".join(u) for u in st.exhausted),
        }
        if st.coverage.supply:
            info["negative_pilot"] = _pilot_summary(st, router.catalog)
        if name == "test":
            info["near_duplicate_share_raw"] = near_duplicate_share(
                [r.query for r in recs], thr=cfg.records.near_duplicate_jaccard
            )
            info["near_duplicate_share_masked"] = near_duplicate_share(
                masked, thr=cfg.records.near_duplicate_jaccard
            )
        out["splits"][name] = info
    if "test" in splits and "train" in splits:
        test = sorted(splits["test"].records.values(), key=lambda r: r.id)
        train = sorted(splits["train"].records.values(), key=lambda r: r.id)
        thr = cfg.records.near_duplicate_jaccard
        out["cross_split"] = {
            "test_with_train_near_duplicate_raw": near_duplicate_share(
                [r.query for r in test], [r.query for r in train], thr
            ),
            "test_with_train_near_duplicate_masked": near_duplicate_share(
                _slot_masked(test, masked_of), _slot_masked(train, masked_of), thr
            ),
            "masked_patterns_shared": len(
                set(_slot_masked(test, masked_of)) & set(_slot_masked(train, masked_of))
            ),
        }
    return out


def alternatives_summary(positives: list[Record]) -> dict[str, Any]:
    """Accepted alternatives by kind (docs/format.md §4): entries found by execution (``extra``, ``values``,
    ``omittable`` beyond the schema defaults, ``alternative_calls`` lists), the records holding any,
    the variants tried and accepted per source (entailed, wording, proposal), and what the grounding
    gate refused per source and reason (``variants_rejected``: a value not said by the request, the
    user's words that name no field content, answers that list nothing, an argument the tool ignores,
    a variant that drops part of the request)."""
    rejected: dict[str, Counter[str]] = {}
    entries: Counter[str] = Counter()
    tried: Counter[str] = Counter()
    accepted: Counter[str] = Counter()
    with_any = 0
    for r in positives:
        n = len(r.alternative_calls)
        entries["alternative_calls"] += n
        for a in r.gold_alternatives:
            entries["extra"] += sum(len(v) for v in a.extra.values())
            entries["values"] += sum(len(v) for v in a.values.values())
            n += sum(len(v) for v in a.extra.values()) + sum(len(v) for v in a.values.values())
        with_any += n > 0
        ev = (r.verification.get("evidence") or {}).get("alternatives") or {}
        tried.update(ev.get("tried") or {})
        accepted.update(ev.get("accepted") or {})
        for source, reasons in (ev.get("rejected") or {}).items():
            rejected.setdefault(source, Counter()).update(reasons)
    return {
        "positives": len(positives),
        "positives_with_alternatives": with_any,
        "entries": dict(sorted(entries.items())),
        "variants_tried": dict(sorted(tried.items())),
        "variants_accepted": dict(sorted(accepted.items())),
        "variants_rejected": {s: dict(sorted(c.items())) for s, c in sorted(rejected.items())},
    }


def _needed_offered_share(recs: list[Record], catalog: Catalog) -> float | None:
    """Share of neg_B records whose offered tools include the plugin the query really needs."""
    hits = []
    for r in recs:
        if r.kind != "neg_B" or r.target_plugin is None:
            continue
        scen = next(s for s in catalog.plugin(r.target_plugin).scenarios if s.id == r.primary_scenario)
        offered = {t["function"]["name"] for t in r.tools}
        needed = scen.needed_plugin
        hits.append(needed is not None and set(catalog.plugin(needed).tool_names) <= offered)
    return round(sum(hits) / len(hits), 4) if hits else None


def _pilot_summary(st: SplitState, catalog: Any) -> dict[str, Any]:
    """What the pilot calibration saw per negative kind, and the kind x difficulty budget it planned."""
    kind_of = catalog.scenario_kinds()
    seen: Counter[str] = Counter()
    planned: Counter[str] = Counter()
    for sc, counts in st.coverage.supply.items():
        for d, n in counts.items():
            seen[f"{kind_of[sc]}/{d}"] += n
    for (pid, sid, d), b in st.coverage.planned.items():
        kind = kind_of[(pid, sid)]
        if kind != "trigger":
            planned[f"{kind}/{d}"] += b
    return {
        "scenarios": len(st.coverage.supply),
        "drafts_by_kind_difficulty": dict(sorted(seen.items())),
        "planned_by_kind_difficulty": dict(sorted(planned.items())),
    }


def _pct(x: Any) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def report_markdown(r: dict[str, Any]) -> str:
    t = r["totals"]
    lines = [
        f"# PluginEval build report — v{r['version']}"
        + (f" (ablation: {r['ablation']})" if r["ablation"] else ""),
        "",
        f"Candidates {t['candidates']} · verified {t['verified']} ({_pct(t['pass_rate'])}) · accepted {t['accepted']} · "
        f"proposals {t['proposals']} · MCP calls {t['mcp_calls']}",
        "",
        "| split | records | budget | multi-call share | unmet units | near-dup raw | near-dup masked |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, s in r["splits"].items():
        lines.append(
            f"| {name} | {s['records']} | {s['budget']} | {_pct(s['multi_call_share'])} | {s['unmet_units']} | "
            f"{_pct(s.get('near_duplicate_share_raw'))} | {_pct(s.get('near_duplicate_share_masked'))} |"
        )
    lines += [
        "",
        "| split | round | deficit | candidates | verified | pass rate | accepted | covered |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in r["rounds"]:
        lines.append(
            f"| {row['split']} | {row['round']} | {row['deficit']} | {row['candidates']} | {row['verified']} | "
            f"{_pct(row['pass_rate'])} | {row['accepted']} | {row['covered']} |"
        )
    lines += ["", "Rejections: " + ", ".join(f"{k} {v}" for k, v in r["rejections"].items())]
    iv = r["intended_vs_accepted"]
    lines += [
        "",
        f"Accepted gold differs from the synthesizer's intended call: {iv['differs']} of {iv['compared']} ({_pct(iv['rate'])}); {iv['what_happened']}.",
        f"Depth relabels: {r['depth_relabels']} · strengthened negatives: {r['strengthened_negatives']} · "
        f"difficulty deviation (negatives, mean |target − calibrated|): {r['difficulty_deviation']['negatives_mean_abs']}",
    ]
    if "cross_split" in r:
        c = r["cross_split"]
        lines.append(
            f"Test queries with a train near-duplicate: raw {_pct(c['test_with_train_near_duplicate_raw'])}, masked "
            f"{_pct(c['test_with_train_near_duplicate_masked'])}; masked patterns shared: {c['masked_patterns_shared']}"
        )
    lines += [
        "",
        "Accepted alternatives by execution (per split: records with any; entries by kind; variants tried → accepted):",
    ]
    for name, info in r["splits"].items():
        a = info.get("alternatives") or {}
        if a:
            lines.append(
                f"- {name}: {a['positives_with_alternatives']} of {a['positives']} positives; entries "
                + (", ".join(f"{k} {v}" for k, v in a["entries"].items()) or "none")
                + "; tried "
                + (", ".join(f"{k} {v}" for k, v in a["variants_tried"].items()) or "none")
                + " → accepted "
                + (", ".join(f"{k} {v}" for k, v in a["variants_accepted"].items()) or "none")
                + "; refused as ungrounded "
                + (
                    ", ".join(
                        f"{s} ({', '.join(f'{k} {v}' for k, v in reasons.items())})"
                        for s, reasons in (a.get("variants_rejected") or {}).items()
                    )
                    or "none"
                )
            )
    lines += ["", "Roles:"] + [f"- {k}: {v}" for k, v in r["roles"].items()]
    lines += ["", "Stopped: " + ", ".join(f"{k}: {v}" for k, v in r["stopped"].items())]
    moved = r.get("reallocated_from_exhausted_units") or {}
    if moved:
        lines.append(
            "Budget moved from exhausted units to live units of the same kind and difficulty: "
            + ", ".join(f"{k} {v}" for k, v in moved.items())
        )
    return "\n".join(lines) + "\n"


_WS = re.compile(r"\s+")
