"""Calls per second through MCP: an in-process client session and a stdio server subprocess.

    .venv/bin/python benchmarks/mcp_calls.py [--n 2000] [--stdio-n 500]

Representative tools that hit the store, called with their catalog examples (fresh state is not
reset between calls: read-only tools). Target: >= 1,000 calls/s in-process on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import anyio

from plugineval.builder.tools.server import ToolExecutor, parse_result
from plugineval.catalog import load_catalog

TOOLS = (
    "train_search_tickets",
    "weather_daily_forecast",
    "stock_quote",
    "fx_convert",
    "poi_search_nearby",
    "drug_lookup",
)


def _calls(n: int) -> list[tuple[str, dict, str]]:  # type: ignore[type-arg]
    cat = load_catalog()
    base = []
    for name in TOOLS:
        try:
            t = cat.tool(name)
        except KeyError:
            continue
        ex = t.examples[0]
        base.append((name, ex.arguments, ex.reference_time))
    return [base[i % len(base)] for i in range(n)]


async def in_process(n: int) -> float:
    cat = load_catalog()
    calls = _calls(n)
    async with ToolExecutor(cat) as ex:
        for name, args, ref in calls[: len(TOOLS)]:  # open each domain's session and store once
            await ex.call(name, args, ref)
        t0 = time.perf_counter()
        for name, args, ref in calls:
            o = await ex.call(name, args, ref)
            assert o.ok, (name, o.error_code, o.error_message)
        return n / (time.perf_counter() - t0)


async def over_stdio(n: int) -> float:
    from mcp import Client, StdioServerParameters

    calls = [c for c in _calls(n * 6) if c[0] == "train_search_tickets"][:n]
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "plugineval.cli", "tools", "serve", "travel"], env={**os.environ}
    )
    async with Client(params) as c:
        name, args, ref = calls[0]
        await c.call_tool(name, args, meta={"reference_time": ref})
        t0 = time.perf_counter()
        for name, args, ref in calls:
            ok, *_ = parse_result(await c.call_tool(name, args, meta={"reference_time": ref}))
            assert ok
        return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--stdio-n", type=int, default=500)
    a = ap.parse_args()
    rate = anyio.run(in_process, a.n)
    print(
        f"in-process MCP client session: {rate:,.0f} calls/s over {a.n} calls ({', '.join(TOOLS)})  target >= 1,000"
    )
    rate = anyio.run(over_stdio, a.stdio_n)
    print(f"stdio server subprocess:       {rate:,.0f} calls/s over {a.stdio_n} calls (train_search_tickets)")
    print(f"load average while measuring: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
