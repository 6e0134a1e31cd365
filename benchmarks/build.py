"""Wall time and peak memory of a full default build; MCP calls and proposals per second.

    .venv/bin/python benchmarks/build.py [--out /tmp/pe-bench] [--config configs/default.toml] [--scale F]

Runs `plugineval build` in a child process (fresh journal), then prints the figures from the
child's resource usage and the build's timing.json (targets: under 15 minutes and 4 GiB).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="/tmp/pe-bench/plugineval-zh")
    ap.add_argument("--config", default=None)
    ap.add_argument("--scale", type=float, default=None)
    a = ap.parse_args()
    out = Path(a.out)
    work = out.parent / f".{out.name}.work"
    for p in (out, work):
        if p.exists():
            shutil.rmtree(p)
    cmd = [sys.executable, "-m", "plugineval.cli", "build", "--out", str(out), "--quiet"]
    if a.config:
        cmd += ["--config", a.config]
    if a.scale:
        cmd += ["--scale", str(a.scale)]
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True)
    wall = time.perf_counter() - t0
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    timing = json.loads((work / "timing.json").read_text())
    report = json.loads((out / "build_report.json").read_text())
    t = report["totals"]
    print(f"wall time {wall / 60:.1f} min (target < 15), peak memory {peak_mib:,.0f} MiB (target < 4096)")
    print(f"records {t['accepted']} from {t['candidates']} candidates ({t['verified']} verified)")
    print(
        f"MCP calls {t['mcp_calls']:,} = {timing['mcp_calls_per_s']:,.0f}/s; proposals {t['proposals']:,} = {timing['proposals_per_s']:,.0f}/s"
    )
    for name, s in report["splits"].items():
        print(f"  {name:<10} {s['records']:>6} of {s['budget']} budgeted")


if __name__ == "__main__":
    main()
