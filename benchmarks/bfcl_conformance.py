"""Agreement of the PluginEval judge (rules mode) with BFCL's own AST checker, and its speed.

    .venv/bin/python benchmarks/bfcl_conformance.py [--bfcl DIR] [--list N] [--profile SECONDS]

DIR (default tests/data/bfcl, the vendored copy, or $PLUGINEVAL_BFCL_DIR) holds question/,
possible_answer/ and oracle/verdicts.jsonl. Prints agreement overall, per variant and per category,
every disagreement grouped by (variant, category, BFCL verdict, our reason), and the judge's
throughput on the per-pair path (prediction mapping + judging, records built beforehand) for a cold
first run and a second run, beside BFCL's 40,000-58,000 pairs/s (oracle/README.md).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "loaders"))

from plugineval.adapters.bfcl import (  # noqa: E402
    OraclePair,
    bfcl_prediction,
    load_bfcl,
    read_oracle,
)
from plugineval.judge import Judge, Outcome, RecordVerdict  # noqa: E402
from plugineval.schema import Record  # noqa: E402

BFCL_PAIRS_PER_S = (40_000, 58_000)


def default_dir() -> Path:
    return Path(os.environ.get("PLUGINEVAL_BFCL_DIR", ROOT / "tests" / "data" / "bfcl"))


def judge_pairs(
    judge: Judge, records: dict[str, Record], pairs: Sequence[OraclePair]
) -> list[RecordVerdict | None]:
    """The per-pair path: map the BFCL prediction, judge it. None for pairs without a record
    (live_relevance, which is not imported)."""
    out: list[RecordVerdict | None] = []
    for p in pairs:
        r = records.get(p.id)
        if r is None:
            out.append(None)
            continue
        out.append(judge.judge_one(r, bfcl_prediction(r, p.prediction)))
    return out


def ours_valid(v: RecordVerdict) -> bool:
    return v.outcome in (Outcome.TP, Outcome.TN)


def why(v: RecordVerdict) -> str:
    """A short label of our verdict: outcome/category plus the first rejected argument's reason."""
    bad = [a for a in v.arguments if not a.ok]
    label = f"{v.outcome}/{v.category or '-'}"
    if bad:
        label += f" {bad[0].arg}:{bad[0].reason}"
    elif v.outcome is Outcome.TP:
        oks = sorted({str(a.reason) for a in v.arguments if a.reason.value != "exact"})
        label += " " + ",".join(oks) if oks else ""
    return label


def table(title: str, rows: dict[str, tuple[int, int]]) -> list[str]:
    lines = [f"{title:<24} {'pairs':>7} {'agree':>7} {'%':>8}"]
    for k in sorted(rows):
        n, a = rows[k]
        lines.append(f"{k:<24} {n:>7} {a:>7} {100 * a / n:>7.2f}%")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bfcl", type=Path, default=default_dir())
    ap.add_argument("--list", type=int, default=5, help="example ids per disagreement class")
    ap.add_argument("--profile", type=float, default=0.0, help="cProfile the per-pair path this long (s)")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    records = {r.id: r for r in load_bfcl(args.bfcl)}
    pairs = read_oracle(args.bfcl / "oracle" / "verdicts.jsonl")
    print(f"loaded {len(records)} records, {len(pairs)} oracle pairs in {time.perf_counter() - t0:.1f} s")

    judged = [p for p in pairs if p.id in records]
    judge = Judge("rules")
    t0 = time.perf_counter()
    verdicts = judge_pairs(judge, records, judged)
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    again = judge_pairs(judge, records, judged)
    warm = time.perf_counter() - t0
    assert [v and v.outcome for v in verdicts] == [v and v.outcome for v in again]

    by_variant: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    by_cat: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    classes: dict[tuple[str, str, str, str], list[str]] = defaultdict(list)
    agree = 0
    for p, v in zip(judged, verdicts, strict=True):
        assert v is not None
        ok = ours_valid(v) == p.bfcl_valid
        agree += ok
        for d, k in ((by_variant, p.variant), (by_cat, p.category)):
            d[k][0] += 1
            d[k][1] += ok
        if not ok:
            bfcl = "valid" if p.bfcl_valid else f"invalid {p.bfcl_error_type}"
            classes[p.variant, p.category, bfcl, why(v)].append(p.id)
    skipped = Counter(p.category for p in pairs if p.id not in records)
    n = len(judged)
    print(f"\nagreement on imported pairs: {agree}/{n} = {100 * agree / n:.2f}%")
    print(
        f"agreement on all pairs:      {agree}/{len(pairs)} = {100 * agree / len(pairs):.2f}%"
        f"  (not imported, counted as disagreements: {dict(skipped)})\n"
    )
    print("\n".join(table("variant", {k: (a, b) for k, (a, b) in by_variant.items()})))
    print()
    print("\n".join(table("category", {k: (a, b) for k, (a, b) in by_cat.items()})))
    print(f"\ndisagreements: {n - agree} in {len(classes)} classes (variant, category, BFCL, ours)")
    for key in sorted(classes, key=lambda k: (-len(classes[k]), k)):
        ids = classes[key]
        print(f"  {len(ids):>4}  {' | '.join(key)}  e.g. {', '.join(ids[: args.list])}")

    t0 = time.perf_counter()
    _ = [bfcl_prediction(records[p.id], p.prediction) for p in judged]
    mapping = time.perf_counter() - t0
    gc.collect()
    gc.freeze()  # the loaded records are long-lived: keep the cyclic GC from re-walking them
    t0 = time.perf_counter()
    judge_pairs(judge, records, judged)
    frozen = time.perf_counter() - t0
    gc.unfreeze()
    print(f"\nthroughput, per-pair path (map prediction + judge_one), {n} pairs:")
    runs = (
        ("cold (first run)", cold),
        ("second run", warm),
        ("mapping alone", mapping),
        ("third, gc.freeze()", frozen),
    )
    for label, secs in runs:
        rate = n / secs
        lo, hi = BFCL_PAIRS_PER_S
        print(f"  {label:<19} {secs:6.2f} s  {rate:>8,.0f} pairs/s  = {rate / hi:.2f}-{rate / lo:.2f}x BFCL")

    if args.profile > 0:
        prof = cProfile.Profile()
        end = time.perf_counter() + args.profile
        prof.enable()
        while time.perf_counter() < end:
            judge_pairs(judge, records, judged)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
