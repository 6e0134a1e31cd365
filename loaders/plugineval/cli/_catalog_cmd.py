"""``plugineval catalog …`` and ``plugineval tools …``: parsers (cheap) and the dispatch."""

from __future__ import annotations

import argparse
from typing import Any


def _add_catalog(sub: Any) -> None:
    p = sub.add_parser(
        "catalog", help="inspect the plugin catalog", description="Inspect the plugin catalog."
    )
    s = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    st = s.add_parser("stats", help="counts of domains, plugins, tools and scenarios")
    st.add_argument("--json", action="store_true", help="print JSON (with the lists of ids)")
    st.add_argument("--catalog", metavar="PATH", help="a catalog folder (default: the bundled one)")
    sh = s.add_parser("show", help="one plugin: tools, boundaries and scenarios")
    sh.add_argument("plugin", help="plugin id, e.g. rail_tickets")
    sh.add_argument(
        "--shown",
        action="store_true",
        help="print each tool's description as the model is shown it (with the plugin's promise and limits)",
    )
    sh.add_argument("--catalog", metavar="PATH")
    s.add_parser("validate", help="load and check every catalog file").add_argument(
        "--catalog", metavar="PATH"
    )


def _add_tools(sub: Any) -> None:
    p = sub.add_parser(
        "tools",
        help="run the catalog's tools (MCP servers)",
        description="Serve a domain's tools over MCP (stdio), or call one tool through an MCP session.",
    )
    s = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    sv = s.add_parser("serve", help="serve one domain's tools over stdio (for any MCP client)")
    sv.add_argument("domain", help="domain id, e.g. travel (see: plugineval catalog stats)")
    sv.add_argument("--seed", type=int, default=None, help="data store seed (default: the release seed)")
    sv.add_argument(
        "--reference-time",
        metavar="ISO",
        help="'now' for callers that cannot send _meta.reference_time, e.g. 2026-03-18T09:30:00+08:00",
    )
    c = s.add_parser("call", help="call one tool through an in-process MCP client session")
    c.add_argument("tool", help="tool name, e.g. train_search_tickets")
    c.add_argument("arguments", help="the arguments as a JSON object")
    c.add_argument("--reference-time", metavar="ISO", default="2026-03-18T09:30:00+08:00")
    c.add_argument("--seed", type=int, default=None)


def add_parsers(sub: Any) -> None:
    _add_catalog(sub)
    _add_tools(sub)


def run(args: argparse.Namespace) -> int:
    from ._catalog import run_catalog, run_tools

    return run_catalog(args) if args.command == "catalog" else run_tools(args)
