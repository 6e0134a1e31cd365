"""Throughput of ``plugineval predict`` against a local OpenAI-compatible server that adds latency.

    .venv/bin/python benchmarks/predict_throughput.py [--records N] [--concurrency C] [--latency S]

Builds the mini release once (tests/data/mini.toml, rail_tickets) into a temporary folder, clones its
records to N distinct ids and queries, serves them from tests/fake_openai.py (in its own process, as
a real endpoint is) with S seconds of added latency per request, and runs the real predictor (native
mode, real ``openai`` client, append + fsync per line, final ordered rewrite). Prints predictions
per second, the ratio to the latency bound C / S (the rate a perfect client reaches; target ≥ 0.80),
the client's CPU per prediction and the machine's load (other work on the machine lowers the rate),
and — to tell our overhead from the environment's — the rate of a bare asyncio HTTP client sending
the same requests to the same server just before.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "loaders"))
sys.path.insert(0, str(ROOT / "tests"))

from plugineval.predict import PredictConfig, run_predict  # noqa: E402
from plugineval.predict._native import native_request  # noqa: E402
from plugineval.schema import Record  # noqa: E402
from plugineval.sources import load_records  # noqa: E402

from fake_openai import FakeOpenAI, tool_call  # noqa: E402


def answer(body: dict[str, Any]) -> dict[str, Any]:
    tools = body["tools"]
    return {"tool_calls": [tool_call(tools[0]["function"]["name"], {"q": "x"})]}


def serve(latency: float) -> None:
    """The server side, in its own process (as a real endpoint is): prints its URL, stops on EOF."""
    with FakeOpenAI(answer, latency_s=latency) as srv:
        srv.server.socket.listen(1024)  # socketserver's default backlog of 5 refuses bursts
        print(srv.base_url, flush=True)
        sys.stdin.read()


async def _raw_client(url: str, bodies: list[bytes], concurrency: int) -> float:
    """The same requests through a bare asyncio HTTP/1.1 client (no retries, no parsing, no file):
    the rate this server and machine allow right now, to tell our overhead from the environment's."""
    u = urlsplit(url)
    path = (u.path.rstrip("/") + "/chat/completions").encode()
    todo = list(reversed(bodies))

    async def worker() -> None:
        reader, writer = await asyncio.open_connection(u.hostname, u.port)
        while todo:
            body = todo.pop()
            head = b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" % path
            writer.write(head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
            headers = await reader.readuntil(b"\r\n\r\n")
            n = int(headers.lower().split(b"content-length:")[1].split(b"\r\n")[0])
            await reader.readexactly(n)
        writer.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return len(bodies) / (time.perf_counter() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=512)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--latency", type=float, default=0.3)
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.latency)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        rel = Path(tmp) / "mini"
        from _mini import build_mini

        build_mini(rel)
        base = [r for split in ("test", "validation", "train") for r in load_records(rel, split)]
        recs: list[Record] = [
            base[i % len(base)].model_copy(
                update={"id": f"bench-{i:05d}", "query": f"{base[i % len(base)].query} #{i}"}
            )
            for i in range(args.records)
        ]
        server = subprocess.Popen(
            [sys.executable, __file__, "--serve", "--latency", str(args.latency)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None and server.stdin is not None
            url = server.stdout.readline().strip()
            t_imp = time.perf_counter()
            import openai  # noqa: F401  (its first import takes seconds: not part of the rate)

            import_s = time.perf_counter() - t_imp
            cfg = PredictConfig(
                model="bench",
                out=Path(tmp) / "preds.jsonl",
                base_url=url,
                concurrency=args.concurrency,
                progress=False,
            )
            bodies = [
                json.dumps({"model": "bench", **native_request(r, "auto")}, ensure_ascii=False).encode()
                for r in recs
            ]
            reference = asyncio.run(_raw_client(url, bodies, args.concurrency))
            t0, c0 = time.perf_counter(), time.process_time()
            s = run_predict(cfg, recs)
            secs, cpu = time.perf_counter() - t0, time.process_time() - c0
        finally:
            if server.stdin is not None:
                server.stdin.close()
            server.wait(timeout=30)
        assert s.status == "complete" and s.written == args.records, s.message
        lines = [json.loads(x) for x in (Path(tmp) / "preds.jsonl").read_text(encoding="utf-8").splitlines()]
        assert len(lines) == args.records and all("error" not in x for x in lines)
        lat = sorted(x["latency_ms"] for x in lines)
    rate = args.records / secs
    bound = args.concurrency / args.latency
    print(
        json.dumps(
            {
                "records": args.records,
                "concurrency": args.concurrency,
                "latency_s": args.latency,
                "seconds": round(secs, 2),
                "predictions_per_s": round(rate, 1),
                "bound_per_s": round(bound, 1),
                "ratio": round(rate / bound, 3),
                "target_ratio": 0.8,
                "reference_raw_client_per_s": round(reference, 1),
                "ratio_to_reference": round(rate / reference, 3),
                "client_cpu_ms_per_prediction": round(1000 * cpu / args.records, 2),
                "request_ms_median": lat[len(lat) // 2],
                "request_ms_p95": lat[int(len(lat) * 0.95)],
                "openai_import_s": round(import_s, 2),
                "transport": "aiohttp" if _aiohttp() else "httpx",
                "load_average_1m": round(os.getloadavg()[0], 2),
                "cpus": os.cpu_count(),
            }
        )
    )
    return 0


def _aiohttp() -> bool:
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        return False
    return not os.environ.get("PLUGINEVAL_PREDICT_HTTPX")


if __name__ == "__main__":
    raise SystemExit(main())
