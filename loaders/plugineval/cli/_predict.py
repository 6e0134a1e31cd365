"""``plugineval predict``: run a model behind an OpenAI-compatible endpoint, or an offline baseline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from . import CliError
from ._args import add_records_arguments

BASELINE_HELP = (
    "baseline:router (the builder's frozen reference router + text-only slot filler; it calibrated the "
    "negatives' difficulty, so its score on negatives restates the labels), baseline:always-call "
    "(the router's top-ranked offered tool, same argument filling), baseline:never-call"
)


def _positive_float(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {s!r}") from None
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {s}")
    return v


def _positive_int(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {s!r}") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be ≥ 1, got {s}")
    return v


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "predict",
        help="run a model (OpenAI-compatible endpoint) or a baseline on the benchmark; writes predictions JSONL",
        description=(
            "Run a model on the records and write a predictions JSONL file (docs/format.md §9) plus its sidecar\n"
            "<out>.meta.json (prompt version, request settings). Resumable: a rerun of the same command skips\n"
            "the ids already written; the final file is ordered by id. Then: plugineval evaluate <out>.\n\n"
            "Baselines (offline, no endpoint): --model " + BASELINE_HELP + "."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--model", required=True, metavar="NAME", help="model name sent to the endpoint, or baseline:…"
    )
    p.add_argument(
        "--base-url", metavar="URL", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL or OpenAI)"
    )
    p.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY; none needed for a local --base-url)",
    )
    add_records_arguments(p, split=True)
    p.add_argument(
        "--out", required=True, metavar="preds.jsonl", help="predictions file (appended to on a rerun)"
    )
    p.add_argument(
        "--mode",
        default="native",
        choices=["native", "prompted"],
        help="native tool calling (default) "
        "or tools described in the prompt with calls parsed from the reply",
    )
    p.add_argument(
        "--concurrency", type=_positive_int, default=8, metavar="N", help="requests in flight (default 8)"
    )
    p.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default 0)")
    p.add_argument(
        "--parallel-tool-calls",
        default="auto",
        choices=["auto", "true", "false"],
        help="send parallel_tool_calls (auto: leave it out, the endpoint's default)",
    )
    p.add_argument(
        "--max-tokens", type=_positive_int, metavar="N", help="max_tokens per reply (default: not sent)"
    )
    p.add_argument(
        "--rate-limit", type=_positive_float, metavar="RPS", help="at most RPS requests per second"
    )
    p.add_argument("--limit", type=_positive_int, metavar="N", help="only the first N records by id")
    p.add_argument(
        "--timeout", type=_positive_float, default=120.0, metavar="S", help="per-request time-out (s)"
    )
    p.add_argument("--max-retries", type=int, default=4, metavar="N", help="the client's retries per request")
    p.add_argument(
        "--retry-errors",
        action="store_true",
        help="on a rerun, request again the records whose line holds a request_failed error",
    )
    p.add_argument(
        "--trials",
        type=_positive_int,
        default=1,
        metavar="K",
        help="K trials, one file each: <stem>.t1<suffix> … beside --out, each with its sidecar; they differ "
        "by sampling (--temperature > 0) or by --seed (trial i sends N+i-1); K > 1 at temperature 0 needs "
        "--seed; a baseline needs --noise",
    )
    p.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="send seed N with every request (for endpoints that take one; trial i of --trials sends N+i-1); "
        "for a baseline: the seed of its --noise (default 0)",
    )
    p.add_argument(
        "--noise",
        type=float,
        default=0.0,
        metavar="P",
        help="baselines only: replace each record's answer by no call with probability P (seeded), "
        "so that a deterministic baseline can show --trials",
    )
    p.add_argument("--prices", metavar="FILE", help="price table (TOML) merged over the shipped prices.toml")
    p.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")


def run(args: argparse.Namespace) -> int:
    from ..predict import BASELINES, PredictConfig, check_trials, run_trials
    from ..predictions import PredictionFileError

    if args.model.startswith("baseline:") and args.model not in BASELINES:
        raise CliError(f"unknown baseline {args.model!r}; choose from {', '.join(BASELINES)}")
    cfg = PredictConfig(
        model=args.model,
        out=Path(args.out),
        records=args.records,
        split=args.split,
        config=args.config,
        revision=args.revision,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        mode=args.mode,
        concurrency=args.concurrency,
        temperature=args.temperature,
        parallel_tool_calls=args.parallel_tool_calls,
        max_tokens=args.max_tokens,
        rate_limit=args.rate_limit,
        limit=args.limit,
        timeout_s=args.timeout,
        max_retries=max(0, args.max_retries),
        retry_errors=args.retry_errors,
        prices=Path(args.prices) if args.prices else None,
        progress=False if args.no_progress else None,
        trials=args.trials,
        seed=args.seed,
        noise=args.noise,
    )
    try:
        check_trials(cfg)
    except ValueError as e:
        raise CliError(str(e)) from None
    try:
        runs = run_trials(cfg)
    except PredictionFileError as e:
        raise CliError(str(e)) from None
    rc = 0
    for s in runs:
        rc = max(rc, _report(args, s))
    if rc == 0 and len(runs) > 1:
        files = " ".join(str(s.out) for s in runs)
        print(f"wrote {len(runs)} trials; score them together with: plugineval evaluate {files}")
    return rc


def _report(args: argparse.Namespace, s: Any) -> int:
    from ..predict import ROUTER_CAVEAT

    for note in s.notes:
        print(f"note: {note}", file=sys.stderr)
    t = s.meta.get("totals", {})
    cost = t.get("cost_usd")
    cost_txt = f"${cost:.4f}" if cost is not None else "unknown (model not in the price table)"
    print(
        f"{s.out}: {t.get('lines', 0)} line(s); {s.written} written now, {s.skipped} already there, "
        f"{s.remaining} to go; request_failed {t.get('request_failed', 0)}, "
        f"unparsable_output {t.get('unparsable_output', 0)}; cost {cost_txt}",
        file=sys.stderr,
    )
    if args.model == "baseline:router":
        print(f"note: {ROUTER_CAVEAT}", file=sys.stderr)
    if s.message:
        print(f"plugineval: stopped: {s.message}", file=sys.stderr)
        print("rerun the same command to resume; nothing written is lost", file=sys.stderr)
        return 1
    if s.status != "complete":
        return 1
    if args.trials == 1:
        print(f"wrote {s.out} and {s.out.name}.meta.json; score it with: plugineval evaluate {s.out}")
    else:
        print(f"wrote {s.out} and {s.out.name}.meta.json")
    return 0
