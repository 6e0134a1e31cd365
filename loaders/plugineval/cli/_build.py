"""``plugineval build``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from . import CliError

ABLATIONS = ("no-content-validation", "no-refinement", "single-shot", "m1")


def add_parsers(sub: Any) -> None:
    b = sub.add_parser(
        "build",
        help="build the benchmark with PCCF (offline by default)",
        description=(
            "Run PCCF over the catalog: Stage II synthesizes for coverage deficits, Stage I verifies every\n"
            "candidate by execution through the MCP tools, the reference router calibrates negatives.\n"
            "Writes a release folder that datasets.load_dataset(OUT) reads, with the build report."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    b.add_argument("--config", metavar="TOML", help="build config (default: configs/default.toml)")
    b.add_argument(
        "--out", metavar="DIR", default="dist/plugineval-zh", help="release folder (default: %(default)s)"
    )
    b.add_argument(
        "--resume", action="store_true", help="reuse the journal of an interrupted build of the same config"
    )
    b.add_argument(
        "--ablation",
        choices=ABLATIONS,
        help="build an ablation (docs/format.md §4): a separate build with one part off",
    )
    b.add_argument("--plugins", metavar="IDS", help="comma-separated plugin ids to build (default: all)")
    b.add_argument(
        "--scale", type=float, metavar="F", help="multiply every budget by F (e.g. 0.05 for a quick build)"
    )
    b.add_argument(
        "--previous",
        metavar="DIR",
        help="the previous release folder: the card's changelog lists ids added, removed and changed",
    )
    b.add_argument(
        "--quiet",
        action="store_true",
        help="no progress (a bar on a terminal, a line every 15 s in a log otherwise)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        from plugineval.builder.pccf.run import run_build
    except ImportError as e:
        raise CliError(
            f"the builder needs the builder extra: pip install 'plugineval[builder]' ({e})"
        ) from None
    plugins = [p.strip() for p in args.plugins.split(",") if p.strip()] if args.plugins else None
    try:
        res = run_build(
            Path(args.out),
            config=args.config,
            resume=args.resume,
            ablation=args.ablation,
            plugins=plugins,
            scale=args.scale,
            progress="off" if args.quiet else "bar" if sys.stderr.isatty() else "lines",
            previous=Path(args.previous) if args.previous else None,
        )
    except RuntimeError as e:
        raise CliError(str(e)) from None
    rep = res["report"]
    for name, s in rep["splits"].items():
        print(
            f"{name:<11} {s['records']:>6} records (budget {s['budget']}), multi-call share {s['multi_call_share']}"
        )
    print(
        f"candidates {rep['totals']['candidates']}, verified {rep['totals']['verified']}, accepted {rep['totals']['accepted']}"
    )
    print(json.dumps(res["timing"]))
    print(f"wrote {args.out} (build_report.md inside)")
    return 0
