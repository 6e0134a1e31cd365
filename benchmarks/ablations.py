"""PCCF ablations side by side (docs/format.md §4, the build report): each is a separate build.

    .venv/bin/python benchmarks/ablations.py [--scale 0.05] [--out /tmp/pe-ablations]

Builds the full method and each ablation (no-content-validation, no-refinement, single-shot, m1) at
the same scale and prints their build-report figures in one table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

RUNS = (None, "no-content-validation", "no-refinement", "single-shot", "m1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=0.05)
    ap.add_argument("--out", default="/tmp/pe-ablations")
    a = ap.parse_args()
    rows = []
    for ab in RUNS:
        out = Path(a.out) / (ab or "full")
        cmd = [
            sys.executable,
            "-m",
            "plugineval.cli",
            "build",
            "--out",
            str(out),
            "--scale",
            str(a.scale),
            "--quiet",
        ]
        if ab:
            cmd += ["--ablation", ab]
        subprocess.run(cmd, check=True, capture_output=True)
        r = json.loads((out / "build_report.json").read_text())
        t = r["totals"]
        rows.append(
            (
                ab or "PCCF (full)",
                t["candidates"],
                t["verified"],
                t["pass_rate"],
                t["accepted"],
                sum(s["unmet_units"] for s in r["splits"].values()),
                r["difficulty_deviation"]["negatives_mean_abs"],
                r["intended_vs_accepted"]["rate"],
                r["depth_relabels"],
            )
        )
    head = (
        "run",
        "candidates",
        "verified",
        "pass rate",
        "accepted",
        "unmet units",
        "diff. deviation",
        "gold≠intended",
        "relabels",
    )
    print(" | ".join(head))
    for row in rows:
        print(" | ".join("—" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v) for v in row))


if __name__ == "__main__":
    main()
