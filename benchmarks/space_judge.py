"""Space benchmark: live-judge latency for a 3,000-line upload, and page time-to-interactive.

    .venv/bin/python benchmarks/space_judge.py [--records RELEASE] [--n 3000] [--repeat 3]

Synthesizes N records by re-identifying the release's test records (each copy gets a new id), writes
them as a JSONL of rows, serves them with ``plugineval space`` in a subprocess, and times:
- the judge in-process (parse + evaluate + report.json, the work the server does per upload);
- the /judge endpoint through gradio_client (upload, scoring, plots, per-record table, download);
- page time-to-interactive in headless Chromium (navigation until the leaderboard shows its rows).
Without --records a mini release is built first (~20 s). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "space"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


def synthesize(release: Path, n: int, out: Path) -> tuple[Path, Path]:
    from plugineval.sources import load_records

    base = load_records(release, "test")
    rows, preds = [], []
    for i in range(n):
        r = base[i % len(base)]
        rid = f"{r.id}-x{i:05d}"
        rows.append(r.model_copy(update={"id": rid}).to_row())
        calls = [c.model_dump() for c in r.gold_calls]
        if i % 7 == 3 and calls and "date" in calls[0]["arguments"]:
            calls[0]["arguments"]["date"] = "明天"  # some temporal errors
        preds.append({"id": rid, "calls": calls, "latency_ms": 100 + i % 50})
    records = out / "records.jsonl"
    records.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows), encoding="utf-8")
    predictions = out / "predictions.jsonl"
    predictions.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in preds), encoding="utf-8")
    return records, predictions


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", help="a release folder (default: build the mini release)")
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="space-bench-"))
    release = Path(args.records) if args.records else tmp / "mini"
    if not args.records:
        from _mini import build_mini

        build_mini(release)
    records, predictions = synthesize(release, args.n, tmp)
    size = predictions.stat().st_size
    print(f"records {args.n}, predictions file {size / 2**20:.2f} MiB")

    from plugineval_space.livejudge import judge_upload
    from plugineval_space.release import Release

    recs = Release(str(records)).records("test")
    times = []
    for _ in range(args.repeat):
        t = time.perf_counter()
        judge_upload(predictions, recs, "rules")
        times.append(time.perf_counter() - t)
    print(f"judge in-process (parse + evaluate + report.json): median {statistics.median(times):.2f} s "
          f"(runs: {', '.join(f'{x:.2f}' for x in times)})")  # fmt: skip

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, GRADIO_ANALYTICS_ENABLED="False")
    cmd = [sys.executable, "-m", "plugineval.cli", "space", "--records", str(records), "--port", str(port),
           "--db", str(tmp / "lb.sqlite"), "--judge", "rules"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        t0 = time.perf_counter()
        while True:
            try:
                urllib.request.urlopen(url, timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - t0 > 300:
                    raise SystemExit("the Space did not start") from None
                time.sleep(0.3)
        print(f"server start-up (import, load, seed baselines): {time.perf_counter() - t0:.1f} s")
        from gradio_client import Client, handle_file

        c = Client(url, verbose=False)
        times = []
        for _ in range(args.repeat):
            t = time.perf_counter()
            out = c.predict(handle_file(str(predictions)), False, api_name="/judge")
            times.append(time.perf_counter() - t)
            assert out[0].startswith("✅"), out[0][:300]
        print(f"/judge endpoint via gradio_client (upload + score + plots + table): median "
              f"{statistics.median(times):.2f} s (runs: {', '.join(f'{x:.2f}' for x in times)})")  # fmt: skip

        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            b = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            ttis = []
            for _ in range(args.repeat):
                pg = b.new_page()
                t = time.perf_counter()
                pg.goto(url)
                pg.locator("#leaderboard-table [role=gridcell]").filter(has_text="baseline:").first.wait_for(
                    timeout=60_000
                )
                ttis.append(time.perf_counter() - t)
                pg.close()
            b.close()
        print(f"page time-to-interactive (leaderboard rows visible): median {statistics.median(ttis):.2f} s "
              f"(runs: {', '.join(f'{x:.2f}' for x in ttis)})")  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
