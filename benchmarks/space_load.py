"""Space load test (issue 23): availability, memory and leaderboard speed under heavy use, on loopback.

    .venv/bin/python benchmarks/space_load.py [--records RELEASE] [--submissions 100] [--bundles 8]
                                              [--rows 10,100,1000] [--verdicts 1500]

Serves ``plugineval space`` on 127.0.0.1 (a fresh SQLite file, the rules judge, the default limits)
in a subprocess and measures, through ``gradio_client`` and plain HTTP:

1. the leaderboard (``/leaderboard``: the table and both plots) and ``GET /`` at each of ``--rows``
   rows, the rows written straight into the board file (generated verdicts of ``--verdicts`` records
   each, distinct names and organisations): the first load after the rows change (the fresh table,
   the last plots drawn while the new ones are drawn in the background), how long until a load shows
   the new plots, a warm load, and a custom mixture (weights not asked for before);
2. ``--submissions`` concurrent ``/submit`` calls of distinct valid predictions files: the rows added
   (each submission must be exactly one row), wall time, and the worst ``GET /`` meanwhile;
3. ``--bundles`` concurrent ``/submit_bundle`` calls of worst-case bundles within the documented limits
   (four trials, each a predictions file just under the 64 MiB member limit, lines at the reader's
   line bound, compressing to a small zip): peak memory of the server and its scoring children above
   idle (proportional set size, so shared pages count once), and the worst ``GET /`` meanwhile.

Without --records the mini release is built first (~30 s). Bounded: every request has a timeout and
the server is stopped at the end. Prints figures; asserts only that the submissions each made a row.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "space"))
PRESET = "original (0.40/0.40/0.20)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str, timeout: float = 30) -> float:
    t = time.perf_counter()
    with urllib.request.urlopen(url, timeout=timeout) as r:
        r.read()
    return time.perf_counter() - t


class Watch:
    """In a thread: ``GET /`` every 0.25 s (the worst time) and the server tree's memory (the peak)."""

    def __init__(self, url: str, pid: int) -> None:
        self.url, self.pid = url, pid
        self.worst_get = 0.0
        self.peak = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._get), threading.Thread(target=self._mem)]

    def __enter__(self) -> Watch:
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(60)

    def _get(self) -> None:
        while not self._stop.wait(0.25):
            try:
                self.worst_get = max(self.worst_get, get(self.url, 60))
            except OSError:
                self.worst_get = max(self.worst_get, 60.0)

    def _mem(self) -> None:
        while not self._stop.wait(0.25):  # reading smaps holds the server's memory map lock: not too often
            self.peak = max(self.peak, tree_pss(self.pid))


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def tree_pss(pid: int) -> int:
    """Proportional set size of a process and its descendants, in bytes (copy-on-write pages shared
    with a forked child count once)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
        todo += _children(p)
    return total


def gib(n: float) -> str:
    return f"{n / 2**30:.2f} GiB"


def gold_file(records: list[Any], i: int, out: Path) -> Path:
    """A distinct valid predictions file: the gold calls, one record's answer dropped per file."""
    lines = []
    for k, r in enumerate(records):
        calls = [] if k == i % len(records) else [c.model_dump() for c in r.gold_calls]
        lines.append(json.dumps({"id": r.id, "calls": calls, "latency_ms": 100 + i}, ensure_ascii=False))
    p = out / f"sub-{i:03d}.jsonl"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def worst_bundles(release: Path, n: int, out: Path) -> list[Path]:
    """``n`` bundles at the documented limits: four trials (``plugineval predict --trials 4``), each
    predictions file padded with whitespace inside its lines to just under 64 MiB (lines at most
    4 MiB characters, the reader's line bound), zipped (each zip is a few hundred KB)."""
    from plugineval.predictions import MAX_BYTES, MAX_LINE_CHARS

    base = out / "trials"
    cmd = [sys.executable, "-m", "plugineval.cli", "predict", "--model", "baseline:always-call", "--records",
           str(release), "--out", str(base / "preds.jsonl"), "--trials", "4", "--noise", "0.3"]  # fmt: skip
    subprocess.run(cmd, check=True, capture_output=True, timeout=600)
    files: dict[str, bytes] = {}
    for t in range(1, 5):
        name = f"preds.t{t}.jsonl"
        lines = (base / name).read_text(encoding="utf-8").splitlines()
        room = MAX_BYTES - 4096 - sum(len(x) + 1 for x in lines)
        pad = min(MAX_LINE_CHARS - 4096, room // len(lines))
        files[name] = "".join(x[:-1] + " " * pad + "}\n" for x in lines).encode("utf-8")
        files[name + ".meta.json"] = (base / (name + ".meta.json")).read_bytes()
    out_paths = []
    for b in range(n):
        manifest = {
            "format": "plugineval-submission/1",
            "model": f"worst-case-{b}",
            "organisation": f"Load Org {b}",
            "link": "https://example.org/m",
            "model_card": "four padded trials of baseline:always-call",
            "endpoint_kind": "baseline",
            "trained_on_plugineval": False,
            "predictions": [f"preds.t{t}.jsonl" for t in range(1, 5)],
        }
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for name, data in files.items():
                z.writestr(name, data)
            z.writestr("submission.json", json.dumps(manifest))
        p = out / f"worst-{b}.zip"
        p.write_bytes(buf.getvalue())
        out_paths.append(p)
    return out_paths


def fill(db: Path, upto: int, n_verdicts: int, rng: random.Random) -> None:
    """Write rows straight into the board file until it has ``upto`` (each summarized as it is
    written, as a submission's is)."""
    from plugineval_space.store import Entry, SqliteBoard, content_hash

    board = SqliteBoard(db)
    have = board.count()
    for i in range(have, upto):
        v = {}
        skill = rng.random()
        for k in range(n_verdicts):
            kind = rng.choice(["positive", "positive", "neg_A", "neg_B", "neg_C"])
            ok = rng.random() < skill
            pos = kind == "positive"
            cat = (
                None
                if ok
                else (
                    "miss_recall"
                    if pos and rng.random() < 0.5
                    else "parameter_error"
                    if pos
                    else "over_recall"
                )
            )
            v[f"r{k:05d}"] = {
                "outcome": ("TP" if ok else "FN") if pos else ("TN" if ok else "FP"),
                "category": cat,
                "subtype": "temporal" if cat == "parameter_error" else None,
                "kind": kind,
                "difficulty": rng.choice(["easy", "medium", "hard"]),
            }
        board.add(
            Entry(
                model=f"load-model-{i:04d}", organisation=f"load-org-{i:04d}", link="", kind="submission",
                status="self-reported", dataset_version="0.0.1", judge_version="0", judge_mode="rules",
                judge_model="", cost_usd=None, latency_ms=None, verdicts=v,
                content_hash=content_hash(json.dumps([i, skill]).encode(), f"load-model-{i:04d}"),
            )
        )  # fmt: skip


def leaderboard(
    client: Any, preset: str = PRESET, w: tuple[float, float, float] = (0.4, 0.4, 0.2)
) -> tuple[float, int, bool]:
    """(seconds, rows shown, whether the plots shown are still being redrawn for these rows)."""
    from plugineval_space import table

    t = time.perf_counter()
    out = client.predict("", preset, *w, table.DEFAULT_COLUMNS, ["verified", "self-reported"],
                         ["baseline", "submission"], "Recall", True, api_name="/leaderboard")  # fmt: skip
    return time.perf_counter() - t, len(out[0]["data"]), "being redrawn" in out[1]


def redrawn(client: Any, *a: Any, limit: float = 120) -> float:
    """Seconds until a load of the same leaderboard shows plots drawn for its rows (loads every 0.1 s)."""
    t = time.perf_counter()
    while leaderboard(client, *a)[2] and time.perf_counter() - t < limit:
        time.sleep(0.1)
    return time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", help="a release folder (default: build the mini release)")
    ap.add_argument("--submissions", type=int, default=100)
    ap.add_argument("--bundles", type=int, default=8)
    ap.add_argument("--rows", default="10,100,1000")
    ap.add_argument("--verdicts", type=int, default=1500, help="records per generated leaderboard row")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="space-load-"))
    release = Path(args.records) if args.records else tmp / "mini"
    if not args.records:
        from _mini import build_mini

        build_mini(release)
    from plugineval.sources import load_records

    records = load_records(release, "test")
    print(f"release {release} ({len(records)} test records); work folder {tmp}")

    db = tmp / "lb.sqlite"
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    env = dict(
        os.environ, GRADIO_ANALYTICS_ENABLED="False", HF_HUB_OFFLINE="1", GRADIO_TEMP_DIR=str(tmp / "gradio")
    )
    cmd = [sys.executable, "-m", "plugineval.cli", "space", "--records", str(release), "--port", str(port),
           "--host", "127.0.0.1", "--db", str(db), "--judge", "rules"]  # fmt: skip
    log = open(tmp / "server.log", "w")  # noqa: SIM115
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        t0 = time.perf_counter()
        while True:
            try:
                get(url, 5)
                break
            except OSError:
                if proc.poll() is not None or time.perf_counter() - t0 > 300:
                    raise SystemExit(f"the Space did not start; see {tmp / 'server.log'}") from None
                time.sleep(0.3)
        print(f"server start-up (import, load, seed baselines): {time.perf_counter() - t0:.1f} s")
        from gradio_client import Client, handle_file

        client = Client(url, verbose=False)
        leaderboard(client)
        time.sleep(1)
        idle = tree_pss(proc.pid)
        print(f"idle memory (PSS of the server): {gib(idle)}; GET / {get(url):.3f} s")

        # 1. the leaderboard at N rows (the seeded baselines count)
        rng = random.Random(23)
        firsts: list[str] = []
        for n in [int(x) for x in args.rows.split(",")]:
            t = time.perf_counter()
            fill(db, n, args.verdicts, rng)
            filled = time.perf_counter() - t
            cold, shown, stale = leaderboard(client)  # the first load after the rows changed
            drawn = redrawn(client)
            warm = statistics.median(leaderboard(client)[0] for _ in range(3))
            mix = ("custom (sliders)", (0.2 + n / 1e5, 0.3, 0.5))  # weights not asked for before
            custom, _, _ = leaderboard(client, *mix)
            custom_drawn = redrawn(client, *mix)
            page = statistics.median(get(url) for _ in range(3))
            firsts.append(f"{cold:.2f}")
            print(f"leaderboard at {shown} rows: first load after the rows changed {cold:.3f} s (plots "
                  f"{'of the previous rows, redrawn in the background: current' if stale else 'current'} "
                  f"{drawn:.1f} s later); warm {warm:.3f} s; a custom mixture {custom:.3f} s (its plots "
                  f"current {custom_drawn:.1f} s later); GET / {page:.3f} s (rows written in {filled:.1f} s)")  # fmt: skip
        print(f"first load after the rows changed, at {args.rows} rows: {' / '.join(firsts)} s")
        # 2. concurrent submissions
        paths = [gold_file(records, i, tmp) for i in range(args.submissions)]
        before = sqlite3.connect(db).execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        with Watch(url, proc.pid) as w:
            t = time.perf_counter()
            jobs = [client.submit(handle_file(str(p)), f"load-{i:03d}", f"Org {i:03d}", "", api_name="/submit")
                    for i, p in enumerate(paths)]  # fmt: skip
            msgs = [j.result(timeout=900) for j in jobs]
            took = time.perf_counter() - t
        after = sqlite3.connect(db).execute("SELECT COUNT(*) FROM entries").fetchone()[0]
        ok = sum(m.startswith("✅ Submitted") for m in msgs)
        print(f"{args.submissions} concurrent /submit: {after - before} rows added, {ok} answered 'Submitted', "
              f"in {took:.1f} s; worst GET / meanwhile {w.worst_get:.3f} s")  # fmt: skip
        bad = [m for m in msgs if not m.startswith("✅ Submitted")]
        if bad or after - before != args.submissions:
            print("  not submitted:", bad[:3])
            raise SystemExit(1)

        # 3. concurrent worst-case bundles
        if args.bundles:
            bundles = worst_bundles(release, args.bundles, tmp)
            zip_kb = statistics.mean(p.stat().st_size for p in bundles) / 1024
            with zipfile.ZipFile(bundles[0]) as z:
                unpacked = sum(i.file_size for i in z.infolist())
            idle = tree_pss(proc.pid)
            with Watch(url, proc.pid) as w:
                t = time.perf_counter()
                jobs = [client.submit(handle_file(str(p)), api_name="/submit_bundle") for p in bundles]
                msgs = [j.result(timeout=1800) for j in jobs]
                took = time.perf_counter() - t
            done = sum(m.startswith("✅") for m in msgs)
            print(f"{args.bundles} concurrent worst-case bundles ({zip_kb:.0f} KB zip, {unpacked / 2**20:.0f} MiB "
                  f"unpacked each): {done} scored in {took:.1f} s; peak memory {gib(w.peak)} = idle "
                  f"{gib(idle)} + {gib(w.peak - idle)}; worst GET / meanwhile {w.worst_get:.3f} s")  # fmt: skip
            for m in {m[:160] for m in msgs if not m.startswith("✅")}:
                print("  refused:", m)

    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
