"""The ``plugineval`` command. Subcommands import what they need when they run, never at start-up."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .._version import JUDGE_VERSION, SCORER_VERSION, __version__

Command = Callable[[argparse.Namespace], int]


class CliError(Exception):
    """A problem the user can fix; printed without a traceback, exit code 2."""


def _add_catalog(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "catalog", help="inspect the plugin catalog", description="Inspect the plugin catalog."
    )
    s = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    st = s.add_parser("stats", help="counts of domains, plugins, tools and scenarios")
    st.add_argument("--json", action="store_true", help="print JSON (with the lists of ids)")
    st.add_argument("--catalog", metavar="PATH", help="a catalog folder (default: the bundled one)")
    sh = s.add_parser("show", help="one plugin: tools, boundaries and scenarios")
    sh.add_argument("plugin", help="plugin id, e.g. rail_tickets")
    sh.add_argument("--catalog", metavar="PATH")
    s.add_parser("validate", help="load and check every catalog file").add_argument(
        "--catalog", metavar="PATH"
    )


def _add_tools(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plugineval",
        description=(
            "PluginEval: a diagnostic benchmark for LLM function calling over Chinese plugins.\n"
            "Score predictions with the gold-anchored judge, inspect the catalog, serve its tools over MCP."
        ),
        epilog="Run 'plugineval COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"plugineval {__version__} (judge {JUDGE_VERSION}, scorer {SCORER_VERSION})",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_catalog(sub)
    _add_tools(sub)
    from ._build import add_parser as add_build
    from ._evaluate import add_parsers as add_evaluate

    add_evaluate(sub)
    add_build(sub)
    return parser


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "catalog":
        from ._catalog import run_catalog

        return run_catalog(args)
    if args.command == "tools":
        from ._catalog import run_tools

        return run_tools(args)
    if args.command == "build":
        from ._build import run as run_build

        return run_build(args)
    if args.command in ("evaluate", "compare"):
        from ._evaluate import run

        return run(args)
    raise CliError(f"unknown command {args.command!r}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _dispatch(args)
    except CliError as e:
        print(f"plugineval: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("plugineval: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        from ..schema import SchemaError

        if isinstance(e, SchemaError | FileNotFoundError | ValueError):
            print(f"plugineval: error: {e}", file=sys.stderr)
            return 2
        raise
