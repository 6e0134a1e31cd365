"""``plugineval build``: the catalog and grammars in, a release folder out."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import anyio

from plugineval.catalog import load_catalog
from plugineval.schema import Record

from ..synth.grammar import load_grammars
from .build import Builder
from .config import BuildConfig
from .realism_section import realism_markdown, realism_of
from .release import write_release
from .report import build_report, report_markdown


def run_build(
    out: Path,
    config: str | Path | None = None,
    resume: bool = False,
    ablation: str | None = None,
    plugins: list[str] | None = None,
    scale: float | None = None,
    progress: bool | str = True,
    previous: Path | None = None,
) -> dict[str, Any]:
    cfg = BuildConfig.load(config).with_ablation(ablation)
    if scale is not None:
        cfg = cfg.scaled(scale)
    catalog = load_catalog()
    grammars = dict(load_grammars())
    missing = sorted(p.id for p in catalog.plugins if p.id not in grammars)
    if plugins:
        unknown = sorted(set(plugins) - {p.id for p in catalog.plugins})
        if unknown:
            raise ValueError(f"unknown plugins: {', '.join(unknown)}")
        grammars = {k: v for k, v in grammars.items() if k in plugins}
    work = out.parent / f".{out.name}.work"
    t0 = time.perf_counter()
    b = Builder(cfg, catalog, grammars, work, resume=resume, progress=progress)
    splits = anyio.run(b.run)
    report = build_report(cfg, b.stats, splits, b.router, ablation, b.masked_of)
    report["plugins_without_grammar"] = missing if not plugins else []
    calendar: dict[str, list[Record]] = {}
    ccfg = cfg.calendar_build()
    if ccfg is not None and ablation is None:
        # the opt-in calendar config: its own pass over the stress readings, its own journal
        cgrammars = {
            k: v for k, v in load_grammars(profile="calendar").items() if not plugins or k in plugins
        }
        cb = Builder(
            ccfg, catalog, cgrammars, work / "calendar", resume=resume, progress=progress, real=False
        )
        csplits = anyio.run(cb.run)
        report["calendar"] = build_report(ccfg, cb.stats, csplits, cb.router, None, cb.masked_of)
        calendar = {name: list(st.records.values()) for name, st in csplits.items()}
    records = {name: list(st.records.values()) for name, st in splits.items()}
    report["realism"] = realism_of(records)  # per split, beside the reference profile of real requests
    md = report_markdown(report) + "\n## Realism\n\n" + realism_markdown(report["realism"]) + "\n"
    if "calendar" in report:
        c = report["calendar"]["splits"]
        md += (
            "\n## Calendar config (opt-in)\n\n"
            + ", ".join(f"{k} {v['records']} records (budget {v['budget']})" for k, v in c.items())
            + "\n"
        )
    write_release(out, records, catalog, report, md, calendar=calendar)
    from .card import render_card

    # the card body (dataset_card/body.md.tmpl): statistics, figures, changelog against ``previous``
    render_card(out, previous)
    timing = {
        "seconds": round(time.perf_counter() - t0, 2),
        "build_seconds": round(b.stats.seconds, 2),
        "journal_hits": b.stats.journal_hits,
        "llm_calls": b.stats.llm_calls,
        "candidates_per_s": round(b.stats.candidates / b.stats.seconds, 1) if b.stats.seconds else None,
        "proposals_per_s": round(b.stats.proposals / b.stats.seconds, 1) if b.stats.seconds else None,
        "mcp_calls_per_s": round(b.stats.mcp_calls / b.stats.seconds, 1) if b.stats.seconds else None,
    }
    work.mkdir(parents=True, exist_ok=True)
    (work / "timing.json").write_text(json.dumps(timing, indent=1), encoding="utf-8")
    return {"report": report, "timing": timing}
