"""The judge and BFCL's checker on the BFCL oracle pairs, counted by cachegrind instead of timed.

    .venv/bin/python benchmarks/judge_instructions.py [--runs 2] [--no-cache-sim] [--bfcl-checker DIR]

This VM's speed for identical work drifts by up to 1.7x from minute to minute, so the timed ratio of
``judge_throughput.py`` moves between invocations. Valgrind's cachegrind counts what each side executes:
the instructions, and (its cache simulation, on by default) the first-level instruction and data cache
misses, which on CPython cost as much as the instructions do. The counts do not drift.

Each side runs the loop ``judge_throughput.py`` times (the judge: BFCL's decoder, ``bfcl_prediction``,
``Judge.judge_one``; BFCL: its own checker, fetched by ``get_bfcl_checker.sh``) in a worker that loads
and warms both sides alike, then runs one side ``--runs`` times with the cyclic GC paused. A worker that
runs no pass gives the setup's counts; the difference, divided by the runs and the pairs, is per pair.
Three workers under valgrind take about 10 minutes with the cache simulation, 6 without.
"""

from __future__ import annotations

import argparse
import gc
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

COUNTERS = {  # cachegrind's summary line (spaces squeezed) -> our name
    "I refs": "instructions",
    "I1 misses": "I1 misses",
    "D refs": "data reads+writes",
    "D1 misses": "D1 misses",
    "LL misses": "LL misses",
}


def worker(side: str, runs: int, checker_dir: Path | None) -> None:
    from _bfcl_checker import fc_encode, load
    from _compiled_judge import bfcl_dir
    from judge_throughput import judge_runner

    from plugineval.adapters.bfcl import load_bfcl, read_oracle
    from plugineval.judge import Judge

    d = bfcl_dir()
    records = {r.id: r for r in load_bfcl(d)}
    pairs = [p for p in read_oracle(d / "oracle" / "verdicts.jsonl") if p.id in records]
    checker = load(checker_dir, {p.category for p in pairs})
    if checker is None:
        raise SystemExit(2)
    items = [(p.id, fc_encode(p.prediction)) for p in pairs]
    judge = Judge("rules")
    judge.prepare(list(records.values()))
    sides = {
        "BFCL": checker.runner(items),
        "judge": judge_runner(judge.judge_one, [(records[pid], raw) for pid, raw in items]),
    }
    if sides["BFCL"]() != [p.bfcl_valid for p in pairs]:
        raise SystemExit("BFCL's checker here does not reproduce its stored verdicts: not compared")
    for _ in range(2):  # both sides warm (caches, compiled schemas) before the counted passes
        sides["judge"]()
        sides["BFCL"]()
    gc.disable()
    for _ in range(runs):
        sides[side]()
    print(f"pairs {len(pairs)}", file=sys.stderr)


def counted(side: str, runs: int, cache_sim: bool, checker_dir: Path | None) -> dict[str, int]:
    cmd = [
        "valgrind",
        "--tool=cachegrind",
        f"--cache-sim={'yes' if cache_sim else 'no'}",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--worker",
        side,
        str(runs),
    ]
    if checker_dir is not None:
        cmd += ["--bfcl-checker", str(checker_dir)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode != 0:
        raise SystemExit(
            f"the {side} worker failed under valgrind (exit {p.returncode}):\n{p.stderr[-2000:]}"
        )
    out: dict[str, int] = {}
    for line in p.stderr.splitlines():
        body = re.sub(r"\s+", " ", re.sub(r"^==\d+== ", "", line))
        for label, name in COUNTERS.items():
            if body.startswith(label + ":"):
                out[name] = int(body.split(":", 1)[1].split()[0].replace(",", ""))
        if body.startswith("pairs "):
            out["pairs"] = int(body.split()[1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=2, help="counted passes over all pairs per side")
    ap.add_argument("--no-cache-sim", action="store_true", help="count instructions only (faster)")
    ap.add_argument("--bfcl-checker", type=Path, default=None, help="BFCL's checker, unpacked")
    ap.add_argument("--worker", nargs=2, metavar=("SIDE", "RUNS"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.worker[0], int(a.worker[1]), a.bfcl_checker)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    sim = not a.no_cache_sim
    base = counted("judge", 0, sim, a.bfcl_checker)
    n = base["pairs"]
    per = {
        side: {
            k: (v - base[k]) / a.runs / n
            for k, v in counted(side, a.runs, sim, a.bfcl_checker).items()
            if k in base and k != "pairs"
        }
        for side in ("BFCL", "judge")
    }
    print(
        f"BFCL oracle, {n:,} pairs, {a.runs} counted passes per side (cachegrind{'' if sim else ', no cache simulation'}):"
    )
    for k in per["judge"]:
        b, j = per["BFCL"][k], per["judge"][k]
        ratio = f"BFCL / judge {b / j:.2f}x" if min(b, j) >= 1 else "(next to none: no ratio)"
        print(f"  {k:18s} per pair: BFCL {b:9,.0f}  judge {j:9,.0f}  {ratio}")


if __name__ == "__main__":
    main()
