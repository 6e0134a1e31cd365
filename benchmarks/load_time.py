"""Load time of the test split of a release folder: cold and warm ``plugineval.load`` and
``datasets.load_dataset``, beside a bare pyarrow read of the same files. Each method runs in its own
process with a fresh datasets cache (cold = first call, warm = the second call, same process), so
imports are not counted.

    .venv/bin/python benchmarks/load_time.py [RELEASE_DIR] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, sys, time
from pathlib import Path
method, folder = sys.argv[1], Path(sys.argv[2])
import pyarrow as pa, pyarrow.parquet as pq
import datasets
import plugineval
from plugineval.hub import data_files
datasets.disable_progress_bars()

files = data_files(folder, "default", "test")  # the card's YAML, read before timing

def run():
    if method == "pyarrow":
        t = pa.concat_tables([pq.read_table(f) for f in files])
        return t.num_rows
    if method == "plugineval.load":
        return len(plugineval.load(split="test", source=folder))
    return len(datasets.load_dataset(str(folder), split="test"))

out = {}
for phase in ("cold", "warm"):
    t0 = time.perf_counter()
    n = run()
    out[phase] = time.perf_counter() - t0
out["rows"] = n
print(json.dumps(out))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "release", nargs="?", default="dist/plugineval-zh", help="release folder (default: %(default)s)"
    )
    ap.add_argument("--repeat", type=int, default=3, help="runs per method (default: %(default)s)")
    args = ap.parse_args()
    folder = Path(args.release).resolve()
    if not (folder / "README.md").exists():
        print(
            f"{folder}: not a release folder (build one with 'plugineval build --out DIR')", file=sys.stderr
        )
        return 2
    size = sum(f.stat().st_size for f in (folder / "data" / "test").glob("*.parquet"))
    print(f"release {folder}: test split, {size / 1024:.0f} KiB of parquet; median of {args.repeat} runs")
    print(f"{'method':<18} {'rows':>6} {'cold ms':>9} {'warm ms':>9}")
    for method in ("pyarrow", "plugineval.load", "load_dataset"):
        runs = []
        for _ in range(args.repeat):
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "HF_DATASETS_CACHE": cache, "HF_HUB_OFFLINE": "1"}
                res = subprocess.run(
                    [sys.executable, "-c", CHILD, method, str(folder)],
                    capture_output=True,
                    text=True,
                    env=env,
                    check=False,
                )
                if res.returncode != 0:
                    print(res.stderr[-2000:], file=sys.stderr)
                    return 1
                runs.append(json.loads(res.stdout.splitlines()[-1]))
        cold = statistics.median(r["cold"] for r in runs) * 1000
        warm = statistics.median(r["warm"] for r in runs) * 1000
        print(f"{method:<18} {runs[0]['rows']:>6} {cold:>9.1f} {warm:>9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
