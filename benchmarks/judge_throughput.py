"""Judge throughput (rules mode, inputs loaded, no cache warmed by a previous run).

    .venv/bin/python benchmarks/judge_throughput.py [--records DIR] [--repeat 3] [--compiled]

1. BFCL oracle pairs: the per-pair path (map the decoded prediction, judge it) over the 16,074
   imported pairs, beside BFCL's own checker (40,000-58,000 pairs/s on this kind of machine,
   tests/data/bfcl/oracle/README.md). --compiled adds the compiled judge (PLUGINEVAL_COMPILE=1,
   setup.py) to the same alternating runs, built on first use (benchmarks/_compiled_judge.py), and
   gives its figures only once its verdicts equal the pure judge's on every pair.
2. PluginEval records: 3,000 test records of a release (multi-call positives included) with
   predictions perturbed from the gold (exact, format variants, relative dates, wrong values,
   missing and extra arguments, extra calls, no call): records/s (target >= 10,000).
3. The CLI end to end on a 3,000-line predictions file (target < 3 s), --repeat runs per records
   source: the release folder (the default source) and a records JSONL file.
4. The LLM path against a local server adding 200 ms per call (asyncio, so that its own CPU is not
   what is measured; --threaded-server for the tests' server), concurrency 32: calls/s against the
   bound of 160/s (target >= 80%), and a second run that makes 0 calls (the disk cache).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from plugineval.judge import Judge, LLMConfig  # noqa: E402
from plugineval.schema import Call, Prediction, Record  # noqa: E402
from plugineval.sources import load_records, no_gc  # noqa: E402


def bfcl(repeat: int, checker_dir: Path | None, compiled: bool = False) -> None:
    from plugineval.adapters.bfcl import bfcl_prediction, load_bfcl, read_oracle

    d = Path(os.environ.get("PLUGINEVAL_BFCL_DIR", ROOT / "tests" / "data" / "bfcl"))
    records = {r.id: r for r in load_bfcl(d)}
    pairs = [p for p in read_oracle(d / "oracle" / "verdicts.jsonl") if p.id in records]
    rates, cold, prep = [], [], []
    for _ in range(repeat):
        judge = Judge("rules")  # fresh: its compiled-schema caches start empty
        gc.collect()
        t0 = time.perf_counter()
        for p in pairs:
            r = records[p.id]
            judge.judge_one(r, bfcl_prediction(r, p.prediction))
        cold.append(len(pairs) / (time.perf_counter() - t0))
        judge = Judge("rules")
        gc.collect()
        t0 = time.perf_counter()
        judge.prepare(list(records.values()))  # schemas compiled once, with the inputs
        prep.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        with no_gc():  # as Judge.run judges a batch (no cyclic GC passes over the loaded inputs)
            for p in pairs:
                r = records[p.id]
                judge.judge_one(r, bfcl_prediction(r, p.prediction))
        rates.append(len(pairs) / (time.perf_counter() - t0))
    med = statistics.median(rates)
    print(f"BFCL oracle, per-pair path (map + judge), {len(pairs)} pairs, {repeat} runs, fresh judge each:")
    print(
        f"  schemas compiled with the inputs ({len(records):,} records, median {statistics.median(prep):.2f} s): "
        f"best {max(rates):,.0f} pairs/s, median {med:,.0f} pairs/s; BFCL's checker 40,000-58,000 pairs/s"
    )
    print(f"  ratio (median / the README's BFCL figures): {med / 58000:.2f}-{med / 40000:.2f}")
    print(f"  compiling on first use instead (cold): median {statistics.median(cold):,.0f} pairs/s")
    side_by_side(records, pairs, checker_dir, max(repeat, 5), compiled)


def judge_runner(
    j1: Callable[[Record, Any], Any], work: list[tuple[Record, list[Any]]]
) -> Callable[[], list[bool]]:
    """The judge's side of the comparison with BFCL's checker: per pair, decode the raw FC output with
    BFCL's own decoder (inline, as BFCL's checker does), map it (``bfcl_prediction``), judge it."""
    from _bfcl_checker import fc_decode

    from plugineval.adapters.bfcl import bfcl_prediction

    def run() -> list[bool]:
        out = []
        for r, raw in work:
            try:
                decoded = fc_decode(raw)
            except Exception:
                decoded = raw
            out.append(j1(r, bfcl_prediction(r, decoded)).correct)
        return out

    return run


def side_by_side(
    records: dict[str, Record],
    pairs: list[Any],
    checker_dir: Path | None,
    repeat: int,
    compiled: bool = False,
) -> None:
    """BFCL's own checker and the judge on the same raw FC outputs, alternating, in one process: the
    ratio holds within the same minutes whatever the VM's speed then (see benchmarks/_bfcl_checker.py).
    With ``compiled``, the compiled judge (PLUGINEVAL_COMPILE=1) takes its turn in the same runs, in a
    worker process (benchmarks/_compiled_judge.py), once it has given the pure judge's verdict on every
    pair."""
    from _bfcl_checker import fc_encode, load

    checker = load(checker_dir, {p.category for p in pairs})
    if checker is None:
        return
    items = [(p.id, fc_encode(p.prediction)) for p in pairs]
    stored = [p.bfcl_valid for p in pairs]
    run_bfcl = checker.runner(items)
    if run_bfcl() != stored:
        wrong = sum(a != b for a, b in zip(run_bfcl(), stored, strict=True))
        raise SystemExit(
            f"BFCL's checker here disagrees with its stored verdicts on {wrong} pairs: not compared"
        )
    judge = Judge("rules")
    judge.prepare(list(records.values()))
    j1 = judge.judge_one
    work = [(records[pid], raw) for pid, raw in items]

    def ours_on(work: list[tuple[Record, list[Any]]]) -> Callable[[], list[bool]]:
        return judge_runner(j1, work)

    run_ours = ours_on(work)
    run_ours()
    worker = compiled_worker(judge, work, pairs) if compiled else None
    print(
        f"  BFCL's own checker (bfcl-eval wheel, blobs checked; all {len(stored):,} stored verdicts reproduced),"
        f" timed beside the judge on the same raw FC outputs (decoding included), {repeat} alternating runs:"
    )

    def timed(fn: Callable[[], object]) -> Callable[[], float]:
        def run() -> float:
            t0 = time.perf_counter()
            fn()
            return time.perf_counter() - t0

        return run

    sides: list[tuple[str, Callable[[], float]]] = [("BFCL", timed(run_bfcl)), ("judge", timed(run_ours))]
    if worker is not None:
        sides.append(("compiled", lambda: float(worker.ask("time"))))
    n = len(items)
    for label, ctx in (("GC on for both", _gc_on), ("GC paused for both, as Judge.run", no_gc)):
        times: dict[str, list[float]] = {name: [] for name, _ in sides}
        if worker is not None:
            worker.ask("gc", on=ctx is _gc_on)
        with ctx():
            for i in range(repeat):  # each side in turn, the order rotating from run to run
                for name, fn in sides[i % len(sides) :] + sides[: i % len(sides)]:
                    times[name].append(fn())
        tb, to = times["BFCL"], times["judge"]
        ratios = sorted(b / o for b, o in zip(tb, to, strict=True))
        print(
            f"  {label}: BFCL median {n / statistics.median(tb):,.0f} pairs/s, judge median "
            f"{n / statistics.median(to):,.0f} pairs/s; judge / BFCL per run {ratios[0]:.2f}-{ratios[-1]:.2f}x,"
            f" median {statistics.median(ratios):.2f}x"
        )
        if worker is not None:
            tc = times["compiled"]
            rc = sorted(b / c for b, c in zip(tb, tc, strict=True))
            rp = statistics.median(o / c for o, c in zip(to, tc, strict=True))
            print(
                f"    compiled judge median {n / statistics.median(tc):,.0f} pairs/s; compiled / BFCL per run "
                f"{rc[0]:.2f}-{rc[-1]:.2f}x, median {statistics.median(rc):.2f}x; compiled / pure median {rp:.2f}x"
            )
    if worker is not None:
        worker.ask("gc", on=True)
    print(
        "  by kind of prediction (oracle variant; GC paused; median of 7 alternating runs, each after a"
        " warm-up pass, us per pair):"
    )
    by: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        by.setdefault(p.variant, []).append(i)
    with no_gc():
        if worker is not None:
            worker.ask("gc", on=False)
        for variant, idx in sorted(by.items()):
            fb = timed(checker.runner([items[i] for i in idx]))
            fo = timed(ours_on([work[i] for i in idx]))
            tb, to, tc = [], [], []
            for _ in range(7):  # each side warm before it is timed: a few hundred pairs take ~10 ms, in
                # which the caches another side (or process) left cold would count
                fb()
                tb.append(fb() / len(idx) * 1e6)
                fo()
                to.append(fo() / len(idx) * 1e6)
                if worker is not None:
                    tc.append(float(worker.ask("time", variant=variant, warm=True)) / len(idx) * 1e6)
            b, o = statistics.median(tb), statistics.median(to)
            line = f"    {variant:18s} {len(idx):5d} pairs  BFCL {b:5.1f}  judge {o:5.1f}  judge / BFCL {b / o:.2f}x"
            if worker is not None:
                c = statistics.median(tc)
                line += f"  compiled {c:5.1f}  compiled / BFCL {b / c:.2f}x"
            print(line)
    if worker is not None:
        worker.close()


def compiled_worker(judge: Judge, work: list[tuple[Record, list[Any]]], pairs: list[Any]) -> Any:
    """The compiled judge for the current sources (built, or reused from .cache/bench/compiled-<key>/),
    in its worker, once it has given exactly the pure judge's verdicts on every pair; else no figure."""
    import hashlib

    from _bfcl_checker import decode_or_raw
    from _compiled_judge import Worker, ensure_compiled, verdict_row

    from plugineval.adapters.bfcl import bfcl_prediction

    site, facts = ensure_compiled()
    how = "reused" if facts["reused"] else "built"
    print(
        f"  compiled judge: {site} ({how}; its build took {facts['build_seconds']:.0f} s on {facts['cpus']} CPUs)"
    )
    worker = Worker(site)
    if not worker.info["compiled"]:
        raise SystemExit(f"the compiled build's judge is not compiled ({worker.info['core']}): no figure")
    ids = hashlib.sha256("\n".join(p.id for p in pairs).encode()).hexdigest()
    if worker.ask("ids") != ids:
        raise SystemExit("the compiled judge's worker loaded other BFCL pairs: no figure")
    pure = [verdict_row(judge.judge_one(r, bfcl_prediction(r, decode_or_raw(raw)))) for r, raw in work]
    theirs = worker.ask("verdicts")
    differ = [i for i, (a, b) in enumerate(zip(pure, theirs, strict=True)) if a != b]
    if differ:
        i = differ[0]
        raise SystemExit(
            f"the compiled judge's verdicts differ from the pure judge's on {len(differ)} of {len(pure)} pairs"
            f" (first: {pairs[i].id}: pure {pure[i]} / compiled {theirs[i]}): no figure"
        )
    print(f"  compiled judge ({worker.info['core']}): the pure judge's verdict on all {len(pure):,} pairs")
    return worker


class _gc_on:
    def __enter__(self) -> None:
        gc.enable()
        gc.collect()

    def __exit__(self, *exc: object) -> None:
        return None


def perturb(r: Record, rng: random.Random) -> dict[str, Any]:
    """A prediction line derived from the gold: right, slightly off, or wrong in a named way."""
    if r.kind != "positive":
        return {
            "id": r.id,
            "calls": [] if rng.random() < 0.7 else [{"name": r.target_tools[0], "arguments": {}}],
        }
    calls = [c.model_dump() for c in r.gold_calls]
    how = rng.choice(["exact", "exact", "format", "relative", "wrong", "missing", "extra", "surplus", "none"])
    c = calls[0]["arguments"]
    dates = [k for k, v in c.items() if isinstance(v, str) and len(v) == 10 and v[4] == "-"]
    if how == "format" and dates:
        y, m, d = c[dates[0]].split("-")
        c[dates[0]] = f"{y}年{int(m)}月{int(d)}日"
    elif how == "relative" and dates:
        c[dates[0]] = "明天"
    elif how == "wrong" and c:
        k = rng.choice(sorted(c))
        c[k] = f"{c[k]}x" if isinstance(c[k], str) else c[k]
    elif how == "missing" and c:
        c.pop(rng.choice(sorted(c)))
    elif how == "extra":
        c["note"] = "靠窗"
    elif how == "surplus":
        calls.append(calls[0])
    elif how == "none":
        calls = []
    return {"id": r.id, "calls": calls}


def pluginEval(records_dir: str, n: int) -> tuple[list[Record], Path, bool]:
    """The sample, the folder its files were written to, and whether it is the whole test split
    with its own ids (then the release folder itself can serve as the CLI's records source)."""
    recs = load_records(records_dir, "test")
    whole = len(recs) == n
    recs = (recs * (n // max(1, len(recs)) + 1))[:n] if len(recs) < n else recs[:n]
    recs = (
        [r.model_copy(update={"id": f"{r.id}-{i}"}) for i, r in enumerate(recs)]
        if len({r.id for r in recs}) < len(recs)
        else recs
    )
    rng = random.Random(20260318)
    lines = [perturb(r, rng) for r in recs]
    preds = {x["id"]: Prediction(id=x["id"], calls=[Call(**c) for c in x["calls"]]) for x in lines}
    multi = sum(len(r.gold_calls) > 1 for r in recs)
    judge = Judge("rules")
    gc.collect()
    t0 = time.perf_counter()
    judge.run(recs, preds)
    dt = time.perf_counter() - t0
    print(
        f"PluginEval records: {len(recs)} ({multi} multi-call positives): {len(recs) / dt:,.0f} records/s (target >= 10,000)"
    )
    tmp = Path(tempfile.mkdtemp())
    (tmp / "records.jsonl").write_text(
        "\n".join(json.dumps(r.to_row(), ensure_ascii=False) for r in recs), encoding="utf-8"
    )
    (tmp / "preds.jsonl").write_text(
        "\n".join(json.dumps(x, ensure_ascii=False) for x in lines), encoding="utf-8"
    )
    return recs, tmp, whole


def cli(tmp: Path, release: str | None, runs: int) -> None:
    """``plugineval evaluate`` in a fresh process, ``runs`` times per records source: the release
    folder (the default source, parquet) when the sample is its whole test split, and a records
    JSONL file (the same rows, JSON columns as strings inside JSON lines)."""
    lines = len((tmp / "preds.jsonl").read_text(encoding="utf-8").splitlines())
    sources = ([("release folder", release)] if release else []) + [
        ("records JSONL", str(tmp / "records.jsonl"))
    ]
    for label, source in sources:
        cmd = [sys.executable, "-m", "plugineval.cli", "evaluate", str(tmp / "preds.jsonl")]
        cmd += ["--records", source, "--judge", "rules", "--out", str(tmp / "r.json")]
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
        print(
            f"CLI end to end, {lines} lines, records from the {label}: median {statistics.median(times):.2f} s, "
            f"range {min(times):.2f}-{max(times):.2f} s over {runs} runs (target < 3 s)"
        )


def _judge_answer(body: dict[str, Any]) -> dict[str, Any]:
    from fake_openai import judge_data

    d = judge_data(body)
    same = str(d["predicted_value"]).endswith(str(d["accepted_values"][0]))
    match = d["accepted_values"][0] if same else None
    return {"content": json.dumps({"equivalent": same, "matched_value": match, "justification": "t"})}


def serve_judge(threaded: bool = False) -> None:
    """The endpoint in its own process, as a real one is; answers its request count on each line.

    By default an asyncio server (aiohttp) that waits 200 ms per call without holding a thread, so the
    rate measures the client; ``--threaded-server`` uses the tests' thread-per-connection server, whose
    own CPU on two cores caps a bare aiohttp client at about 130 calls/s."""
    if threaded:
        from fake_openai import FakeOpenAI

        with FakeOpenAI(_judge_answer, latency_s=0.2) as srv:
            srv.server.socket.listen(1024)  # socketserver's default backlog of 5 refuses bursts
            print(srv.base_url, flush=True)
            for _ in sys.stdin:
                print(len(srv.requests), flush=True)
        return
    import asyncio
    import threading

    from aiohttp import web

    count = [0]

    async def chat(request: web.Request) -> web.Response:
        body = await request.json()
        count[0] += 1
        await asyncio.sleep(0.2)
        msg = _judge_answer(body)
        payload = {
            "id": "chatcmpl-bench",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", **msg}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
        return web.json_response(payload)

    async def main() -> None:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", chat)
        app.router.add_post("/chat/completions", chat)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        print(f"http://127.0.0.1:{port}/v1", flush=True)
        loop = asyncio.get_running_loop()
        done = asyncio.Event()

        def read_stdin() -> None:
            for _ in sys.stdin:
                print(count[0], flush=True)
            loop.call_soon_threadsafe(done.set)

        threading.Thread(target=read_stdin, daemon=True).start()
        await done.wait()
        await runner.cleanup()

    asyncio.run(main())


def llm_path(n: int = 640, threaded: bool = False) -> None:
    import openai  # noqa: F401  (its first import takes seconds: not part of the rate)

    from judge_fixtures import make_pred, make_record

    recs = [
        make_record(f"r{i}", gold=[("cuisine", {"city": "成都", "style": f"菜系{i}"})]) for i in range(n // 2)
    ]
    preds = {
        r.id: make_pred(
            r.id, [("cuisine", {"city": "成都", "style": f"四川{r.gold_calls[0].arguments['style']}"})]
        )
        for r in recs
    }
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve-judge", *(["--threaded-server"] if threaded else [])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    stdin, stdout = server.stdin, server.stdout
    try:
        url = stdout.readline().strip()

        def count() -> int:
            stdin.write("?\n")
            stdin.flush()
            return int(stdout.readline())

        with tempfile.TemporaryDirectory() as tmp:
            cfg = LLMConfig(
                base_url=url, model="fake", concurrency=32, cache_path=str(Path(tmp) / "c.sqlite")
            )
            t0 = time.perf_counter()
            Judge("hybrid", cfg).run(recs, preds)  # type: ignore[arg-type]
            dt = time.perf_counter() - t0
            calls = count()
            rate = calls / dt
            print(
                f"LLM judge, 200 ms per call, concurrency 32: {calls} calls in {dt:.2f} s = {rate:.0f} calls/s"
                f" = {rate / 160:.0%} of the 160/s bound"
            )
            Judge("hybrid", cfg).run(recs, preds)  # type: ignore[arg-type]
            print(f"  second run: {count() - calls} calls (disk cache)")
    finally:
        stdin.close()
        server.wait(timeout=10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", default="dist/plugineval-zh", help="a release folder (for parts 2 and 3)")
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip", default="", help="comma-separated parts to skip: bfcl,records,cli,llm")
    ap.add_argument(
        "--bfcl-checker",
        type=Path,
        default=None,
        help="BFCL's checker, unpacked (default .cache/bench/bfcl_eval-2026.3.23, see get_bfcl_checker.sh)",
    )
    ap.add_argument("--serve-judge", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument(
        "--threaded-server",
        action="store_true",
        help="LLM part: the tests' thread-per-connection server instead of the asyncio one",
    )
    ap.add_argument(
        "--compiled",
        action="store_true",
        help="part 1: also time the compiled judge (PLUGINEVAL_COMPILE=1; built under .cache/bench/ on first use)",
    )
    a = ap.parse_args()
    if a.serve_judge:
        serve_judge(a.threaded_server)
        return
    skip = set(a.skip.split(","))
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
    if "bfcl" not in skip:
        bfcl(a.repeat, a.bfcl_checker, a.compiled)
    if "records" not in skip and Path(a.records).exists():
        _, tmp, whole = pluginEval(a.records, a.n)
        if "cli" not in skip:
            cli(tmp, a.records if whole else None, a.repeat)
    elif "records" not in skip:
        print(f"(no release at {a.records}: build one with `plugineval build`, or pass --records)")
    if "llm" not in skip:
        llm_path(threaded=a.threaded_server)


if __name__ == "__main__":
    main()
