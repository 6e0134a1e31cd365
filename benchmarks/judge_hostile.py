"""Scoring hostile predictions files against plain ones (issue 23: hostile takes at most 2x plain).

    .venv/bin/python benchmarks/judge_hostile.py [--records DIR] [--split validation] [--lines 300]
                                                 [--values 40] [--repeat 3]

Records: the ``--split`` of a release folder (``--records``), or by default every split of a small
build made for the run (tests/data/mini.toml over rail_tickets, a few seconds), repeated with fresh ids
up to ``--lines`` records.

- **plain**: one prediction line per record derived from its gold (judge_throughput.perturb: right,
  format variants, relative dates, wrong values, missing and extra arguments, surplus calls, no call).
- **hostile**: the same file where ``--values`` string argument values (dates among them) are 1 MiB
  strings (of UTF-8, so that the file stays under the reader's 64 MiB) of every shape of
  tests/test_hostile_judge.py — whitespace runs, digits, 万 / 千 / 点, digits and spaces alternating,
  Chinese numerals, nested brackets, each alone and behind a parser's head — and as many other values
  are the same shapes at 1,000 characters, under the normalizers' cap (they are normalized).

Each file is scored ``--repeat`` times, alternating, each time in a fresh process (cold caches), with
the rules judge: reading the file (``read_predictions``), judging (``Judge.run``), and the whole
``evaluate`` (read, judge, metrics), and writing its report.json (which keeps every predicted value,
1 MiB ones too); then ``plugineval evaluate --judge rules`` end to end (process start and report.json
included). Medians, and the ratio hostile / plain, are printed. The target (hostile <= 2x plain) is
read on ``plugineval evaluate``, what the CLI and the Space run; in process, reading a file a thousand
times larger (40 MiB against 40 KiB), and writing those values back, are linear but show on their own
lines.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

MIB = 2**20
UNDER_CAP = 1000  # characters: hostile, but read by the normalizers (the cap is 1,024)


def records_for(release: str | None, split: str, lines: int, tmp: Path) -> list[Any]:
    from plugineval.sources import load_records

    if release is None:
        out = tmp / "mini"
        from _mini import build_mini

        t0 = time.perf_counter()
        build_mini(out)
        recs = [r for s in ("validation", "test", "train") for r in load_records(out, s)]
        print(
            f"records: a small build (tests/data/mini.toml, rail_tickets) in {time.perf_counter() - t0:.1f} s"
        )
    else:
        recs = load_records(release, split)
        print(f"records: {release}, split {split}")
    base = len(recs)
    recs = [
        r.model_copy(update={"id": f"{r.id}~{i}"}) for i, r in enumerate((recs * (lines // base + 1))[:lines])
    ]
    print(f"  {base} records, repeated with fresh ids to {len(recs)} lines")
    return recs


def _sized(name: str, utf8_bytes: int) -> str:
    """The shape ``name`` at about ``utf8_bytes`` bytes of UTF-8 as written in the file (JSON-escaped)."""
    from test_hostile_judge import SHAPES

    make = SHAPES[name]
    sample = make(4096)
    per_char = len(json.dumps(sample, ensure_ascii=False).encode()) / len(sample)
    return make(int(utf8_bytes / per_char) - 64)


def hostile_copy(
    lines: list[dict[str, Any]], values: int, rng: random.Random
) -> tuple[list[dict[str, Any]], int]:
    """The lines with ``values`` string argument values made 1 MiB strings and as many made hostile
    strings under the cap, one per line, every shape in turn; and how many lines were changed."""
    from test_hostile_judge import SHAPES

    spots = [
        (i, k)
        for i, x in enumerate(lines)
        for k in sorted(x["calls"][0]["arguments"] if x["calls"] else ())
        if isinstance(x["calls"][0]["arguments"][k], str)
    ]
    by_line: dict[int, str] = {}
    for i, k in rng.sample(spots, len(spots)):
        by_line.setdefault(i, k)
    chosen = sorted(by_line.items())[: 2 * values]
    if len(chosen) < 2 * values:
        raise SystemExit(
            f"only {len(chosen)} lines have a string argument; --values {values} needs {2 * values}"
        )
    rng.shuffle(chosen)
    names = list(SHAPES)
    out = json.loads(json.dumps(lines))
    for j, (i, k) in enumerate(chosen):
        name = names[j % len(names)]
        value = _sized(name, MIB) if j < values else SHAPES[name](UNDER_CAP)
        out[i]["calls"][0]["arguments"][k] = value
    return out, len(chosen)


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in rows) + "\n", encoding="utf-8")
    return path


def child(records_path: str, preds_path: str) -> None:
    """One cold scoring of a file: the phases' seconds as JSON on stdout."""
    import gc

    from plugineval.judge import Judge
    from plugineval.predictions import read_predictions
    from plugineval.scoring import evaluate
    from plugineval.sources import load_records

    recs = load_records(records_path)
    ids = {r.id for r in recs}
    gc.collect()
    t0 = time.perf_counter()
    preds = read_predictions(preds_path, ids)
    t1 = time.perf_counter()
    verdicts = Judge("rules").run(recs, preds)
    t2 = time.perf_counter()
    del preds, verdicts
    gc.collect()
    t3 = time.perf_counter()
    report = evaluate(preds_path, recs, judge="rules")
    t4 = time.perf_counter()
    report.save(Path(preds_path).with_suffix(".report.json"))
    t5 = time.perf_counter()
    print(json.dumps({"read": t1 - t0, "judge": t2 - t1, "evaluate": t4 - t3, "save": t5 - t4}))


def cold(records_path: Path, preds_path: Path) -> dict[str, float]:
    res = subprocess.run(
        [sys.executable, __file__, "--child", str(records_path), str(preds_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    return dict(json.loads(res.stdout.strip().splitlines()[-1]))


def cli(records_path: Path, preds_path: Path, out: Path) -> float:
    cmd = [
        sys.executable,
        "-m",
        "plugineval.cli",
        "evaluate",
        str(preds_path),
        "--records",
        str(records_path),
    ]
    cmd += ["--judge", "rules", "--out", str(out)]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, timeout=1800)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", help="a release folder (default: a small build made for the run)")
    ap.add_argument("--split", default="validation")
    ap.add_argument("--lines", type=int, default=300)
    ap.add_argument("--values", type=int, default=40, help="1 MiB values (and as many under the cap)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument(
        "--keep", action="store_true", help="keep the files (about 80 MiB) instead of removing them"
    )
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(*a.child)
        return
    from judge_throughput import perturb

    tmp = Path(tempfile.mkdtemp(prefix="judge-hostile-"))
    recs = records_for(a.records, a.split, a.lines, tmp)
    rng = random.Random(20260318)
    plain = [perturb(r, rng) for r in recs]
    hostile, changed = hostile_copy(plain, a.values, rng)
    records_path = tmp / "records.jsonl"
    records_path.write_text(
        "\n".join(json.dumps(r.to_row(), ensure_ascii=False) for r in recs), encoding="utf-8"
    )
    files = {"plain": write(tmp / "plain.jsonl", plain), "hostile": write(tmp / "hostile.jsonl", hostile)}
    mib = {k: p.stat().st_size / MIB for k, p in files.items()}
    print(
        f"predictions: {len(plain)} lines, plain {mib['plain']:.2f} MiB; hostile {mib['hostile']:.1f} MiB: "
        f"{a.values} values of 1 MiB and {changed - a.values} of {UNDER_CAP:,} characters, "
        f"{changed} lines changed"
    )
    runs: dict[str, list[dict[str, float]]] = {"plain": [], "hostile": []}
    for _ in range(a.repeat):
        for kind, path in files.items():
            r = cold(records_path, path)
            r["cli"] = cli(records_path, path, tmp / f"{kind}-report.json")
            runs[kind].append(r)
    print(f"rules judge, {a.repeat} cold runs each (fresh processes), median seconds:")
    print(f"  {'phase':<34}{'plain':>9}{'hostile':>10}{'ratio':>8}")
    labels = {
        "read": "read the file",
        "judge": "judge (Judge.run)",
        "evaluate": "evaluate (read + judge + metrics)",
        "save": "write report.json (Report.save)",
        "cli": "plugineval evaluate (end to end)",
    }
    ratios = {}
    for phase, label in labels.items():
        p = statistics.median(r[phase] for r in runs["plain"])
        h = statistics.median(r[phase] for r in runs["hostile"])
        ratios[phase] = h / p
        print(f"  {label:<34}{p:>9.3f}{h:>10.3f}{h / p:>8.2f}")
    verdict = "met" if ratios["cli"] <= 2 else "NOT met"
    print(f"scoring (plugineval evaluate), hostile / plain: {ratios['cli']:.2f}x (target <= 2x: {verdict})")
    read_h = statistics.median(r["read"] for r in runs["hostile"])
    print(
        f"  in process: judging {ratios['judge']:.2f}x; evaluate {ratios['evaluate']:.2f}x, where reading the "
        f"{mib['hostile'] / mib['plain']:,.0f}x larger file takes {read_h:.2f} s ({mib['hostile'] / read_h:.0f} MiB/s)"
    )
    reports = {k: (tmp / f"{k}-report.json").stat().st_size / MIB for k in files}
    kept = f"files kept in {tmp}" if a.keep else "files removed"
    print(f"report.json: plain {reports['plain']:.2f} MiB, hostile {reports['hostile']:.1f} MiB ({kept})")
    if not a.keep:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
