"""``plugineval evaluate`` and ``plugineval compare``."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from pathlib import Path
from typing import Any

from . import CliError
from ._args import add_records_arguments


def add_parsers(sub: Any) -> None:
    e = sub.add_parser(
        "evaluate",
        help="score a predictions file with the gold-anchored judge",
        description=(
            "Score a predictions JSONL file (one line per record id; docs/format.md §9) against the records.\n"
            "A record with no line scores as invalid_output. Prints a table; --out writes report.json.\n"
            "Several files: the trials of one model over the same records (plugineval predict --trials K):\n"
            "each is scored, and the report adds each metric's mean, min, max and sample standard\n"
            "deviation over the trials and the pass^k of the positives (its 'trials' field)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    e.add_argument(
        "predictions", nargs="+", help="predictions JSONL file, or the K files of K trials of one model"
    )
    add_records_arguments(e, split=True)
    e.add_argument(
        "--judge",
        default="hybrid",
        choices=["rules", "llm", "hybrid"],
        help="hybrid (default): rules, then the LLM judge for undecided pairs when PLUGINEVAL_JUDGE_BASE_URL "
        "and PLUGINEVAL_JUDGE_MODEL are set; without them it runs as rules and the report says so",
    )
    e.add_argument("--out", metavar="report.json", help="write the full report (per-record verdicts) here")
    e.add_argument("--markdown", metavar="report.md", help="also write a Markdown summary")
    e.add_argument("--model-name", help="label for the report (default: the predictions' 'model' key)")

    c = sub.add_parser("compare", help="paired comparison of two reports by record id")
    c.add_argument("a", help="report.json of model A")
    c.add_argument("b", help="report.json of model B")
    c.add_argument("--json", action="store_true", help="print the full comparison as JSON")


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:+.2f} pp"


def run(args: argparse.Namespace) -> int:
    if args.command == "compare":
        from ..report import Report
        from ..scoring import compare

        try:
            a, b = Report.load(args.a), Report.load(args.b)
        except FileNotFoundError as e:
            raise CliError(str(e)) from None
        out = compare(a, b)
        if args.json:
            print(json.dumps(out, ensure_ascii=False, indent=2))
            return 0
        print(
            f"A: {out['a']['model'] or args.a}   B: {out['b']['model'] or args.b}   paired records: {out['n_paired']}"
        )
        ci_r, ci_a = out["recall_diff_ci"], out["accuracy_diff_ci"]
        print(
            f"Recall   B−A {_pct(out['recall_diff'])}"
            + (f"  95% CI [{100 * ci_r[0]:+.2f}, {100 * ci_r[1]:+.2f}]" if ci_r else "")
        )
        print(
            f"Accuracy B−A {_pct(out['accuracy_diff'])}"
            + (f"  95% CI [{100 * ci_a[0]:+.2f}, {100 * ci_a[1]:+.2f}]" if ci_a else "")
        )
        print(
            f"records B right / A wrong: {out['flips']['b_right_a_wrong']}   A right / B wrong: {out['flips']['a_right_b_wrong']}"
        )
        if "warning" in out:
            print(f"warning: {out['warning']}")
        return 0

    from ..predictions import PredictionFileError
    from ..scoring import evaluate

    # a one-shot process that builds tens of thousands of long-lived objects and frees them at exit:
    # the cyclic collector would only re-walk them (refcounting still frees what dies on the way)
    gc.disable()
    for path in args.predictions:
        if not Path(path).exists():
            raise CliError(f"predictions file not found: {path}")
    files = args.predictions[0] if len(args.predictions) == 1 else list(args.predictions)
    try:
        meta = {"model": args.model_name} if args.model_name else None
        report = evaluate(
            files,
            args.records,
            judge=args.judge,
            split=args.split,
            revision=args.revision,
            config=args.config,
            progress=sys.stderr.isatty(),
            meta=meta,
        )
    except PredictionFileError as e:
        print(f"plugineval: error: {e}", file=sys.stderr)
        return 2
    if args.judge != "rules" and report.versions["judge_mode"] == "rules":
        print(
            f"note: --judge {args.judge} asked, but no judge endpoint is configured "
            "(PLUGINEVAL_JUDGE_BASE_URL, PLUGINEVAL_JUDGE_MODEL): ran as rules; undecided pairs count as wrong",
            file=sys.stderr,
        )
    print(report.to_table())
    if args.out:
        report.save(args.out)
        print(f"wrote {args.out}")
    if args.markdown:
        Path(args.markdown).write_text(report.to_markdown(), encoding="utf-8")
        print(f"wrote {args.markdown}")
    return 0
